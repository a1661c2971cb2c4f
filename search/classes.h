/* search/classes.h - classes of interchangeable processors.
 *
 * Two processors are interchangeable when swapping them changes no
 * prediction: same type, cores and memory, the same link rules matching
 * them, and the same link to every third processor. Without per-pair overrides that holds for two
 * processors on one host, for two processors each alone on its host, and
 * for any two when same-host and inter-host links cost the same and no
 * rule (rules price inter-host pairs only) tells them apart. A
 * processor named in an override is a class of its own (sound, not
 * complete). The tree searches visit one placement per permutation inside
 * a class; the exact optimizer reasons over classes directly. */
#ifndef HM_CLASSES_H
#define HM_CLASSES_H

#include "models/platform/platform.h"

/* class_of[i] for every processor, classes numbered from 0 in the order
 * of their first processor. Returns the number of classes, or -1 when out
 * of memory. */
int hm_processor_classes(const struct hm_platform *p, int *class_of);

#endif /* HM_CLASSES_H */

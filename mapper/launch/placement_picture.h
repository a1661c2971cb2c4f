/* mapper/launch/placement_picture.h - where a plan's ranks go, drawn as
 * text as lstopo draws a node: each processor's cores in a row, each core
 * with the ranks bound to it ('plan --picture', 'run -v'). */
#ifndef HM_PLACEMENT_PICTURE_H
#define HM_PLACEMENT_PICTURE_H

#include "placement.h"

#include <stdio.h>

/* The processors the ranks use, in the order of their first rank: each
 * core's ranks ("3" one, "3+7" two stacked; a rank of t threads on each of
 * its t cores), '.' an idle core; at most HM_PICTURE_PROCESSORS
 * processors and HM_PICTURE_CORES cores each, the rest counted. */
#define HM_PICTURE_PROCESSORS 32
#define HM_PICTURE_CORES 128
void hm_placement_picture(FILE *f, const struct hm_placement *pl);

#endif /* HM_PLACEMENT_PICTURE_H */

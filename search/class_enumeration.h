/* search/class_enumeration.h - the model optimum over placements of
 * processes on classes of interchangeable processors, by enumerating
 * per-class profiles (class_enumeration.c has the argument that it is
 * exact; search/README.md at more length). The exact optimizer (exact.h)
 * runs it over the platform's classes, or over the views of a two-level
 * network. */
#ifndef HM_CLASS_ENUMERATION_H
#define HM_CLASS_ENUMERATION_H

#include "search.h"
#include "weight_tree.h"

/* Enumerate placements on the nprocs processors procs[], in the C classes
 * class_of[processor] gives (numbered 0..C-1), every link between two
 * distinct processors replaced by *inter when 'inter' is not NULL, within
 * 'budget' (time counted from 'start'), with the incumbent 'seed' (may be
 * unfound). 'weights' are the problem's (L = its depth). When a placement
 * beats the seed, res->found is set and the best one is in 'res' (d[]
 * allocated; eet is the model's time of the placement); res->stopped
 * says whether the enumeration was cut short (else the optimum over
 * these processors is the better of 'res' and 'seed'). 0, or -1 with
 * 'err' set (out of memory). */
int hm_class_enumeration(const struct hm_problem *pb, const struct hm_weight_tree *weights,
			 const int *procs, int nprocs, const int *class_of, int C,
			 const struct hm_link *inter,
			 const struct hm_budget *budget, double start,
			 const struct hm_result *seed, struct hm_result *res, struct hm_error *err);

#endif /* HM_CLASS_ENUMERATION_H */

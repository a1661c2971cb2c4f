/* search/exact.h - the exact optimizer: the true model optimum within the
 * depth limit, found by reasoning over classes of interchangeable
 * processors instead of enumerating assignments. search/README.md and
 * exact.c give the argument that it is exact. */
#ifndef HM_EXACT_H
#define HM_EXACT_H

#include "search.h"

/* It applies to every problem with a valid depth whose tables stay
 * small: at most 2048 classes, weight tables up to 768 MB. */
int hm_exact_applies(const struct hm_problem *pb, struct hm_error *err);

/* The run() of its registry entry ('variant' is unused). */
int hm_exact_search(int variant, const struct hm_problem *pb, const struct hm_budget *budget,
		    struct hm_result *res, struct hm_error *err);

#endif /* HM_EXACT_H */

/* search/exact.h - the exact optimizer: the true model optimum within the
 * depth limit, found by reasoning over classes of interchangeable
 * processors instead of enumerating assignments. See exact.c for the
 * argument that it is exact. */
#ifndef HM_EXACT_H
#define HM_EXACT_H

#include "search.h"

/* Classes of interchangeable processors: same type, memory and cores, and
 * every link depends on the classes only (t(i, j) = T[class i][class j]
 * for i != j). Fills class_of[P]; returns the number of classes, or -1
 * when the platform has no such structure (then 'err' says why). */
int hm_exact_classes(const struct hm_platform *p, int *class_of, struct hm_error *err);

/* 0 if the exact optimizer can handle 'p', else -1 with the reason. */
int hm_exact_applicable(const struct hm_platform *p, struct hm_error *err);

/* Run the exact optimizer on 'pb' within 'budget'; fills 'res' like
 * hm_search (res->d allocated by the caller, P entries). 0, or -1. */
int hm_exact_run(const struct hm_problem *pb, const struct hm_budget *budget,
		 struct hm_result *res, struct hm_error *err);

#endif /* HM_EXACT_H */

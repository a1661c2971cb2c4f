/* search/thread_search.h - BLAS threads per rank as a dimension of every
 * search method (search/README.md, "Ranks x threads"). */
#ifndef HM_THREAD_SEARCH_H
#define HM_THREAD_SEARCH_H

#include "search.h"

/* Splits of the processor types' cores into ranks x threads priced in
 * full by a method that proves the optimum (each split cut against the
 * best so far, most at their first bound), and by one that does not; above
 * these, the split is found by a descent (the uniform splits, then each
 * type's neighbouring counts), which an exact method then no longer proves
 * optimal over the splits (hm_result.thread_splits_all). */
#define HM_MAX_PROVEN_SPLITS 4096
#define HM_MAX_THREAD_SPLITS 64

/* Run method m's run() on every split of the types' thread counts
 * (threads.h's options: one count per processor type, the same for all
 * its processors), each on its thread view, within one budget; *res gets
 * the best, with threads[] set where it uses more than one thread. Called
 * by hm_search for search methods on platforms with thread speed-ups.
 * 0, or -1 with 'err' set. */
int hm_thread_search(const struct hm_method *m, const struct hm_problem *pb,
		     const struct hm_budget *budget, struct hm_result *res, struct hm_error *err);

#endif /* HM_THREAD_SEARCH_H */

/* models/platform/thread_fit.h - each type's thread speed-ups (threads.h)
 * from what hetmap-calibrate-bench --threads timed (wrappers/thread_team.h):
 * every kernel's seconds per flop at each block size with ranks of one
 * thread, each rank's, and with ranks of t threads, each team leader's,
 * with every core of the node busy. A type's speed-up of a kernel group at
 * t and b is the median over its ranks of the one-thread value over the
 * median over its leaders of the t-thread value (medians: the machine's
 * load moves single samples), a table over b. */
#ifndef HM_THREAD_FIT_H
#define HM_THREAD_FIT_H

#include <cJSON.h>

/* Into each type of 'types' (in type order) its "threads" where the bench
 * measured ranks of more than one thread; 'type_of_rank[r]' is rank r's
 * type (-1: none). 'record' gets "thread_speedups", the same values with
 * the ranks each rests on. */
void hm_thread_fit(const cJSON *raw, const int *type_of_rank, int nranks, cJSON *types, cJSON *record);

#endif /* HM_THREAD_FIT_H */

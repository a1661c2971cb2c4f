/* models/platform/lu_steps_fit.h - the costs of LU's steps beside its
 * kernels, from what hetmap-calibrate-bench timed with ScaLAPACK itself
 * (wrappers/column_step.h, wrappers/row_swap.h; models/README.md, "LU's
 * steps"):
 *
 *  - k1_dswap, seconds per element of a row interchange: each rank's
 *    PDLASWP time per element ("row_swap_s"), the median over a type's
 *    ranks; k1_dswap_aliased the same at an aliased leading dimension
 *    ("row_swap_aliased_s");
 *  - column_step, what each synchronisation step of PDGETF2's column loop
 *    costs a process beyond its message: a column of two processes spends
 *    T2 per column, one alone T1 (same flops, no message), and the models
 *    count 3 steps of one message each per column at r = 2, so
 *        column_step = (T2 - T1) / 3 - t_s
 *    with t_s the ping-pong latency of the pair's link (0 when below it).
 *    Per host from its first two ranks (same_node), per pair of hosts from
 *    the link rounds (inter_node); a type's value is the median over its
 *    hosts of the same-node values, else of the pairs it is in. */
#ifndef HM_LU_STEPS_FIT_H
#define HM_LU_STEPS_FIT_H

#include <cJSON.h>

/* Into each type of 'types' (the platform's, in type order) its
 * k1_dswap and column_step where the bench measured them (a raw document
 * without them leaves the types alone: the models then charge nothing).
 * 'type_of_rank[r]' is rank r's type; 'net' the fitted network (its
 * same_node t_s); record gets every per-host and per-pair value. */
void hm_lu_steps_fit(const cJSON *raw, const int *type_of_rank, int nranks, cJSON *types,
		     const cJSON *net, cJSON *record);

#endif /* HM_LU_STEPS_FIT_H */

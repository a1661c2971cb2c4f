/* models/common/stride_alias.h - when a row interchange's stride aliases.
 * A row's elements lie a leading dimension (lld) apart; where lld x 8
 * bytes is a multiple of 4 KiB every element falls in the same cache sets
 * and each store aliases the next load, and PDLASWP costs 2-3x as much an
 * element on this machine (models/README.md, "LU's steps"). calibrate
 * times both strides (wrappers/row_swap.h), the models price each run's
 * (hm_aliased_share), the simulator's kernels each call's. */
#ifndef HM_STRIDE_ALIAS_H
#define HM_STRIDE_ALIAS_H

#define HM_ALIASED_STRIDE_BYTES 4096
#define HM_ALIASED_STRIDE_WORDS (HM_ALIASED_STRIDE_BYTES / 8)

/* Whether a leading dimension of lld doubles aliases. */
static inline int hm_stride_aliased(long lld)
{
	return lld > 0 && lld % HM_ALIASED_STRIDE_WORDS == 0;
}

/* The least aliased leading dimension of at least 'rows' doubles. */
static inline long hm_aliased_lld(long rows)
{
	return (rows + HM_ALIASED_STRIDE_WORDS - 1) / HM_ALIASED_STRIDE_WORDS * HM_ALIASED_STRIDE_WORDS;
}

#endif /* HM_STRIDE_ALIAS_H */

/* models/util/minmax.h - max and min of two doubles, the operation of the
 * heterogeneity rule. Inline: it is in the searches' innermost loops. */
#ifndef HM_MINMAX_H
#define HM_MINMAX_H

static inline double hm_max(double a, double b)
{
	return a > b ? a : b;
}

static inline double hm_min(double a, double b)
{
	return a < b ? a : b;
}

static inline int hm_max_int(int a, int b)
{
	return a > b ? a : b;
}

static inline int hm_min_int(int a, int b)
{
	return a < b ? a : b;
}

#endif /* HM_MINMAX_H */

/* models/common/kernel_terms.h - the terms of a kernel model: a BLAS call's time
 * as a non-negative combination of monomials of its shape. Shared by the
 * fit (models/platform/kernel_model.c, from the shapes 'hetmap calibrate'
 * times) and the modeled kernels of the simulator (wrappers/smpi/kernels.c),
 * so that both read a model's coefficients the same way.
 *
 *   dgemm  C(m x n) += A(m x k) B(k x n):  m n k, m n, m k, n k, 1
 *   dtrsm  a triangle of order t, r right-hand sides:  t^2 r, t r, t^2, 1
 *   dger   A(m x n) += x y':  m n, m, n, 1
 *
 * The shape (x, y, z) is (m, n, k) for dgemm, (t, r, -) for dtrsm and
 * (m, n, -) for dger. */
#ifndef HM_KERNEL_TERMS_H
#define HM_KERNEL_TERMS_H

#include <stddef.h>

enum hm_kernel { HM_KERNEL_DGEMM, HM_KERNEL_DTRSM, HM_KERNEL_DGER, HM_NR_KERNELS };

#define HM_KERNEL_MAX_TERMS 5

/* The kernels' names, NULL-terminated: a platform's "kernels" keys, the
 * calibration's shape records. */
static inline const char *const *hm_kernel_names(void)
{
	static const char *const names[HM_NR_KERNELS + 1] = { "dgemm", "dtrsm", "dger", NULL };

	return names;
}

/* The line a program prints once when its kernels are modeled. */
#define HM_KERNELS_MARK "hetmap-kernels: modeled"

/* The monomials of a shape into term[]; their number. */
static inline int hm_kernel_terms(enum hm_kernel kernel, double x, double y, double z,
				  double term[HM_KERNEL_MAX_TERMS])
{
	switch (kernel) {
	case HM_KERNEL_DGEMM:
		term[0] = x * y * z, term[1] = x * y, term[2] = x * z, term[3] = y * z, term[4] = 1;
		return 5;
	case HM_KERNEL_DTRSM:
		term[0] = x * x * y, term[1] = x * y, term[2] = x * x, term[3] = 1;
		return 4;
	default:
		term[0] = x * y, term[1] = x, term[2] = y, term[3] = 1;
		return 4;
	}
}

/* The flops of a call of that shape, which a table of seconds per flop
 * over the shape's block dimension (dgemm's k, dtrsm's t, dger's n)
 * multiplies. */
static inline double hm_kernel_flops(enum hm_kernel kernel, double x, double y, double z)
{
	return kernel == HM_KERNEL_DGEMM ? 2 * x * y * z : kernel == HM_KERNEL_DTRSM ? x * x * y : 2 * x * y;
}

/* The shape's block dimension: where a table over b is read. */
static inline double hm_kernel_block(enum hm_kernel kernel, double x, double y, double z)
{
	return kernel == HM_KERNEL_DGEMM ? z : kernel == HM_KERNEL_DTRSM ? x : y;
}

#endif /* HM_KERNEL_TERMS_H */

/* wrappers/lu_kernels.h - the kernels LU spends its time in, timed with
 * LU's shapes (models/README.md, "System parameters"): dgemm of an m x b
 * by b x m update, dtrsm of a b x b unit triangle with m right-hand sides,
 * and the panel factorisation of an m x b panel done column by column
 * (idamax, swap, scal, ger) the way ScaLAPACK's pdgetf2 does it, not with
 * LAPACK's dgetf2. */
#ifndef HM_LU_KERNELS_H
#define HM_LU_KERNELS_H

#include "held_time.h"

enum lu_kernel { LU_DGEMM, LU_DTRSM, LU_PANEL, LU_NR_KERNELS };

/* A kernel's median is known well enough when its notch (1.58 IQR /
 * sqrt(n), the half-width of a box plot's 95 % notch) is at most this
 * share of it. */
#define LU_KERNELS_SETTLED 0.05

/* The rounds hm_time_lu_kernels takes at most: 3 x repeat. */
static inline int hm_lu_kernel_rounds_max(int repeat)
{
	return 3 * repeat;
}

/* Seconds per flop of the first nk kernels at every block size bs[0..nbs-1]
 * (rows m = 'rows'), in rounds of one sample of each (block size, kernel)
 * in turn, after a round of warm-up: a shared machine's speed wanders in
 * spells of seconds (this one's dgemm between 7.6 and 15 GFLOP/s), and a
 * round touches every block size alike where b after b would give each
 * its own spell. 'repeat' rounds, and while some kernel's median is not
 * settled (LU_KERNELS_SETTLED) more, up to hm_lu_kernel_rounds_max. A
 * sample repeats its kernel for at least 'min_time' seconds (a CPU quota,
 * an emulated slow node, lets a call shorter than its period run at full
 * speed), each call timed by the time it held its core ('clock').
 * samples[(bi * nk + k) * max_rounds + round]; returns the rounds taken. */
int hm_time_lu_kernels(int rows, const int *bs, int nbs, int nk, int repeat, double min_time,
		       struct hm_held_clock *clock, double *samples);

#endif /* HM_LU_KERNELS_H */

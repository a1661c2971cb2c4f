/* models/platform/kernel_rounds.h - one kernel's value at every block size
 * from the samples the benchmark took in rounds (wrappers/lu_kernels.h: a
 * round is one sample of every block size in turn).
 *
 * A shared machine's speed wanders in spells: its dgemm moved between 7.6
 * and 15 GFLOP/s within seconds here, so one block size's median is known
 * only within 15-30 %, too loose to tell b = 16 from 64. But a spell touches
 * the block sizes of one round alike: the ratio of b to the round's level
 * (the geometric mean over its block sizes) is steady. So
 *     k(b) = median over rounds of (sample(b) / level) x median of the levels,
 * the shape known within 3-6 % (the notch of the ratios), the level within
 * its own notch. Measured with 15 rounds of four block sizes: dgemm at b =
 * 16 5 % dearer per flop than at 64, each median alone 11-33 % apart. */
#ifndef HM_KERNEL_ROUNDS_H
#define HM_KERNEL_ROUNDS_H

#define HM_KERNEL_ROUNDS_MAX_BS 16

struct hm_kernel_rounds {
	double k[HM_KERNEL_ROUNDS_MAX_BS];      /* the value at each block size */
	double shape_notch[HM_KERNEL_ROUNDS_MAX_BS];    /* relative notch of each b's ratio to its level */
	double level_notch;     /* relative notch of the level: how well the kernel's speed is known */
	double spread[HM_KERNEL_ROUNDS_MAX_BS]; /* (max - min) / median of each b's samples */
	int paired;             /* 1: from rounds; 0: every b had its own count, each its own median */
};

/* samples[b][0 .. n[b]-1], positive, for nbs <= HM_KERNEL_ROUNDS_MAX_BS
 * block sizes. Paired when every b has the same count, at least 3. */
void hm_kernel_rounds(const double *const *samples, const int *n, int nbs, struct hm_kernel_rounds *out);

#endif /* HM_KERNEL_ROUNDS_H */

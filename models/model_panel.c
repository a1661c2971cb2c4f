/* models/model_panel.c - the default model ("panel"): the grid model with
 * LU's arithmetic as ScaLAPACK 2.2.1's PDGETRF does it and pdgemm as PBLAS
 * does it, written after the emulated cluster's multi-core study
 * (experiments/README.md, "The emulated cluster") showed LU on wide grids
 * predicted up to 2.6x too slow and GEMM plans choosing b = 256 for a speed pdgemm never has.
 *
 * Eq. 5.3 charges (r + c) / p n^2 b flops at the dtrsm rate and n b^2 / 3
 * at the panel's. PDGETRF factors each n x b panel with PDGETF2, column by
 * column (idamax, swap, scal, ger), on the r processes of one process
 * column, and solves each b x n block row of U with PDTRSM on the c
 * processes of one process row. Summed over the n / b steps, per process:
 *    panel     n^2 b / (2 r) k2_dgetf2   (what calibrate's k2 measures: an
 *                                         m x b panel, m b^2 - b^3/3 flops)
 *    solve     n^2 b / (2 c) k3_dtrsm    (a b x b triangle, m columns: b^2 m)
 *    update    2 n^3 / (3 p) k3_dgemm    (as eq. 5.3)
 * On 1 x 5 that is 0.6 n^2 b at the panel's rate where eq. 5.3 charges
 * 1.2 n^2 b at dtrsm's, which calibrate measures 2.5-10x dearer per flop
 * than dgemm. Besides the flops, what calibrate measures of PDGETRF itself
 * (models/README.md, "LU's steps"): the row interchanges, n^2 / c
 * elements at k1_dswap, and PDGETF2's column steps, 3 n lg r at
 * column_step. Communication: the grid model's (hm_grid_model_time).
 *
 * GEMM as PBLAS does it: PB_CpgemmAB (PBLAS/SRC/PTOOLS) runs pdgemm's K
 * loop in steps of PILAENV = 32 columns whatever the distribution's b: each
 * step broadcasts a 32-column panel of A and a 32-row panel of B and does a
 * rank-32 local update; when A and B span a single process, one local
 * dgemm of rank n. A step that spans several owners' blocks (b < 32) is
 * gathered block by block (PB_CInV2), one broadcast per block. So SUMMA
 * with 2 ceil(n / min(b, 32)) messages, k3_dgemm read at
 * b = 32 for two processes or more and the least of the table for one
 * (panel_kernel_block, panel_single_process). Measured on real cores
 * (experiments/cores/gemm_blocks.sh, experiments/README.md): pdgemm's time is flat in b
 * (0.92-1.10x of b = 32's) where eq. 3.20 predicts 0.77x at b = 256.
 * Every term is a non-negative multiple of one SP, so the time is linear in
 * the SPs. */
#include "model.h"
#include "models/util/minmax.h"

static double panel_time(enum hm_routine routine, double n, int r, int c, int b,
			 const struct hm_sp *sp, struct hm_prediction *parts)
{
	return hm_grid_model_time(hm_lu_pdgetrf_computation, HM_PBLAS_BLOCK, 0, routine, n, r, c, b,
				  sp, parts);
}

/* pdgemm's local updates have rank 32 whatever b */
int hm_panel_kernel_block(enum hm_routine routine, int b)
{
	return routine == HM_ROUTINE_GEMM ? HM_PBLAS_BLOCK : b;
}

/* one process does one local dgemm of rank n: the least k3_dgemm of its
 * table, never above the rank-32 rate */
int hm_panel_single_process(const struct hm_platform *p, int i, enum hm_routine routine,
			    struct hm_sp *sp)
{
	double alone;

	if (routine != HM_ROUTINE_GEMM)
		return 0;
	alone = hm_compute_factor(p, i, 1, routine) * hm_table_min(&p->types[p->procs[i].type].k3_dgemm);
	sp->k3_dgemm = hm_min(sp->k3_dgemm, alone);
	return 1;
}

const struct hm_model hm_model_panel = {
	.name = "panel",
	.status = HM_MODEL_DEFAULT,
	.summary = "ScaLAPACK's own work: PDGETRF's panel by PDGETF2 over a process column (its "
		   "column steps measured), its row interchanges, its U block row by PDTRSM over a "
		   "row; pdgemm in PBLAS's rank-32 steps",
	.evidence = "the best ranking on every set of real runs and the least error over them "
		    "(this machine's driver and HPL, a 16-core node, the emulated cluster; the thesis's "
		    "TORC table ranked 1.00 with nothing fitted to it); LU's column steps and row "
		    "interchanges measured by calibrate, not fitted to the simulator",
	.time = panel_time,
	.kernel_block = hm_panel_kernel_block,
	.single_process = hm_panel_single_process,
};

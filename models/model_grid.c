/* models/model_grid.c - the reference model with LU's communication split
 * by grid direction (row broadcasts vs column broadcasts), written after the emulated-cluster study
 * (experiments/README.md) showed the reference model blind to the
 * grid's orientation: an r x 1 grid ran 2-3.5x slower than 1 x r with the
 * same processes, where eq. 5.4 (symmetric in r and c) predicts equal times.
 *
 * Computation: as the reference model (eq. 5.3). LU communication, p > 1:
 *  - each of the n/b panels is broadcast along process rows and the U
 *    block row along process columns, by binomial trees:
 *      latency   (n / b) (lg c + lg r) t_s
 *      bandwidth (n^2 / r lg c + n^2 / c lg r) / 2 t_w
 *    (about half the matrix crosses each tree over the factorisation);
 *  - the panel is factored column by column on one process column: for
 *    each of the n columns, pivot search, swap and scaling synchronise its
 *    r processes, three reductions of lg r steps:
 *      3 n lg r t_s.
 * GEMM: as the reference model (SUMMA).
 * Every term is a non-negative multiple of one SP: the time never
 * decreases when an SP grows, as the exact searches require. */
#include "model.h"

double hm_grid_model_time(hm_lu_arithmetic *lu, int gemm_step, int card, enum hm_routine routine,
			  double n, int r, int c, int b, const struct hm_sp *sp,
			  struct hm_prediction *parts)
{
	double lr = hm_tree_steps(r), lc = hm_tree_steps(c);
	struct hm_lu_comm comm = {
		.messages = n / b * (lc + lr) + HM_STEPS_PER_COLUMN * n * lr,
		.words_row = n * n / r * lc / 2.0,
		.words_col = n * n / c * lr / 2.0,
		.sync_steps = HM_STEPS_PER_COLUMN * n * lr,
		.card = card,
	};

	if (routine != HM_ROUTINE_LU)
		/* PBLAS steps by its logical block, but a step spanning several
		 * owners' blocks (b below it) is broadcast block by block */
		return hm_gemm_summa_time(n, r, c, gemm_step && gemm_step < b ? gemm_step : b, sp,
					  card, parts);
	return hm_lu_time(lu, n, r, c, b, sp, &comm, parts);
}

static double grid_time(enum hm_routine routine, double n, int r, int c, int b,
			const struct hm_sp *sp, struct hm_prediction *parts)
{
	return hm_grid_model_time(hm_lu_computation, 0, 0, routine, n, r, c, b, sp, parts);
}

const struct hm_model hm_model_grid = {
	.name = "grid",
	.status = HM_MODEL_CANDIDATE,
	.summary = "the thesis's arithmetic; LU communication by grid direction: tree broadcasts "
		   "along rows and columns, per-column pivot synchronisation",
	.evidence = "ranks better than thesis on the real runs but errs more than panel: eq. 5.3's "
		    "arithmetic (no row interchanges), and its pdgemm reads the kernels at the "
		    "distribution's b where PBLAS updates in rank-32 steps",
	.time = grid_time,
};

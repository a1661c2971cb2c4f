/* models/model_ring.c - a candidate model ("ring"): the grid model with
 * the broadcast topologies ScaLAPACK 2.2.1's PDGETRF really sets, and the
 * row interchanges, written after the SMPI study (experiments/README.md,
 * "Simulated clusters") showed the grid model overestimating 1 x c grids and
 * underestimating grids with several process rows.
 *
 * LU communication, p > 1:
 *  - the panel goes along process rows by PB_TOPSET 'S-ring' (pdgetrf.f,
 *    line 212): a split ring, pipelined, each process receives it once,
 *    and the next panel's owner is a neighbour, so one message per panel
 *    is on the critical path, not lg c:
 *      latency (n / b) (1 + lg r) t_s, bandwidth (n^2 / r + n^2 / c lg r) / 2 t_w
 *    (the U block row keeps the default topology, a tree over r);
 *  - per column, the pivot search, swap and scaling synchronise the r
 *    processes of the panel's column (3 n lg r t_s, as the grid model);
 *  - the row interchanges (pdlaswp) of the trailing matrix: with r > 1 a
 *    pivot row is on another process row (r - 1) / r of the time, and
 *    the two half-rows of length about n / (2c) per process cross:
 *      latency n (r - 1) / r t_s, bandwidth n^2 (r - 1) / (2 r c) t_w.
 * GEMM: as the reference model (SUMMA). Every term is a non-negative
 * multiple of one SP, so the time never decreases when an SP grows. */
#include "model.h"

static double ring_time(enum hm_routine routine, double n, int r, int c, int b,
			const struct hm_sp *sp, struct hm_prediction *parts)
{
	double lr = hm_tree_steps(r), ring = c > 1 ? 1 : 0, off = (r - 1.0) / r;
	/* the row interchanges cross process rows, so they go down the columns */
	struct hm_lu_comm comm = {
		.messages = n / b * (ring + lr) + HM_STEPS_PER_COLUMN * n * lr + n * off,
		.words_row = n * n / r * ring / 2.0,
		.words_col = n * n / c * lr / 2.0 + n * n * off / (2.0 * c),
		.sync_steps = HM_STEPS_PER_COLUMN * n * lr,
	};

	if (routine != HM_ROUTINE_LU)
		return hm_gemm_summa_time(n, r, c, b, sp, 0, parts);
	return hm_lu_time(hm_lu_computation, n, r, c, b, sp, &comm, parts);
}

const struct hm_model hm_model_ring = {
	.name = "ring",
	.status = HM_MODEL_CANDIDATE,
	.summary = "grid with PDGETRF's S-ring panel broadcast and the row interchanges",
	.evidence = "as grid on the real runs, and ranks the thesis's TORC table 0.30: its one "
		    "message per panel makes 1 x 19 look cheapest; under the old SMPI engine its "
		    "TORC LU plan ran 1.54x faster than grid's",
	.time = ring_time,
};

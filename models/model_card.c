/* models/model_card.c - a candidate model ("card"): the default model
 * (panel) with each host's network card shared by its ranks that send off
 * it at once, written after issue 51's judge saw SimGrid 1.5-2.7x slower
 * than panel on nodes of 16-64 ranks behind a few GB/s, and calibrate's
 * card phase measured two streams of one node at 1.95-2.02x one's time
 * on the emulated cluster (models/README.md, "A host's card").
 *
 * Every word panel sends pays max(t_w, k card_t_w), k the streams of one
 * host that send at once in its direction (hm_card_word_cost): down the
 * process columns min(c, node_senders, D - node_ranks), along the rows
 * min(2, r, ...). The time is not linear in the SPs (k depends on the
 * grid), but never below panel's, whose weights therefore bound it: the
 * exact searches stay exact and time every candidate with the card. */
#include "model.h"

static double card_time(enum hm_routine routine, double n, int r, int c, int b,
			const struct hm_sp *sp, struct hm_prediction *parts)
{
	return hm_grid_model_time(hm_lu_pdgetrf_computation, HM_PBLAS_BLOCK, 1, routine, n, r, c, b,
				  sp, parts);
}

const struct hm_model hm_model_card = {
	.name = "card",
	.status = HM_MODEL_CANDIDATE,
	.summary = "panel with each host's network card shared by its ranks that send off it at once "
		   "(down process columns and along rows, from the grid and the placement)",
	.evidence = "measured cards share equally (emulated cluster 1.95-2.02x, SimGrid 2.00x for two "
		    "streams); as panel on the real sets, whose nodes hold few ranks; SimGrid agrees on "
		    "16 x 16 at 25 Gbit/s (1.00x) but hides much of it elsewhere: at LU n = 30000 on "
		    "lab-320-hand its plan (one node) simulated 1.28x panel's",
	.time = card_time,
	.kernel_block = hm_panel_kernel_block,
	.single_process = hm_panel_single_process,
	.shares_cards = 1,
};

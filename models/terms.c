/* models/terms.c - the terms the models share: LU's arithmetic (eq. 5.3,
 * and as PDGETRF does it), pdgemm by SUMMA, the sum of a prediction's
 * parts, a binomial tree's steps, a word's cost through a shared card. Every
 * term is a non-negative multiple of one SP (the models' linearity contract,
 * model.h), but the cards', which only add to the time (hm_card_word_cost). */
#include "model.h"
#include "models/common/stride_alias.h"
#include "models/util/minmax.h"

#include <math.h>
#include <string.h>

double hm_prediction_sum(struct hm_prediction *t, struct hm_prediction *parts)
{
	t->comp = t->comp_gemm + t->comp_trsm + t->comp_getf2 + t->comp_steps + t->comp_swaps;
	t->comm = t->comm_latency + t->comm_bandwidth + t->comm_card;
	t->total = t->comp + t->comm;
	if (parts)
		*parts = *t;
	return t->total;
}

void hm_lu_computation(double n, int r, int c, int b, const struct hm_sp *sp,
		       struct hm_prediction *t)
{
	double p = (double)r * c;

	t->comp_gemm = 2.0 * n * n * n / (3.0 * p) * sp->k3_dgemm;
	t->comp_trsm = (r + c) / p * n * n * b * sp->k3_dtrsm;
	t->comp_getf2 = n * b * b / 3.0 * sp->k2_dgetf2;
}

void hm_lu_pdgetrf_computation(double n, int r, int c, int b, const struct hm_sp *sp,
			       struct hm_prediction *t)
{
	t->comp_gemm = 2.0 * n * n * n / (3.0 * r * c) * sp->k3_dgemm;
	t->comp_trsm = n * n * b / (2.0 * c) * sp->k3_dtrsm;
	t->comp_getf2 = n * n * b / (2.0 * r) * sp->k2_dgetf2;
	hm_lu_row_swaps(n, r, c, b, sp, t);
}

double hm_lu_time(hm_lu_arithmetic *lu, double n, int r, int c, int b, const struct hm_sp *sp,
		  const struct hm_lu_comm *comm, struct hm_prediction *parts)
{
	struct hm_prediction t;

	memset(&t, 0, sizeof(t));
	lu(n, r, c, b, sp, &t);
	if ((double)r * c > 1) {
		t.comm_latency = comm->messages * sp->t_s;
		hm_comm_words(comm->words_row, comm->words_col, r, c, sp, comm->card, &t);
		t.comp_steps = comm->sync_steps * sp->t_step;
	}
	return hm_prediction_sum(&t, parts);
}

double hm_card_word_cost(const struct hm_sp *sp, int r, int c, int most)
{
	double k = hm_min(most, hm_min(sp->node_senders, (double)r * c - sp->node_ranks));

	return k >= 2 ? hm_max(sp->t_w, k * sp->card_t_w) : sp->t_w;
}

void hm_comm_words(double words_row, double words_col, int r, int c, const struct hm_sp *sp,
		   int card, struct hm_prediction *t)
{
	t->comm_bandwidth = (words_row + words_col) * sp->t_w;
	if (card)       /* along rows a host's two end rows leave it, one when r = 1 */
		t->comm_card = words_row * (hm_card_word_cost(sp, r, c, hm_min_int(2, r)) - sp->t_w) +
			       words_col * (hm_card_word_cost(sp, r, c, c) - sp->t_w);
}

double hm_aliased_share(double n, int r, int b)
{
	/* ScaLAPACK's local leading dimension is the process row's local rows,
	 * numroc(n, b, p, 0, r): of the nb full blocks, rows p < nb % r hold
	 * q + 1, the others q, and row nb % r the partial block too */
	long rows = (long)n, nb = rows / b, q = nb / r, partial = rows % b, big = nb % r;
	long more = (q + 1) * b, fewer = q * b;
	double aliased = 0;

	if (hm_stride_aliased(more))
		aliased += (double)big * more;
	if (hm_stride_aliased(fewer + partial))     /* big < r: that row exists */
		aliased += fewer + partial;
	if (big + 1 < r && hm_stride_aliased(fewer))
		aliased += (double)(r - big - 1) * fewer;
	return rows > 0 ? aliased / rows : 0;
}

void hm_lu_row_swaps(double n, int r, int c, int b, const struct hm_sp *sp, struct hm_prediction *t)
{
	double k = sp->k1_dswap, f;

	/* the share takes four divisions, and most platforms give one cost
	 * (a type that measured no stride pays its k1_dswap at both) */
	if (sp->k1_dswap_aliased != k) {
		f = hm_aliased_share(n, r, b);
		k = (1 - f) * k + f * sp->k1_dswap_aliased;
	}
	t->comp_swaps = n * n / c * k;
}

double hm_gemm_summa_time(double n, int r, int c, int b, const struct hm_sp *sp, int card,
			  struct hm_prediction *parts)
{
	struct hm_prediction t;

	memset(&t, 0, sizeof(t));
	t.comp_gemm = 2.0 * n * n * n / ((double)r * c) * sp->k3_dgemm;
	if ((double)r * c > 1) {
		t.comm_latency = 2.0 * ceil(n / b) * sp->t_s;
		hm_comm_words(n * n / r, n * n / c, r, c, sp, card, &t);
	}
	return hm_prediction_sum(&t, parts);
}

double hm_tree_steps(int x)
{
	/* ceil(lg x) from the highest set bit of x - 1: the searches ask this
	 * of every grid they price, a loop of lg x steps was a tenth of GPTM's
	 * time at 100000 processes */
	return x <= 1 ? 0 : 32 - __builtin_clz((unsigned)(x - 1));
}

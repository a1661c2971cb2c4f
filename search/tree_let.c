/* search/tree_let.c - the LET of a combinatorial path's top node (see
 * tree.h, and search/README.md for why it is a bound).
 *
 * It bounds, for each size p of a descendant, every SP from below and
 * calls the model with those bounds; the model's time never decreases in
 * an SP, so the result bounds every descendant of size p. */
#include "tree.h"
#include "models/util/minmax.h"

#include <math.h>

/* The computation factor of m processes on a processor of kind kd:
 * non-decreasing in m. */
static double kind_factor(const struct hm_tree *t, int kd, int m)
{
	return hm_type_compute_factor(&t->pb.platform->types[t->kind_type[kd]], t->kind_cores[kd], m,
				      t->pb.routine);
}

/* kth[p], p = 1..pmax: the p-th smallest value of the multiset
 * { v_kd(m) = factor_kd(m) k_kd : m >= 1, counted cnt[kd] times }. For any
 * placement of p processes on processors of these counts,
 * max_i v_i(d_i) >= kth[p]: with K = max_i v_i(d_i), every d_i is at most
 * the number of m with v_i(m) <= K (v_i never decreases in m), so p is at
 * most the number of multiset values <= K. With one core per processor
 * v(m) = m k: the multiples of the thesis's rule. */
static void kth_multiples(struct hm_tree *t, const double *k, const int *cnt,
			  int pmax, double *kth)
{
	int kd, p = 0;

	for (kd = 0; kd < t->K; kd++) {
		t->kth_mult[kd] = 1;
		t->kth_next[kd] = kind_factor(t, kd, 1) * k[kd];
	}
	while (p < pmax) {
		int best = -1, q;

		for (kd = 0; kd < t->K; kd++)
			if (cnt[kd] > 0 && (best < 0 || t->kth_next[kd] < t->kth_next[best]))
				best = kd;
		if (best < 0) {
			while (p < pmax)
				kth[++p] = INFINITY;    /* no processor left */
			break;
		}
		for (q = 0; q < cnt[best] && p < pmax; q++)
			kth[++p] = t->kth_next[best];
		t->kth_mult[best]++;
		t->kth_next[best] = kind_factor(t, best, t->kth_mult[best]) * k[best];
	}
}

/* Floor of t_s and t_w of any descendant with p >= 2 processes on
 * 'usable' processors: either all p sit on one processor (its share
 * factor, at least ceil(p / max cores), applied to the same-processor
 * link; possible only while the node uses at most one processor), or two
 * processors are used. Then the fullest one holds m >= max(maxd,
 * ceil(p / usable)) processes, so some used processor has a share factor
 * f >= max(maxf, ceil(m / max cores)) and pairs with another at no less
 * than the cheapest link at f; when m >= 2 a processor of share factor f
 * holds two processes or more, and its own pair costs no less than the
 * same-processor link at f. With one core per processor f = m: the
 * thesis. */
static void comm_floor(const struct hm_tree *t, const struct hm_node *n, int p, int usable,
		       struct hm_sp *sp)
{
	int m = (p + usable - 1) / usable, f, f_alone = hm_share_factor(p, t->max_cores);
	const struct hm_link *same = &t->link_same_min, *diff = &t->link_diff_min;
	double ts, tw;

	if (m < n->maxd)
		m = n->maxd;
	f = hm_share_factor(m, t->max_cores);
	if (f < n->maxf)
		f = n->maxf;
	ts = f * hm_max(diff->t_s, m >= 2 ? same->t_s : 0);
	tw = hm_max(hm_link_word_cost(*diff, f), m >= 2 ? hm_link_word_cost(*same, f) : 0);
	if (t->nr_used <= 1) {
		ts = hm_min(ts, f_alone * same->t_s);
		tw = hm_min(tw, hm_link_word_cost(*same, f_alone));
	}
	sp->t_s = hm_max(sp->t_s, ts);
	sp->t_w = hm_max(sp->t_w, tw);
}

double hm_tree_let(struct hm_tree *t, double meet)
{
	const struct hm_node *n = hm_tree_node(t, t->top);
	const int *suffix = &t->kind_suffix[(size_t)n->last * t->K];
	int *usable_cnt = t->usable_count;
	int d_min = n->level > 1 ? n->level : 1, d_max = t->pb.depth;
	int usable = 0, kd, bi, p, k;
	double best = INFINITY;

	/* usable processors: the used ones below 'last', and all from 'last' on */
	for (kd = 0; kd < t->K; kd++) {
		usable_cnt[kd] = t->kind_used_before_last[kd] + suffix[kd];
		usable += usable_cnt[kd];
	}
	for (bi = 0; bi < t->nb; bi++) {
		kth_multiples(t, &t->kind_k3_dgemm[bi * t->K], usable_cnt, d_max, t->kth_dgemm);
		kth_multiples(t, &t->kind_k3_dtrsm[bi * t->K], usable_cnt, d_max, t->kth_dtrsm);
		for (p = d_min; p <= d_max; p++) {
			int nd;
			const int *div = hm_divisors_of(&t->div, p, &nd);
			struct hm_sp sp = n->sp[bi];

			/* a descendant's cards cost no less than nothing: the
			 * model without them is a floor (hm_sp) */
			sp.card_t_w = 0;
			sp.k3_dgemm = hm_max(sp.k3_dgemm, t->kth_dgemm[p]);
			sp.k3_dtrsm = hm_max(sp.k3_dtrsm, t->kth_dtrsm[p]);
			if (p == 1 && t->single_min)    /* one process alone: its own rule */
				sp = t->single_min[bi];
			if (p >= 2)
				comm_floor(t, n, p, usable, &sp);
			for (k = 0; k < nd; k++) {
				double v = t->pb.model->time(t->pb.routine, t->pb.n, div[k],
							     p / div[k], t->block[bi], &sp, NULL);

				if (v < best) {
					best = v;
					if (best < meet && meet < INFINITY)
						return best;    /* not prunable: enough */
				}
			}
		}
	}
	/* a margin against rounding: the bound and the EET are computed by
	 * different formulas, and equal in exact arithmetic at best */
	return best * (1 - 1e-12);
}

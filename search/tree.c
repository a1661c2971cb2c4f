/* search/tree.c - assignment-tree walker (see tree.h).
 *
 * Invariant: stack[top] describes d[] exactly. Every effective SP of a
 * child is max(parent's value, the terms the new process creates), since
 * adding a process only raises d_j and only adds pairs; this is what makes
 * push O(nb + U) and what makes a node's SPs a floor for its subtree.
 *
 * The LET (hm_tree_let) bounds, for each size p of a descendant, every SP
 * from below and calls the model with those bounds; the model's time never
 * decreases in an SP, so the result bounds every descendant of size p. */
#include "tree.h"
#include "classes.h"
#include "models/minmax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* class_prev[i]: the previous processor of i's class, or -1. */
static int find_classes(struct hm_tree *t)
{
	int *class_of = malloc((size_t)t->P * sizeof(int));
	int *last_of = malloc((size_t)t->P * sizeof(int));
	int i, C;

	if (!class_of || !last_of || (C = hm_processor_classes(t->pb.platform, class_of)) < 0) {
		free(class_of), free(last_of);
		return -1;
	}
	for (i = 0; i < C; i++)
		last_of[i] = -1;
	for (i = 0; i < t->P; i++) {
		t->class_prev[i] = last_of[class_of[i]];
		last_of[class_of[i]] = i;
	}
	free(class_of), free(last_of);
	return 0;
}

/* The cheapest links that can exist: the floors of any pair's cost. */
static void fill_link_minima(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	const struct hm_link *l = p->links;
	int i;

	t->link_same_min[0] = l[HM_LINK_SAME_PROCESSOR].t_s;
	t->link_same_min[1] = l[HM_LINK_SAME_PROCESSOR].t_w;
	t->link_diff_min[0] = hm_min(l[HM_LINK_SAME_HOST].t_s, l[HM_LINK_INTER_HOST].t_s);
	t->link_diff_min[1] = hm_min(l[HM_LINK_SAME_HOST].t_w, l[HM_LINK_INTER_HOST].t_w);
	for (i = 0; i < p->nr_overrides; i++) {
		t->link_diff_min[0] = hm_min(t->link_diff_min[0], p->overrides[i].link.t_s);
		t->link_diff_min[1] = hm_min(t->link_diff_min[1], p->overrides[i].link.t_w);
	}
}

static int fill_tables(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	int i, bi, nb = t->nb, T = t->T, k;

	for (i = 0; i < t->P; i++) {
		const struct hm_proc_type *ty = &p->types[p->procs[i].type];

		for (bi = 0; bi < nb; bi++) {
			t->k3_dgemm[i * nb + bi] = hm_table_at(&ty->k3_dgemm, t->block[bi]);
			t->k3_dtrsm[i * nb + bi] = hm_table_at(&ty->k3_dtrsm, t->block[bi]);
			t->k2_dgetf2[i * nb + bi] = hm_table_at(&ty->k2_dgetf2, t->block[bi]);
		}
		t->inv_memory[i] = p->procs[i].memory > 0 ? 1.0 / p->procs[i].memory : 0;
	}
	for (k = 0; k < T; k++)
		for (bi = 0; bi < nb; bi++) {
			t->type_k3_dgemm[bi * T + k] = hm_table_at(&p->types[k].k3_dgemm, t->block[bi]);
			t->type_k3_dtrsm[bi * T + k] = hm_table_at(&p->types[k].k3_dtrsm, t->block[bi]);
		}
	for (i = t->P - 1; i >= 0; i--) {
		memcpy(&t->type_suffix[i * T], &t->type_suffix[(i + 1) * T], (size_t)T * sizeof(int));
		t->type_suffix[i * T + p->procs[i].type]++;
	}
	fill_link_minima(t);
	return find_classes(t);
}

int hm_tree_init(struct hm_tree *t, const struct hm_problem *pb, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	size_t P, nb, L, T;

	memset(t, 0, sizeof(*t));
	if (hm_problem_check(pb, 1, err))
		return -1;
	t->pb = *pb;
	t->P = p->nr_procs;
	t->nb = hm_platform_block_count(p, pb->n);
	t->T = p->nr_types;
	t->block = p->block_sizes;
	P = (size_t)t->P;
	nb = (size_t)t->nb;
	L = (size_t)pb->depth;
	T = (size_t)t->T;
	t->k3_dgemm = malloc(P * nb * sizeof(double));
	t->k3_dtrsm = malloc(P * nb * sizeof(double));
	t->k2_dgetf2 = malloc(P * nb * sizeof(double));
	t->type_k3_dgemm = malloc(nb * T * sizeof(double));
	t->type_k3_dtrsm = malloc(nb * T * sizeof(double));
	t->type_suffix = calloc((P + 1) * T, sizeof(int));
	t->type_used_before_last = calloc(T, sizeof(int));
	t->inv_memory = malloc(P * sizeof(double));
	t->kth_dgemm = malloc((L + 1) * sizeof(double));
	t->kth_dtrsm = malloc((L + 1) * sizeof(double));
	t->kth_next = malloc(T * sizeof(double));
	t->kth_mult = malloc(T * sizeof(int));
	t->usable_count = malloc(T * sizeof(int));
	t->class_prev = malloc(P * sizeof(int));
	t->d = calloc(P, sizeof(int));
	t->used = malloc(P * sizeof(int));
	t->stack = calloc(L + 1, sizeof(struct hm_node));
	if (!t->k3_dgemm || !t->k3_dtrsm || !t->k2_dgetf2 || !t->type_k3_dgemm ||
	    !t->type_k3_dtrsm || !t->type_suffix || !t->type_used_before_last ||
	    !t->inv_memory || !t->kth_dgemm || !t->kth_dtrsm || !t->kth_next || !t->kth_mult ||
	    !t->usable_count ||
	    !t->class_prev || !t->d || !t->used || !t->stack || hm_divisors_init(&t->div, (int)L) ||
	    fill_tables(t)) {
		hm_tree_release(t);
		return hm_error_set(err, "out of memory");
	}
	hm_tree_reset(t);
	return 0;
}

void hm_tree_release(struct hm_tree *t)
{
	free(t->k3_dgemm);
	free(t->k3_dtrsm);
	free(t->k2_dgetf2);
	free(t->type_k3_dgemm);
	free(t->type_k3_dtrsm);
	free(t->type_suffix);
	free(t->type_used_before_last);
	free(t->inv_memory);
	free(t->kth_dgemm);
	free(t->kth_dtrsm);
	free(t->kth_next);
	free(t->kth_mult);
	free(t->usable_count);
	free(t->class_prev);
	hm_divisors_release(&t->div);
	free(t->d);
	free(t->used);
	free(t->stack);
	memset(t, 0, sizeof(*t));
}

void hm_tree_reset(struct hm_tree *t)
{
	memset(t->d, 0, (size_t)t->P * sizeof(int));
	memset(t->type_used_before_last, 0, (size_t)t->T * sizeof(int));
	t->nr_used = 0;
	t->top = 0;
	memset(&t->stack[0], 0, sizeof(struct hm_node));
	t->stack[0].eet = INFINITY;
}

void hm_tree_push(struct hm_tree *t, int j)
{
	const struct hm_node *up = &t->stack[t->top];
	struct hm_node *n = &t->stack[t->top + 1];
	const double *kg = &t->k3_dgemm[j * t->nb], *kt = &t->k3_dtrsm[j * t->nb];
	const double *k2 = &t->k2_dgetf2[j * t->nb];
	double ts = up->sp[0].t_s, tw = up->sp[0].t_w;
	int dj, u, bi;

	dj = ++t->d[j];
	if (dj == 1)
		t->used[t->nr_used++] = j;
	n->level = up->level + 1;
	n->last = j;
	/* pairs the new process creates or makes dearer: (j, j) and (j, k) */
	if (dj >= 2) {
		struct hm_link l = hm_platform_link(t->pb.platform, j, j);

		ts = hm_max(ts, dj * l.t_s);
		tw = hm_max(tw, dj * l.t_w);
	}
	for (u = 0; u < t->nr_used; u++) {
		int k = t->used[u], m;
		struct hm_link l;

		if (k == j)
			continue;
		l = hm_platform_link(t->pb.platform, j, k);
		m = dj > t->d[k] ? dj : t->d[k];
		ts = hm_max(ts, m * l.t_s);
		tw = hm_max(tw, m * l.t_w);
	}
	for (bi = 0; bi < t->nb; bi++) {
		struct hm_sp *s = &n->sp[bi];
		const struct hm_sp *o = &up->sp[bi];

		s->k3_dgemm = hm_max(o->k3_dgemm, dj * kg[bi]);
		s->k3_dtrsm = hm_max(o->k3_dtrsm, dj * kt[bi]);
		s->k2_dgetf2 = hm_max(o->k2_dgetf2, dj * k2[bi]);
		s->t_s = ts;
		s->t_w = tw;
	}
	/* moving past processor 'last': it is used, so it stays usable */
	n->left_last = j != up->last && up->level > 0;
	if (n->left_last)
		t->type_used_before_last[t->pb.platform->procs[up->last].type]++;
	n->maxd = dj > up->maxd ? dj : up->maxd;
	n->mem_ratio = hm_max(up->mem_ratio, dj * t->inv_memory[j]);
	n->eet = INFINITY;
	t->top++;
}

void hm_tree_pop(struct hm_tree *t)
{
	int j = t->stack[t->top].last;

	if (t->stack[t->top].left_last)
		t->type_used_before_last[t->pb.platform->procs[t->stack[t->top - 1].last].type]--;

	if (--t->d[j] == 0)
		t->nr_used--;   /* j was the last processor to become used */
	t->top--;
}

static int fits_memory(const struct hm_tree *t, const struct hm_node *n)
{
	return n->mem_ratio == 0 ||
	       n->mem_ratio * hm_bytes_per_process(t->pb.routine, t->pb.n, n->level) <= 1.0;
}

/* Min of the model over grids and b for the top node, with the
 * communication SPs zeroed when 'comm_off' (arithmetic only). The winner's
 * parts and shape go to 'est' (may be NULL). */
static double best_config(struct hm_tree *t, int comm_off, struct hm_node *est)
{
	const struct hm_node *n = &t->stack[t->top];
	double best = INFINITY;
	int bi, k, nd;
	const int *div = hm_divisors_of(&t->div, n->level, &nd);

	t->evaluated++;
	if (n->level == 0 || !fits_memory(t, n))
		return INFINITY;
	for (bi = 0; bi < t->nb; bi++) {
		struct hm_sp sp = n->sp[bi];

		if (comm_off)
			sp.t_s = sp.t_w = 0;
		for (k = 0; k < nd; k++) {
			int r = div[k], c = n->level / r;
			struct hm_prediction pr;
			double v = t->pb.model->time(t->pb.routine, t->pb.n, r, c, t->block[bi],
						     &sp, &pr);

			if (v < best) {
				best = v;
				if (est) {
					est->pred = pr;
					est->r = r;
					est->c = c;
					est->b = t->block[bi];
				}
			}
		}
	}
	return best;
}

double hm_tree_eet(struct hm_tree *t)
{
	struct hm_node *n = &t->stack[t->top];

	n->eet = best_config(t, 0, n);
	return n->eet;
}

double hm_tree_arith(struct hm_tree *t)
{
	return best_config(t, 1, NULL);
}

/* kth[p], p = 1..pmax: the p-th smallest value of the multiset
 * { m * k_ty : m >= 1, counted cnt[ty] times }. For any placement of p
 * processes on processors of these counts, max_i d_i k_i >= kth[p]: with
 * K = max_i d_i k_i every d_i <= floor(K / k_i), so p <= sum floor(K/k_i),
 * which is the number of multiset values <= K. */
static void kth_multiples(struct hm_tree *t, const double *k, const int *cnt,
			  int pmax, double *kth)
{
	int ty, p = 0;

	for (ty = 0; ty < t->T; ty++) {
		t->kth_mult[ty] = 1;
		t->kth_next[ty] = k[ty];
	}
	while (p < pmax) {
		int best = -1, q;

		for (ty = 0; ty < t->T; ty++)
			if (cnt[ty] > 0 && (best < 0 || t->kth_next[ty] < t->kth_next[best]))
				best = ty;
		if (best < 0) {
			while (p < pmax)
				kth[++p] = INFINITY;    /* no processor left */
			break;
		}
		for (q = 0; q < cnt[best] && p < pmax; q++)
			kth[++p] = t->kth_next[best];
		t->kth_mult[best]++;
		t->kth_next[best] = t->kth_mult[best] * k[best];
	}
}

/* Floor of t_s (x = 0) or t_w (x = 1) of any descendant with p >= 2
 * processes, 'usable' processors and a largest count of at least 'maxd':
 * either all p sit on one processor (p * same-processor cost, possible only
 * while the node uses at most one processor), or two processors are used
 * and the fullest one, with m >= max(maxd, ceil(p / usable)) processes,
 * pairs with another at >= m * the cheapest link (and with itself at
 * m * the same-processor cost when m >= 2). */
static double comm_floor(const struct hm_tree *t, const struct hm_node *n, int x,
			 int p, int usable)
{
	int m = (p + usable - 1) / usable;
	double spread, alone = INFINITY;

	if (m < n->maxd)
		m = n->maxd;
	spread = m * hm_max(t->link_diff_min[x], m >= 2 ? t->link_same_min[x] : 0);
	if (t->nr_used <= 1)
		alone = p * t->link_same_min[x];
	return hm_min(spread, alone);
}

double hm_tree_let(struct hm_tree *t, double meet)
{
	const struct hm_node *n = &t->stack[t->top];
	const int *suffix = &t->type_suffix[n->last * t->T];
	int *usable_cnt = t->usable_count;
	int d_min = n->level > 1 ? n->level : 1, d_max = t->pb.depth;
	int usable = 0, ty, bi, p, k;
	double best = INFINITY;

	/* usable processors: the used ones below 'last', and all from 'last' on */
	for (ty = 0; ty < t->T; ty++) {
		usable_cnt[ty] = t->type_used_before_last[ty] + suffix[ty];
		usable += usable_cnt[ty];
	}
	for (bi = 0; bi < t->nb; bi++) {
		kth_multiples(t, &t->type_k3_dgemm[bi * t->T], usable_cnt, d_max, t->kth_dgemm);
		kth_multiples(t, &t->type_k3_dtrsm[bi * t->T], usable_cnt, d_max, t->kth_dtrsm);
		for (p = d_min; p <= d_max; p++) {
			int nd;
			const int *div = hm_divisors_of(&t->div, p, &nd);
			struct hm_sp sp = n->sp[bi];

			sp.k3_dgemm = hm_max(sp.k3_dgemm, t->kth_dgemm[p]);
			sp.k3_dtrsm = hm_max(sp.k3_dtrsm, t->kth_dtrsm[p]);
			if (p >= 2) {
				sp.t_s = hm_max(sp.t_s, comm_floor(t, n, 0, p, usable));
				sp.t_w = hm_max(sp.t_w, comm_floor(t, n, 1, p, usable));
			}
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

int hm_tree_canonical_child(const struct hm_tree *t, int j)
{
	int prev = t->class_prev[j];

	return prev < 0 || t->d[j] + 1 <= t->d[prev];
}

void hm_tree_speeds(const struct hm_tree *t, double *s)
{
	int i, bi;

	for (i = 0; i < t->P; i++)
		s[i] = 0;
	for (bi = 0; bi < t->nb; bi++) {
		double kmax = 0;

		for (i = 0; i < t->P; i++)
			kmax = hm_max(kmax, t->k3_dgemm[i * t->nb + bi]);
		for (i = 0; i < t->P; i++)
			s[i] += kmax / t->k3_dgemm[i * t->nb + bi] / t->nb;
	}
}

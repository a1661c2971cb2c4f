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

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double max2(double a, double b)
{
	return a > b ? a : b;
}

/* Signature of interchangeable processors: equal type and memory, and the
 * same links to every third processor. Without per-pair overrides that
 * holds for two processors on one node, for two processors each alone on
 * its node, and for any two when same-node and inter-node links are equal.
 * Processors named in an override are kept apart (sound, not complete). */
struct proc_key {
	int type;
	double memory;
	long node_key;
	int index;
};

static int cmp_proc_key(const void *x, const void *y)
{
	const struct proc_key *a = x, *b = y;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->memory != b->memory)
		return a->memory < b->memory ? -1 : 1;
	if (a->node_key != b->node_key)
		return a->node_key < b->node_key ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int find_classes(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	const struct hm_link *sn = &p->links[HM_LINK_SAME_NODE];
	const struct hm_link *in = &p->links[HM_LINK_INTER_NODE];
	int nodes_matter = sn->t_s != in->t_s || sn->t_w != in->t_w;
	struct proc_key *keys = malloc((size_t)t->P * sizeof(*keys));
	int *node_size = calloc((size_t)p->nr_nodes, sizeof(int));
	int i;

	if (!keys || !node_size) {
		free(keys);
		free(node_size);
		return -1;
	}
	for (i = 0; i < t->P; i++)
		node_size[p->procs[i].node]++;
	for (i = 0; i < t->P; i++) {
		keys[i].type = p->procs[i].type;
		keys[i].memory = p->procs[i].memory;
		keys[i].node_key = -1;
		if (nodes_matter && node_size[p->procs[i].node] > 1)
			keys[i].node_key = p->procs[i].node;
		keys[i].index = i;
	}
	for (i = 0; i < p->nr_overrides; i++) {
		keys[p->overrides[i].a].node_key = -2L - p->overrides[i].a;
		keys[p->overrides[i].b].node_key = -2L - p->overrides[i].b;
	}
	qsort(keys, (size_t)t->P, sizeof(*keys), cmp_proc_key);
	t->class_prev[keys[0].index] = -1;
	for (i = 1; i < t->P; i++) {
		const struct proc_key *a = &keys[i], *b = &keys[i - 1];

		t->class_prev[a->index] = a->type == b->type && a->memory == b->memory &&
					  a->node_key == b->node_key ? b->index : -1;
	}
	free(keys);
	free(node_size);
	return 0;
}

static double min2(double a, double b)
{
	return a < b ? a : b;
}

/* The cheapest links that can exist: the floors of any pair's cost. */
static void fill_link_minima(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	const struct hm_link *l = p->links;
	int i;

	t->link_same_min[0] = l[HM_LINK_SAME_PROCESSOR].t_s;
	t->link_same_min[1] = l[HM_LINK_SAME_PROCESSOR].t_w;
	t->link_diff_min[0] = min2(l[HM_LINK_SAME_NODE].t_s, l[HM_LINK_INTER_NODE].t_s);
	t->link_diff_min[1] = min2(l[HM_LINK_SAME_NODE].t_w, l[HM_LINK_INTER_NODE].t_w);
	for (i = 0; i < p->nr_overrides; i++) {
		t->link_diff_min[0] = min2(t->link_diff_min[0], p->overrides[i].link.t_s);
		t->link_diff_min[1] = min2(t->link_diff_min[1], p->overrides[i].link.t_w);
	}
}

static int fill_tables(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	int i, bi, nb = t->nb, T = t->T, l, k;

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
	for (l = 1, k = 0; l <= t->pb.depth; l++) {
		int r;

		t->div_start[l] = k;
		for (r = 1; r <= l; r++)
			if (l % r == 0)
				t->div_list[k++] = r;
	}
	t->div_start[t->pb.depth + 1] = k;
	fill_link_minima(t);
	return find_classes(t);
}

int hm_tree_init(struct hm_tree *t, const struct hm_problem *pb, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	size_t P, nb, L, T, ndiv;

	memset(t, 0, sizeof(*t));
	if (pb->depth < 1 || pb->depth > HM_MAX_DEPTH)
		return hm_error_set(err, "depth %d out of range 1..%d", pb->depth, HM_MAX_DEPTH);
	t->pb = *pb;
	t->P = p->nr_procs;
	/* a block larger than the matrix is no block-cyclic distribution:
	 * only candidates b <= n (ascending), at least the smallest one */
	t->nb = 1;
	while (t->nb < p->nr_block_sizes && p->block_sizes[t->nb] <= pb->n)
		t->nb++;
	t->T = p->nr_types;
	t->block = p->block_sizes;
	P = (size_t)t->P;
	nb = (size_t)t->nb;
	L = (size_t)pb->depth;
	T = (size_t)t->T;
	if ((P + 1) * T > ((size_t)1 << 26))
		return hm_error_set(err, "platform too large to search: %zu processors x %zu types", P, T);
	/* sum of the divisor counts of 1..L is L ln L + 0.16 L + O(sqrt L) */
	ndiv = L * (size_t)(log((double)L) + 3) + 16;
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
	t->div_start = malloc((L + 2) * sizeof(int));
	t->div_list = malloc(ndiv * sizeof(int));
	t->d = calloc(P, sizeof(int));
	t->used = malloc(P * sizeof(int));
	t->stack = calloc(L + 1, sizeof(struct hm_node));
	if (!t->k3_dgemm || !t->k3_dtrsm || !t->k2_dgetf2 || !t->type_k3_dgemm ||
	    !t->type_k3_dtrsm || !t->type_suffix || !t->type_used_before_last ||
	    !t->inv_memory || !t->kth_dgemm || !t->kth_dtrsm || !t->kth_next || !t->kth_mult ||
	    !t->usable_count ||
	    !t->class_prev || !t->div_start || !t->div_list || !t->d || !t->used || !t->stack ||
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
	free(t->div_start);
	free(t->div_list);
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

		ts = max2(ts, dj * l.t_s);
		tw = max2(tw, dj * l.t_w);
	}
	for (u = 0; u < t->nr_used; u++) {
		int k = t->used[u], m;
		struct hm_link l;

		if (k == j)
			continue;
		l = hm_platform_link(t->pb.platform, j, k);
		m = dj > t->d[k] ? dj : t->d[k];
		ts = max2(ts, m * l.t_s);
		tw = max2(tw, m * l.t_w);
	}
	for (bi = 0; bi < t->nb; bi++) {
		struct hm_sp *s = &n->sp[bi];
		const struct hm_sp *o = &up->sp[bi];

		s->k3_dgemm = max2(o->k3_dgemm, dj * kg[bi]);
		s->k3_dtrsm = max2(o->k3_dtrsm, dj * kt[bi]);
		s->k2_dgetf2 = max2(o->k2_dgetf2, dj * k2[bi]);
		s->t_s = ts;
		s->t_w = tw;
	}
	/* moving past processor 'last': it is used, so it stays usable */
	n->left_last = j != up->last && up->level > 0;
	if (n->left_last)
		t->type_used_before_last[t->pb.platform->procs[up->last].type]++;
	n->maxd = dj > up->maxd ? dj : up->maxd;
	n->mem_ratio = max2(up->mem_ratio, dj * t->inv_memory[j]);
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
	const int *div = &t->div_list[t->div_start[n->level]];
	int nd = t->div_start[n->level + 1] - t->div_start[n->level];
	double best = INFINITY;
	int bi, k;

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
	spread = m * max2(t->link_diff_min[x], m >= 2 ? t->link_same_min[x] : 0);
	if (t->nr_used <= 1)
		alone = p * t->link_same_min[x];
	return min2(spread, alone);
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
			const int *div = &t->div_list[t->div_start[p]];
			int nd = t->div_start[p + 1] - t->div_start[p];
			struct hm_sp sp = n->sp[bi];

			sp.k3_dgemm = max2(sp.k3_dgemm, t->kth_dgemm[p]);
			sp.k3_dtrsm = max2(sp.k3_dtrsm, t->kth_dtrsm[p]);
			if (p >= 2) {
				sp.t_s = max2(sp.t_s, comm_floor(t, n, 0, p, usable));
				sp.t_w = max2(sp.t_w, comm_floor(t, n, 1, p, usable));
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
			kmax = max2(kmax, t->k3_dgemm[i * t->nb + bi]);
		for (i = 0; i < t->P; i++)
			s[i] += kmax / t->k3_dgemm[i * t->nb + bi] / t->nb;
	}
}

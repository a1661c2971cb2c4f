/* search/tree.c - assignment-tree walker (see tree.h).
 *
 * Invariant: stack[top] describes d[] exactly. Every effective SP of a
 * child is max(parent's value, the terms the new process creates), since
 * adding a process only raises d_j and only adds pairs; this is what makes
 * push cheap (no rescan of the path) and what makes a node's SPs a floor
 * for its subtree.
 * The LET is tree_let.c's. */
#include "tree.h"
#include "top_k.h"
#include "classes.h"
#include "models/util/minmax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The classes of interchangeable processors: class_of, their members in
 * ascending order (class_start, class_members) and class_prev[i], the
 * previous processor of i's class or -1. 0, or -1 when out of memory. */
static int find_classes(struct hm_tree *t)
{
	int *fill = malloc((size_t)t->P * sizeof(int)), i, c;   /* each class's next slot */

	if (!fill || (t->C = hm_processor_classes(t->pb.platform, t->class_of)) < 0) {
		free(fill);
		return -1;
	}
	for (c = 0; c <= t->C; c++)
		t->class_start[c] = 0;
	for (i = 0; i < t->P; i++)
		t->class_start[t->class_of[i] + 1]++;
	for (c = 0; c < t->C; c++) {
		t->class_start[c + 1] += t->class_start[c];
		fill[c] = t->class_start[c];
	}
	for (i = 0; i < t->P; i++) {
		c = t->class_of[i];
		t->class_prev[i] = fill[c] > t->class_start[c] ? t->class_members[fill[c] - 1] : -1;
		t->class_members[fill[c]++] = i;
	}
	free(fill);
	return 0;
}

/* The cheapest links that can exist: the floors of any pair's cost (a
 * link's cost never decreases in any of its parts, hm_link_word_cost). */
static void fill_link_minima(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	int i;

	t->link_same_min = p->links[HM_LINK_SAME_PROCESSOR];
	t->link_diff_min = p->links[HM_LINK_SAME_HOST];
	hm_link_min(&t->link_diff_min, p->links[HM_LINK_INTER_HOST]);
	for (i = 0; i < p->nr_overrides; i++)
		hm_link_min(&t->link_diff_min, p->overrides[i].link);
	for (i = 0; i < p->nr_rules; i++)
		hm_link_min(&t->link_diff_min, p->rules[i].link);
}

/* Kinds: one per distinct (type, cores), numbered in processor order. */
static int find_kinds(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	int *first = malloc((size_t)p->nr_types * sizeof(int)), i, K = 0;
	/* per type, the kinds seen so far form a short list: next[kd] is the
	 * kind found before kd of the same type, or -1 */
	int *next = malloc((size_t)t->P * sizeof(int));

	if (!first || !next) {
		free(first), free(next);
		return -1;
	}
	for (i = 0; i < p->nr_types; i++)
		first[i] = -1;
	t->max_cores = 1;
	for (i = 0; i < t->P; i++) {
		const struct hm_processor *pr = &p->procs[i];
		int kd = first[pr->type];

		while (kd >= 0 && t->kind_cores[kd] != pr->cores)
			kd = next[kd];
		if (kd < 0) {
			kd = K++;
			t->kind_type[kd] = pr->type;
			t->kind_cores[kd] = pr->cores;
			next[kd] = first[pr->type];
			first[pr->type] = kd;
		}
		t->kind_of[i] = kd;
		if (pr->cores > t->max_cores)
			t->max_cores = pr->cores;
	}
	t->K = K;
	free(first), free(next);
	return 0;
}

/* One process alone, where the model times it by a rule of its own
 * (hm_model_sp_single): the componentwise least of its SPs over the
 * processors, per block size, for the bounds (a level-1 node asks the
 * model for its own). 0, or -1 when out of memory. */
static int fill_single(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	struct hm_sp sp;

	if (!hm_model_sp_single(t->pb.model, p, 0, t->block[0], t->pb.routine, &sp))
		return 0;
	if (!(t->single_min = malloc((size_t)t->nb * sizeof(struct hm_sp))))
		return -1;
	for (int bi = 0; bi < t->nb; bi++) {
		struct hm_sp *m = &t->single_min[bi];

		double least[HM_NR_SP], v[HM_NR_SP];

		for (int s = 0; s < HM_NR_SP; s++)
			least[s] = INFINITY;
		for (int i = 0; i < t->P; i++) {
			hm_model_sp_single(t->pb.model, p, i, t->block[bi], t->pb.routine, &sp);
			hm_sp_to_vector(&sp, v);
			for (int s = 0; s < HM_NR_SP; s++)
				least[s] = hm_min(least[s], v[s]);
		}
		hm_sp_from_vector(least, m);
	}
	return 0;
}

/* The kernels' k are read at the model's kernel block (hm_model_kernel_block):
 * exact for two processes or more; one process alone is fill_single's. */
static int fill_tables(struct hm_tree *t)
{
	const struct hm_platform *p = t->pb.platform;
	int i, bi, nb = t->nb, K = t->K, k;

	for (i = 0; i < t->P; i++) {
		const struct hm_proc_type *ty = &p->types[p->procs[i].type];

		for (bi = 0; bi < nb; bi++) {
			int kb = hm_model_kernel_block(t->pb.model, t->pb.routine, t->block[bi]);

			t->k3_dgemm[i * nb + bi] = hm_table_at(&ty->k3_dgemm, kb);
			t->k3_dtrsm[i * nb + bi] = hm_table_at(&ty->k3_dtrsm, kb);
			t->k2_dgetf2[i * nb + bi] = hm_table_at(&ty->k2_dgetf2, kb);
		}
		t->column_step[i] = ty->column_step;
		t->k1_dswap[i] = ty->k1_dswap;
		t->k1_dswap_aliased[i] = ty->k1_dswap_aliased;
		t->inv_memory[i] = p->procs[i].memory > 0 ? 1.0 / p->procs[i].memory : 0;
	}
	for (k = 0; k < K; k++)
		for (bi = 0; bi < nb; bi++) {
			const struct hm_proc_type *ty = &p->types[t->kind_type[k]];
			int kb = hm_model_kernel_block(t->pb.model, t->pb.routine, t->block[bi]);

			t->kind_k3_dgemm[bi * K + k] = hm_table_at(&ty->k3_dgemm, kb);
			t->kind_k3_dtrsm[bi * K + k] = hm_table_at(&ty->k3_dtrsm, kb);
		}
	for (i = t->P - 1; i >= 0; i--) {
		memcpy(&t->kind_suffix[(size_t)i * K], &t->kind_suffix[(size_t)(i + 1) * K],
		       (size_t)K * sizeof(int));
		t->kind_suffix[(size_t)i * K + t->kind_of[i]]++;
	}
	fill_link_minima(t);
	return find_classes(t);
}

/* Room for one level's floors: every b and the most grids of any D. */
static int alloc_floors(struct hm_tree *t, size_t L)
{
	int most = 0, count;

	for (size_t D = 1; D <= L; D++) {
		hm_divisors_of(&t->div, (int)D, &count);
		most = count > most ? count : most;
	}
	t->max_divisors = most;
	t->floors_level = -1;
	t->floors = malloc((size_t)t->nb * (size_t)most * sizeof(double));
	return !t->floors;
}

int hm_tree_init(struct hm_tree *t, const struct hm_problem *pb, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	size_t P, nb, L, K;

	memset(t, 0, sizeof(*t));
	if (hm_problem_check(pb, 1, err))
		return -1;
	t->pb = *pb;
	t->P = p->nr_procs;
	t->nb = hm_platform_block_count(p, pb->n);
	t->block = p->block_sizes;
	P = (size_t)t->P;
	nb = (size_t)t->nb;
	L = (size_t)pb->depth;
	/* kinds first: the tables below are sized by their number */
	t->kind_of = malloc(P * sizeof(int));
	t->kind_type = malloc(P * sizeof(int));
	t->kind_cores = malloc(P * sizeof(int));
	if (!t->kind_of || !t->kind_type || !t->kind_cores || find_kinds(t)) {
		hm_tree_release(t);
		return hm_error_set(err, "out of memory");
	}
	K = (size_t)t->K;
	if ((P + 1) * K > ((size_t)1 << 26)) {
		hm_tree_release(t);
		return hm_error_set(err, "platform too large to search: %zu processors x %zu kinds "
				    "(type and cores)", P, K);
	}
	t->k3_dgemm = malloc(P * nb * sizeof(double));
	t->k3_dtrsm = malloc(P * nb * sizeof(double));
	t->k2_dgetf2 = malloc(P * nb * sizeof(double));
	t->column_step = malloc(P * sizeof(double));
	t->k1_dswap = malloc(P * sizeof(double));
	t->k1_dswap_aliased = malloc(P * sizeof(double));
	t->kind_k3_dgemm = malloc(nb * K * sizeof(double));
	t->kind_k3_dtrsm = malloc(nb * K * sizeof(double));
	t->kind_suffix = calloc((P + 1) * K, sizeof(int));
	t->kind_used_before_last = calloc(K, sizeof(int));
	t->inv_memory = malloc(P * sizeof(double));
	t->kth_dgemm = malloc((L + 1) * sizeof(double));
	t->kth_dtrsm = malloc((L + 1) * sizeof(double));
	t->kth_next = malloc(K * sizeof(double));
	t->kth_mult = malloc(K * sizeof(int));
	t->usable_count = malloc(K * sizeof(int));
	t->class_of = malloc(P * sizeof(int));
	t->class_start = malloc((P + 1) * sizeof(int));
	t->class_members = malloc(P * sizeof(int));
	t->class_prev = malloc(P * sizeof(int));
	t->class_used = malloc(P * sizeof(int));
	t->class_maxd = malloc(P * sizeof(int));
	t->used_classes = malloc(P * sizeof(int));
	t->children = malloc(P * sizeof(int));
	t->by_host = !p->nr_rules && !p->nr_overrides;
	t->host_used = malloc((size_t)p->nr_hosts * sizeof(int));
	t->host_maxf = malloc((size_t)p->nr_hosts * sizeof(int));
	t->d = calloc(P, sizeof(int));
	t->used = malloc(P * sizeof(int));
	t->node_size = sizeof(struct hm_node) + (size_t)nb * sizeof(struct hm_sp);
	t->stack = calloc(L + 1, t->node_size);
	if (!t->k3_dgemm || !t->k3_dtrsm || !t->k2_dgetf2 || !t->column_step || !t->k1_dswap ||
	    !t->k1_dswap_aliased || !t->kind_k3_dgemm ||
	    !t->kind_k3_dtrsm || !t->kind_suffix || !t->kind_used_before_last ||
	    !t->inv_memory || !t->kth_dgemm || !t->kth_dtrsm || !t->kth_next || !t->kth_mult ||
	    !t->usable_count ||
	    !t->class_of || !t->class_start || !t->class_members || !t->class_prev ||
	    !t->class_used || !t->class_maxd || !t->used_classes || !t->children ||
	    !t->host_used || !t->host_maxf ||
	    !t->d || !t->used || !t->stack || hm_divisors_init(&t->div, (int)L) ||
	    alloc_floors(t, L) || fill_tables(t) || fill_single(t)) {
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
	free(t->column_step);
	free(t->k1_dswap);
	free(t->k1_dswap_aliased);
	free(t->kind_of);
	free(t->kind_type);
	free(t->kind_cores);
	free(t->kind_k3_dgemm);
	free(t->kind_k3_dtrsm);
	free(t->kind_suffix);
	free(t->kind_used_before_last);
	free(t->inv_memory);
	free(t->single_min);
	free(t->kth_dgemm);
	free(t->kth_dtrsm);
	free(t->kth_next);
	free(t->kth_mult);
	free(t->usable_count);
	free(t->class_of);
	free(t->class_start);
	free(t->class_members);
	free(t->class_prev);
	free(t->class_used);
	free(t->class_maxd);
	free(t->used_classes);
	free(t->children);
	free(t->host_used);
	free(t->host_maxf);
	hm_divisors_release(&t->div);
	free(t->floors);
	free(t->d);
	free(t->used);
	free(t->stack);
	memset(t, 0, sizeof(*t));
}

void hm_tree_reset(struct hm_tree *t)
{
	memset(t->d, 0, (size_t)t->P * sizeof(int));
	memset(t->kind_used_before_last, 0, (size_t)t->K * sizeof(int));
	memset(t->class_used, 0, (size_t)t->C * sizeof(int));
	memset(t->class_maxd, 0, (size_t)t->C * sizeof(int));
	memset(t->host_used, 0, (size_t)t->pb.platform->nr_hosts * sizeof(int));
	memset(t->host_maxf, 0, (size_t)t->pb.platform->nr_hosts * sizeof(int));
	t->top_hosts = (struct hm_top_hosts){ -1, 0, 0 };
	t->floors_level = -1;
	t->nr_used = t->nr_used_classes = 0;
	t->top = 0;
	memset(t->stack, 0, t->node_size);
	t->stack->eet = INFINITY;
}

/* What the pairs a push creates raise: the effective t_s and t_w, and the
 * cards' t_w (pairs on different hosts). */
struct pair_costs {
	double ts, tw, card;
};

/* A pair at link l whose ends' larger share factor is m; 'card': the
 * dearer of its ends' cards when they are on different hosts, else 0. */
static void price_pair(struct hm_link l, int m, double card, struct pair_costs *pc)
{
	pc->ts = hm_max(pc->ts, m * l.t_s);
	pc->tw = hm_max(pc->tw, hm_link_word_cost(l, m));
	pc->card = hm_max(pc->card, card);
}

/* The pairs a process pushed on j creates or makes dearer, (j, j) and
 * (j, k) for every used k, raising the effective t_s and t_w. A link's
 * cost never decreases in the share factor, so of the pairs that share a
 * link the dearest is the one with the largest f_k (j's own may count:
 * it only raises max(f_j, f_k) to what f_j is). Those that share a link:
 * by_host, the processors on j's host and those off it; else the
 * processors of one class (classes.h), one pair per used class. */
static void dearer_pairs(const struct hm_tree *t, int j, int dj, int fj, struct pair_costs *pc)
{
	const struct hm_platform *p = t->pb.platform;

	if (dj >= 2)
		price_pair(hm_platform_link(p, j, j), fj, 0, pc);
	if (t->by_host) {
		int h = p->procs[j].host_id;
		int off = h == t->top_hosts.host ? t->top_hosts.second_f : t->top_hosts.f;

		if (t->host_used[h] >= 2)
			price_pair(p->links[HM_LINK_SAME_HOST], hm_max_int(fj, t->host_maxf[h]), 0, pc);
		if (off > 0)    /* by host: no rules, every card the same */
			price_pair(p->links[HM_LINK_INTER_HOST], hm_max_int(fj, off),
				   p->procs[j].card_t_w, pc);
		return;
	}
	for (int u = 0; u < t->nr_used_classes; u++) {
		int c = t->used_classes[u], k;
		const int *members = &t->class_members[t->class_start[c]];

		if (c == t->class_of[j] && t->class_used[c] < 2)
			continue;       /* j is its class's only used processor */
		k = members[0] != j ? members[0] : members[1];
		price_pair(hm_platform_link(p, j, k),
			   hm_max_int(fj, hm_share_factor(t->class_maxd[c], p->procs[k].cores)),
			   p->procs[j].host_id == p->procs[k].host_id ? 0 :
			   hm_max(p->procs[j].card_t_w, p->procs[k].card_t_w), pc);
	}
}

/* The host bookkeeping of a push on j (share factor now fj), undone by pop. */
static void host_push(struct hm_tree *t, struct hm_node *n, int j, int dj, int fj)
{
	int h = t->pb.platform->procs[j].host_id;
	struct hm_top_hosts *top = &t->top_hosts;

	n->host_maxf_before = t->host_maxf[h];
	n->top_before = *top;
	t->host_used[h] += dj == 1;
	t->host_maxf[h] = hm_max_int(t->host_maxf[h], fj);
	if (h == top->host) {
		top->f = t->host_maxf[h];
	} else if (t->host_maxf[h] > top->f) {
		top->second_f = top->f;
		top->host = h, top->f = t->host_maxf[h];
	} else {
		top->second_f = hm_max_int(top->second_f, t->host_maxf[h]);
	}
}

/* The class bookkeeping of a push on j (d_j now dj), undone by pop. */
static void class_push(struct hm_tree *t, struct hm_node *n, int j, int dj)
{
	int c = t->class_of[j];

	if (dj == 1 && t->class_used[c]++ == 0)
		t->used_classes[t->nr_used_classes++] = c;
	n->class_maxd_before = t->class_maxd[c];
	if (dj > t->class_maxd[c])
		t->class_maxd[c] = dj;
}

/* Whether a push left SPs a model reads as they were: the HM_NR_SP
 * linear ones, and the cards' when it shares them. Field by field: a
 * memcmp() of the struct was 6 % of GPTM's time. */
_Static_assert(HM_NR_SP == 8, "same_sps() compares every SP");
static int same_sps(const struct hm_sp *a, const struct hm_sp *o, int cards)
{
	return a->k3_dgemm == o->k3_dgemm && a->k3_dtrsm == o->k3_dtrsm &&
	       a->k2_dgetf2 == o->k2_dgetf2 && a->t_s == o->t_s && a->t_w == o->t_w &&
	       a->t_step == o->t_step && a->k1_dswap == o->k1_dswap && a->k1_dswap_aliased == o->k1_dswap_aliased &&
	       (!cards || (a->card_t_w == o->card_t_w && a->node_ranks == o->node_ranks &&
			   a->node_senders == o->node_senders));
}

void hm_tree_push(struct hm_tree *t, int j)
{
	const struct hm_node *up = hm_tree_top(t);
	struct hm_node *n = hm_tree_node(t, t->top + 1);
	const double *kg = &t->k3_dgemm[j * t->nb], *kt = &t->k3_dtrsm[j * t->nb];
	const double *k2 = &t->k2_dgetf2[j * t->nb];
	const struct hm_platform *p = t->pb.platform;
	struct pair_costs pc = { up->sp[0].t_s, up->sp[0].t_w, up->sp[0].card_t_w };
	double cj;
	int dj, fj, bi;

	dj = ++t->d[j];
	fj = hm_share_factor(dj, p->procs[j].cores);
	cj = hm_compute_factor(p, j, dj, t->pb.routine);
	if (dj == 1)
		t->used[t->nr_used++] = j;
	/* what dearer_pairs reads: the hosts' or the classes' */
	if (t->by_host)
		host_push(t, n, j, dj, fj);
	else
		class_push(t, n, j, dj);
	n->level = up->level + 1;
	n->last = j;
	/* a pair's cost depends on its ends' share factors alone, so only a
	 * newly used j, a second process on j or a rise of j's share factor
	 * changes any: the other pushes (most of a large D) cost O(nb) */
	if (dj <= 2 || fj != hm_share_factor(dj - 1, p->procs[j].cores))
		dearer_pairs(t, j, dj, fj, &pc);
	n->same_sp = 1;
	for (bi = 0; bi < t->nb; bi++) {
		struct hm_sp *s = &n->sp[bi];
		const struct hm_sp *o = &up->sp[bi];

		s->k3_dgemm = hm_max(o->k3_dgemm, cj * kg[bi]);
		s->k3_dtrsm = hm_max(o->k3_dtrsm, cj * kt[bi]);
		s->k2_dgetf2 = hm_max(o->k2_dgetf2, cj * k2[bi]);
		s->t_step = hm_max(o->t_step, cj * t->column_step[j]);
		s->k1_dswap = hm_max(o->k1_dswap, cj * t->k1_dswap[j]);
		s->k1_dswap_aliased = hm_max(o->k1_dswap_aliased, cj * t->k1_dswap_aliased[j]);
		s->t_s = pc.ts;
		s->t_w = pc.tw;
		s->card_t_w = pc.card;
		s->node_ranks = hm_max(o->node_ranks, dj);
		s->node_senders = hm_max(o->node_senders, hm_min_int(dj, p->procs[j].cores));
		n->same_sp &= same_sps(s, o, t->pb.model->shares_cards);
	}
	/* moving past processor 'last': it is used, so it stays usable */
	n->left_last = j != up->last && up->level > 0;
	if (n->left_last)
		t->kind_used_before_last[t->kind_of[up->last]]++;
	n->maxd = dj > up->maxd ? dj : up->maxd;
	n->maxf = fj > up->maxf ? fj : up->maxf;
	n->mem_ratio = hm_max(up->mem_ratio, dj * t->inv_memory[j]);
	n->eet = INFINITY;
	t->top++;
}

void hm_tree_pop(struct hm_tree *t)
{
	const struct hm_node *n = hm_tree_top(t);
	int j = n->last, emptied = --t->d[j] == 0;

	if (n->left_last)
		t->kind_used_before_last[t->kind_of[hm_tree_node(t, t->top - 1)->last]]--;
	/* j (and, when it was its host's or class's only one, that) was the
	 * last to become used */
	t->nr_used -= emptied;
	if (t->by_host) {
		int h = t->pb.platform->procs[j].host_id;

		t->host_maxf[h] = n->host_maxf_before;
		t->top_hosts = n->top_before;
		t->host_used[h] -= emptied;
	} else {
		int c = t->class_of[j];

		t->class_maxd[c] = n->class_maxd_before;
		if (emptied && --t->class_used[c] == 0)
			t->nr_used_classes--;
	}
	t->top--;
	if (t->top < t->floors_level)   /* the node the floors were taken at is gone */
		t->floors_level = -1;
}

static int fits_memory(const struct hm_tree *t, const struct hm_node *n)
{
	return n->mem_ratio == 0 ||
	       n->mem_ratio * hm_bytes_per_process(t->pb.routine, t->pb.n, n->level) <= 1.0;
}

/* What a grid must cost at most to matter to best_config(): below
 * 'limit' and the node's best so far, or joining the collection. */
static double priced_above(const struct hm_tree *t, double limit, double best)
{
	double cut = hm_min(limit, best);

	return t->pb.collect ? hm_max(cut, t->pb.collect->worst) : cut;
}

/* Whether the top node's times are its parent's floors: the floors were
 * taken at its parent, at the SPs the model reads, and the push raised
 * none of them. */
static int times_are_floors(const struct hm_tree *t, const struct hm_node *n)
{
	return t->floors_level == n->level - 1 && n->same_sp && t->floors_exact;
}

/* best_config() of a child whose SPs are its parent's, from the parent's
 * floors, which are then its times: its least is the least floor, and
 * only that grid is priced again, for its parts. */
static double floor_config(struct hm_tree *t, const double *floors, struct hm_node *est)
{
	const struct hm_node *n = hm_tree_top(t);
	int nd, at = t->floors_least;
	const int *div = hm_divisors_of(&t->div, n->level, &nd);

	if (t->pb.collect)      /* each grid offered, as pricing it would */
		for (int bi = 0; bi < t->nb; bi++)
			for (int k = 0; k < nd; k++) {
				int r = div[k], c = n->level / r;
				double v = floors[bi * t->max_divisors + k];

				if (hm_shape_allows(&t->pb.shape, r, c, t->block[bi]) &&
				    v < t->pb.collect->worst)
					hm_top_k_offer(t->pb.collect, v, t->d, n->level, r, c, t->block[bi]);
			}
	if (at < 0)
		return INFINITY;
	if (est) {
		int bi = at / t->max_divisors;

		est->r = div[at % t->max_divisors];
		est->c = n->level / est->r;
		est->b = t->block[bi];
		t->pb.model->time(t->pb.routine, t->pb.n, est->r, est->c, est->b, &n->sp[bi],
				  &est->pred);
	}
	return floors[at];
}

/* The least grid priced so far: its time and its index bi * max_divisors + k. */
struct least_grid {
	double v;
	int at;
};

/* Price grid k (r x c) at block size block[bi] for the top node at 'sp':
 * offered to the collection of the best configurations (unless
 * 'comm_off'), and kept in *least (its parts and shape in 'est', which
 * may be NULL) when below it, or equal and earlier in (b, grid) order,
 * the order best_config() walks them: the same winner in any order. */
static void price_grid(struct hm_tree *t, const struct hm_sp *sp, int bi, int k, int r,
		       int comm_off, struct least_grid *least, struct hm_node *est)
{
	const struct hm_node *n = hm_tree_top(t);
	int c = n->level / r;
	int at = bi * t->max_divisors + k;
	struct hm_prediction pr;
	double v = t->pb.model->time(t->pb.routine, t->pb.n, r, c, t->block[bi], sp, &pr);

	if (t->pb.collect && !comm_off && v < t->pb.collect->worst)
		hm_top_k_offer(t->pb.collect, v, t->d, n->level, r, c, t->block[bi]);
	if (v < least->v || (v == least->v && at < least->at)) {
		least->v = v, least->at = at;
		if (est) {
			est->pred = pr;
			est->r = r;
			est->c = c;
			est->b = t->block[bi];
		}
	}
}

/* Min of the model over grids and b for the top node, with the
 * communication SPs zeroed when 'comm_off' (arithmetic only), pricing only
 * the grids whose floor is at most 'limit' when 'floors' (the parent's,
 * hm_tree_child_floors) is given. The winner's parts and shape go to 'est'
 * (may be NULL). */
static double best_config(struct hm_tree *t, int comm_off, int any_memory, const double *floors,
			  double limit, struct hm_node *est)
{
	const struct hm_node *n = hm_tree_top(t);
	struct least_grid least = { INFINITY, -1 };
	int bi, k, nd, first = -1;
	const int *div = hm_divisors_of(&t->div, n->level, &nd);

	t->evaluated++;
	if (n->level == 0 || (!any_memory && !fits_memory(t, n)))
		return INFINITY;
	if (floors && times_are_floors(t, n))
		return floor_config(t, floors, est);
	/* the grid of the least floor first: its time cuts the most grids
	 * below (not while collecting, whose offers keep their order) */
	if (floors && !t->pb.collect && t->floors_least >= 0) {
		first = t->floors_least;
		bi = first / t->max_divisors, k = first % t->max_divisors;
		price_grid(t, &n->sp[bi], bi, k, div[k], 0, &least, est);
	}
	for (bi = 0; bi < t->nb; bi++) {
		struct hm_sp sp = n->sp[bi];

		if (comm_off)
			sp.t_s = sp.t_w = sp.card_t_w = 0;
		if (n->level == 1 && t->single_min)     /* as hm_model_sp */
			hm_model_sp_single(t->pb.model, t->pb.platform, n->last, t->block[bi],
					   t->pb.routine, &sp);
		for (k = 0; k < nd; k++) {
			int at = bi * t->max_divisors + k;

			/* with floors, a grid whose floor is above both the
			 * limit and this node's best so far cannot lower either
			 * (nor join the collection of the best configurations) */
			if (at == first || !hm_shape_allows(&t->pb.shape, div[k], n->level / div[k], t->block[bi]) ||
			    (floors && floors[at] > priced_above(t, limit, least.v)))
				continue;
			price_grid(t, &sp, bi, k, div[k], comm_off, &least, est);
		}
	}
	return least.v;
}

double hm_tree_eet(struct hm_tree *t)
{
	struct hm_node *n = hm_tree_top(t);

	n->eet = best_config(t, 0, 0, NULL, 0, n);
	return n->eet;
}

void hm_tree_child_floors(struct hm_tree *t)
{
	const struct hm_node *n = hm_tree_top(t);
	int nd, D = n->level + 1;
	const int *div;

	t->floors_level = -1;
	if (n->level < 1 || n->level >= t->pb.depth)
		return;         /* a single process is timed by its own rule */
	div = hm_divisors_of(&t->div, D, &nd);
	t->floors_exact = 1;
	t->floors_least = -1;
	for (int bi = 0; bi < t->nb; bi++) {
		struct hm_sp sp = n->sp[bi];

		t->floors_exact &= sp.card_t_w == 0 || !t->pb.model->shares_cards;
		sp.card_t_w = 0;
		for (int k = 0; k < nd; k++) {
			int at = bi * t->max_divisors + k;

			t->floors[at] = t->pb.model->time(t->pb.routine, t->pb.n, div[k], D / div[k],
							  t->block[bi], &sp, NULL);
			if (hm_shape_allows(&t->pb.shape, div[k], D / div[k], t->block[bi]) &&
			    (t->floors_least < 0 || t->floors[at] < t->floors[t->floors_least]))
				t->floors_least = at;
		}
	}
	t->floors_level = n->level;
}

double hm_tree_eet_below(struct hm_tree *t, double limit)
{
	struct hm_node *n = hm_tree_top(t);

	if (t->floors_level != n->level - 1)
		return hm_tree_eet(t);
	n->eet = best_config(t, 0, 0, t->floors, limit, n);
	return n->eet;
}

double hm_tree_floor_eet(struct hm_tree *t)
{
	const struct hm_node *n = hm_tree_top(t);

	if (!times_are_floors(t, n) || t->floors_least < 0 || !fits_memory(t, n))
		return INFINITY;
	return t->floors[t->floors_least];
}

double hm_tree_arith(struct hm_tree *t)
{
	return best_config(t, 1, 0, NULL, 0, NULL);
}

double hm_tree_eet_any_memory(struct hm_tree *t)
{
	return best_config(t, 0, 1, NULL, 0, NULL);
}

int hm_tree_canonical_child(const struct hm_tree *t, int j)
{
	int prev = t->class_prev[j];

	return prev < 0 || t->d[j] + 1 <= t->d[prev];
}

int hm_tree_canonical_children(struct hm_tree *t)
{
	int n = 0;

	for (int c = 0; c < t->C; c++) {
		const int *m = &t->class_members[t->class_start[c]];
		int size = t->class_start[c + 1] - t->class_start[c];

		for (int pos = 0; pos < size;) {
			int v = t->d[m[pos]], lo = pos + 1, hi = size;

			t->children[n++] = m[pos];
			if (v == 0)
				break;  /* no fewer than none: the rest are alike */
			while (lo < hi) {       /* the first position holding fewer than v */
				int mid = lo + (hi - lo) / 2;

				if (t->d[m[mid]] < v)
					hi = mid;
				else
					lo = mid + 1;
			}
			pos = lo;
		}
	}
	return n;
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

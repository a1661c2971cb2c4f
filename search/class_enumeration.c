/* search/class_enumeration.c - see class_enumeration.h.
 *
 * Why it is exact (search/README.md has the argument at more length).
 * Split the processors into classes of interchangeable ones
 * (search/classes.h). Under the heterogeneity rule the
 * effective SPs of a placement d depend only on, per class c:
 *   m_c   = the largest d_i in the class (0: class unused), and
 *   multi = whether two or more of its processors are used,
 * because every computation SP is max_i d_i k_i = max_c m_c k_c, and the
 * communication SP is the max over existing pairs of max(d_i, d_j) t(i, j):
 * between two used classes the largest pair is max(m_c, m_c') T[c][c'];
 * inside a class such a pair exists iff multi (value m_c T[c][c]); the
 * same-processor pair exists iff m_c >= 2 (value m_c T0[c]). A profile
 * {(m_c, multi_c)} is realised by exactly the totals D in
 *   [sum (m_c, or m_c + 1 if multi), sum (m_c, or N_c m_c if multi)]
 * (one processor holds m_c, a second one at least 1 if multi, the rest
 * anything up to m_c), all with the same SPs; memory only requires
 * m_c * bytes(D) <= memory_c. So the optimum over placements equals the
 * minimum over profiles, D in their range (and <= L), grids and b: that
 * is what the search below enumerates, class by class.
 *
 * Pruning. Adding a class, or raising m_c, only raises SPs and the lowest
 * reachable D. The model never decreases when an SP grows (the contract of
 * struct hm_model), so min over D in [lo, L], grids and b of the model at
 * the current SPs bounds every profile below the node; a node whose bound
 * is not below the incumbent is cut, and with it every larger m_c of the
 * same class. The bound is computed through the model's weights over
 * ranges of D (weight_tree.h); the totals a profile cannot hold itself
 * are bounded segment by segment (beyond_cut), and profiles that a
 * dominating class makes redundant are skipped (can_stand_in). */
#include "class_enumeration.h"
#include "models/util/clock.h"
#include "models/util/minmax.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct cls {
	int count;          /* N_c */
	int *members;       /* ascending processor indices */
	double memory;      /* bytes, 0 = not given */
	int cores;
	int host;           /* its first member's host */
	int hosts;          /* 1 when its members are on one host, else 2 */
	double card_t_w;    /* its members' cards (the most of them) */
	struct hm_link same;    /* same-processor link */
	double speed_key;   /* for the order: k3_dgemm at the middle b */
};

/* The computation SPs a class's processes cost (model.h). */
#define NK HM_NR_COMP_SP

/* The running state along the path of the enumeration. */
struct profile {
	double k[HM_MAX_BLOCK_SIZES][HM_NR_COMP_SP];    /* the computation SPs per b */
	double t_s, t_w;
	double card_t_w;    /* pairs of classes on different hosts (hm_sp) */
	double most;        /* the largest m_c: the most processes on one processor */
	double senders;     /* the largest min(m_c, cores_c): of them, sending at once */
	double mem_cap;     /* bytes one process may use: min over used memory_c / m_c */
	int lo, hi;         /* reachable totals */
};

struct exact {
	const struct hm_problem *pb;
	const struct hm_budget *budget;
	struct hm_result *res;
	int P, C, nb, L;
	const int *block;
	struct cls *cls;            /* in search order, fastest first */
	struct hm_link *T;          /* [a * C + b] between classes (a != b or inside a) */
	double *k;                  /* [(c * nb + bi) * NK + computation SP] */
	double *suffix_k;           /* [(c * nb + bi) * NK + computation SP]: min over classes >= c of one
				     * process's cost; row C: inf */
	double *suffix_over;        /* the same for more processes than cores on a processor */
	long *cum_cores;            /* [c]: cores of the classes before c, all their processors */
	unsigned char *dominates;   /* [a * C + s]: a can stand in for s (NULL: not computed) */
	unsigned char *on_path;     /* [c]: class c is in the current profile */
	struct hm_link min_link;    /* smallest t_s and t_w between distinct processors */
	const struct hm_weight_tree *weights;   /* the model's weights for 1..L processes */
	int *path_class, *path_m, *path_multi;  /* the profile on the path */
	int *best_class, *best_m, *best_multi, best_len;
	int depth;
	double best;
	double start;
	long nodes, pruned;
	int stopped;
};

/* ---- classes ----------------------------------------------------------- */

static int cmp_speed(const void *x, const void *y)
{
	const struct cls *a = x, *b = y;

	if (a->speed_key != b->speed_key)
		return a->speed_key < b->speed_key ? -1 : 1;
	return a->members[0] - b->members[0];
}

/* Classes in search order (fastest first), their k values per candidate b
 * and the link table, from class_of[] of the nprocs processors procs[]
 * (C classes).
 * 'inter' (may be NULL) replaces every link between distinct processors:
 * the coarse view of a two-level network (below). */
static int build(struct exact *x, const int *procs, int nprocs, const int *class_of, int C,
		 const struct hm_link *inter, struct hm_error *err)
{
	const struct hm_platform *p = x->pb->platform;
	int *fill;

	x->C = C;
	x->cls = calloc((size_t)C, sizeof(*x->cls));
	fill = calloc((size_t)C, sizeof(int));
	if (!x->cls || !fill)
		goto oom;
	for (int u = 0; u < nprocs; u++)
		x->cls[class_of[procs[u]]].count++;
	for (int c = 0; c < C; c++)
		if (!(x->cls[c].members = malloc((size_t)x->cls[c].count * sizeof(int))))
			goto oom;
	for (int u = 0; u < nprocs; u++) {
		int i = procs[u];
		struct cls *c = &x->cls[class_of[i]];

		if (fill[class_of[i]] == 0)
			c->host = p->procs[i].host_id, c->hosts = 1;
		else if (p->procs[i].host_id != c->host)
			c->hosts = 2;
		c->card_t_w = hm_max(c->card_t_w, p->procs[i].card_t_w);
		c->members[fill[class_of[i]]++] = i;
		c->memory = p->procs[i].memory;
		c->cores = p->procs[i].cores;
		c->same = hm_platform_link(p, i, i);
		c->speed_key = hm_table_at(&p->types[p->procs[i].type].k3_dgemm, x->block[x->nb / 2]);
	}
	qsort(x->cls, (size_t)C, sizeof(*x->cls), cmp_speed);
	x->T = malloc((size_t)C * C * sizeof(*x->T));
	x->k = malloc((size_t)C * x->nb * NK * sizeof(double));
	if (!x->T || !x->k)
		goto oom;
	for (int a = 0; a < C; a++) {
		const struct hm_proc_type *ty = &p->types[p->procs[x->cls[a].members[0]].type];

		for (int b = 0; b < C; b++) {
			int i = x->cls[a].members[0], j = x->cls[b].members[0];

			if (i == j)     /* inside a class: its first two members */
				j = x->cls[a].count > 1 ? x->cls[a].members[1] : i;
			x->T[a * C + b] = inter && i != j ? *inter : hm_platform_link(p, i, j);
		}
		for (int bi = 0; bi < x->nb; bi++) {    /* as tree.c's fill_tables */
			hm_type_comp_costs(ty, hm_model_kernel_block(x->pb->model, x->pb->routine, x->block[bi]),
					   &x->k[((size_t)a * x->nb + bi) * NK]);
		}
	}
	/* what any class added later costs at least: the bound for totals the
	 * current profile cannot hold */
	if (!(x->suffix_k = malloc((size_t)(C + 1) * x->nb * NK * sizeof(double))))
		goto oom;
	for (int i = 0; i < x->nb * NK; i++)
		x->suffix_k[(size_t)C * x->nb * NK + i] = INFINITY;
	if (!(x->suffix_over = malloc((size_t)(C + 1) * x->nb * NK * sizeof(double))) ||
	    !(x->cum_cores = malloc((size_t)(C + 1) * sizeof(long))))
		goto oom;
	for (int i = 0; i < x->nb * NK; i++)
		x->suffix_over[(size_t)C * x->nb * NK + i] = INFINITY;
	for (int c = C - 1; c >= 0; c--) {
		/* one process: the least a class can cost (its factor never
		 * drops); one more than its cores: the least once they share */
		double one = hm_compute_factor(p, x->cls[c].members[0], 1, x->pb->routine);
		double over = hm_compute_factor(p, x->cls[c].members[0], x->cls[c].cores + 1,
						x->pb->routine);

		for (int i = 0; i < x->nb * NK; i++) {
			size_t at = (size_t)c * x->nb * NK + i, next = at + (size_t)x->nb * NK;

			x->suffix_k[at] = hm_min(one * x->k[at], x->suffix_k[next]);
			x->suffix_over[at] = hm_min(over * x->k[at], x->suffix_over[next]);
		}
	}
	x->cum_cores[0] = 0;
	for (int c = 0; c < C; c++)
		x->cum_cores[c + 1] = x->cum_cores[c] + (long)x->cls[c].count * x->cls[c].cores;
	x->min_link.t_s = x->min_link.t_w = x->min_link.t_w_core = INFINITY;
	for (int a = 0; a < C; a++)
		for (int b = 0; b < C; b++)
			if (a != b || x->cls[a].count > 1)
				hm_link_min(&x->min_link, x->T[a * C + b]);
	free(fill);
	return 0;
oom:
	free(fill);
	return hm_error_set(err, "out of memory");
}

/* Dominance. Class a can stand in for class s when, at every count m,
 * a costs no more in every SP and holds at least as many processes: as
 * many processors or more, the same cores and busy-cores scale and no
 * larger stacking factor (so factors no larger), no dearer kernel at any b, no dearer link to any other
 * class nor inside, no less memory. Then a profile that uses s but not a
 * is matched or beaten, at every total it reaches, by the same profile
 * with a in place of s (same lo, hi at least as large, SPs no larger),
 * which the enumeration visits or cuts by its bound; repeating the
 * exchange ends, as it only moves to smaller class indices. So such a
 * profile need not be visited. O(C^3) to compute: only for C <= 256. */
#define MAX_DOMINANCE_CLASSES 256

static int same_scale(const struct hm_table *a, const struct hm_table *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (a->b[i] != b->b[i] || a->k[i] != b->k[i])
			return 0;
	return 1;
}

static int can_stand_in(const struct exact *x, int a, int s)
{
	const struct hm_platform *p = x->pb->platform;
	const struct cls *A = &x->cls[a], *S = &x->cls[s];
	const size_t row = (size_t)x->nb * NK;

	const struct hm_proc_type *ta = &p->types[p->procs[A->members[0]].type];
	const struct hm_proc_type *ts = &p->types[p->procs[S->members[0]].type];

	if (A->count < S->count || A->cores != S->cores ||
	    !same_scale(&ta->busy_scale, &ts->busy_scale) ||
	    ta->stacked[x->pb->routine] > ts->stacked[x->pb->routine] ||
	    (A->memory > 0 && (S->memory <= 0 || A->memory < S->memory)) ||
	    !hm_link_at_most(A->same, S->same) || !hm_link_at_most(x->T[a * x->C + a], x->T[s * x->C + s]))
		return 0;
	for (size_t i = 0; i < row; i++)
		if (x->k[a * row + i] > x->k[s * row + i])
			return 0;
	for (int o = 0; o < x->C; o++)
		if (o != a && o != s && !hm_link_at_most(x->T[a * x->C + o], x->T[s * x->C + o]))
			return 0;
	return 1;
}

static int build_dominance(struct exact *x)
{
	if (!(x->on_path = calloc((size_t)x->C, 1)))
		return -1;
	if (x->C > MAX_DOMINANCE_CLASSES)
		return 0;
	if (!(x->dominates = calloc((size_t)x->C * x->C, 1)))
		return -1;
	for (int a = 0; a < x->C; a++)
		for (int s = a + 1; s < x->C; s++)
			x->dominates[a * x->C + s] = (unsigned char)can_stand_in(x, a, s);
	return 0;
}

/* 1 if a class before c, unused by the current profile, stands in for c. */
static int dominated(const struct exact *x, int c)
{
	if (!x->dominates)
		return 0;
	for (int a = 0; a < c; a++)
		if (!x->on_path[a] && x->dominates[a * x->C + c])
			return 1;
	return 0;
}

/* ---- the enumeration --------------------------------------------------- */

/* The clock is read every 16 nodes: a node walks the weight tree, which
 * at depth 4096 with 16 block sizes costs up to about a millisecond. */
static int out_of_budget(struct exact *x)
{
	if (x->stopped)
		return 1;
	if (hm_search_interrupt)
		x->stopped = HM_STOP_SIGNAL;
	else if (x->budget->max_nodes && x->nodes >= x->budget->max_nodes)
		x->stopped = HM_STOP_NODES;
	else if (x->budget->max_seconds > 0 && (x->nodes & 15) == 0 &&
		 hm_now() - x->start > x->budget->max_seconds)
		x->stopped = HM_STOP_TIME;
	return x->stopped != 0;
}

/* The profile's SPs as one vector per b; 'later' (may be NULL: as they
 * are) raises the computation SPs to its values ([bi * NK + SP]), and then
 * the links to the cheapest one: the SPs of totals the profile cannot
 * hold itself, which need classes after its last. */
static void sp_vectors(const struct exact *x, const struct profile *pf, const double *later,
		       hm_sp_vector *sp)
{
	for (int bi = 0; bi < x->nb; bi++) {
		double *v = sp[bi];

		memcpy(v, pf->k[bi], sizeof(pf->k[bi]));
		v[HM_SP_TS] = pf->t_s, v[HM_SP_TW] = pf->t_w;
		if (!later)
			continue;
		for (int k = 0; k < NK; k++)
			v[k] = hm_max(v[k], later[bi * NK + k]);
		v[HM_SP_TS] = hm_max(v[HM_SP_TS], x->min_link.t_s);
		v[HM_SP_TW] = hm_max(v[HM_SP_TW], x->min_link.t_w);
	}
}

struct candidates {
	struct exact *x;
	const struct profile *pf;
};

/* A total the profile holds, below the incumbent by its weights: timed
 * by the model itself (the answer's time is the model's, to the last
 * bit) and taken when it is better. */
static int take_candidate(void *ctx, int D, int r, int bi, double time, double *limit)
{
	struct candidates *cd = ctx;
	struct exact *x = cd->x;
	const struct profile *pf = cd->pf;
	double v[HM_NR_SP];
	struct hm_sp sp;
	double t;

	memcpy(v, pf->k[bi], sizeof(pf->k[bi]));
	v[HM_SP_TS] = D > 1 ? pf->t_s : 0, v[HM_SP_TW] = D > 1 ? pf->t_w : 0;
	hm_sp_from_vector(v, &sp);
	sp.card_t_w = pf->card_t_w, sp.node_ranks = pf->most, sp.node_senders = pf->senders;
	t = x->pb->model->time(x->pb->routine, x->pb->n, r, D / r, x->block[bi], &sp, NULL);

	(void)time;
	if (t < x->best) {
		x->best = *limit = t;
		x->res->D = D, x->res->r = r, x->res->c = D / r;
		x->res->b = x->block[bi];
		x->best_len = x->depth;
		memcpy(x->best_class, x->path_class, (size_t)x->depth * sizeof(int));
		memcpy(x->best_m, x->path_m, (size_t)x->depth * sizeof(int));
		memcpy(x->best_multi, x->path_multi, (size_t)x->depth * sizeof(int));
		x->res->seconds_to_best = hm_now() - x->start;
	}
	return 0;
}

static int found(void *ctx, int D, int r, int bi, double time, double *limit)
{
	(void)ctx, (void)D, (void)r, (void)bi, (void)time, (void)limit;
	return 1;
}

/* 1 if some D in [lo, hi] is below the incumbent at SPs 'sp'. */
static int any_below(const struct exact *x, const hm_sp_vector *sp, int lo, int hi)
{
	double limit = x->best;

	return hm_weight_tree_below(x->weights, sp, lo, hi, &limit, found, NULL);
}

/* The smallest total in [lo, hi] whose processes fit in memory (a
 * process's share only shrinks as D grows), or hi + 1. */
static int first_fitting(const struct exact *x, const struct profile *pf, int lo, int hi)
{
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (hm_bytes_per_process(x->pb->routine, x->pb->n, mid) <= pf->mem_cap)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Whether the node of profile 'pf' (its last class 'last') is cut.
 *
 * strong (the node): the profile's own totals (D <= hi, memory allowed)
 * are candidates and update the incumbent first; then the node is kept
 * if any D in [lo, L] could still beat it: at the profile's SPs up to hi,
 * and beyond hi (which needs a class after 'last') at the SPs raised to
 * the cheapest such class and link.
 * weak (every larger m of the same class): any D at the profile's SPs.
 * It only grows with m_c (SPs and lo grow), whereas the strong bound's
 * part for D > hi can shrink when hi grows: only the weak one may cut
 * the larger m_c too. */
/* Segments of the totals beyond a profile's own that are bounded apart;
 * past the last, the level at its start holds to L. */
#define MAX_SEGMENTS 32

/* Whether every total in [hi + 1, L] is cut, for a profile whose last
 * class is 'last'. Those totals need the classes after it, whose
 * processors hold cum_cores (from the next class on) processes before any
 * shares a core. So beyond hi + (the cores of the next j - 1 classes) a
 * total needs either a class from the j-th on (at least its cheapest
 * one-process cost) or more processes than cores somewhere (at least the
 * cheapest such cost): the SPs rise segment by segment, a tighter bound
 * than the next class's cost for every total. */
static int beyond_cut(struct exact *x, const struct profile *pf, int last, int hi)
{
	const size_t row = (size_t)x->nb * NK;
	const double *over = &x->suffix_over[(last + 1) * row];
	hm_sp_vector raised[HM_MAX_BLOCK_SIZES];
	double level[HM_MAX_BLOCK_SIZES * NK];
	long from = hi + 1;

	for (int j = last + 1, seg = 0; from <= x->L; j++, seg++) {
		const double *one = &x->suffix_k[(size_t)(j < x->C ? j : x->C) * row];
		long to = j < x->C && seg < MAX_SEGMENTS - 1 ?
			  hi + x->cum_cores[j + 1] - x->cum_cores[last + 1] : x->L;

		if (one[0] == INFINITY && over[0] == INFINITY)
			return 1;       /* no class left to hold more processes */
		for (size_t i = 0; i < row; i++)
			level[i] = hm_min(one[i], over[i]);
		sp_vectors(x, pf, level, raised);
		if (any_below(x, raised, (int)from, (int)(to < x->L ? to : x->L)))
			return 0;
		from = to + 1;
	}
	return 1;
}

static int cut(struct exact *x, const struct profile *pf, int last, int strong)
{
	hm_sp_vector sp[HM_MAX_BLOCK_SIZES];
	int lo = pf->lo > 0 ? pf->lo : 1, hi = pf->hi < x->L ? pf->hi : x->L;

	sp_vectors(x, pf, NULL, sp);
	if (!strong)
		return !any_below(x, sp, lo, x->L);
	if (lo <= hi) {
		struct candidates cd = { x, pf };
		double limit = x->best;

		hm_weight_tree_below(x->weights, sp, first_fitting(x, pf, lo, hi), hi, &limit,
				     take_candidate, &cd);
		if (any_below(x, sp, lo, hi))
			return 0;
	}
	return hi >= x->L || beyond_cut(x, pf, last, hi);
}

/* pf with class c added at count m (multi: on two or more processors). */
static void add_class(const struct exact *x, const struct profile *pf, int c, int m, int multi,
		      struct profile *out)
{
	const struct cls *k = &x->cls[c];
	const struct hm_link *T = x->T;
	/* the heterogeneity rule at the class's largest count m */
	double cf = hm_compute_factor(x->pb->platform, k->members[0], m, x->pb->routine);
	int f = hm_share_factor(m, k->cores);

	*out = *pf;
	for (int bi = 0; bi < x->nb; bi++) {
		const double *kv = &x->k[((size_t)c * x->nb + bi) * NK];

		for (int j = 0; j < NK; j++)
			out->k[bi][j] = hm_max(out->k[bi][j], cf * kv[j]);
	}
	for (int u = 0; u < x->depth; u++) {     /* pairs with the classes already used */
		int o = x->path_class[u], fo = hm_share_factor(x->path_m[u], x->cls[o].cores);
		int mm = f > fo ? f : fo;

		out->t_s = hm_max(out->t_s, mm * T[c * x->C + o].t_s);
		out->t_w = hm_max(out->t_w, hm_link_word_cost(T[c * x->C + o], mm));
		if (x->cls[c].host != x->cls[o].host)
			out->card_t_w = hm_max(out->card_t_w, hm_max(k->card_t_w, x->cls[o].card_t_w));
	}
	if (multi) {
		out->t_s = hm_max(out->t_s, f * T[c * x->C + c].t_s);
		out->t_w = hm_max(out->t_w, hm_link_word_cost(T[c * x->C + c], f));
		if (k->hosts > 1)
			out->card_t_w = hm_max(out->card_t_w, k->card_t_w);
	}
	out->most = hm_max(out->most, m);
	out->senders = hm_max(out->senders, hm_min_int(m, k->cores));
	if (m >= 2) {
		out->t_s = hm_max(out->t_s, f * k->same.t_s);
		out->t_w = hm_max(out->t_w, hm_link_word_cost(k->same, f));
	}
	if (k->memory > 0)
		out->mem_cap = hm_min(out->mem_cap, k->memory / m);
	out->lo += multi ? m + 1 : m;
	out->hi += multi ? k->count * m : m;
}

static void enumerate(struct exact *x, const struct profile *pf, int from)
{
	for (int c = from; c < x->C && !out_of_budget(x); c++) {
		if (dominated(x, c))
			continue;
		x->on_path[c] = 1;
		for (int multi = x->cls[c].count > 1; multi >= 0; multi--)
			for (int m = 1; pf->lo + m + multi <= x->L && !out_of_budget(x); m++) {
				struct profile child;

				add_class(x, pf, c, m, multi, &child);
				x->path_class[x->depth] = c;
				x->path_m[x->depth] = m;
				x->path_multi[x->depth] = multi;
				x->depth++;
				x->nodes++;
				if (x->depth > x->res->level_reached)
					x->res->level_reached = x->depth;
				if (cut(x, &child, c, 1)) {
					x->depth--;
					x->pruned++;
					if (cut(x, &child, c, 0))
						break;  /* and every larger m of this class */
					continue;
				}
				enumerate(x, &child, c + 1);
				x->depth--;
			}
		x->on_path[c] = 0;
	}
}

/* The placement of the best profile: per class, one processor at m_c,
 * (multi) a second one at 1 or more, then the totals D asks for, filled
 * in member order up to m_c each. */
static void realise(struct exact *x)
{
	int extra = x->res->D;

	memset(x->res->d, 0, (size_t)x->P * sizeof(int));
	for (int u = 0; u < x->best_len; u++)
		extra -= x->best_m[u] + x->best_multi[u];
	for (int u = 0; u < x->best_len; u++) {
		const struct cls *k = &x->cls[x->best_class[u]];
		int m = x->best_m[u];

		x->res->d[k->members[0]] = m;
		if (!x->best_multi[u])
			continue;
		x->res->d[k->members[1]] = 1;
		for (int j = 1; j < k->count && extra > 0; j++) {
			int add = m - x->res->d[k->members[j]];

			if (add > extra)
				add = extra;
			x->res->d[k->members[j]] += add;
			extra -= add;
		}
	}
}

static void release(struct exact *x)
{
	for (int c = 0; x->cls && c < x->C; c++)
		free(x->cls[c].members);
	free(x->cls), free(x->T), free(x->k), free(x->suffix_k), free(x->suffix_over), free(x->cum_cores);
	free(x->dominates), free(x->on_path);
	free(x->path_class), free(x->path_m), free(x->path_multi);
	free(x->best_class), free(x->best_m), free(x->best_multi);
}

int hm_class_enumeration(const struct hm_problem *pb, const struct hm_weight_tree *weights,
			 const int *procs, int nprocs, const int *class_of, int C,
			 const struct hm_link *inter,
			 const struct hm_budget *budget, double start,
			 const struct hm_result *seed, struct hm_result *res, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	size_t path = ((size_t)pb->depth + 1) * sizeof(int);
	struct exact x = { 0 };
	struct profile root;
	int ret = -1;

	x.pb = pb, x.budget = budget, x.res = res, x.weights = weights;
	x.P = p->nr_procs, x.L = pb->depth, x.block = p->block_sizes;
	x.nb = hm_platform_block_count(p, pb->n);
	x.start = start;
	x.best = INFINITY;
	if (build(&x, procs, nprocs, class_of, C, inter, err))
		goto out;
	if (build_dominance(&x)) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	x.path_class = malloc(path), x.path_m = malloc(path), x.path_multi = malloc(path);
	x.best_class = malloc(path), x.best_m = malloc(path), x.best_multi = malloc(path);
	if (!x.path_class || !x.path_m || !x.path_multi || !x.best_class || !x.best_m ||
	    !x.best_multi) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	memset(&root, 0, sizeof(root));
	root.mem_cap = INFINITY;
	if (seed->found)        /* a reachable time: cuts from the start */
		x.best = seed->eet;
	if (pb->beat > 0 && pb->beat < x.best)  /* one reached elsewhere */
		x.best = pb->beat;
	enumerate(&x, &root, 0);
	res->evaluated = x.nodes;
	res->pruned = x.pruned;
	res->stopped = (enum hm_stop)x.stopped;
	res->found = x.best_len > 0;
	if (res->found) {
		struct hm_error perr;

		realise(&x);
		/* the model's own time of the placement: with 'inter' it may
		 * be below the enumeration's (its processors may share a host) */
		hm_predict(pb->model, p, pb->routine, pb->n, res->d, res->r, res->c, res->b,
			   &res->pred, &perr);
		res->eet = res->pred.total;
	}
	ret = 0;
out:
	release(&x);
	return ret;
}

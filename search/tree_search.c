/* search/tree_search.c - BTM, BGRM, GRM, GCTM, GPTM and the exhaustive
 * search over the walker of tree.c (search/README.md).
 *
 * Invariants: MEET is the EET of a node actually evaluated (an upper bound
 * of the optimum); BTM and BGRM cut a subtree only when its LET, a true
 * lower bound (hm_tree_let), is >= MEET, so they return the optimum
 * within the depth limit unless a budget stops them. GRM's greedy LET is
 * not a bound and may cut the optimum, as in the thesis. */
#include "tree_search.h"
#include "tree.h"
#include "top_k.h"
#include "models/util/clock.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What an evaluation found for a node: all a descent needs to push it
 * again without evaluating it twice (a whole node, with its SPs at every
 * block size, is ten times larger and the child rows are depth x P). */
struct estimate {
	double eet;
	struct hm_prediction pred;
	int r, c, b;
};

/* A child evaluated but not yet descended into (branch and bound). */
struct child {
	int j;              /* processor added */
	struct estimate est;
};

struct hm_run {
	struct hm_tree t;
	struct child *children; /* (depth + 1) x P, one row per level */
	struct hm_result *res;
	struct hm_budget budget;
	double start;       /* hm_now() at the start */
	double meet;        /* min GET so far */
	unsigned long polls; /* calls of stopped(): the clock is read every 1024 */
	long clock_every;   /* ... and every so many evaluations (a deep limit makes them dear) */
	long evaluated_at_clock;
	double clock_at;    /* the last reading */
};

/* ---- the incumbent ---------------------------------------------------- */

/* Deterministic order of equal estimates: fewer processes, then
 * lower processor indices (larger d at the first index that differs),
 * then smaller b, then smaller r. */
static int better(const struct hm_tree *t, const struct hm_node *n,
		  const struct hm_result *best)
{
	int i;

	if (!best->found)
		return n->eet < INFINITY;
	if (n->eet != best->eet)
		return n->eet < best->eet;
	if (n->level != best->D)
		return n->level < best->D;
	for (i = 0; i < t->P; i++)
		if (t->d[i] != best->d[i])
			return t->d[i] > best->d[i];
	if (n->b != best->b)
		return n->b < best->b;
	return n->r < best->r;
}

/* Keep the top node if it beats the incumbent. */
static void consider(struct hm_run *s)
{
	const struct hm_node *n = hm_tree_top(&s->t);
	struct hm_result *res = s->res;

	if (n->level > res->level_reached)
		res->level_reached = n->level;
	if (!better(&s->t, n, res))
		return;
	memcpy(res->d, s->t.d, (size_t)s->t.P * sizeof(int));
	res->found = 1;
	res->D = n->level;
	res->r = n->r;
	res->c = n->c;
	res->b = n->b;
	res->eet = n->eet;
	res->pred = n->pred;
	res->seconds_to_best = hm_now() - s->start;
	if (n->eet < s->meet)
		s->meet = n->eet;
}

/* Whether a budget has run out. The clock is read every 1024 calls (a
 * walk that skips many children, as the exhaustive search does with
 * interchangeable processors, calls this without evaluating) and every
 * clock_every evaluations, which starts at about 100000 (D, b) pairs (a
 * LET scans every D up to the depth and every b: at depth 4096 and 16
 * block sizes 1024 evaluations took 0.6 s past a 2 s budget) and then
 * doubles or halves towards a reading every 1-4 ms. */
static int stopped(struct hm_run *s)
{
	if (s->res->stopped != HM_STOP_COMPLETE)
		return 1;
	if (hm_search_interrupt)
		s->res->stopped = HM_STOP_SIGNAL;
	else if (s->budget.max_nodes > 0 && s->t.evaluated >= s->budget.max_nodes)
		s->res->stopped = HM_STOP_NODES;
	else if (s->budget.max_seconds > 0 &&
		 ((s->polls++ & 1023) == 0 || s->t.evaluated - s->evaluated_at_clock >= s->clock_every)) {
		double now = hm_now();

		/* a reading every evaluation was 4 % of GPTM's time at 128000 levels */
		if (now - s->clock_at < 1e-3 && s->clock_every < LONG_MAX / 2)
			s->clock_every *= 2;
		else if (now - s->clock_at > 4e-3 && s->clock_every > 1)
			s->clock_every /= 2;
		s->clock_at = now;
		s->evaluated_at_clock = s->t.evaluated;
		if (now - s->start > s->budget.max_seconds)
			s->res->stopped = HM_STOP_TIME;
	}
	return s->res->stopped != HM_STOP_COMPLETE;
}

/* Push j, evaluate the new top node and offer it as incumbent. */
static double visit(struct hm_run *s, int j)
{
	double eet;

	hm_tree_push(&s->t, j);
	eet = hm_tree_eet(&s->t);
	consider(s);
	return eet;
}

/* visit() of a child of the node whose floors were taken, its EET exact
 * when at most 'limit', else only known to be above it (so it is not the
 * incumbent either: the least child is, and no child priced above it). */
static double visit_below(struct hm_run *s, int j, double limit)
{
	double eet;

	hm_tree_push(&s->t, j);
	eet = hm_tree_eet_below(&s->t, limit);
	consider(s);
	return eet;
}

/* ---- greedy steps ----------------------------------------------------- */

static void estimate_of(const struct hm_node *n, struct estimate *est)
{
	est->eet = n->eet;
	est->pred = n->pred;
	est->r = n->r, est->c = n->c, est->b = n->b;
}

/* When no child fits in memory (a large n on few processes), the one
 * nearest to fitting: the least max d_i / memory_i (every child has the
 * same D, so the same bytes per process), then, in the permutational tree,
 * the least time the model gives ignoring memory (the fast processors
 * first; the combinatorial tree keeps index order, as a step past a
 * processor never returns to it). The lowest index alone would stack
 * processes on one node that can never hold the matrix. */
struct unfit {
	double mem_ratio, time;
	int j;
};

static void offer_unfit(struct hm_run *s, int j, int permutational, struct unfit *u,
			struct estimate *est)
{
	const struct hm_node *n = hm_tree_top(&s->t);
	int tie = u->j >= 0 && n->mem_ratio == u->mem_ratio;
	double time;

	if (u->j >= 0 && (n->mem_ratio > u->mem_ratio || (tie && !permutational)))
		return;
	time = permutational ? hm_tree_eet_any_memory(&s->t) : 0;
	if (tie && !(time < u->time || (time == u->time && j < u->j)))
		return;
	u->mem_ratio = n->mem_ratio, u->time = time, u->j = j;
	estimate_of(n, est);
}

/* The i-th child best_child() evaluates. */
static int child_at(const struct hm_tree *t, int permutational, int i)
{
	return permutational ? t->children[i] : hm_tree_node(t, t->top)->last + i;
}

/* The least child's time, when a child that keeps its parent's SPs fits
 * in memory (most pushes of a large D): its times are the floors, which
 * no child's fall below; that child's processor goes to *at. Else
 * INFINITY. Known before any child is priced, it leaves the others only
 * the grids that could tie it to price, and the processors above *at
 * nothing: GPTM had priced the children before such a child against
 * their own best. */
static double least_child_known(struct hm_run *s, int permutational, int nr, int *at)
{
	double v = INFINITY;

	for (int i = 0; i < nr && v == INFINITY; i++) {
		*at = child_at(&s->t, permutational, i);
		hm_tree_push(&s->t, *at);
		v = hm_tree_floor_eet(&s->t);
		hm_tree_pop(&s->t);
	}
	return v;
}

/* Evaluate the top node's children (the permutational tree's all, one
 * per class of interchangeable processors and count: the others repeat
 * it and lose the tie to the lowest index; the combinatorial tree's from
 * its last processor on, in index order); return the one with the least
 * EET (ties: lowest index), else the unfit one nearest to fitting, or -1.
 * Its estimate goes to *est. */
static int best_child(struct hm_run *s, int permutational, struct estimate *est)
{
	struct hm_tree *t = &s->t;
	int nr = permutational ? hm_tree_canonical_children(t) : t->P - hm_tree_top(t)->last;
	struct unfit unfit = { 0, 0, -1 };
	double best = INFINITY, known = INFINITY;
	int i, arg = -1, known_at = -1;

	/* a grid whose floor is above the least child so far, or above its
	 * own child's best so far, cannot make its child the least (ties go on
	 * to be priced), nor enter the collection of the best configurations:
	 * at 128000 cores that skips most of the children's grids */
	if (nr >= 2) {
		hm_tree_child_floors(t);
		known = least_child_known(s, permutational, nr, &known_at);
	}
	for (i = 0; i < nr && !stopped(s); i++) {
		int j = child_at(t, permutational, i);
		double v;

		/* a later processor can at best tie the known least, and loses
		 * the tie (unless it could join the collection) */
		if (known < INFINITY && j > known_at && !t->pb.collect)
			continue;
		/* no child yet: this one's least exactly (an INFINITY must mean
		 * unfit), unless the least is known */
		v = visit_below(s, j, known < INFINITY ? known : arg < 0 ? INFINITY : best);

		if (v < best || (v == best && arg >= 0 && j < arg)) {
			best = v;
			arg = j;
			estimate_of(hm_tree_top(t), est);
		} else if (arg < 0 && v == INFINITY && known == INFINITY) {
			offer_unfit(s, j, permutational, &unfit, est);
		}
		hm_tree_pop(t);
	}
	return arg >= 0 ? arg : unfit.j;
}

/* Push child j whose estimate is already known (no second evaluation). */
static void descend(struct hm_run *s, int j, const struct estimate *est)
{
	struct hm_node *n;

	hm_tree_push(&s->t, j);
	n = hm_tree_top(&s->t);
	n->eet = est->eet;
	n->pred = est->pred;
	n->r = est->r;
	n->c = est->c;
	n->b = est->b;
}

/* GET of BGRM and GRM: from the top node take the least-EET child while it
 * improves; return the EET where it stops. The path is undone after. */
static double greedy_get(struct hm_run *s)
{
	struct hm_tree *t = &s->t;
	int base = t->top;
	double get = hm_tree_top(t)->eet;
	struct estimate est = { 0 };  /* set by best_child whenever it returns a child */

	while (hm_tree_top(t)->level < t->pb.depth) {
		int j = best_child(s, 0, &est);

		if (j < 0 || !(est.eet < get))
			break;
		descend(s, j, &est);
		get = est.eet;
	}
	while (t->top > base)
		hm_tree_pop(t);
	return get;
}

/* GRM's LET: greedy on the arithmetic part only (communication held at
 * the node's value): add the child with the least arithmetic estimate
 * while that decreases. Not a lower bound of the model. */
static double greedy_let(struct hm_run *s)
{
	struct hm_tree *t = &s->t;
	int base = t->top;
	double comm = hm_tree_top(t)->pred.comm;
	double arith = hm_tree_arith(t);

	while (hm_tree_top(t)->level < t->pb.depth && !stopped(s)) {
		double best = INFINITY;
		int j, arg = -1;

		for (j = hm_tree_top(t)->last; j < t->P; j++) {
			double v;

			hm_tree_push(t, j);
			v = hm_tree_arith(t);
			hm_tree_pop(t);
			if (v < best) {
				best = v;
				arg = j;
			}
		}
		if (arg < 0 || !(best < arith))
			break;
		hm_tree_push(t, arg);
		arith = best;
	}
	while (t->top > base)
		hm_tree_pop(t);
	return arith + comm;
}

/* ---- branch and bound ------------------------------------------------ */

enum bnb_kind { BNB_PLAIN, BNB_GREEDY_GET, BNB_GREEDY_LET };

static int cmp_child(const void *x, const void *y)
{
	const struct child *a = x, *b = y;

	if (a->est.eet != b->est.eet)
		return a->est.eet < b->est.eet ? -1 : 1;
	return a->j - b->j;
}

/* Evaluate all children of the top node (each offered as incumbent), then
 * visit them by increasing EET: good incumbents come early, so LET >= MEET
 * cuts more. The tree, the bounds and the answer are the thesis's;
 * only the order of the visit differs from plain index order, and, as in
 * the exhaustive search, a child that only swaps interchangeable
 * processors of an earlier sibling is skipped (its subtree is a copy;
 * the copy kept has the lower indices, which the tie rule prefers). */
static void branch_and_bound(struct hm_run *s, enum bnb_kind kind)
{
	struct hm_tree *t = &s->t;
	struct child *row = &s->children[(size_t)t->top * t->P];
	int j, k, nr = 0, first = hm_tree_top(t)->last;

	if (hm_tree_top(t)->level >= t->pb.depth)
		return;
	for (j = first; j < t->P && !stopped(s); j++) {
		if (!hm_tree_canonical_child(t, j))
			continue;
		row[nr].j = j;
		visit(s, j);
		estimate_of(hm_tree_top(t), &row[nr].est);
		nr++;
		hm_tree_pop(t);
	}
	qsort(row, (size_t)nr, sizeof(*row), cmp_child);
	for (k = 0; k < nr && !stopped(s); k++) {
		double let;

		descend(s, row[k].j, &row[k].est);
		if (kind != BNB_PLAIN)
			greedy_get(s);  /* offers what it reaches; lowers MEET */
		let = kind == BNB_GREEDY_LET ? greedy_let(s) : hm_tree_let(t, s->meet);
		if (let >= s->meet)
			s->res->pruned++;
		else
			branch_and_bound(s, kind);
		hm_tree_pop(t);
	}
}

static void run_btm(struct hm_run *s)
{
	branch_and_bound(s, BNB_PLAIN);
}

static void run_bgrm(struct hm_run *s)
{
	branch_and_bound(s, BNB_GREEDY_GET);
}

static void run_grm(struct hm_run *s)
{
	branch_and_bound(s, BNB_GREEDY_LET);
}

/* ---- greedy descents --------------------------------------------------- */

/* Always take the least-EET child, even when it is worse, down to the depth
 * limit; the answer is the best node on the path (consider() kept it). */
static void greedy_path(struct hm_run *s, int permutational)
{
	struct hm_tree *t = &s->t;
	struct estimate est = { 0 };  /* set by best_child whenever it returns a child */

	while (hm_tree_top(t)->level < t->pb.depth) {
		int j = best_child(s, permutational, &est);

		if (j < 0)
			break;
		descend(s, j, &est);
	}
}

static void run_gctm(struct hm_run *s)
{
	greedy_path(s, 0);
}

static void run_gptm(struct hm_run *s)
{
	greedy_path(s, 1);
}

/* ---- exhaustive ------------------------------------------------------- */

/* Every multiset of at most L processes, one representative per class of
 * interchangeable processors (tree.c): the true model optimum. */
static void exhaustive(struct hm_run *s)
{
	struct hm_tree *t = &s->t;
	int j;

	if (hm_tree_top(t)->level >= t->pb.depth)
		return;
	for (j = hm_tree_top(t)->last; j < t->P && !stopped(s); j++) {
		if (!hm_tree_canonical_child(t, j))
			continue;
		visit(s, j);
		exhaustive(s);
		hm_tree_pop(t);
	}
}

/* ---- the driver -------------------------------------------------------- */

static void (*const walks[HM_NR_WALKS])(struct hm_run *s) = {
	[HM_WALK_BTM] = run_btm,
	[HM_WALK_BGRM] = run_bgrm,
	[HM_WALK_GRM] = run_grm,
	[HM_WALK_GCTM] = run_gctm,
	[HM_WALK_GPTM] = run_gptm,
	[HM_WALK_EXHAUSTIVE] = exhaustive,
};

/* Branch and bound keeps one row of children per level; the greedy
 * descents and the exhaustive search keep none. */
#define MAX_CHILD_ROWS ((size_t)1 << 24)

static int keeps_child_rows(int walk)
{
	return walk == HM_WALK_BTM || walk == HM_WALK_BGRM || walk == HM_WALK_GRM;
}

int hm_tree_search_applies(const struct hm_problem *pb, struct hm_error *err)
{
	if (hm_problem_check(pb, 1, err))
		return -1;
	if ((size_t)(pb->depth + 1) * (size_t)pb->platform->nr_procs > MAX_CHILD_ROWS)
		return hm_error_set(err, "depth x processors too large to search (%d x %d)",
				    pb->depth, pb->platform->nr_procs);
	return 0;
}

int hm_tree_walk_applies(const struct hm_problem *pb, struct hm_error *err)
{
	return hm_problem_check(pb, 1, err);
}

int hm_tree_search(int walk, const struct hm_problem *pb, const struct hm_budget *budget,
		   struct hm_result *res, struct hm_error *err)
{
	struct hm_run s;

	memset(&s, 0, sizeof(s));
	s.start = hm_now();     /* the budget counts the set-up too */
	if ((keeps_child_rows(walk) ? hm_tree_search_applies(pb, err) : hm_tree_walk_applies(pb, err)) ||
	    hm_tree_init(&s.t, pb, err))
		return -1;
	if (keeps_child_rows(walk) &&
	    !(s.children = malloc((size_t)(pb->depth + 1) * (size_t)s.t.P * sizeof(*s.children)))) {
		hm_tree_release(&s.t);
		return hm_error_set(err, "out of memory");
	}
	s.res = res;
	s.budget = *budget;
	s.meet = pb->beat > 0 ? pb->beat : INFINITY;
	/* about 100000 (D, b) pairs between two readings of the clock */
	s.clock_every = 100000L / ((long)pb->depth * hm_platform_block_count(pb->platform, pb->n)) + 1;
	s.clock_at = s.start;
	walks[walk](&s);
	res->evaluated = s.t.evaluated;
	free(s.children);
	hm_tree_release(&s.t);
	return 0;
}

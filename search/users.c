/* search/users.c - the modeled users (GU, CU, EU, HU).
 *
 * A user only chooses d; the grid and b are the model's best for that d
 * (hm_evaluate_counts), found with the same walker (and so the same
 * arithmetic) as the searches, which keeps ratios between a user and a
 * method exact. */
#include "users.h"
#include "tree.h"
#include "models/platform/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Processor indices by decreasing speed (ties: lower index first). */
struct ranked {
	double speed;
	int index;
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->speed != b->speed)
		return a->speed > b->speed ? -1 : 1;
	return a->index - b->index;
}

/* d for GU (every processor), CU (the fastest processors holding half of
 * all cores, rounded down, at least one processor) or "the fastest
 * alone", one process per core. With one core per processor: the
 * thesis's users (all P; the floor(P/2) fastest; the fastest). */
enum user_set { SET_ALL, SET_HALF, SET_FASTEST };

static int user_counts(const struct hm_problem *pb, enum user_set set, int *d,
		       struct hm_error *err)
{
	struct hm_problem one = *pb;
	struct hm_tree t;
	struct ranked *rank;
	double *speed;
	int P = pb->platform->nr_procs, i, take;

	one.depth = 1;
	if (hm_tree_init(&t, &one, err))
		return -1;
	rank = malloc((size_t)P * sizeof(*rank));
	speed = malloc((size_t)P * sizeof(*speed));
	if (!rank || !speed) {
		free(rank);
		free(speed);
		hm_tree_release(&t);
		return hm_error_set(err, "out of memory");
	}
	hm_tree_speeds(&t, speed);
	for (i = 0; i < P; i++) {
		rank[i].speed = speed[i];
		rank[i].index = i;
	}
	qsort(rank, (size_t)P, sizeof(*rank), cmp_ranked);
	memset(d, 0, (size_t)P * sizeof(int));
	if (set == SET_HALF) {
		long half = hm_platform_cores(pb->platform) / 2, held = 0;

		for (take = 0; take < P && (take == 0 || held < half); take++)
			held += pb->platform->procs[rank[take].index].cores;
	} else {
		take = set == SET_ALL ? P : 1;
	}
	for (i = 0; i < take; i++)
		d[rank[i].index] = pb->platform->procs[rank[i].index].cores;
	free(rank);
	free(speed);
	hm_tree_release(&t);
	return 0;
}

static int better_result(const struct hm_result *a, const struct hm_result *b)
{
	if (a->found != b->found)
		return a->found;
	if (a->eet != b->eet)
		return a->eet < b->eet;
	return a->D < b->D;
}

int hm_user_applies(const struct hm_problem *pb, struct hm_error *err)
{
	long cores = hm_platform_cores(pb->platform);

	if (hm_problem_check(pb, 0, err))
		return -1;
	/* GU places a process on every core, and EU considers GU's set */
	if (cores > HM_MAX_DEPTH)
		return hm_error_set(err, "the modeled users place a process on every core, and %ld "
				    "cores are more than the %d processes a configuration may have "
				    "(" HM_MAX_DEPTH_REASON ")", cores, HM_MAX_DEPTH);
	return 0;
}

/* EU: the best of the fastest processor alone, the CU set, the GU set. */
static int expert(const struct hm_problem *pb, int *d, struct hm_result *res,
		  struct hm_error *err)
{
	static const enum user_set sets[] = { SET_FASTEST, SET_HALF, SET_ALL };
	int k;

	for (k = 0; k < 3; k++) {
		struct hm_result cand;

		if (user_counts(pb, sets[k], d, err) || hm_evaluate_counts(pb, d, "EU", &cand, err))
			return -1;
		if (k == 0 || better_result(&cand, res)) {
			long evaluated = res->evaluated + cand.evaluated;

			hm_result_release(res);
			*res = cand;
			res->evaluated = evaluated;
		} else {
			res->evaluated += cand.evaluated;
			hm_result_release(&cand);
		}
	}
	return 0;
}

/* HU's threads on processor i: all the cores of one socket. */
static int hpl_threads(const struct hm_processor *pr)
{
	return pr->cores / pr->sockets;
}

int hm_hpl_user_applies(const struct hm_problem *pb, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;

	if (hm_user_applies(pb, err))
		return -1;
	for (int i = 0; i < p->nr_procs; i++) {
		int t = hpl_threads(&p->procs[i]);

		if (t > 1 && !hm_thread_speedup(&p->types[p->procs[i].type], t, HM_THREADS_DGEMM, 0))
			return hm_error_set(err, "HU runs %d threads per process on %s, whose type '%s' "
					    "has no thread speed-ups (hetmap calibrate --threads)", t,
					    p->procs[i].name, p->types[p->procs[i].type].name);
	}
	return 0;
}

/* HU, HPL's habit: one process per socket, its cores as BLAS threads,
 * on every processor; priced on the thread view of those counts. */
static int hpl_user(const struct hm_problem *pb, int *d, struct hm_result *res, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	struct hm_problem on_view = *pb;
	struct hm_thread_view v;
	int *t = malloc((size_t)p->nr_procs * sizeof(int)), ret;

	if (!t)
		return hm_error_set(err, "out of memory");
	for (int i = 0; i < p->nr_procs; i++) {
		t[i] = hpl_threads(&p->procs[i]);
		d[i] = p->procs[i].sockets;
	}
	if (hm_thread_view_build(&v, p, t, err)) {
		free(t);
		return -1;
	}
	on_view.platform = &v.view;
	on_view.collect = NULL;
	ret = hm_evaluate_counts(&on_view, d, "HU", res, err);
	hm_thread_view_release(&v);
	if (ret)
		free(t);
	else
		res->threads = t;
	return ret;
}

int hm_user_search(int user, const struct hm_problem *pb, const struct hm_budget *budget,
		   struct hm_result *res, struct hm_error *err)
{
	static const enum user_set single[] = { [HM_USER_GU] = SET_ALL, [HM_USER_CU] = SET_HALF };
	struct hm_result got = { 0 };
	int *d = res->d, ret;   /* the registry's d[] serves as scratch */

	if (user == HM_USER_EU)
		ret = expert(pb, d, &got, err);
	else if (user == HM_USER_HU)
		ret = hpl_user(pb, d, &got, err);
	else
		ret = user_counts(pb, single[user], d, err) ||
		      hm_evaluate_counts(pb, d, "user", &got, err) ? -1 : 0;
	if (ret) {
		hm_result_release(&got);
		return -1;
	}
	free(res->d);
	*res = got;
	return 0;
}

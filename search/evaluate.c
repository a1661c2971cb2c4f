/* search/evaluate.c - one fixed placement as a result: with the model's
 * best grid and b (hm_evaluate_counts), or with a given grid and b
 * (hm_evaluate_config). */
#include "search.h"
#include "tree.h"
#include "models/util/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sum of d, checked: 0, or -1 with 'err' set. */
static int total_processes(const struct hm_problem *pb, const int *d, long *D,
			   struct hm_error *err)
{
	*D = 0;
	for (int i = 0; i < pb->platform->nr_procs; i++) {
		if (d[i] < 0)
			return hm_error_set(err, "negative process count on '%s'",
					    pb->platform->procs[i].name);
		*D += d[i];
	}
	if (*D < 1 || *D > HM_MAX_DEPTH)
		return hm_error_set(err, "%ld processes placed (expected 1..%d)", *D, HM_MAX_DEPTH);
	return 0;
}

/* res with its own copy of d, for a fixed placement. */
static int start_result(struct hm_result *res, const struct hm_problem *pb, const int *d,
			const char *name, long D, struct hm_error *err)
{
	memset(res, 0, sizeof(*res));
	res->method = name;
	res->P = pb->platform->nr_procs;
	if (!(res->d = malloc((size_t)res->P * sizeof(int))))
		return hm_error_set(err, "out of memory");
	memcpy(res->d, d, (size_t)res->P * sizeof(int));
	res->D = (int)D;
	res->evaluated = 1;
	res->level_reached = (int)D;
	return 0;
}

int hm_evaluate_counts(const struct hm_problem *pb, const int *d, const char *name,
		       struct hm_result *res, struct hm_error *err)
{
	struct hm_problem fixed = *pb;
	struct hm_tree t;
	struct hm_node *n;
	double start = hm_now();
	long D;
	int i, k;

	memset(res, 0, sizeof(*res));
	if (total_processes(pb, d, &D, err))
		return -1;
	fixed.depth = (int)D;   /* hm_tree_init checks the rest of the problem */
	if (hm_tree_init(&t, &fixed, err))
		return -1;
	for (i = 0; i < t.P; i++)
		for (k = 0; k < d[i]; k++)
			hm_tree_push(&t, i);
	hm_tree_eet(&t);
	n = hm_tree_top(&t);
	if (start_result(res, pb, d, name, D, err)) {
		hm_tree_release(&t);
		return -1;
	}
	res->found = n->eet < INFINITY;
	res->r = n->r;
	res->c = n->c;
	res->b = n->b;
	res->eet = n->eet;
	res->pred = n->pred;
	res->seconds = res->seconds_to_best = hm_now() - start;
	hm_tree_release(&t);
	return 0;
}


int hm_evaluate_config(const struct hm_problem *pb, const int *d, int r, int c, int b,
		       const char *name, struct hm_result *res, struct hm_error *err)
{
	struct hm_prediction pred;
	double start = hm_now();
	long D;

	memset(res, 0, sizeof(*res));
	if (total_processes(pb, d, &D, err) ||
	    hm_predict(pb->model, pb->platform, pb->routine, pb->n, d, r, c, b, &pred, err) ||
	    start_result(res, pb, d, name, D, err))
		return -1;
	res->found = 1;
	res->r = r, res->c = c, res->b = b;
	res->pred = pred;
	res->eet = pred.total;
	res->seconds = res->seconds_to_best = hm_now() - start;
	return 0;
}

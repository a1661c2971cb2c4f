/* tests/bench_search.c - speed of the model and the searches (a
 * benchmark, not a test: it measures, it does not judge).
 *
 *   build/bench_search [REPEATS]
 *
 * Prints the cost of one model evaluation (the formula alone, and from d
 * with the heterogeneity rule from scratch), of one tree node (push + EET),
 * and the wall time of each method on the problems of the search issue,
 * as median and range over REPEATS runs (default 5). */
#include "search/search.h"
#include "models/util/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct hm_platform *load(const char *name)
{
	struct hm_platform *p;
	struct hm_error err;

	if (hm_platform_load(name, &p, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		exit(1);
	}
	return p;
}

/* Nanoseconds per call of the model formula and of hm_predict. */
static void bench_model(int repeats)
{
	struct hm_platform *torc = load("builtin:torc");
	const struct hm_model *m = hm_model_find("thesis");
	struct hm_sp sp;
	struct hm_prediction pr;
	struct hm_error err;
	int d[19], i, k;
	const int calls = 2000000;
	double best_formula = 1e9, best_predict = 1e9, sink = 0;

	for (i = 0; i < 19; i++)
		d[i] = 1 + i % 3;
	hm_sp_effective(torc, d, 64, HM_ROUTINE_LU, &sp);
	for (k = 0; k < repeats; k++) {
		double t0 = hm_now(), t1;

		for (i = 0; i < calls; i++) {
			sp.t_w += 1e-30;    /* defeat hoisting */
			sink += m->time(HM_ROUTINE_LU, 2048, 4, 9 + (i & 1), 64, &sp, NULL);
		}
		t1 = hm_now();
		if ((t1 - t0) / calls < best_formula)
			best_formula = (t1 - t0) / calls;
		t0 = hm_now();
		for (i = 0; i < calls / 20; i++)
			hm_predict(m, torc, HM_ROUTINE_LU, 2048, d, 6, 6, 64, &pr, &err);
		t1 = hm_now();
		if ((t1 - t0) / (calls / 20) < best_predict)
			best_predict = (t1 - t0) / (calls / 20);
	}
	printf("model evaluation, LU, one (d, r, c, b) point (best of %d):\n", repeats);
	printf("  formula from effective SPs        %8.1f ns\n", best_formula * 1e9);
	printf("  from d on TORC (rule from scratch) %8.1f ns\n", best_predict * 1e9);
	if (sink < 0)
		printf("%g\n", sink);
	hm_platform_free(torc);
}

struct problem {
	const char *platform;
	enum hm_routine routine;
	double n;
	int depth;
	const char *method;
};

static const struct problem problems[] = {
	{ "builtin:mtorc-03", HM_ROUTINE_LU, 20000, 30, "GPTM" },
	{ "builtin:mtorc-03", HM_ROUTINE_LU, 20000, 30, "GCTM" },
	{ "builtin:torc", HM_ROUTINE_LU, 2048, 20, "BTM" },
	{ "builtin:torc", HM_ROUTINE_LU, 2048, 20, "BGRM" },
	{ "builtin:torc", HM_ROUTINE_LU, 2048, 25, "exhaustive" },
	{ "builtin:sunet", HM_ROUTINE_LU, 7680, 25, "BTM" },
	{ "builtin:mtorc-03", HM_ROUTINE_LU, 20000, 30, "BTM" },
	{ "builtin:mtorc-03", HM_ROUTINE_LU, 20000, 30, "BGRM" },
	{ "builtin:mtorc-03", HM_ROUTINE_LU, 20000, 30, "GRM" },
	{ "builtin:mtorc-03", HM_ROUTINE_LU, 20000, 30, "exact" },
	{ "builtin:torc", HM_ROUTINE_LU, 2048, 25, "exact" },
};

int main(int argc, char **argv)
{
	int repeats = argc > 1 ? atoi(argv[1]) : 5;
	size_t i;

	if (repeats < 1 || repeats > 1000) {
		fprintf(stderr, "usage: bench_search [REPEATS 1..1000]\n");
		return 3;
	}
	bench_model(repeats);
	printf("\nsearches (wall time over %d runs: median [min, max]):\n", repeats);
	printf("  %-18s %-5s %6s %5s %-10s %10s %22s %10s %12s\n", "platform", "rout", "n", "depth",
	       "method", "eet_s", "time_ms", "nodes", "nodes/s");
	for (i = 0; i < sizeof(problems) / sizeof(problems[0]); i++) {
		const struct problem *q = &problems[i];
		struct hm_platform *p = load(q->platform);
		struct hm_problem pb = { p, hm_model_find("thesis"), q->routine, q->n, q->depth, NULL, { 0, 0 }, 0 };
		struct hm_budget budget = { 0, 120 };
		double *t = calloc((size_t)repeats, sizeof(double)), eet = 0;
		long nodes = 0;
		int k;

		for (k = 0; k < repeats; k++) {
			struct hm_result res;
			struct hm_error err;

			if (hm_search(hm_method_find(q->method), &pb, &budget, &res, &err)) {
				fprintf(stderr, "%s\n", err.msg);
				return 1;
			}
			t[k] = res.seconds;
			eet = res.eet;
			nodes = res.evaluated;
			hm_result_release(&res);
		}
		qsort(t, (size_t)repeats, sizeof(double), cmp_double);
		printf("  %-18s %-5s %6.0f %5d %-10s %10.5g %8.3f [%.3f, %.3f] %10ld %12.3g\n",
		       q->platform + 8, hm_routine_name(q->routine), q->n, q->depth, q->method, eet,
		       t[repeats / 2] * 1e3, t[0] * 1e3, t[repeats - 1] * 1e3, nodes,
		       nodes / t[repeats / 2]);
		free(t);
		hm_platform_free(p);
	}
	return 0;
}

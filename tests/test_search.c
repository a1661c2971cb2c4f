/* tests/test_search.c - the searches against brute force on small random
 * platforms: BTM, BGRM, the exhaustive search and the exact optimizer must find the model
 * optimum; every LET must bound its subtree; greedy methods and users
 * must return valid plans whose EET is what the model says. */
#include "check.h"
#include "search/search.h"
#include "search/tree.h"
#include "search/classes.h"
#include "search/divisors.h"
#include "search/top_k.h"
#include "search/weight_tree.h"
#include "models/platform/threads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned rng = 2026;

static int rnd(int n)
{
	rng = rng * 1103515245u + 12345u;
	return (int)((rng >> 16) % (unsigned)n);
}

/* A random platform: 2..6 processors of 2..3 types on 1..3 hosts, k tables
 * over b = 16, 32, 64 with speed ratios up to 8, random links, sometimes a
 * per-pair override or a memory limit. */
/* head, a link's t_s and t_w (multiples of ts and tw), sometimes a core's
 * part of t_w below it (a slow wire: stacked processes do not slow it),
 * tail. The length written. */
static int random_link(char *out, size_t size, const char *head, double ts, double tw,
		       const char *tail)
{
	double w = tw * (1 + rnd(10));
	int len = snprintf(out, size, "%s \"t_s\": %g, \"t_w\": %g", head, ts * (1 + rnd(5)), w);

	if (rnd(2))
		len += snprintf(out + len, size - (size_t)len, ", \"t_w_core\": %g", w / (1 + rnd(20)));
	return len + snprintf(out + len, size - (size_t)len, "%s", tail);
}

static struct hm_platform *random_platform(int max_procs)
{
	static const char *const bs[] = { "16", "32", "64" };
	char json[16384];
	int len = 0, P = 2 + rnd(max_procs - 1), T = 2 + rnd(2), i, t, k;
	struct hm_platform *p;
	struct hm_error err;

	len += snprintf(json + len, sizeof(json) - len, "{\"name\": \"rand\", \"types\": {");
	for (t = 0; t < T; t++) {
		double base = 1e-9 * (1 + rnd(8));

		len += snprintf(json + len, sizeof(json) - len, "%s\"T%d\": {\"k3_dgemm\": {", t ? "," : "", t);
		for (k = 0; k < 3; k++)
			len += snprintf(json + len, sizeof(json) - len, "%s\"%s\": %g", k ? "," : "", bs[k],
					base * (1 + 0.1 * rnd(5)));
		len += snprintf(json + len, sizeof(json) - len, "}, \"k3_dtrsm\": {");
		for (k = 0; k < 3; k++)
			len += snprintf(json + len, sizeof(json) - len, "%s\"%s\": %g", k ? "," : "", bs[k],
					base * (1 + 0.3 * rnd(5)));
		len += snprintf(json + len, sizeof(json) - len, "}, \"k2_dgetf2\": %g", base * (2 + rnd(10)));
		/* some types run faster with fewer busy cores (memory bandwidth),
		 * some pay more or less than the rule for a shared core */
		len += snprintf(json + len, sizeof(json) - len, "%s", rnd(3) ? "" :
				", \"busy_cores_scale\": {\"1\": 0.7, \"2\": 0.85, \"3\": 1}");
		len += snprintf(json + len, sizeof(json) - len, "%s}", rnd(3) ? "" :
				rnd(2) ? ", \"stacked\": {\"gemm\": 1.4, \"lu\": 0.8}" :
				", \"stacked\": {\"lu\": 0.5}");
	}
	len += snprintf(json + len, sizeof(json) - len, "}, \"processors\": [");
	for (i = 0; i < P; i++)
		len += snprintf(json + len, sizeof(json) - len,
				"%s{\"name\": \"p%d\", \"host\": \"h%d\", \"type\": \"T%d\", \"cores\": %d%s}",
				i ? "," : "", i, rnd(3), i < T ? i : rnd(T), rnd(2) ? 1 : 1 + rnd(3),
				rnd(6) == 0 ? ", \"memory\": \"40MB\"" : "");
	len += snprintf(json + len, sizeof(json) - len,
			"], \"network\": {\"same_processor\": {\"t_s\": %g, \"t_w\": %g},",
			1e-6 * (1 + rnd(5)), 1e-10 * (1 + rnd(10)));
	len += random_link(json + len, sizeof(json) - len, "\"same_node\": {", 1e-5, 1e-9, "},");
	len += random_link(json + len, sizeof(json) - len, "\"inter_node\": {", 1e-4, 1e-8, "}");
	if (rnd(3) == 0)
		len += random_link(json + len, sizeof(json) - len,
				   ", \"pairs\": [{\"between\": [\"p0\", \"p1\"],", 1e-6, 1e-9, "}]");
	if (rnd(3) == 0) {  /* link rules by type, host or processor patterns */
		char head[80];

		snprintf(head, sizeof(head), ", \"links\": [{\"between\": [\"%s\", \"%s\"],",
			 rnd(2) ? "T0" : "h1", rnd(2) ? "T*" : "p[12]");
		len += random_link(json + len, sizeof(json) - len, head, 1e-6, 1e-9, "}]");
	}
	snprintf(json + len, sizeof(json) - len, "}}");
	if (hm_platform_load_buffer(json, strlen(json), "random", &p, &err)) {
		fprintf(stderr, "random platform rejected: %s: %s\n%s\n", err.path, err.msg, json);
		return NULL;
	}
	return p;
}

/* Trial k's model: every registered model in turn. */
static const struct hm_model *model_of(int trial)
{
	int n = 0;

	while (hm_model_list()[n])
		n++;
	return hm_model_list()[trial % n];
}

/* The model's best (grid, b) for d, from scratch with hm_predict. */
static double best_for_counts(const struct hm_problem *pb, const int *d, int *r_out, int *b_out)
{
	const struct hm_platform *p = pb->platform;
	double best = INFINITY;
	int D = 0, i, r, bi;

	for (i = 0; i < p->nr_procs; i++)
		D += d[i];
	if (D == 0 || !hm_memory_fits(p, pb->routine, pb->n, d))
		return INFINITY;
	for (bi = 0; bi < p->nr_block_sizes; bi++)
		for (r = 1; r <= D; r++) {
			struct hm_prediction t;
			struct hm_error err;

			if (D % r || hm_predict(pb->model, p, pb->routine, pb->n, d, r, D / r,
						p->block_sizes[bi], &t, &err))
				continue;
			if (t.total < best) {
				best = t.total;
				if (r_out)
					*r_out = r;
				if (b_out)
					*b_out = p->block_sizes[bi];
			}
		}
	return best;
}

/* Min over every d with 1 <= sum d <= depth: odometer over all vectors. */
static double brute_force_optimum(const struct hm_problem *pb)
{
	int P = pb->platform->nr_procs, d[8] = { 0 }, i;
	double best = INFINITY;

	for (;;) {
		int sum = 0;

		for (i = 0; i < P; i++)
			sum += d[i];
		if (sum >= 1 && sum <= pb->depth) {
			double v = best_for_counts(pb, d, NULL, NULL);

			if (v < best)
				best = v;
		}
		for (i = 0; i < P; i++) {
			if (++d[i] <= pb->depth)
				break;
			d[i] = 0;
		}
		if (i == P)
			return best;
	}
}

/* A result must describe a real configuration whose model time is its EET. */
static void check_valid(const struct hm_problem *pb, const struct hm_result *res)
{
	int D = 0, i, r = 0, b = 0;
	double again;

	if (!CHECK(res->found))
		return;
	for (i = 0; i < res->P; i++)
		D += res->d[i];
	CHECK(D == res->D && res->r * res->c == D);
	again = best_for_counts(pb, res->d, &r, &b);
	CHECK_NEAR(res->eet, again, 1e-12);
	CHECK_NEAR(res->pred.total, res->eet, 1e-15);
	(void)r;
	(void)b;
}

/* Subtree minimum of EET below the top node (combinatorial children),
 * checking LET(node) <= it at every node. */
static double check_let_below(struct hm_tree *t, int *bad)
{
	double eet = hm_tree_eet(t), let = hm_tree_let(t, INFINITY), best = eet;
	int j;

	if (hm_tree_top(t)->level < t->pb.depth)
		for (j = hm_tree_top(t)->last; j < t->P; j++) {
			double v;

			hm_tree_push(t, j);
			v = check_let_below(t, bad);
			hm_tree_pop(t);
			if (v < best)
				best = v;
		}
	if (hm_tree_top(t)->level > 0 && !(let <= best)) {
		if (*bad == 0)
			fprintf(stderr, "LET %.17g > subtree min %.17g at level %d\n", let, best,
				hm_tree_top(t)->level);
		(*bad)++;
	}
	return best;
}

/* The walker's incremental SPs must equal the from-scratch rule at the
 * model's kernel block (for one process the model may go lower,
 * hm_model_sp_single, which the tree asks for at level 1). */
static void check_incremental_sp(struct hm_tree *t, int *bad)
{
	int steps = 1 + rnd(t->pb.depth), s, bi;

	hm_tree_reset(t);
	for (s = 0; s < steps; s++) {
		hm_tree_push(t, rnd(t->P));
		for (bi = 0; bi < t->nb; bi++) {
			struct hm_sp want;

			hm_sp_effective(t->pb.platform, t->d,
					hm_model_kernel_block(t->pb.model, t->pb.routine, t->block[bi]),
					t->pb.routine, &want);
			if (memcmp(&want, &hm_tree_top(t)->sp[bi], sizeof(want)))
				(*bad)++;
		}
	}
	hm_tree_reset(t);
}

/* What the weight tree says a configuration costs is the model's time at
 * those SPs, every SP counted (a bound that dropped the links' once let
 * exact walk to 35x more leaves at 20480 cores), and whatever it visits
 * is below the limit. */
struct weight_check {
	const struct hm_model *m;
	enum hm_routine routine;
	double n;
	const int *block;
	const hm_sp_vector *sp;
	int visits, bad;
};

static int check_weighted(void *ctx, int D, int r, int bi, double time, double *limit)
{
	struct weight_check *w = ctx;
	struct hm_sp sp;
	double want;

	hm_sp_from_vector(w->sp[bi], &sp);
	want = w->m->time(w->routine, w->n, r, D / r, w->block[bi], &sp, NULL);
	w->visits++;
	if (!(fabs(time - want) <= 1e-9 * want) || !(time < *limit))
		w->bad++;
	return 0;
}

static void weights_should_time_as_the_model(void)
{
	static const int block[2] = { 16, 64 };

	for (int trial = 0; trial < 2 * 5; trial++) {
		struct weight_check w = { model_of(trial), trial % 2 ? HM_ROUTINE_GEMM : HM_ROUTINE_LU,
					  3000, block, NULL, 0, 0 };
		struct hm_weight_tree t;
		hm_sp_vector sp[2];
		double limit = INFINITY;

		for (int bi = 0; bi < 2; bi++)
			for (int j = 0; j < HM_NR_SP; j++)
				sp[bi][j] = (1 + rnd(9)) * (j >= HM_SP_TS ? 1e-6 : 1e-9);
		w.sp = sp;
		if (!CHECK(hm_weight_tree_init(&t, w.m, w.routine, w.n, block, 2, 12) == 0))
			continue;
		hm_weight_tree_below(&t, sp, 1, 12, &limit, check_weighted, &w);
		CHECK(w.visits >= 12 * 2 && w.bad == 0);
		hm_weight_tree_release(&t);
	}
}

static void methods_should_match_brute_force(void)
{
	struct hm_budget budget = { 0, 0 };
	int trial, exact_checks = 0;

	for (trial = 0; trial < 40; trial++) {
		struct hm_platform *p = random_platform(6);
		struct hm_problem pb = { 0 };
		struct hm_error err;
		struct hm_tree t;
		double opt;
		int m, bad = 0;

		if (!CHECK(p != NULL))
			continue;
		pb.platform = p;
		/* every model must keep the exact searches exact */
		pb.model = model_of(trial);
		pb.routine = rnd(2) ? HM_ROUTINE_LU : HM_ROUTINE_GEMM;
		pb.n = 500 + 500 * rnd(16);
		pb.depth = 1 + rnd(p->nr_procs <= 4 ? 8 : 6);
		opt = brute_force_optimum(&pb);
		for (m = 0; hm_method_list()[m]; m++) {
			const struct hm_method *meth = hm_method_list()[m];
			struct hm_result res;

			if (meth->kind != HM_METHOD_SEARCH)
				continue;   /* users ignore the depth limit */
			if (!CHECK(hm_search(meth, &pb, &budget, &res, &err) == 0))
				continue;
			if (opt == INFINITY) {
				CHECK(!res.found);
			} else {
				check_valid(&pb, &res);
				CHECK(res.D <= pb.depth && res.stopped == HM_STOP_COMPLETE);
				CHECK(res.eet >= opt * (1 - 1e-12));
				if (!strcmp(meth->name, "BTM") || !strcmp(meth->name, "BGRM") ||
				    !strcmp(meth->name, "exhaustive") || !strcmp(meth->name, "exact")) {
					if (!CHECK_NEAR(res.eet, opt, 1e-12))
						fprintf(stderr, "  %s missed the optimum (trial %d)\n",
							meth->name, trial);
					exact_checks++;
				}
			}
			hm_result_release(&res);
		}
		if (CHECK(hm_tree_init(&t, &pb, &err) == 0)) {
			check_let_below(&t, &bad);
			CHECK(bad == 0);
			bad = 0;
			check_incremental_sp(&t, &bad);
			CHECK(bad == 0);
			hm_tree_release(&t);
		}
		hm_platform_free(p);
	}
	CHECK(exact_checks >= 120);  /* 30+ platforms x 4 exact methods */
}

/* Users: GU all processors; CU the floor(P/2) fastest; EU the best of the
 * fastest alone, CU and GU; each with the model's best grid and b. */
static void users_should_match_their_definitions(void)
{
	struct hm_platform *p;
	struct hm_problem pb = { NULL, NULL, HM_ROUTINE_LU, 2048, 25, NULL, { 0, 0 }, 0 };
	struct hm_result gu, cu, eu;
	struct hm_budget none = { 0, 0 };
	struct hm_error err;
	int i, fastest_only[19] = { 0 };

	if (!CHECK(hm_platform_load("builtin:torc", &p, &err) == 0))
		return;
	pb.platform = p;
	pb.model = hm_model_default();
	CHECK(hm_search(hm_method_find("GU"), &pb, &none, &gu, &err) == 0);
	CHECK(hm_search(hm_method_find("CU"), &pb, &none, &cu, &err) == 0);
	CHECK(hm_search(hm_method_find("EU"), &pb, &none, &eu, &err) == 0);
	for (i = 0; i < 19; i++)
		CHECK(gu.d[i] == 1);
	/* TORC by speed: ATH, 17P4 (k = 0.001), SPIII, then the DPIIIs by index */
	CHECK(cu.D == 9 && cu.d[17] == 1 && cu.d[18] == 1 && cu.d[16] == 1);
	for (i = 0; i < 6; i++)
		CHECK(cu.d[i] == 1);
	for (i = 6; i < 16; i++)
		CHECK(cu.d[i] == 0);
	check_valid(&pb, &gu);
	check_valid(&pb, &cu);
	check_valid(&pb, &eu);
	fastest_only[17] = 1;
	{
		double alone = best_for_counts(&pb, fastest_only, NULL, NULL);
		double want = alone < cu.eet ? alone : cu.eet;

		want = gu.eet < want ? gu.eet : want;
		CHECK_NEAR(eu.eet, want, 1e-15);
	}
	hm_result_release(&gu);
	hm_result_release(&cu);
	hm_result_release(&eu);
	hm_platform_free(p);
}

static void budgets_should_stop_with_the_best_so_far(void)
{
	struct hm_platform *p;
	struct hm_problem pb = { NULL, NULL, HM_ROUTINE_LU, 20000, 30, NULL, { 0, 0 }, 0 };
	struct hm_budget nodes = { 50, 0 };
	struct hm_result res;
	struct hm_error err;

	if (!CHECK(hm_platform_load("builtin:mtorc-03", &p, &err) == 0))
		return;
	pb.platform = p;
	pb.model = hm_model_default();
	CHECK(hm_search(hm_method_find("exhaustive"), &pb, &nodes, &res, &err) == 0);
	CHECK(res.stopped == HM_STOP_NODES && res.found && res.evaluated == 50);
	check_valid(&pb, &res);
	hm_result_release(&res);
	CHECK(hm_search(hm_method_find("gptm"), &pb, &nodes, &res, &err) == 0);
	CHECK(res.stopped == HM_STOP_NODES);
	hm_result_release(&res);
	pb.depth = 0;
	CHECK(hm_search(hm_method_find("BTM"), &pb, &nodes, &res, &err) == -1);
	CHECK(strstr(err.msg, "depth 0 out of range") != NULL);
	hm_platform_free(p);
}

static void searches_should_be_deterministic(void)
{
	struct hm_platform *p;
	struct hm_problem pb = { NULL, NULL, HM_ROUTINE_GEMM, 4096, 20, NULL, { 0, 0 }, 0 };
	struct hm_budget none = { 0, 0 };
	struct hm_error err;
	int m;

	if (!CHECK(hm_platform_load("builtin:torc", &p, &err) == 0))
		return;
	pb.platform = p;
	pb.model = hm_model_default();
	for (m = 0; hm_method_list()[m]; m++) {
		struct hm_result a, b;

		hm_search(hm_method_list()[m], &pb, &none, &a, &err);
		hm_search(hm_method_list()[m], &pb, &none, &b, &err);
		CHECK(a.eet == b.eet && a.r == b.r && a.b == b.b && a.evaluated == b.evaluated &&
		      !memcmp(a.d, b.d, sizeof(int) * 19));
		hm_result_release(&a);
		hm_result_release(&b);
	}
	hm_platform_free(p);
}

/* The exact optimizer on platforms with larger classes of alike
 * processors (up to 12 processors of 2-3 types on 1-3 hosts, overrides,
 * memory) against the exhaustive search, which walks every multiset. */
static void exact_should_match_exhaustive(void)
{
	struct hm_budget budget = { 0, 0 };
	int trial, compared = 0;

	for (trial = 0; trial < 300; trial++) {
		struct hm_platform *p = random_platform(12);
		struct hm_problem pb = { 0 };
		struct hm_result ex, ref;
		struct hm_error err;

		if (!CHECK(p != NULL))
			continue;
		pb.platform = p;
		pb.model = model_of(trial);
		pb.routine = rnd(2) ? HM_ROUTINE_LU : HM_ROUTINE_GEMM;
		pb.n = 500 + 500 * rnd(16);
		pb.depth = 1 + rnd(10);
		/* odd trials: a node budget, under which the class enumeration
		 * runs alone (BTM proves these small problems first otherwise),
		 * over the two-level views where the network has two levels */
		struct hm_budget ex_budget = { trial % 2 ? 1L << 40 : 0, 0 };

		if (CHECK(hm_search(hm_method_find("exact"), &pb, &ex_budget, &ex, &err) == 0) &&
		    CHECK(hm_search(hm_method_find("exhaustive"), &pb, &budget, &ref, &err) == 0)) {
			CHECK(ex.found == ref.found);
			if (ex.found && ref.found) {
				check_valid(&pb, &ex);
				if (!CHECK_NEAR(ex.eet, ref.eet, 1e-12))
					fprintf(stderr, "  exact %.17g vs exhaustive %.17g (trial %d, P %d)\n",
						ex.eet, ref.eet, trial, p->nr_procs);
				compared++;
			}
			hm_result_release(&ex);
			hm_result_release(&ref);
		}
		hm_platform_free(p);
	}
	CHECK(compared >= 200);
}

/* The definition of search/classes.h, checked pair by pair: two
 * processors of one class have the same type, cores and memory and the
 * same link to every third processor, on random platforms with hosts, overrides and memory. */
static void classes_should_hold_interchangeable_processors(void)
{
	int trial, checked = 0;

	for (trial = 0; trial < 100; trial++) {
		struct hm_platform *p = random_platform(12);
		int class_of[64], C, i, j, k;

		if (!CHECK(p != NULL))
			continue;
		C = hm_processor_classes(p, class_of);
		CHECK(C >= 1 && C <= p->nr_procs);
		for (i = 0; i < p->nr_procs; i++)
			for (j = i + 1; j < p->nr_procs; j++) {
				const struct hm_processor *a = &p->procs[i], *b = &p->procs[j];

				if (class_of[i] != class_of[j])
					continue;
				checked++;
				CHECK(a->type == b->type && a->cores == b->cores && a->memory == b->memory);
				for (k = 0; k < p->nr_procs; k++) {
					struct hm_link x, y;

					if (k == i || k == j)
						continue;
					x = hm_platform_link(p, i, k);
					y = hm_platform_link(p, j, k);
					CHECK(x.t_s == y.t_s && x.t_w == y.t_w);
				}
			}
		hm_platform_free(p);
	}
	CHECK(checked > 50);
}

/* A fixed placement of one process (what 'hetmap predict --procs X=1' and
 * the users time, through the tree) costs what the model says at its best
 * b, also where the model times one process apart from the tables
 * (panel's pdgemm: one local dgemm at the table's least k3_dgemm). */
static void one_process_should_cost_what_the_model_says(void)
{
	int trial, checked = 0;

	for (trial = 0; trial < 40; trial++) {
		struct hm_platform *p = random_platform(6);
		struct hm_problem pb = { NULL, hm_model_find("panel"), HM_ROUTINE_GEMM, 0, 1, NULL, { 0, 0 }, 0 };
		struct hm_error err;

		if (!CHECK(p != NULL))
			continue;
		pb.platform = p;
		pb.n = 500 + 500 * rnd(8);
		for (int i = 0; i < p->nr_procs; i++) {
			int d[64] = { 0 };
			struct hm_result res;
			double want = INFINITY;

			d[i] = 1;
			if (!hm_memory_fits(p, pb.routine, pb.n, d))
				continue;
			for (int bi = 0; bi < hm_platform_block_count(p, pb.n); bi++) {
				struct hm_prediction t;

				if (hm_predict(pb.model, p, pb.routine, pb.n, d, 1, 1, p->block_sizes[bi], &t,
					       &err) == 0 && t.total < want)
					want = t.total;
			}
			if (CHECK(hm_evaluate_counts(&pb, d, "one", &res, &err) == 0)) {
				CHECK_NEAR(res.eet, want, 1e-12);
				checked++;
				hm_result_release(&res);
			}
		}
		hm_platform_free(p);
	}
	CHECK(checked >= 100);
}

/* The sieve lists every divisor of every D in 1..L, ascending. */
static void divisors_should_be_every_divisor_ascending(void)
{
	struct hm_divisors dv;
	int L = 5000, wrong = 0;

	if (!CHECK(hm_divisors_init(&dv, L) == 0))
		return;
	for (int D = 1; D <= L; D++) {
		int nd, k = 0;
		const int *div = hm_divisors_of(&dv, D, &nd);

		for (int r = 1; r <= D; r++)
			if (D % r == 0)
				wrong += k >= nd || div[k++] != r;
		wrong += k != nd;
	}
	CHECK(wrong == 0);
	hm_divisors_release(&dv);
}

/* The collector keeps the K cheapest distinct configurations, in order;
 * near twins are the same rows and b with counts at most D/20 apart. */
static void top_k_should_keep_the_cheapest_and_know_twins(void)
{
	struct hm_top_k t;
	struct hm_error err;
	int a[4] = { 0, 8, 8, 64 }, b[4] = { 0, 9, 8, 64 }, c[4] = { 0, 16, 16, 48 };

	hm_error_clear(&err);
	if (!CHECK(hm_top_k_init(&t, 2, 4, &err) == 0))
		return;
	hm_top_k_offer(&t, 3.0, a, 80, 8, 10, 64);
	hm_top_k_offer(&t, 3.0, a, 80, 8, 10, 64);      /* a copy: not held twice */
	hm_top_k_offer(&t, 1.0, c, 80, 8, 10, 64);
	hm_top_k_offer(&t, 2.0, b, 81, 9, 9, 64);
	CHECK(t.n == 2 && t.e[0].eet == 1.0 && t.e[1].eet == 2.0 && t.worst == 2.0);
	CHECK(!memcmp(t.e[0].d, c, sizeof(c)) && !memcmp(t.e[1].d, b, sizeof(b)));
	{
		struct hm_candidate x = { 3.0, 80, 8, 10, 64, a }, y = { 2.0, 81, 8, 10, 64, b },
				    z = { 2.0, 81, 9, 9, 64, b }, w = { 1.0, 80, 8, 10, 64, c };

		CHECK(hm_near_twins(&x, &y, 4));        /* one apart, 81 / 20 = 4 allowed */
		CHECK(!hm_near_twins(&x, &z, 4));       /* other rows */
		CHECK(!hm_near_twins(&x, &w, 4));       /* 32 apart */
		y.b = 128;
		CHECK(!hm_near_twins(&x, &y, 4));       /* other b */
	}
	hm_top_k_release(&t);
	CHECK(hm_top_k_init(&t, HM_TOP_K_MAX + 1, 4, &err) == -1);
}

/* n = 20000 on four 1 GiB processors: only one process on each holds its
 * part (8 n^2 / D bytes and 5 %), so every greedy step before the fourth
 * has no child that fits. The greedy descents still reach it. */
/* GCTM and GPTM against their definition: from the root, always the
 * least-EET child (every child priced in full here; the searches price
 * them against the parent's floors, a child that keeps its parent's SPs
 * not at all), down to the depth; the answer is the best node on the
 * path. GCTM's children are the processors from the last one added on,
 * GPTM's all of them. Its EET must be the same to the bit. */
static void greedy_should_take_the_least_child(void)
{
	for (int trial = 0; trial < 60; trial++) {
		int permutational = trial % 4 >= 2;
		struct hm_platform *p = random_platform(6);
		struct hm_problem pb = { 0 };
		struct hm_budget none = { 0, 0 };
		struct hm_result res;
		struct hm_error err;
		struct hm_tree t;
		double best = INFINITY;

		if (!CHECK(p != NULL))
			continue;
		pb.platform = p, pb.model = model_of(trial);
		pb.routine = trial % 2 ? HM_ROUTINE_GEMM : HM_ROUTINE_LU;
		pb.n = 500 + 500 * rnd(16);
		pb.depth = 2 + rnd(10);
		if (!CHECK(hm_tree_init(&t, &pb, &err) == 0)) {
			hm_platform_free(p);
			continue;
		}
		while (hm_tree_top(&t)->level < pb.depth) {
			int arg = -1;
			double least = INFINITY;

			for (int j = permutational ? 0 : hm_tree_top(&t)->last; j < t.P; j++) {
				double v;

				hm_tree_push(&t, j);
				v = hm_tree_eet(&t);
				hm_tree_pop(&t);
				if (arg < 0 || v < least)
					least = v, arg = j;
			}
			hm_tree_push(&t, arg);
			best = fmin(best, hm_tree_eet(&t));
		}
		hm_tree_release(&t);
		if (CHECK(hm_search(hm_method_find(permutational ? "GPTM" : "GCTM"), &pb, &none, &res,
				    &err) == 0)) {
			if (!CHECK(res.eet == best))
				fprintf(stderr, "  %s %.17g, by definition %.17g (trial %d)\n",
					permutational ? "GPTM" : "GCTM", res.eet, best, trial);
			hm_result_release(&res);
		}
		hm_platform_free(p);
	}
}

static void greedy_should_reach_a_configuration_that_fits(void)
{
	static const char json[] =
		"{\"name\": \"tight\", \"types\": {\"A\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9},"
		" \"B\": {\"k3\": 5e-10, \"k2_dgetf2\": 2e-9}}, \"processors\": ["
		"{\"name\": \"p0\", \"type\": \"A\", \"memory\": \"1GiB\"},"
		"{\"name\": \"p1\", \"type\": \"A\", \"memory\": \"1GiB\"},"
		"{\"name\": \"p2\", \"type\": \"B\", \"memory\": \"1GiB\"},"
		"{\"name\": \"p3\", \"type\": \"B\", \"memory\": \"1GiB\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9}, \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}}, \"block_sizes\": [64]}";
	static const char *const methods[] = { "GPTM", "GCTM", "exact" };
	struct hm_platform *p;
	struct hm_error err;

	if (!CHECK(hm_platform_load_buffer(json, strlen(json), "tight", &p, &err) == 0))
		return;
	for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
		struct hm_problem pb = { p, hm_model_default(), HM_ROUTINE_LU, 20000, 8, NULL, { 0, 0 }, 0 };
		struct hm_budget none = { 0, 0 };
		struct hm_result res;

		if (!CHECK(hm_search(hm_method_find(methods[m]), &pb, &none, &res, &err) == 0))
			continue;
		CHECK(res.found && res.D == 4 && res.d[0] == 1 && res.d[1] == 1 && res.d[2] == 1 &&
		      res.d[3] == 1);
		hm_result_release(&res);
	}
	hm_platform_free(p);
}

/* Two 4-core hosts of two sockets whose dgemm runs 1.98x faster on two
 * threads and 3.9x on four, and slow messages even inside a node: threads
 * (fewer ranks, fewer messages) should win, and pricing every split should give exactly the
 * least of the per-split optima. */
static const char threaded_json[] =
	"{\"name\": \"threaded\", \"types\": {\"A\": {\"k3\": 1e-10, \"k2_dgetf2\": 4e-10,"
	" \"threads\": {\"2\": {\"dgemm\": 1.98, \"dtrsm\": 1.9, \"panel\": 1.2},"
	" \"4\": {\"dgemm\": 3.9, \"dtrsm\": 3.7, \"panel\": 1.3}}}}, \"processors\": ["
	"{\"name\": \"h0\", \"type\": \"A\", \"cores\": 4, \"sockets\": 2},"
	"{\"name\": \"h1\", \"type\": \"A\", \"cores\": 4, \"sockets\": 2}],"
	" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9}, \"same_node\": {\"t_s\": 2e-4, \"t_w\": 2e-8},"
	" \"inter_node\": {\"t_s\": 1e-3, \"t_w\": 1e-7}}, \"block_sizes\": [64]}";

static void threads_should_be_priced_by_their_speedups(void)
{
	struct hm_platform *p;
	struct hm_thread_view v;
	struct hm_error err;
	int two[2] = { 2, 4 }, opts[HM_MAX_THREAD_COUNTS + 1];

	if (!CHECK(hm_platform_load_buffer(threaded_json, strlen(threaded_json), "t", &p, &err) == 0))
		return;
	/* measured, interpolated between counts, held efficiency beyond */
	CHECK(hm_thread_speedup(&p->types[0], 1, HM_THREADS_DGEMM, 64) == 1);
	CHECK(hm_thread_speedup(&p->types[0], 2, HM_THREADS_DGEMM, 64) == 1.98);
	CHECK(fabs(hm_thread_speedup(&p->types[0], 3, HM_THREADS_DGEMM, 64) - 2.94) < 1e-12);
	CHECK(fabs(hm_thread_speedup(&p->types[0], 8, HM_THREADS_PANEL, 64) - 2.6) < 1e-12);
	CHECK(hm_thread_options(p, 0, opts) == 3 && opts[0] == 1 && opts[1] == 2 && opts[2] == 4);
	if (CHECK(hm_thread_view_build(&v, p, two, &err) == 0)) {
		const struct hm_processor *a = &v.view.procs[0], *b = &v.view.procs[1];

		CHECK(a->cores == 2 && a->sockets == 2 && b->cores == 1 && b->sockets == 1);
		CHECK(fabs(hm_table_at(&v.view.types[a->type].k3_dgemm, 64) - 1e-10 / 1.98) < 1e-22);
		CHECK(fabs(hm_table_at(&v.view.types[b->type].k2_dgetf2, 64) - 4e-10 / 1.3) < 1e-22);
		CHECK(v.view.types[0].k3_dgemm.k == p->types[0].k3_dgemm.k);  /* base's own, shared */
		hm_thread_view_release(&v);
	}
	two[0] = 8;     /* more threads than cores */
	CHECK(hm_thread_view_build(&v, p, two, &err) == -1 && strstr(err.msg, "too few"));
	hm_platform_free(p);
}

/* Speed-ups by block size (what calibrate writes): each k of the view's
 * tables divided by the speed-up at its own b, interpolated between the
 * measured b and clamped outside; a value out of range is refused with
 * its path. */
static const char threaded_by_b_json[] =
	"{\"name\": \"by-b\", \"types\": {\"A\": {\"k3_dgemm\": {\"32\": 2e-11, \"64\": 2e-11, \"128\": 2e-11},"
	" \"k3_dtrsm\": 4e-11, \"k2_dgetf2\": {\"32\": 1e-10, \"128\": 1e-10},"
	" \"threads\": {\"2\": {\"dgemm\": {\"32\": 1.4, \"128\": 1.6}, \"dtrsm\": 1.5,"
	" \"panel\": {\"32\": 0.5, \"128\": 1.1}}}}}, \"processors\": ["
	"{\"name\": \"h0\", \"type\": \"A\", \"cores\": 2}], \"block_sizes\": [32, 64, 128],"
	" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9}, \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
	" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}}}";

static void thread_speedups_should_be_read_at_each_block_size(void)
{
	struct hm_platform *p;
	struct hm_thread_view v;
	struct hm_error err;
	int two[1] = { 2 };
	char bad[sizeof(threaded_by_b_json)];

	if (!CHECK(hm_platform_load_buffer(threaded_by_b_json, strlen(threaded_by_b_json), "t", &p, &err) == 0))
		return;
	CHECK(fabs(hm_thread_speedup(&p->types[0], 2, HM_THREADS_DGEMM, 64) - (1.4 + 0.2 / 3)) < 1e-12);
	CHECK(hm_thread_speedup(&p->types[0], 2, HM_THREADS_PANEL, 256) == 1.1);
	CHECK(hm_thread_speedup(&p->types[0], 2, HM_THREADS_DTRSM, 32) == 1.5);
	if (CHECK(hm_thread_view_build(&v, p, two, &err) == 0)) {
		const struct hm_proc_type *ty = &v.view.types[v.view.procs[0].type];

		CHECK(fabs(hm_table_at(&ty->k3_dgemm, 32) - 2e-11 / 1.4) < 1e-24);
		CHECK(fabs(hm_table_at(&ty->k3_dgemm, 128) - 2e-11 / 1.6) < 1e-24);
		CHECK(fabs(hm_table_at(&ty->k2_dgetf2, 32) - 1e-10 / 0.5) < 1e-24);
		CHECK(fabs(hm_table_at(&ty->k2_dgetf2, 128) - 1e-10 / 1.1) < 1e-24);
		hm_thread_view_release(&v);
	}
	hm_platform_free(p);
	memcpy(bad, threaded_by_b_json, sizeof(bad));
	memcpy(strstr(bad, "0.5"), "5.0", 3);   /* 5x from 2 threads */
	CHECK(hm_platform_load_buffer(bad, strlen(bad), "t", &p, &err) == -1 &&
	      !strcmp(err.path, "types.A.threads.2.panel") && strstr(err.msg, "5 at b = 32: the speed-up"));
}

static void exact_with_threads_should_be_the_least_split(void)
{
	static const int splits[3] = { 1, 2, 4 };
	struct hm_platform *p;
	struct hm_error err;
	struct hm_budget none = { 0, 0 };
	struct hm_result res, hu;
	double least = INFINITY;

	if (!CHECK(hm_platform_load_buffer(threaded_json, strlen(threaded_json), "t", &p, &err) == 0))
		return;
	struct hm_problem pb = { p, hm_model_default(), HM_ROUTINE_LU, 8000, 8, NULL, { 0, 0 }, 0 };

	for (int s = 0; s < 3; s++) {
		int t[2] = { splits[s], splits[s] };
		struct hm_thread_view v;
		struct hm_problem one = pb;
		struct hm_result r;

		if (!CHECK(hm_thread_view_build(&v, p, t, &err) == 0))
			continue;
		one.platform = &v.view;
		/* the plain method on one split's view (the view itself has no threads) */
		if (CHECK(hm_result_start(&r, &one, &err) == 0)) {
			CHECK(hm_method_find("exact")->run(0, &one, &none, &r, &err) == 0);
			least = r.eet < least ? r.eet : least;
			hm_result_release(&r);
		}
		hm_thread_view_release(&v);
	}
	if (CHECK(hm_search(hm_method_find("exact"), &pb, &none, &res, &err) == 0)) {
		CHECK(res.found && res.eet == least && res.thread_splits >= 3 && res.thread_splits_all);
		CHECK(res.threads && res.threads[0] > 1);       /* the slow network makes threads win */
		hm_result_release(&res);
	}
	/* HU: one rank per socket, each with its socket's two cores */
	if (CHECK(hm_search(hm_method_find("HU"), &pb, &none, &hu, &err) == 0)) {
		CHECK(hu.found && hu.D == 4 && hu.d[0] == 2 && hu.threads && hu.threads[0] == 2 &&
		      hu.threads[1] == 2);
		CHECK(hu.eet >= least);
		hm_result_release(&hu);
	}
	hm_platform_free(p);
}

/* The emulated cluster's calibration (experiments/threads/vcluster.sh):
 * a two-core node whose two threads ran 2.4x one beside a one-core node
 * of about its speed and two slow ones (whose cores let a split's walk
 * reach four ranks). Stacking several ranks of two threads on the two cores looked
 * cheapest to every method (3 x 2t) until the view priced it as
 * forbidden: no method may plan ranks of threads that share cores. */
static const char superlinear_json[] =
	"{\"name\": \"superlinear\", \"types\": {\"F\": {\"k3_dgemm\": 1.9e-10, \"k3_dtrsm\": 2.1e-10,"
	" \"k2_dgetf2\": 3.3e-10, \"k1_dswap\": 3e-8,"
	" \"threads\": {\"2\": {\"dgemm\": 2.4, \"dtrsm\": 2.5, \"panel\": 1.8}}},"
	" \"S\": {\"k3_dgemm\": 2.1e-10, \"k3_dtrsm\": 2.5e-10, \"k2_dgetf2\": 3.5e-10, \"k1_dswap\": 5e-8},"
	" \"Q\": {\"k3\": 1e-9, \"k2_dgetf2\": 2e-9}}, \"processors\": ["
	"{\"name\": \"duo\", \"type\": \"F\", \"cores\": 2}, {\"name\": \"half\", \"type\": \"S\", \"cores\": 1},"
	"{\"name\": \"q1\", \"type\": \"Q\", \"cores\": 1}, {\"name\": \"q2\", \"type\": \"Q\", \"cores\": 1}],"
	" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9}, \"same_node\": {\"t_s\": 5e-6, \"t_w\": 2e-9},"
	" \"inter_node\": {\"t_s\": 1.5e-5, \"t_w\": 2.5e-9}}, \"block_sizes\": [32]}";

static void ranks_of_threads_should_never_share_cores(void)
{
	struct hm_platform *p;
	struct hm_error err;
	struct hm_budget none = { 0, 0 };
	int d[4] = { 3, 1, 0, 0 }, t[4] = { 2, 1, 1, 1 };

	if (!CHECK(hm_platform_load_buffer(superlinear_json, strlen(superlinear_json), "t", &p, &err) == 0))
		return;
	CHECK(hm_thread_ranks_fit(p, d, t, &err) == -1 && strstr(err.msg, "need 6 cores"));
	d[0] = 1;
	CHECK(hm_thread_ranks_fit(p, d, t, &err) == 0);
	d[0] = 3, t[0] = 1;     /* ranks of one thread may share */
	CHECK(hm_thread_ranks_fit(p, d, t, &err) == 0);
	for (const struct hm_method *const *m = hm_method_list(); *m; m++) {
		struct hm_problem pb = { p, hm_model_default(), HM_ROUTINE_LU, 3000, 8, NULL, { 0, 0 }, 0 };
		struct hm_result res;

		if ((*m)->kind != HM_METHOD_SEARCH)
			continue;
		if (!CHECK(hm_search(*m, &pb, &none, &res, &err) == 0))
			continue;
		CHECK(res.found && (!res.threads || hm_thread_ranks_fit(p, res.d, res.threads, &err) == 0));
		hm_result_release(&res);
	}
	hm_platform_free(p);
}

static const struct check_case cases[] = {
	CHECK_CASE(threads_should_be_priced_by_their_speedups),
	CHECK_CASE(thread_speedups_should_be_read_at_each_block_size),
	CHECK_CASE(exact_with_threads_should_be_the_least_split),
	CHECK_CASE(ranks_of_threads_should_never_share_cores),
	CHECK_CASE(greedy_should_take_the_least_child),
	CHECK_CASE(greedy_should_reach_a_configuration_that_fits),
	CHECK_CASE(divisors_should_be_every_divisor_ascending),
	CHECK_CASE(top_k_should_keep_the_cheapest_and_know_twins),
	CHECK_CASE(classes_should_hold_interchangeable_processors),
	CHECK_CASE(weights_should_time_as_the_model),
	CHECK_CASE(methods_should_match_brute_force),
	CHECK_CASE(exact_should_match_exhaustive),
	CHECK_CASE(one_process_should_cost_what_the_model_says),
	CHECK_CASE(users_should_match_their_definitions),
	CHECK_CASE(budgets_should_stop_with_the_best_so_far),
	CHECK_CASE(searches_should_be_deterministic),
};

CHECK_MAIN("test_search")

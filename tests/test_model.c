/* tests/test_model.c - the reference model against hand-computed values,
 * the heterogeneity rule (max over processors, same-processor pairs) and
 * the monotonicity contract the exact searches rely on. */
#include "check.h"
#include "models/model.h"

#include <stdlib.h>
#include <string.h>

static struct hm_platform *torc, *sunet;

static double predict(struct hm_platform *p, enum hm_routine rt, double n, const int *d,
		      int r, int c, int b, struct hm_prediction *out)
{
	struct hm_error err;

	if (!CHECK(hm_predict(hm_model_find("thesis"), p, rt, n, d, r, c, b, out, &err) == 0))
		fprintf(stderr, "  %s\n", err.msg);
	return out->total;
}

/* The "done when" case of the foundation issue: one process on each of
 * TORC's 19 processors, 1 x 19, b = 32, n = 2048. By hand (us -> s):
 *   k3 = max(DPIII 0.003, SPIII 0.002, ATH 0.001, 17P4 0.001) = 0.003e-6
 *   k2 = max(0.015, 0.015, 0.012, 0.012) = 0.015e-6
 *   t_s = 100e-6, t_w = 0.72e-6 (pairs of different processors only)
 *   dgemm  2 * 2048^3 / (3 * 19) * 0.003e-6            = 0.904203641263158
 *   dtrsm  (1 + 19) / 19 * 2048^2 * 32 * 0.003e-6       = 0.423845456842105
 *   dgetf2 2048 * 32^2 / 3 * 0.015e-6                   = 0.01048576
 *   t_s    2 * 2048 * 19 / 32 * 100e-6                  = 0.2432
 *   t_w    2 * 2048^2 * 19 / 19 * 0.72e-6               = 6.03979776
 *   total                                               = 7.621532618105263 s */
static void torc_all_processors_1x19_should_match_hand_values(void)
{
	int d[19];
	struct hm_prediction t;
	int i;

	for (i = 0; i < 19; i++)
		d[i] = 1;
	predict(torc, HM_ROUTINE_LU, 2048, d, 1, 19, 32, &t);
	CHECK_NEAR(t.comp_gemm, 0.904203641263158, 1e-12);
	CHECK_NEAR(t.comp_trsm, 0.423845456842105, 1e-12);
	CHECK_NEAR(t.comp_getf2, 0.01048576, 1e-12);
	CHECK_NEAR(t.comm_latency, 0.2432, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 6.03979776, 1e-12);
	CHECK_NEAR(t.total, 7.621532618105263, 1e-12);
	CHECK_NEAR(t.comp + t.comm, t.total, 1e-15);
}

/* d = (P16 SPIII: 1, P17 ATH: 2, P18 17P4: 1), 2 x 2, b = 64, n = 2048.
 * Max over processors: k3 = max(1*0.003, 2*0.001, 1*0.001) = 0.003e-6
 * (SPIII at b = 64 is 0.003), k2 = max(0.015, 2*0.012, 0.012) = 0.024e-6.
 * Pairs: (P17,P17) 2 * (10 us, 0.25 us); (P16,P17) and (P17,P18)
 * max(1,2) * (100 us, 0.72 us) = (200 us, 1.44 us); so t_s = 200e-6,
 * t_w = 1.44e-6. g = 2, p = 4:
 *   dgemm  2 * 2048^3 / 12 * 0.003e-6     = 4.294967296
 *   dtrsm  4 / 4 * 2048^2 * 64 * 0.003e-6 = 0.805306368
 *   dgetf2 2048 * 64^2 / 3 * 0.024e-6     = 0.067108864
 *   t_s    2 * 2048 * 2 / 64 * 200e-6     = 0.0256
 *   t_w    2 * 2048^2 * 2 / 4 * 1.44e-6   = 6.03979776 */
static void max_rule_should_scale_by_processes_per_processor(void)
{
	int d[19] = { 0 };
	struct hm_prediction t;

	d[16] = 1;
	d[17] = 2;
	d[18] = 1;
	predict(torc, HM_ROUTINE_LU, 2048, d, 2, 2, 64, &t);
	CHECK_NEAR(t.comp_gemm, 4.294967296, 1e-12);
	CHECK_NEAR(t.comp_trsm, 0.805306368, 1e-12);
	CHECK_NEAR(t.comp_getf2, 0.067108864, 1e-12);
	CHECK_NEAR(t.comm_latency, 0.0256, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 6.03979776, 1e-12);
}

/* Three processes on P18 alone: only the same-processor pair exists, at
 * 3 * (10 us, 0.25 us). LU 1 x 3, b = 32, n = 1000:
 *   dgemm  2e9 / 9 * 0.003e-6 = 0.666666...   (k = 3 * 0.001e-6)
 *   dtrsm  4 / 3 * 1e6 * 32 * 0.003e-6 = 0.128
 *   dgetf2 1000 * 1024 / 3 * 0.036e-6 = 0.012288
 *   t_s    2 * 1000 * 3 / 32 * 30e-6 = 0.005625
 *   t_w    2 * 1e6 * 3 / 3 * 0.75e-6 = 1.5
 * GEMM, same d and grid: 2e9 / 3 * 0.003e-6 = 2.0 compute;
 *   2 * ceil(1000 / 32) * 30e-6 = 0.00192, (1e6 + 1e6 / 3) * 0.75e-6 = 1.0 */
static void same_processor_pairs_should_cost_d_times(void)
{
	int d[19] = { 0 };
	struct hm_prediction t;

	d[18] = 3;
	predict(torc, HM_ROUTINE_LU, 1000, d, 1, 3, 32, &t);
	CHECK_NEAR(t.comp_gemm, 2.0 / 3.0, 1e-12);
	CHECK_NEAR(t.comp_trsm, 0.128, 1e-12);
	CHECK_NEAR(t.comp_getf2, 0.012288, 1e-12);
	CHECK_NEAR(t.comm_latency, 0.005625, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 1.5, 1e-12);
	predict(torc, HM_ROUTINE_GEMM, 1000, d, 1, 3, 32, &t);
	CHECK_NEAR(t.comp, 2.0, 1e-12);
	CHECK_NEAR(t.comm_latency, 0.00192, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 1.0, 1e-12);
	CHECK_NEAR(t.total, 3.00192, 1e-12);
}

/* One process: no pair, no communication. SUNEt's Ultra 5 alone, LU,
 * n = 7680, b = 16: 2 * 7680^3 / 3 * 0.004e-6 + 2 * 7680^2 * 16 * 0.004e-6
 * + 7680 * 256 / 3 * 0.05e-6 = 1207.959552 + 7.5497472 + 0.032768. */
static void one_process_should_not_communicate(void)
{
	int d[6] = { 0, 0, 0, 0, 0, 1 };
	struct hm_prediction t;

	predict(sunet, HM_ROUTINE_LU, 7680, d, 1, 1, 16, &t);
	CHECK(t.comm == 0);
	CHECK_NEAR(t.total, 1207.959552 + 7.5497472 + 0.032768, 1e-12);
}

/* SUNEt, all six, 2 x 3, b = 32, n = 7680 (k = 0.006 of the Ultra 1s):
 * 2 * 7680^3 / 18 * 0.006e-6 + 5 / 6 * 7680^2 * 32 * 0.006e-6
 * + 7680 * 1024 / 3 * 0.07e-6 + 2 * 7680 * 3 / 32 * 170e-6
 * + 2 * 7680^2 * 3 / 6 * 7.5e-6 */
static void sunet_grid_should_use_max_of_r_and_c(void)
{
	int d[6] = { 1, 1, 1, 1, 1, 1 };
	struct hm_prediction t;
	double n = 7680, want = 2 * n * n * n / 18 * 0.006e-6 + 5.0 / 6 * n * n * 32 * 0.006e-6 +
				n * 1024 / 3 * 0.07e-6 + 2 * n * 3 / 32 * 170e-6 +
				2 * n * n * 3 / 6 * 7.5e-6;

	predict(sunet, HM_ROUTINE_LU, n, d, 2, 3, 32, &t);
	CHECK_NEAR(t.total, want, 1e-12);
	CHECK_NEAR(t.total, 754.2227, 1e-6);
	/* 3 x 2 gives the same time: the model is symmetric in r and c */
	CHECK_NEAR(predict(sunet, HM_ROUTINE_LU, n, d, 3, 2, 32, &t), want, 1e-12);
	/* 1 x 6 is worse: g = 6 */
	CHECK(predict(sunet, HM_ROUTINE_LU, n, d, 1, 6, 32, &t) > want);
}

static void bad_configurations_should_be_rejected(void)
{
	int d[6] = { 1, 1, 1, 0, 0, 0 }, neg[6] = { -1, 1, 0, 0, 0, 0 }, none[6] = { 0 };
	struct hm_prediction t;
	struct hm_error err;
	const struct hm_model *m = hm_model_default();

	CHECK(hm_predict(m, sunet, HM_ROUTINE_LU, 100, d, 2, 2, 32, &t, &err) == -1);
	CHECK(strstr(err.msg, "grid 2x2") != NULL);
	CHECK(hm_predict(m, sunet, HM_ROUTINE_LU, 100, neg, 1, 0, 32, &t, &err) == -1);
	CHECK(hm_predict(m, sunet, HM_ROUTINE_LU, 100, none, 1, 1, 32, &t, &err) == -1);
	CHECK(hm_predict(m, sunet, HM_ROUTINE_LU, 100, d, 1, 3, 0, &t, &err) == -1);
	CHECK(hm_model_find("panel") == m && hm_model_find("thesis") != NULL && hm_model_find("nope") == NULL);
}

/* Every registry row has a status, a summary and its evidence; one
 * default, which hm_model_default() names, and one reference; the listing
 * goes default, reference, candidates. */
static void every_model_should_have_a_status_and_evidence(void)
{
	int count[3] = { 0 }, last = HM_MODEL_DEFAULT;

	for (const struct hm_model *const *m = hm_model_list(); *m; m++) {
		CHECK((*m)->status >= HM_MODEL_DEFAULT && (*m)->status <= HM_MODEL_CANDIDATE);
		CHECK((*m)->summary && (*m)->summary[0] && (*m)->evidence && (*m)->evidence[0]);
		CHECK((int)(*m)->status >= last);
		last = (int)(*m)->status;
		count[(*m)->status]++;
		CHECK(strcmp(hm_model_status_name((*m)->status), "?") != 0);
	}
	CHECK(count[HM_MODEL_DEFAULT] == 1 && count[HM_MODEL_REFERENCE] == 1);
	CHECK(hm_model_default()->status == HM_MODEL_DEFAULT);
}

/* The searches' bounds need: time never decreases when an SP grows. */
static void time_should_not_decrease_when_an_sp_grows(void)
{
	const struct hm_model *const *m;
	unsigned seed = 12345;
	int i, f, rt;

	for (m = hm_model_list(); *m; m++)
		for (i = 0; i < 2000; i++) {
			struct hm_sp sp, up;
			double *fields = &sp.k3_dgemm, *upf = &up.k3_dgemm;
			int r = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 8;
			int c = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 8;
			int b = 8 << (int)(((seed = seed * 1103515245u + 12345u) >> 16) % 5);

			for (f = 0; f < 5; f++)
				fields[f] = 1e-9 * (1 + ((seed = seed * 1103515245u + 12345u) >> 16) % 1000);
			for (rt = 0; rt < HM_NR_ROUTINES; rt++)
				for (f = 0; f < 5; f++) {
					double a, z;

					up = sp;
					upf[f] *= 1.5;
					a = (*m)->time((enum hm_routine)rt, 3000, r, c, b, &sp, NULL);
					z = (*m)->time((enum hm_routine)rt, 3000, r, c, b, &up, NULL);
					if (!(z >= a)) {
						CHECK(z >= a);
						return;
					}
				}
		}
	CHECK(1);
}

/* The exact optimizer's weights need more: time = w . SPs, w >= 0
 * (model.h). Checked at random SPs and grids, every model and routine. */
static void time_should_be_linear_in_the_sps(void)
{
	unsigned seed = 777;

	for (const struct hm_model *const *m = hm_model_list(); *m; m++)
		for (int i = 0; i < 2000; i++) {
			double v[HM_NR_SP], w[HM_NR_SP];
			int r = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 9;
			int c = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 9;
			int b = 8 << (int)(((seed = seed * 1103515245u + 12345u) >> 16) % 5);

			for (int f = 0; f < HM_NR_SP; f++)
				v[f] = 1e-9 * (1 + ((seed = seed * 1103515245u + 12345u) >> 16) % 1000);
			struct hm_sp sp;

			hm_sp_from_vector(v, &sp);

			for (int rt = 0; rt < HM_NR_ROUTINES; rt++) {
				double t = (*m)->time((enum hm_routine)rt, 3000, r, c, b, &sp, NULL), dot = 0;
				int nonneg = 1;

				hm_model_weights(*m, (enum hm_routine)rt, 3000, r, c, b, w);
				for (int f = 0; f < HM_NR_SP; f++)
					dot += w[f] * v[f], nonneg &= w[f] >= 0;
				if (!CHECK(nonneg) || !CHECK_NEAR(dot, t, 1e-12)) {
					fprintf(stderr, "  model %s, %dx%d, b %d\n", (*m)->name, r, c, b);
					return;
				}
			}
		}
}

static void memory_should_limit_processes(void)
{
	static const char json[] =
		"{\"types\": {\"t\": {\"k3\": 1e-9, \"k2_dgetf2\": 1e-9}},"
		" \"block_sizes\": [32],"
		" \"processors\": [{\"name\": \"a\", \"type\": \"t\", \"memory\": \"100MB\"},"
		"                  {\"name\": \"b\", \"type\": \"t\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 0, \"t_w\": 0},"
		"  \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9}, \"inter_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9}}}";
	struct hm_platform *p;
	struct hm_error err;
	int alone[2] = { 1, 0 }, shared[2] = { 1, 3 };

	if (!CHECK(hm_platform_load_buffer(json, strlen(json), "mem", &p, &err) == 0))
		return;
	/* n = 4000: 8 n^2 * 1.05 = 134.4 MB > 100 MB alone; 33.6 MB of 4 fits */
	CHECK(!hm_memory_fits(p, HM_ROUTINE_LU, 4000, alone));
	CHECK(hm_memory_fits(p, HM_ROUTINE_LU, 4000, shared));
	/* GEMM holds three matrices: 100.8 MB per process of 4 does not fit */
	CHECK(!hm_memory_fits(p, HM_ROUTINE_GEMM, 4000, shared));
	hm_platform_free(p);
}

/* The grid model on the same TORC case, by hand: computation as above
 * (0.904203641263158 + 0.423845456842105 + 0.01048576); r = 1, c = 19, so
 * lg r = 0, lg c = ceil(log2 19) = 5:
 *   latency   (2048 / 32) * (5 + 0) * 100e-6 + 3 * 2048 * 0 = 0.032
 *   bandwidth (2048^2 / 1 * 5 + 0) / 2 * 0.72e-6          = 7.5497472
 * and on a 4 x 4 grid of the 16 DPIII (k3 0.003, k2 0.015, t 100/0.72 us):
 *   dgemm 2 * 2048^3 / 48 * 0.003e-6 = 1.073741824, dtrsm 8 / 16 * 2048^2 * 32 * 0.003e-6
 *   = 0.201326592, dgetf2 0.01048576, column steps (TORC gives none: the
 *   default, 889 x its panel's s/flop at the middle b, 64) 3 * 2048 * lg 4
 *   * 889 * 0.015e-6 = 0.16386048 (the grid model charges no row swaps);
 *   latency (64 * 4 + 3 * 2048 * 2) * 100e-6 = 1.2544;
 *   bandwidth (2048^2 / 4 * 2 * 2) / 2 * 0.72e-6 = 1.50994944. */
static void grid_model_should_match_hand_values(void)
{
	const struct hm_model *grid = hm_model_find("grid");
	struct hm_prediction t;
	struct hm_error err;
	int d[19] = { 0 }, i;

	if (!CHECK(grid != NULL))
		return;
	for (i = 0; i < 19; i++)
		d[i] = 1;
	CHECK(hm_predict(grid, torc, HM_ROUTINE_LU, 2048, d, 1, 19, 32, &t, &err) == 0);
	CHECK_NEAR(t.comm_latency, 0.032, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 7.5497472, 1e-12);
	CHECK_NEAR(t.total, 0.904203641263158 + 0.423845456842105 + 0.01048576 + 0.032 + 7.5497472, 1e-12);
	for (i = 16; i < 19; i++)
		d[i] = 0;
	CHECK(hm_predict(grid, torc, HM_ROUTINE_LU, 2048, d, 4, 4, 32, &t, &err) == 0);
	CHECK_NEAR(t.comp, 1.073741824 + 0.201326592 + 0.01048576 + 0.16386048, 1e-12);
	CHECK(t.comp_swaps == 0);
	CHECK_NEAR(t.comp_steps, 0.16386048, 1e-12);
	CHECK_NEAR(t.comm_latency, 1.2544, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 1.50994944, 1e-12);
	/* r x 1 costs more than 1 x r: the pivot synchronisation runs down columns */
	for (i = 2; i < 16; i++)
		d[i] = 0;
	{
		struct hm_prediction tall, wide;

		CHECK(hm_predict(grid, torc, HM_ROUTINE_LU, 2048, d, 2, 1, 32, &tall, &err) == 0);
		CHECK(hm_predict(grid, torc, HM_ROUTINE_LU, 2048, d, 1, 2, 32, &wide, &err) == 0);
		CHECK(tall.total > wide.total);
	}
}

/* The candidate "ring" model (PDGETRF's S-ring panel broadcast, row
 * interchanges) on TORC, LU n = 2048, b = 32, t_s 100 us, t_w 0.72 us:
 *   1 x 19: latency (64 * 1) * 100e-6 = 0.0064;
 *           bandwidth (2048^2 / 1 * 1) / 2 * 0.72e-6 = 1.50994944;
 *   4 x 4 (16 DPIII): latency (64 * (1 + 2) + 3 * 2048 * 2 + 2048 * 3/4) * 100e-6 = 1.4016;
 *           bandwidth ((2048^2 / 4 + 2048^2 / 4 * 2) / 2 + 2048^2 * 3/4 / 8) * 0.72e-6
 *           = 1966080 * 0.72e-6 = 1.4155776. */
static void ring_model_should_match_hand_values(void)
{
	const struct hm_model *ring = hm_model_find("ring");
	struct hm_prediction t;
	struct hm_error err;
	int d[19] = { 0 }, i;

	if (!CHECK(ring != NULL))
		return;
	for (i = 0; i < 19; i++)
		d[i] = 1;
	CHECK(hm_predict(ring, torc, HM_ROUTINE_LU, 2048, d, 1, 19, 32, &t, &err) == 0);
	CHECK_NEAR(t.comm_latency, 0.0064, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 1.50994944, 1e-12);
	for (i = 16; i < 19; i++)
		d[i] = 0;
	CHECK(hm_predict(ring, torc, HM_ROUTINE_LU, 2048, d, 4, 4, 32, &t, &err) == 0);
	CHECK_NEAR(t.comm_latency, 1.4016, 1e-12);
	CHECK_NEAR(t.comm_bandwidth, 1.4155776, 1e-12);
}

/* Two 4-core nodes of one type, k3 = 1e-9 s/flop per core with all four
 * cores busy, 0.5x that with one busy (busy_cores_scale {1: 0.5, 4: 1}),
 * k2 = 4e-9; same processor 1 us / 1e-9 s per word, between nodes
 * 10 us / 1e-8. The rule, by hand:
 *   d = (2, 1): node 0 has 2 busy cores, its own core each: share 1;
 *     scale at 2 = 0.5 + (2 - 1) / (4 - 1) * 0.5 = 2/3;
 *     node 1: 1 busy, scale 0.5. k3 = max(2/3, 0.5) e-9 = 6.6667e-10,
 *     k2 = 4e-9 * 2/3; t_s = max(1 * 1 us (node 0's own pair),
 *     max(1, 1) * 10 us) = 10 us, t_w = 1e-8.
 *   d = (6, 1): node 0 holds 6 > 4: share ceil(6/4) = 2, scale at 4 = 1:
 *     k3 = 2e-9; t_s = max(2 * 1 us, max(2, 1) * 10 us) = 20 us.
 *   d = (4, 0): share 1, scale 1: k3 = 1e-9, t_s = 1 us (own pair).
 * With one core per processor the same d would give d_i k_i: the thesis. */
static void cores_should_share_only_beyond_their_number(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9,"
		" \"busy_cores_scale\": {\"1\": 0.5, \"4\": 1}}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\", \"cores\": 4},"
		" {\"name\": \"b\", \"type\": \"n\", \"cores\": 4}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}}, \"block_sizes\": [32]}";
	struct hm_platform *p;
	struct hm_error err;
	struct hm_sp sp;
	int d21[2] = { 2, 1 }, d61[2] = { 6, 1 }, d40[2] = { 4, 0 };

	if (!CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "cores", &p, &err) == 0)) {
		fprintf(stderr, "  %s: %s\n", err.path, err.msg);
		return;
	}
	hm_sp_effective(p, d21, 32, HM_ROUTINE_LU, &sp);
	CHECK_NEAR(sp.k3_dgemm, 2.0 / 3 * 1e-9, 1e-12);
	CHECK_NEAR(sp.k2_dgetf2, 2.0 / 3 * 4e-9, 1e-12);
	CHECK_NEAR(sp.t_s, 1e-5, 1e-12);
	CHECK_NEAR(sp.t_w, 1e-8, 1e-12);
	hm_sp_effective(p, d61, 32, HM_ROUTINE_LU, &sp);
	CHECK_NEAR(sp.k3_dgemm, 2e-9, 1e-12);
	CHECK_NEAR(sp.t_s, 2e-5, 1e-12);
	CHECK_NEAR(sp.t_w, 2e-8, 1e-12);
	hm_sp_effective(p, d40, 32, HM_ROUTINE_LU, &sp);
	CHECK_NEAR(sp.k3_dgemm, 1e-9, 1e-12);
	CHECK_NEAR(sp.t_s, 1e-6, 1e-12);
	/* the factor never decreases with d (what the exact searches need) */
	for (int d = 1; d < 20; d++)
		CHECK(hm_compute_factor(p, 0, d + 1, HM_ROUTINE_LU) >= hm_compute_factor(p, 0, d, HM_ROUTINE_LU) &&
		      hm_share_factor(d + 1, 4) >= hm_share_factor(d, 4));
	hm_platform_free(p);
}

/* A host's card, shared by its ranks that send off it at once. Two 8-core
 * nodes, between them 1e-8 s/word (the card: no rule is faster; the
 * cores' part of it 1e-9), inside 1e-9; LU and GEMM n = 1000, b = 32, on
 * 2 x 4, by hand:
 *   d = (4, 4): a node a row; m = 4, D - m = 4: along rows k = min(2, 4, 4)
 *     = 2, down columns k = min(4, 4, 4) = 4. LU (panel): words along rows
 *     n^2 / r lg c / 2 = 5e5, down columns n^2 / c lg r / 2 = 1.25e5:
 *     bandwidth 6.25e5 * 1e-8 = 6.25e-3, cards 5e5 * 1e-8 + 1.25e5 * 3e-8
 *     = 8.75e-3. GEMM: 5e5 and 2.5e5 words, cards 5e-3 + 7.5e-3 = 1.25e-2.
 *   d = (7, 1): one rank off the big node, D - m = 1: no stream shares.
 *   d = (8, 0): one host, no card. The default (panel) keeps no card. */
static void cards_should_be_shared_by_the_ranks_that_cross_them(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\", \"cores\": 8},"
		" {\"name\": \"b\", \"type\": \"n\", \"cores\": 8}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8, \"t_w_core\": 1e-9}}, \"block_sizes\": [32]}";
	const struct hm_model *card = hm_model_find("card"), *panel = hm_model_find("panel");
	int d44[2] = { 4, 4 }, d71[2] = { 7, 1 }, d80[2] = { 8, 0 };
	struct hm_platform *p;
	struct hm_prediction t;
	struct hm_error err;

	if (!CHECK(card && panel) ||
	    !CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "cards", &p, &err) == 0))
		return;
	CHECK(p->procs[0].card_t_w == 1e-8 && p->procs[1].card_t_w == 1e-8);
	CHECK(hm_predict(card, p, HM_ROUTINE_LU, 1000, d44, 2, 4, 32, &t, &err) == 0);
	CHECK_NEAR(t.comm_bandwidth, 6.25e-3, 1e-15);
	CHECK_NEAR(t.comm_card, 8.75e-3, 1e-15);
	CHECK_NEAR(t.comm, t.comm_latency + 6.25e-3 + 8.75e-3, 1e-15);
	CHECK(hm_predict(card, p, HM_ROUTINE_GEMM, 1000, d44, 2, 4, 32, &t, &err) == 0);
	CHECK_NEAR(t.comm_card, 1.25e-2, 1e-15);
	CHECK(hm_predict(card, p, HM_ROUTINE_LU, 1000, d71, 2, 4, 32, &t, &err) == 0);
	CHECK(t.comm_card == 0 && t.comm_bandwidth > 0);
	CHECK(hm_predict(card, p, HM_ROUTINE_LU, 1000, d80, 2, 4, 32, &t, &err) == 0);
	CHECK(t.comm_card == 0 && t.comm_bandwidth > 0);
	/* ranks sharing a core send in turn: on 2-core nodes two senders, k = 2
	 * both ways (t_w stays 1e-8: the cores' part is 2 x 1e-9) */
	p->procs[0].cores = p->procs[1].cores = 2;
	CHECK(hm_predict(card, p, HM_ROUTINE_LU, 1000, d44, 2, 4, 32, &t, &err) == 0);
	CHECK_NEAR(t.comm_card, 5e5 * 1e-8 + 1.25e5 * 1e-8, 1e-15);
	/* panel, the default, gives every pair the whole link */
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 1000, d44, 2, 4, 32, &t, &err) == 0);
	CHECK(t.comm_card == 0 && t.comm_bandwidth > 0);
	hm_platform_free(p);
}

/* A type's stacking factor scales a shared core's computation, for its
 * routine only. One 2-core processor, k3 = 1e-9, k2 = 4e-9, "stacked":
 * {"gemm": 1.5} (LU: 1, not given). By hand: d = 2 has a core each:
 * k3 = 1e-9 for both routines; d = 3 shares (factor 2): GEMM 2 * 1.5e-9
 * = 3e-9, LU 2e-9; d = 5 (factor 3): GEMM 4.5e-9, LU 3e-9. */
static void stacking_should_scale_shared_cores_by_routine(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9, \"stacked\": {\"gemm\": 1.5}}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\", \"cores\": 2}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}}, \"block_sizes\": [32]}";
	static const struct { int d; double lu, gemm; } want[] = {
		{ 1, 1e-9, 1e-9 }, { 2, 1e-9, 1e-9 }, { 3, 2e-9, 3e-9 }, { 5, 3e-9, 4.5e-9 },
	};
	struct hm_platform *p;
	struct hm_error err;

	if (!CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "stacked", &p, &err) == 0))
		return;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct hm_sp lu, gemm;

		hm_sp_effective(p, &want[i].d, 32, HM_ROUTINE_LU, &lu);
		hm_sp_effective(p, &want[i].d, 32, HM_ROUTINE_GEMM, &gemm);
		CHECK_NEAR(lu.k3_dgemm, want[i].lu, 1e-12);
		CHECK_NEAR(gemm.k3_dgemm, want[i].gemm, 1e-12);
		CHECK_NEAR(gemm.k2_dgetf2, 4 * want[i].gemm, 1e-12);
	}
	for (int d = 1; d < 20; d++)
		CHECK(hm_compute_factor(p, 0, d + 1, HM_ROUTINE_GEMM) >=
		      hm_compute_factor(p, 0, d, HM_ROUTINE_GEMM));
	hm_platform_free(p);
}

/* A busy-cores scale that decreases would make adding a process cheaper:
 * refused. */
static void busy_scale_should_not_decrease(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9,"
		" \"busy_cores_scale\": {\"1\": 1, \"4\": 0.5}}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\", \"cores\": 4}],"
		" \"network\": {\"same_processor\": {\"t_s\": 0, \"t_w\": 0},"
		" \"same_node\": {\"t_s\": 0, \"t_w\": 0},"
		" \"inter_node\": {\"t_s\": 0, \"t_w\": 0}}, \"block_sizes\": [32]}";
	struct hm_platform *p;
	struct hm_error err;

	CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "busy", &p, &err) == -1);
	CHECK(strstr(err.msg, "must not decrease") != NULL);
}

/* A slow wire: one-core processors a and b, between them t_w = 1e-7 of
 * which the core spends t_w_core = 1e-9 (same processor: 1e-9). By hand,
 * t_w = max over pairs of max(t_w, f t_w_core), f the busier end's count:
 *   d = (1, 1): max(1e-7, 1e-9) = 1e-7;
 *   d = (4, 1): pair (a, b) max(1e-7, 4e-9) = 1e-7; pair (a, a) 4e-9;
 *   d = (200, 1): pair (a, b) max(1e-7, 2e-7) = 2e-7.
 * Without t_w_core (the thesis) d = (4, 1) costs 4e-7. t_s keeps the rule. */
static void a_slow_wire_should_not_slow_with_stacking(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\"}, {\"name\": \"b\", \"type\": \"n\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-5, \"t_w\": 1e-7, \"t_w_core\": 1e-9},"
		" \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-7%s}}, \"block_sizes\": [32]}";
	static const int d[][2] = { { 1, 1 }, { 4, 1 }, { 200, 1 }, { 4, 1 } };
	static const double want[] = { 1e-7, 1e-7, 2e-7, 4e-7 };

	for (int k = 0; k < 4; k++) {
		char text[sizeof(json) + 32];
		struct hm_platform *p;
		struct hm_error err;
		struct hm_sp sp;

		snprintf(text, sizeof(text), json, k < 3 ? ", \"t_w_core\": 1e-9" : "");
		if (!CHECK(hm_platform_load_buffer(text, strlen(text), "wire", &p, &err) == 0)) {
			fprintf(stderr, "  %s: %s\n", err.path, err.msg);
			return;
		}
		hm_sp_effective(p, d[k], 32, HM_ROUTINE_LU, &sp);
		CHECK_NEAR(sp.t_w, want[k], 1e-15);
		CHECK_NEAR(sp.t_s, d[k][0] * 1e-5, 1e-12);
		hm_platform_free(p);
	}
}

/* The candidate "panel" model (PDGETRF's arithmetic), two one-core
 * processors, k3_dgemm 1e-9, k3_dtrsm 2e-9, k2_dgetf2 4e-9 s/flop, LU
 * n = 1000, b = 50 on 1 x 2:
 *   update 2 * 1000^3 / (3 * 2) * 1e-9        = 0.333333...
 *   solve  1000^2 * 50 / (2 * 2) * 2e-9       = 0.025
 *   panel  1000^2 * 50 / (2 * 1) * 4e-9       = 0.1
 * communication as the grid model's, to the bit. */
static void panel_model_should_match_hand_values(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3_dgemm\": 1e-9, \"k3_dtrsm\": 2e-9, \"k2_dgetf2\": 4e-9}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\"}, {\"name\": \"b\", \"type\": \"n\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}, \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}},"
		" \"block_sizes\": [50]}";
	const struct hm_model *panel = hm_model_find("panel"), *grid = hm_model_find("grid");
	struct hm_prediction t, g;
	struct hm_platform *p;
	struct hm_error err;
	int d[2] = { 1, 1 };

	if (!CHECK(panel != NULL && grid != NULL) ||
	    !CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "panel", &p, &err) == 0))
		return;
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 1000, d, 1, 2, 50, &t, &err) == 0);
	CHECK(hm_predict(grid, p, HM_ROUTINE_LU, 1000, d, 1, 2, 50, &g, &err) == 0);
	CHECK_NEAR(t.comp_gemm, 1.0 / 3, 1e-12);
	CHECK_NEAR(t.comp_trsm, 0.025, 1e-12);
	CHECK_NEAR(t.comp_getf2, 0.1, 1e-12);
	CHECK(t.comm_latency == g.comm_latency && t.comm_bandwidth == g.comm_bandwidth);
	hm_platform_free(p);
}

/* LU's steps beside its kernels, measured (column_step 2 us, k1_dswap
 * 20 ns per element), LU n = 1000, b = 50:
 *   panel on 2 x 1: the column steps 3 * 1000 * lg 2 * 2e-6 = 6e-3 (and
 *          the row swaps on one process column 1000^2 / 1 * 20e-9 = 0.02);
 *   panel on 1 x 2: no column step (one process row), row swaps
 *          1000^2 / 2 * 20e-9 = 0.01;
 *   grid on 2 x 1: the same column steps, no row swaps (eq. 5.3's arithmetic);
 *   a second process on a one-core processor doubles both (its factor). */
static void measured_steps_should_match_hand_values(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3_dgemm\": 1e-9, \"k3_dtrsm\": 2e-9, \"k2_dgetf2\": 4e-9,"
		" \"column_step\": \"2us\", \"k1_dswap\": \"20ns\"}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\"}, {\"name\": \"b\", \"type\": \"n\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}, \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}},"
		" \"block_sizes\": [50]}";
	const struct hm_model *panel = hm_model_find("panel"), *grid = hm_model_find("grid");
	struct hm_prediction t;
	struct hm_platform *p;
	struct hm_error err;
	int d[2] = { 1, 1 }, two[2] = { 2, 0 };

	if (!CHECK(panel != NULL && grid != NULL) ||
	    !CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "steps", &p, &err) == 0))
		return;
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 1000, d, 2, 1, 50, &t, &err) == 0);
	CHECK_NEAR(t.comp_steps, 6e-3, 1e-15);
	CHECK_NEAR(t.comp_swaps, 0.02, 1e-15);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 1000, d, 1, 2, 50, &t, &err) == 0);
	CHECK(t.comp_steps == 0);
	CHECK_NEAR(t.comp_swaps, 0.01, 1e-15);
	CHECK(hm_predict(grid, p, HM_ROUTINE_LU, 1000, d, 2, 1, 50, &t, &err) == 0);
	CHECK_NEAR(t.comp_steps, 6e-3, 1e-15);
	CHECK(t.comp_swaps == 0);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 1000, two, 2, 1, 50, &t, &err) == 0);
	CHECK_NEAR(t.comp_steps, 12e-3, 1e-15);
	CHECK_NEAR(t.comp_swaps, 0.04, 1e-15);
	CHECK(hm_predict(panel, p, HM_ROUTINE_GEMM, 1000, d, 2, 1, 50, &t, &err) == 0);
	CHECK(t.comp_steps == 0 && t.comp_swaps == 0);
	hm_platform_free(p);
}

/* ScaLAPACK's numroc: the rows process row p of r holds of n in blocks of b. */
static long numroc_rows(long n, int b, int p, int r)
{
	long blocks = n / b, rows = blocks / r * b, extra = blocks % r;

	if (p < extra)
		rows += b;
	else if (p == extra)
		rows += n % b;
	return rows;
}

/* The share of the rows whose process row's leading dimension aliases,
 * row by row with numroc, against hm_aliased_share's O(1) count, over
 * every n up to 4100 at a few r and b (multiples of 512 among them). */
static void aliased_share_should_count_numroc_rows(void)
{
	static const int rs[] = { 1, 2, 3, 4, 7, 8 }, bs[] = { 16, 64, 100, 128, 512 };
	int bad = 0;

	for (long n = 1; n <= 4100; n++)
		for (size_t i = 0; i < sizeof(rs) / sizeof(rs[0]); i++)
			for (size_t j = 0; j < sizeof(bs) / sizeof(bs[0]); j++) {
				double aliased = 0;

				for (int p = 0; p < rs[i]; p++) {
					long rows = numroc_rows(n, bs[j], p, rs[i]);

					aliased += rows > 0 && rows % 512 == 0 ? rows : 0;
				}
				bad += fabs(hm_aliased_share(n, rs[i], bs[j]) - aliased / n) > 1e-12;
			}
	CHECK(bad == 0);
	CHECK(hm_aliased_share(4096, 1, 64) == 1 && hm_aliased_share(3000, 1, 64) == 0);
	CHECK(hm_aliased_share(8192, 2, 64) == 1 && hm_aliased_share(3000, 2, 64) == 0);
	/* 2 x 1 at n = 2560, b = 256: rows 1280 and 1280 (no); n = 3072: 1536 and 1536 */
	CHECK(hm_aliased_share(2560, 2, 256) == 0 && hm_aliased_share(3072, 2, 256) == 1);
	/* n = 1536 on 2 rows at b = 512: 1024 (aliased) and 512 (aliased) -> 1; at
	 * b = 256: 768 and 768 -> 0; n = 1280, b = 512: 768 and 512 -> 0.4 */
	CHECK(hm_aliased_share(1536, 2, 512) == 1 && hm_aliased_share(1536, 2, 256) == 0);
	CHECK_NEAR(hm_aliased_share(1280, 2, 512), 0.4, 1e-15);
}

/* The row interchanges at the run's stride: k1_dswap 10 ns, k1_dswap_aliased
 * 25 ns, b = 64, panel:
 *   LU n = 3000 on 1 x 1 (leading dimension 3000): 3000^2 * 10e-9 = 0.09;
 *   n = 4096 on 1 x 1 (4096 = 8 x 512): 4096^2 * 25e-9;
 *   n = 4096 on 1 x 2 (each rank 4096 rows): 4096^2 / 2 * 25e-9;
 *   n = 4096 on 2 x 1 (2048 each, aliased): 4096^2 * 25e-9;
 *   n = 3000 on 2 x 1 (1528 and 1472 rows): none aliased, 0.09; at b = 128
 *          1536 and 1464 rows (1536 = 3 x 512): 3000^2 * (0.512 * 25e-9 +
 *          0.488 * 10e-9);
 * and a type without k1_dswap_aliased pays its k1_dswap at every stride. */
static void row_swaps_should_be_priced_at_the_runs_stride(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3_dgemm\": 1e-9, \"k3_dtrsm\": 2e-9, \"k2_dgetf2\": 4e-9,"
		" \"k1_dswap\": \"10ns\", \"k1_dswap_aliased\": \"25ns\"},"
		" \"o\": {\"k3\": 1e-9, \"k2_dgetf2\": 4e-9, \"k1_dswap\": \"10ns\"}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\"}, {\"name\": \"b\", \"type\": \"n\"},"
		" {\"name\": \"c\", \"type\": \"o\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}, \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 1e-8}},"
		" \"block_sizes\": [64, 128]}";
	const struct hm_model *panel = hm_model_find("panel");
	struct hm_prediction t;
	struct hm_platform *p;
	struct hm_error err;
	int one[3] = { 1, 0, 0 }, two[3] = { 1, 1, 0 }, old[3] = { 0, 0, 1 };

	if (!CHECK(panel != NULL) ||
	    !CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "stride", &p, &err) == 0))
		return;
	CHECK(p->types[0].step_from[HM_LU_ROW_SWAP_ALIASED] == HM_STEP_GIVEN);
	CHECK(p->types[1].step_from[HM_LU_ROW_SWAP_ALIASED] == HM_STEP_OWN);
	CHECK(p->types[1].k1_dswap_aliased == p->types[1].k1_dswap);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 3000, one, 1, 1, 64, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 0.09, 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 4096, one, 1, 1, 64, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 4096.0 * 4096 * 25e-9, 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 4096, two, 1, 2, 64, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 4096.0 * 4096 / 2 * 25e-9, 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 4096, two, 2, 1, 64, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 4096.0 * 4096 * 25e-9, 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 3000, two, 2, 1, 64, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 0.09, 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 3000, two, 2, 1, 128, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 3000.0 * 3000 * (0.512 * 25e-9 + 0.488 * 10e-9), 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_LU, 4096, old, 1, 1, 64, &t, &err) == 0);
	CHECK_NEAR(t.comp_swaps, 4096.0 * 4096 * 10e-9, 1e-12);
	hm_platform_free(p);
}

/* The panel model's pdgemm as PBLAS runs it: k3_dgemm {32: 2e-9, 256: 1e-9}
 * s/flop, GEMM n = 1000 at b = 256, t_s 1e-5:
 *   1 x 2: rank-32 updates: 2 * 1000^3 / 2 * 2e-9 = 2, latency 2 * ceil(1000 / 32)
 *          * 1e-5 = 6.4e-4 (the grid model: 1 and 2 * 4 * 1e-5 = 8e-5);
 *   1 x 1: one local dgemm, the table's least k: 2 * 1000^3 * 1e-9 = 2;
 *   1 x 2 at b = 16: each 32-column step gathered from two owners' blocks,
 *          one broadcast each: latency 2 * ceil(1000 / 16) * 1e-5 = 1.26e-3,
 *          the updates still rank-32 (2). */
static void panel_model_should_run_pdgemm_as_pblas(void)
{
	static const char json[] =
		"{\"types\": {\"n\": {\"k3_dgemm\": {\"16\": 3e-9, \"32\": 2e-9, \"256\": 1e-9},"
		" \"k3_dtrsm\": 2e-9, \"k2_dgetf2\": 4e-9}},"
		" \"processors\": [{\"name\": \"a\", \"type\": \"n\"}, {\"name\": \"b\", \"type\": \"n\"}],"
		" \"network\": {\"same_processor\": {\"t_s\": 1e-6, \"t_w\": 1e-9},"
		" \"same_node\": {\"t_s\": 1e-5, \"t_w\": 0}, \"inter_node\": {\"t_s\": 1e-5, \"t_w\": 0}},"
		" \"block_sizes\": [16, 32, 256]}";
	const struct hm_model *panel = hm_model_find("panel"), *grid = hm_model_find("grid");
	struct hm_prediction t;
	struct hm_platform *p;
	struct hm_error err;
	int two[2] = { 1, 1 }, one[2] = { 1, 0 };

	if (!CHECK(panel != NULL && grid != NULL) ||
	    !CHECK(hm_platform_load_buffer(json, sizeof(json) - 1, "pblas", &p, &err) == 0))
		return;
	CHECK(hm_predict(panel, p, HM_ROUTINE_GEMM, 1000, two, 1, 2, 256, &t, &err) == 0);
	CHECK_NEAR(t.comp_gemm, 2, 1e-12);
	CHECK_NEAR(t.comm_latency, 6.4e-4, 1e-15);
	CHECK(hm_predict(grid, p, HM_ROUTINE_GEMM, 1000, two, 1, 2, 256, &t, &err) == 0);
	CHECK_NEAR(t.comp_gemm, 1, 1e-12);
	CHECK_NEAR(t.comm_latency, 8e-5, 1e-15);
	CHECK(hm_predict(panel, p, HM_ROUTINE_GEMM, 1000, one, 1, 1, 32, &t, &err) == 0);
	CHECK_NEAR(t.comp_gemm, 2, 1e-12);
	CHECK(hm_predict(panel, p, HM_ROUTINE_GEMM, 1000, two, 1, 2, 16, &t, &err) == 0);
	CHECK_NEAR(t.comp_gemm, 2, 1e-12);
	CHECK_NEAR(t.comm_latency, 1.26e-3, 1e-15);
	hm_platform_free(p);
}

static const struct check_case cases[] = {
	CHECK_CASE(cores_should_share_only_beyond_their_number),
	CHECK_CASE(a_slow_wire_should_not_slow_with_stacking),
	CHECK_CASE(busy_scale_should_not_decrease),
	CHECK_CASE(stacking_should_scale_shared_cores_by_routine),
	CHECK_CASE(cards_should_be_shared_by_the_ranks_that_cross_them),
	CHECK_CASE(torc_all_processors_1x19_should_match_hand_values),
	CHECK_CASE(grid_model_should_match_hand_values),
	CHECK_CASE(ring_model_should_match_hand_values),
	CHECK_CASE(panel_model_should_match_hand_values),
	CHECK_CASE(panel_model_should_run_pdgemm_as_pblas),
	CHECK_CASE(measured_steps_should_match_hand_values),
	CHECK_CASE(aliased_share_should_count_numroc_rows),
	CHECK_CASE(row_swaps_should_be_priced_at_the_runs_stride),
	CHECK_CASE(max_rule_should_scale_by_processes_per_processor),
	CHECK_CASE(same_processor_pairs_should_cost_d_times),
	CHECK_CASE(one_process_should_not_communicate),
	CHECK_CASE(sunet_grid_should_use_max_of_r_and_c),
	CHECK_CASE(bad_configurations_should_be_rejected),
	CHECK_CASE(every_model_should_have_a_status_and_evidence),
	CHECK_CASE(time_should_not_decrease_when_an_sp_grows),
	CHECK_CASE(time_should_be_linear_in_the_sps),
	CHECK_CASE(memory_should_limit_processes),
};

int main(int argc, char **argv)
{
	struct hm_error err;
	int ret;

	if (hm_platform_load("builtin:torc", &torc, &err) ||
	    hm_platform_load("builtin:sunet", &sunet, &err)) {
		fprintf(stderr, "cannot load builtins: %s\n", err.msg);
		return 1;
	}
	ret = check_main("test_model", cases, (int)(sizeof(cases) / sizeof(cases[0])), argc, argv);
	hm_platform_free(torc);
	hm_platform_free(sunet);
	return ret;
}

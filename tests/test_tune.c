/* tests/test_tune.c - what 'tune' and 'learn' decide, without a launcher:
 * the race's rule on times given by hand, the model's close candidates,
 * the error band, the history read back from records, corrections
 * applied by the loader and learned back from runs priced by hand. */
#include "check.h"
#include "mapper/tune/history.h"
#include "mapper/tune/learn.h"
#include "mapper/tune/race.h"
#include "mapper/tune/tune.h"
#include "models/platform/corrections.h"
#include "models/platform/threads.h"
#include "search/candidate_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA HM_SOURCE_DIR "/tests/data/"

/* a deterministic wobble of +-amp: the same every run */
static double wobble(int i, double amp)
{
	return 1 + amp * sin(1.7 * i + 0.3);
}

static void race_should_drop_only_beyond_the_spread(void)
{
	struct hm_race r;
	/* c0 the fastest, c1 2 % slower, c2 25 % slower, c3 60 % slower; 4 % noise */
	const double base[4] = { 1.0, 1.02, 1.25, 1.6 };

	CHECK(hm_race_init(&r, 4) == 0);
	for (int c = 0; c < 4; c++)
		hm_race_record(&r, c, 0, base[c] * wobble(c, 0.04), NULL);
	CHECK(hm_race_eliminate(&r) == 0);      /* one round: no spread measured yet */
	CHECK(hm_race_left(&r) == 4);
	for (int round = 1; round < 4; round++) {
		for (int c = 0; c < 4; c++)
			if (r.racing[c])
				hm_race_record(&r, c, round, base[c] * wobble(4 * round + c, 0.04), NULL);
		hm_race_eliminate(&r);
	}
	CHECK(!r.racing[3] && !r.racing[2]);    /* far slower than the spread: dropped */
	CHECK(r.racing[0] && r.racing[1]);      /* within it: still racing */
	CHECK(strstr(r.fate[3], "slower than the leader") != NULL);
	CHECK(hm_race_leader(&r) == 0);
	CHECK_NEAR(hm_race_mean(&r, 0, NULL), 1.0, 0.05);
	hm_race_release(&r);
}

static void race_should_settle_when_the_rest_are_within_the_tolerance(void)
{
	struct hm_race r;

	/* two candidates 1 % apart, 2 % noise: settled (within 5 %) by the
	 * fourth round; 10 % apart: never settled, dropped instead */
	CHECK(hm_race_init(&r, 2) == 0);
	for (int round = 0; round < 2; round++)
		for (int c = 0; c < 2; c++)
			hm_race_record(&r, c, round, (c ? 1.01 : 1.0) * wobble(3 * round + c, 0.02), NULL);
	CHECK(!hm_race_settled(&r, 0.05) || hm_race_left(&r) == 2);
	for (int round = 2; round < 6; round++)
		for (int c = 0; c < 2; c++)
			hm_race_record(&r, c, round, (c ? 1.01 : 1.0) * wobble(3 * round + c, 0.02), NULL);
	CHECK(hm_race_settled(&r, 0.05));
	CHECK(!hm_race_settled(&r, 0.001));
	hm_race_release(&r);
	CHECK(hm_race_init(&r, 2) == 0);
	for (int round = 0; round < 6; round++)
		for (int c = 0; c < 2; c++)
			hm_race_record(&r, c, round, (c ? 1.10 : 1.0) * wobble(3 * round + c, 0.02), NULL);
	CHECK(!hm_race_settled(&r, 0.05));
	hm_race_release(&r);
}

static void race_should_hold_back_when_runs_wander(void)
{
	struct hm_race r;

	/* two candidates 10 % apart whose runs wander by 50 %: three rounds
	 * cannot tell them apart */
	CHECK(hm_race_init(&r, 2) == 0);
	for (int round = 0; round < 3; round++)
		for (int c = 0; c < 2; c++)
			hm_race_record(&r, c, round, (c ? 1.1 : 1.0) * wobble(7 * round + 3 * c, 0.5), NULL);
	CHECK(hm_race_eliminate(&r) == 0);
	CHECK(hm_race_left(&r) == 2);
	hm_race_release(&r);
}

static void race_should_drop_a_failed_candidate_at_once(void)
{
	struct hm_race r;

	CHECK(hm_race_init(&r, 3) == 0);
	hm_race_record(&r, 0, 0, 1.0, NULL);
	hm_race_record(&r, 1, 0, -1, "exit 7");
	hm_race_record(&r, 2, 0, 1.1, NULL);
	CHECK(hm_race_left(&r) == 2 && !r.racing[1] && r.runs[1] == 1);
	CHECK(strstr(r.fate[1], "exit 7") != NULL);
	CHECK(hm_race_leader(&r) == 0);
	hm_race_release(&r);
	CHECK_NEAR(hm_t95(1), 6.314, 1e-3);
	CHECK_NEAR(hm_t95(10), 1.812, 1e-3);
	CHECK(hm_t95(0) == INFINITY && hm_t95(1000) == 1.645);
}

/* A problem on platform file 'name' (freed by the caller). */
static struct hm_platform *open_problem(const char *name, struct hm_problem *pb, enum hm_routine routine, double n)
{
	struct hm_platform *p = NULL;
	struct hm_error err;

	if (!CHECK(hm_platform_load(name, &p, &err) == 0))
		return NULL;
	*pb = (struct hm_problem){ p, hm_model_default(), routine, n, (int)hm_platform_cores(p), NULL, { 0, 0 }, 0 };
	return p;
}

static void candidates_should_be_distinct_and_include_the_neighbours(void)
{
	struct hm_problem pb;
	struct hm_platform *p = open_problem(DATA "smpi4.json", &pb, HM_ROUTINE_LU, 2000);
	struct hm_config_set s;
	struct hm_budget none = { 0, 0 };
	struct hm_error err;
	const char *methods[] = { "GPTM", "GU", "CU", "EU" };
	int transposed = 0, fewer = 0, block = 0;

	if (!p)
		return;
	CHECK(hm_config_set_init(&s, &pb, &err) == 0);
	CHECK(hm_config_set_gather(&s, methods, 4, 4, &none, &err) == 0);
	hm_config_set_sort(&s);
	CHECK(s.n >= 6);
	CHECK(!strcmp(s.e[0].origin, "GPTM"));  /* the plan is the model's best */
	for (int a = 0; a < s.n; a++) {
		const struct hm_config *e = &s.e[a], *best = &s.e[0];
		int same_d = !memcmp(e->d, best->d, sizeof(int) * (size_t)s.P);

		for (int b = a + 1; b < s.n; b++)
			CHECK(!hm_config_equal(&s, a, b));
		CHECK(e->r * e->c == e->D);
		CHECK(a == 0 || s.e[a - 1].eet <= e->eet);
		/* the best's neighbours, whatever source gave them first */
		transposed += same_d && e->r == best->c && e->c == best->r && e->b == best->b;
		block += same_d && e->r == best->r && e->b == 64;
		fewer += e->D == best->D - 1;
	}
	CHECK(transposed == 1 && block == 1 && fewer >= 1);
	/* adding one held already gives its index, and a grid that does not hold d none */
	CHECK(hm_config_set_add(&s, s.e[0].d, s.e[0].threads, s.e[0].r, s.e[0].c, s.e[0].b, "again") == 0);
	CHECK(hm_config_set_add(&s, s.e[0].d, NULL, s.e[0].D + 1, 1, s.e[0].b, "bad grid") == -1);
	hm_config_set_release(&s);
	hm_platform_free(p);
}

/* A results file of records, each a line, into 'path'. */
static void write_lines(const char *path, const char *const *lines, int n)
{
	FILE *f = fopen(path, "w");

	for (int i = 0; f && i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	if (f)
		fclose(f);
}

static void history_should_keep_only_this_platforms_measurements(void)
{
	struct hm_platform *p = NULL;
	struct hm_history h;
	struct hm_error err;
	char digest[32], path[] = "/tmp/hetmap-test-tune-XXXXXX", line[6][600];
	const char *lines[8];
	int fd = mkstemp(path);

	if (!CHECK(fd >= 0) || !CHECK(hm_platform_load(DATA "good/localhost.json", &p, &err) == 0))
		return;
	close(fd);
	hm_digest_text(p->digest, digest, sizeof(digest));
#define REC(measured, extra, dig) "{\"hetmap_result\":1,\"inputs\":{\"routine\":\"lu\",\"n\":600,\"platform_digest\":\"" dig \
	"\"},\"plan\":{\"D\":2,\"r\":1,\"c\":2,\"b\":32,\"processes\":[{\"processor\":\"cpu0\",\"count\":1}," \
	"{\"processor\":\"cpu1\",\"count\":1}]},\"predicted_s\":0.1,\"measured_s\":" measured "," extra \
	"\"program\":{\"path\":\"/x/hetmap-driver\"}}"
	snprintf(line[0], sizeof(line[0]), REC("0.2", "\"exit_code\":0,", "%s"), digest);
	snprintf(line[1], sizeof(line[1]), REC("0.3", "\"exit_code\":0,\"simulated\":true,", "%s"), digest);
	snprintf(line[2], sizeof(line[2]), REC("0.2", "\"exit_code\":0,", "%s"), "fnv1a64:0000000000000001");
	snprintf(line[3], sizeof(line[3]), REC("null", "\"exit_code\":7,", "%s"), digest);
	snprintf(line[4], sizeof(line[4]), REC("0.25", "\"exit_code\":0,", "%s"), digest);
	for (int i = 0; i < 5; i++)
		lines[i] = line[i];
	lines[5] = "{\"hetmap_result\":1,\"stage\":\"planning\",\"plan\":null,\"measured_s\":null,\"exit_code\":130}";
	lines[6] = "\x01 not json";
	write_lines(path, lines, 7);
	hm_history_init(&h, p);
	CHECK(hm_history_read(&h, p, path, &err) == 0);
	CHECK(h.n == 2 && h.other_platform == 1 && h.not_measured == 3 && h.unreadable == 1);
	if (h.n == 2) {
		CHECK(h.o[0].d[0] == 1 && h.o[0].d[1] == 1 && h.o[0].threads[0] == 1 && h.o[0].r == 1 && h.o[0].c == 2);
		CHECK(!strcmp(h.o[1].program, "hetmap-driver") && h.o[1].measured == 0.25);
	}
	hm_history_release(&h);
	hm_history_init(&h, p);
	CHECK(hm_history_read(&h, p, "/nonexistent/results.jsonl", &err) == -1);
	hm_history_release(&h);
	unlink(path);
	hm_platform_free(p);
}

/* Observations of configurations (d over smpi4's f1 f2 s1 s2, grid, b) at
 * n, "measured" as the model prices them on p scaled by f, times a wobble. */
static void observe(struct hm_history *h, struct hm_platform *p, const struct hm_factors *f, double amp,
		    const double *ns, int nn)
{
	static const int configs[][7] = {
		{ 2, 1, 0, 0, 1, 3, 64 }, { 1, 1, 1, 1, 2, 2, 64 }, { 2, 1, 1, 1, 1, 5, 32 }, { 1, 0, 0, 0, 1, 1, 64 },
		{ 0, 0, 1, 1, 1, 2, 64 }, { 2, 1, 1, 0, 2, 2, 128 }, { 1, 1, 0, 0, 2, 1, 32 }, { 0, 0, 1, 0, 1, 1, 64 },
	};
	int k = 0;

	hm_platform_scale(p, f, 0);
	for (int j = 0; j < nn; j++)
		for (size_t c = 0; c < sizeof(configs) / sizeof(configs[0]); c++) {
			struct hm_observation *o;

			if (h->n == h->cap) {
				h->cap = h->cap ? 2 * h->cap : 64;
				h->o = realloc(h->o, (size_t)h->cap * sizeof(*h->o));
			}
			o = &h->o[h->n];
			memset(o, 0, sizeof(*o));
			o->d = malloc(2 * (size_t)h->P * sizeof(int));
			o->threads = o->d + h->P;
			for (int i = 0; i < 4; i++)
				o->d[i] = configs[c][i], o->threads[i] = 1, o->D += configs[c][i];
			o->r = configs[c][4], o->c = configs[c][5], o->b = configs[c][6];
			o->routine = HM_ROUTINE_LU, o->n = ns[j];
			snprintf(o->program, sizeof(o->program), "hand");
			o->measured = hm_observation_price(p, hm_model_default(), o) * wobble(k++, amp);
			h->n++;
		}
	hm_platform_scale(p, f, 1);
}

/* f's compute factors of type ty, every phase at 'v' */
static void set_compute(struct hm_factors *f, int ty, double v)
{
	for (int ph = 0; ph < HM_NR_PHASES; ph++)
		f->compute[ty * HM_NR_PHASES + ph] = v;
}

static void learn_should_recover_factors_and_predict_another_n(void)
{
	struct hm_platform *p = NULL;
	struct hm_history train, test;
	struct hm_learned l;
	struct hm_factors f;
	struct hm_error err;
	const double n_train[] = { 1500, 2000 }, n_test[] = { 4000 };
	double before, after, rho_before, rho_after;

	if (!CHECK(hm_platform_load(DATA "smpi4.json", &p, &err) == 0) || !CHECK(hm_factors_init(&f, p) == 0))
		return;
	/* types in file order: fast, slow */
	set_compute(&f, 0, 1.3), set_compute(&f, 1, 0.8), f.comm = 2.0;
	hm_history_init(&train, p);
	hm_history_init(&test, p);
	observe(&train, p, &f, 0.01, n_train, 2);
	observe(&test, p, &f, 0.01, n_test, 1);
	CHECK(hm_learn(p, hm_model_default(), &train, &l, &err) == 0);
	CHECK(!strcmp(l.terms, "compute per type, communication"));
	CHECK_NEAR(l.f.compute[0], 1.3, 0.05);
	CHECK_NEAR(l.f.compute[HM_NR_PHASES + HM_PHASE_PANEL], 0.8, 0.05);
	CHECK_NEAR(l.f.comm, 2.0, 0.08);
	CHECK(l.mape_after < 2 && l.mape_before > 10);
	/* out of sample: another n, better than the model as calibrated */
	CHECK(hm_learn_score(p, hm_model_default(), &test, NULL, &before, &rho_before) > 0);
	CHECK(hm_learn_score(p, hm_model_default(), &test, &l, &after, &rho_after) > 0);
	CHECK(after < 2 && after < before);
	/* fitting left the platform as it was */
	CHECK(hm_learn_score(p, hm_model_default(), &test, NULL, &after, &rho_after) > 0);
	CHECK_NEAR(after, before, 1e-9);
	hm_learned_release(&l);
	hm_history_release(&train);
	hm_history_release(&test);
	/* a phase of LU mispriced alike on every type: the phases' set */
	set_compute(&f, 0, 1), set_compute(&f, 1, 1), f.comm = 1;
	f.compute[HM_PHASE_PANEL] = f.compute[HM_NR_PHASES + HM_PHASE_PANEL] = 2.5;
	f.compute[HM_PHASE_SWAPS] = f.compute[HM_NR_PHASES + HM_PHASE_SWAPS] = 0.4;
	hm_history_init(&train, p);
	observe(&train, p, &f, 0.005, n_train, 2);
	CHECK(hm_learn(p, hm_model_default(), &train, &l, &err) == 0);
	if (!CHECK(!strncmp(l.terms, "phases", 6)))
		for (int k = 0; k < l.nr_sets; k++)
			fprintf(stderr, "  %s: %d %g %g\n", l.sets[k].terms, l.sets[k].parameters, l.sets[k].aicc, l.sets[k].rss);
	CHECK_NEAR(l.f.compute[HM_PHASE_PANEL], 2.5, 0.1);
	CHECK(l.mape_after < 2);
	hm_learned_release(&l);
	hm_history_release(&train);
	/* the same at one n: the phases cannot be told apart there */
	hm_history_init(&train, p);
	observe(&train, p, &f, 0.005, n_train, 1);
	CHECK(hm_learn(p, hm_model_default(), &train, &l, &err) == 0);
	CHECK(strncmp(l.terms, "phases", 6) != 0);
	hm_learned_release(&l);
	hm_history_release(&train);
	/* runs as the model prices them: nothing to learn */
	set_compute(&f, 0, 1), set_compute(&f, 1, 1);
	hm_history_init(&train, p);
	observe(&train, p, &f, 0.0, n_train, 2);
	CHECK(hm_learn(p, hm_model_default(), &train, &l, &err) == 0);
	CHECK(l.mape_before < 1e-6);
	CHECK_NEAR(l.f.compute[0], 1, 1e-3);
	hm_learned_release(&l);
	hm_history_release(&train);
	hm_history_init(&train, p);
	CHECK(hm_learn(p, hm_model_default(), &train, &l, &err) == -1);      /* no runs */
	hm_history_release(&train);
	hm_factors_release(&f);
	hm_platform_free(p);
}

static void corrections_should_apply_at_load_and_be_checked(void)
{
	static const char head[] =
		"{\"name\":\"c\",\"types\":{\"t\":{\"k3_dgemm\":1e-10,\"k3_dtrsm\":2e-10,\"k2_dgetf2\":4e-10}},"
		"\"processors\":[{\"name\":\"a\",\"host\":\"h1\",\"type\":\"t\"},{\"name\":\"b\",\"host\":\"h2\",\"type\":\"t\"}],"
		"\"network\":{\"same_processor\":{\"t_s\":\"1us\",\"t_w\":\"1GB/s\"},\"same_node\":{\"t_s\":\"1us\",\"t_w\":\"1GB/s\"},"
		"\"inter_node\":{\"t_s\":\"10us\",\"t_w\":\"1GB/s\"}},\"block_sizes\":[32,64,128]";
	const char *bad[] = {
		",\"corrections\":{\"base_digest\":\"fnv1a64:0123456789abcdef\",\"compute\":{\"t\":0}}}",
		",\"corrections\":{\"base_digest\":\"fnv1a64:0123456789abcdef\",\"compute\":{\"u\":1.1}}}",
		",\"corrections\":{\"base_digest\":\"nope\"}}",
		",\"corrections\":{\"base_digest\":\"fnv1a64:0123456789abcdef\",\"extra\":1}}",
		",\"corrections\":{\"base_digest\":\"fnv1a64:0123456789abcdef\",\"communication\":30}}",
		",\"corrections\":{\"base_digest\":\"fnv1a64:0123456789abcdef\",\"compute\":{\"t\":19},\"panel\":{\"t\":19}}}",
	};
	char text[2048];
	struct hm_platform *p = NULL, *q = NULL;
	struct hm_error err;
	int d[2] = { 1, 1 };
	struct hm_prediction a, b;

	snprintf(text, sizeof(text), "%s}", head);
	if (!CHECK(hm_platform_load_buffer(text, strlen(text), "plain", &p, &err) == 0))
		fprintf(stderr, "  %s: %s\n", err.path, err.msg);
	snprintf(text, sizeof(text), "%s,\"corrections\":{\"base_digest\":\"fnv1a64:0123456789abcdef\","
		 "\"compute\":{\"t\":2},\"communication\":3,\"learned\":{\"runs\":9}}}", head);
	CHECK(hm_platform_load_buffer(text, strlen(text), "corrected", &q, &err) == 0);
	if (p && q) {
		CHECK(p->base_digest == p->digest && !p->corrections_note[0]);
		CHECK(q->base_digest == 0x0123456789abcdefULL && strstr(q->corrections_note, "compute x2") != NULL);
		CHECK(hm_predict(hm_model_default(), p, HM_ROUTINE_GEMM, 2000, d, 1, 2, 64, &a, &err) == 0);
		CHECK(hm_predict(hm_model_default(), q, HM_ROUTINE_GEMM, 2000, d, 1, 2, 64, &b, &err) == 0);
		CHECK_NEAR(b.comp, 2 * a.comp, 1e-12);
		CHECK_NEAR(b.comm, 3 * a.comm, 1e-12);
		{
			struct hm_factors f;
			double aliased = p->types[0].k1_dswap_aliased;

			CHECK(hm_factors_init(&f, p) == 0);
			set_compute(&f, 0, 2), f.comm = 3;
			hm_platform_scale(p, &f, 0);
			/* the row interchanges at both strides, by the swaps' factor */
			CHECK(aliased > 0);
			CHECK_NEAR(p->types[0].k1_dswap_aliased, 2 * aliased, 1e-18);
			hm_platform_scale(p, &f, 1);
			CHECK(hm_predict(hm_model_default(), p, HM_ROUTINE_GEMM, 2000, d, 1, 2, 64, &b, &err) == 0);
			CHECK_NEAR(b.total, a.total, 1e-12);
			hm_factors_release(&f);
		}
	}
	hm_platform_free(p);
	hm_platform_free(q);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), "%s%s", head, bad[i]);
		q = NULL;
		CHECK(hm_platform_load_buffer(text, strlen(text), "bad", &q, &err) == -1 && !q);
		CHECK(strstr(err.path, "corrections") != NULL);
	}
}

static void band_should_come_from_history_else_evidence(void)
{
	struct hm_problem pb;
	struct hm_platform *p = open_problem(DATA "smpi4.json", &pb, HM_ROUTINE_LU, 2000);
	struct hm_history h;
	const double ns[] = { 2000 };
	struct hm_factors none;
	char source[200];
	double band;

	if (!p || !CHECK(hm_factors_init(&none, p) == 0))
		return;
	hm_history_init(&h, p);
	band = hm_tune_band(&pb, &h, source, sizeof(source));
	CHECK(strstr(source, "evidence") != NULL && band >= 0.05 && band <= 1);
	observe(&h, p, &none, 0.2, ns, 1);              /* 8 runs wandering by up to 20 % */
	band = hm_tune_band(&pb, &h, source, sizeof(source));
	CHECK(strstr(source, "8 measured") != NULL);
	CHECK(band > 0.15 && band < 0.5);
	hm_history_release(&h);
	hm_factors_release(&none);
	hm_platform_free(p);
}

static const struct check_case cases[] = {
	CHECK_CASE(race_should_drop_only_beyond_the_spread),
	CHECK_CASE(race_should_settle_when_the_rest_are_within_the_tolerance),
	CHECK_CASE(race_should_hold_back_when_runs_wander),
	CHECK_CASE(race_should_drop_a_failed_candidate_at_once),
	CHECK_CASE(candidates_should_be_distinct_and_include_the_neighbours),
	CHECK_CASE(history_should_keep_only_this_platforms_measurements),
	CHECK_CASE(learn_should_recover_factors_and_predict_another_n),
	CHECK_CASE(corrections_should_apply_at_load_and_be_checked),
	CHECK_CASE(band_should_come_from_history_else_evidence),
};

CHECK_MAIN("test_tune")

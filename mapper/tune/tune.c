/* mapper/tune/tune.c - see tune.h. */
#include "tune.h"
#include "history.h"
#include "mapper/launch/placement.h"
#include "mapper/launch/record.h"
#include "mapper/launch/spawn.h"
#include "models/model_scores.h"
#include "models/util/clock.h"
#include "models/util/fnv1a.h"
#include "models/util/median.h"
#include "models/util/read_file.h"
#include "models/util/say.h"
#include "models/util/strbuild.h"
#include "models/platform/corrections.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MIN_BAND 0.05
#define MAX_BAND 1.0
#define MIN_HISTORY 4

double hm_tune_band(const struct hm_problem *pb, const struct hm_history *h, char *source, size_t size)
{
	double *q = h && h->n ? malloc((size_t)h->n * sizeof(double)) : NULL, band = 0;
	int n = 0;

	for (int i = 0; q && i < h->n; i++) {
		double t;

		if (h->o[i].routine != pb->routine)
			continue;
		t = hm_observation_price(pb->platform, pb->model, &h->o[i]);
		if (t > 0)
			q[n++] = h->o[i].measured / t;
	}
	if (n >= MIN_HISTORY) {
		double p10, p90;

		qsort(q, (size_t)n, sizeof(double), hm_cmp_double);
		p10 = q[(int)(0.1 * (n - 1) + 0.5)], p90 = q[(int)(0.9 * (n - 1) + 0.5)];
		band = p90 / p10 - 1;
		snprintf(source, size, "this platform's %d measured %s runs: measured/predicted from %.3g to "
			 "%.3g (10th-90th percentile)", n, hm_routine_name(pb->routine), p10, p90);
	} else {
		struct hm_model_score sc[64];
		double mape[64];
		int m = hm_model_scores(pb->model->name, sc, 64), real = 0;

		for (int i = 0; i < m; i++)
			if (sc[i].real)
				mape[real++] = sc[i].mape;
		band = real ? hm_median(mape, real) / 100 : 0.2;
		snprintf(source, size, "the '%s' model's median error on its %d real evidence sets ('hetmap models'; "
			 "%d measured runs of this platform, %d needed)", pb->model->name, real, n, MIN_HISTORY);
	}
	free(q);
	return band < MIN_BAND ? MIN_BAND : band > MAX_BAND ? MAX_BAND : band;
}

/* A small generator for the rounds' order (xorshift: reproducible from --seed). */
static unsigned next_random(unsigned *state)
{
	unsigned x = *state ? *state : 2463534242u;

	x ^= x << 13, x ^= x >> 17, x ^= x << 5;
	return *state = x;
}

static void shuffle(int *v, int n, unsigned *state)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next_random(state) % (unsigned)(i + 1)), t = v[i];

		v[i] = v[j], v[j] = t;
	}
}

/* HPL.dat's order: the processes (as mpirun is started), then the grids,
 * then the block sizes. */
static const struct hm_config_set *order_pool;

static int hpl_order(const void *a, const void *b)
{
	const struct hm_config *x = &order_pool->e[*(const int *)a], *y = &order_pool->e[*(const int *)b];
	int c;

	if (x->D != y->D)
		return x->D - y->D;
	if ((c = memcmp(x->d, y->d, (size_t)order_pool->P * sizeof(int))))
		return c;
	if ((c = memcmp(x->threads, y->threads, (size_t)order_pool->P * sizeof(int))))
		return c;
	if (x->r != y->r)
		return x->r - y->r;
	return x->b - y->b;
}

/* The tune's question as a digest: what a resumed tune must share (its
 * candidates come from the first tune's records, not from a new search,
 * whose error band the runs since have moved). */
static void tune_id(struct hm_tune *t, const struct hm_run_session *s, const struct hm_plan_inputs *in,
		    const struct hm_tune_opts *o)
{
	const struct hm_problem *pb = in->pb;
	char text[512];
	uint64_t h = HM_FNV1A_START;

	snprintf(text, sizeof(text), "%s %.17g %s %016llx %s %s %d %d %d", hm_routine_name(pb->routine), pb->n,
		 pb->model->name, (unsigned long long)pb->platform->digest, s->l->name, o->sweep ? "sweep" : "race",
		 o->rounds, pb->shape.b, pb->shape.rows_le_cols);
	h = hm_fnv1a(h, text, strlen(text));
	for (int i = 0; i < s->job.nprogram; i++)
		h = hm_fnv1a(h, s->job.program[i], strlen(s->job.program[i]) + 1);
	hm_digest_text(h, t->id, sizeof(t->id));
}

/* "0*4,64*8,2": counts with runs of equal values folded. */
static void fold(const int *v, int n, struct hm_text *out)
{
	for (int i = 0; i < n;) {
		int j = i;

		while (j < n && v[j] == v[i])
			j++;
		hm_text_addf(out, "%s%d", i ? "," : "", v[i]);
		if (j - i > 1)
			hm_text_addf(out, "*%d", j - i);
		i = j;
	}
}

/* fold's text back into v[0..n-1]; 0, or -1 when it is not n counts. */
static int unfold(const char *text, int *v, int n)
{
	int k = 0;

	while (text && *text) {
		char *end;
		long value = strtol(text, &end, 10), times = 1;

		if (end == text || value < 0 || value > HM_MAX_DEPTH)
			return -1;
		if (*end == '*') {
			text = end + 1;
			times = strtol(text, &end, 10);
			if (end == text || times < 1 || times > n - k)
				return -1;
		}
		for (long r = 0; r < times && k < n; r++)
			v[k++] = (int)value;
		if (*end && *end != ',')
			return -1;
		text = *end ? end + 1 : end;
	}
	return k == n ? 0 : -1;
}

/* The candidates as the first run's record keeps them. */
static cJSON *candidates_json(const struct hm_tune *t)
{
	cJSON *list = cJSON_CreateArray();

	for (int c = 0; list && c < t->n; c++) {
		const struct hm_config *e = &t->pool->e[t->cand[c]];
		struct hm_text d = { 0 }, th = { 0 };
		cJSON *o = cJSON_CreateObject();
		char *ds, *ts;

		fold(e->d, t->pool->P, &d), fold(e->threads, t->pool->P, &th);
		ds = hm_text_done(&d), ts = hm_text_done(&th);
		cJSON_AddStringToObject(o, "d", ds ? ds : "");
		cJSON_AddStringToObject(o, "threads", ts ? ts : "");
		cJSON_AddNumberToObject(o, "r", e->r);
		cJSON_AddNumberToObject(o, "c", e->c);
		cJSON_AddNumberToObject(o, "b", e->b);
		cJSON_AddStringToObject(o, "origin", e->origin);
		free(ds), free(ts);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

/* An earlier tune's candidates (its first record's list) into t, priced
 * anew; 1 when there were some, 0 when none (a new tune), -1 when the
 * list does not fit this platform. */
static int restore(struct hm_tune *t, const cJSON *list)
{
	const cJSON *e;
	int *d = malloc(2 * (size_t)t->pool->P * sizeof(int)), *th;

	if (!d)
		return -1;
	th = d + t->pool->P;
	t->n = 0;
	cJSON_ArrayForEach(e, list) {
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(e, "r"), *c = cJSON_GetObjectItemCaseSensitive(e, "c");
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(e, "b");
		const char *origin = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "origin"));
		int k;

		if (t->n >= HM_MAX_CANDIDATES || !cJSON_IsNumber(r) || !cJSON_IsNumber(c) || !cJSON_IsNumber(b) ||
		    unfold(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "d")), d, t->pool->P) ||
		    unfold(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "threads")), th, t->pool->P) ||
		    (k = hm_config_set_add(t->pool, d, th, r->valueint, c->valueint, b->valueint,
					   origin ? origin : "earlier")) < 0) {
			free(d);
			return -1;
		}
		t->cand[t->n++] = k;
	}
	free(d);
	return t->n > 0;
}

static int chosen(const struct hm_tune *t, int k)
{
	for (int c = 0; c < t->n; c++)
		if (t->cand[c] == k)
			return 1;
	return 0;
}

/* 1 when a chosen candidate places the same processes (d, threads) as entry k. */
static int same_processes_chosen(const struct hm_tune *t, int k)
{
	const struct hm_config_set *pool = t->pool;

	for (int c = 0; c < t->n; c++) {
		const struct hm_config *a = &pool->e[t->cand[c]], *b = &pool->e[k];

		if (!memcmp(a->d, b->d, (size_t)pool->P * sizeof(int)) &&
		    !memcmp(a->threads, b->threads, (size_t)pool->P * sizeof(int)))
			return 1;
	}
	return 0;
}

/* The pool is sorted by prediction: its order is the candidates' */
static int by_index(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* The candidates: within the band of the best (at most max), or every
 * configuration for a sweep. */
static int choose(struct hm_tune *t, const struct hm_tune_opts *o, const cJSON *earlier)
{
	const struct hm_config_set *pool = t->pool;
	double best = pool->n ? pool->e[0].eet : 0;
	int restored;

	if (!(t->cand = malloc((size_t)HM_MAX_CANDIDATES * sizeof(int))))
		return -1;
	if (earlier && (restored = restore(t, earlier)))
		return restored < 0 ? -2 : 0;
	if (o->sweep) {
		for (int k = 0; k < pool->n; k++)
			t->cand[t->n++] = k;
	} else {
		/* under the cap, every distinct set of processes first (the best
		 * grid and b of each), then the rest by prediction: a heterogeneous
		 * cluster's runs tell more about where the ranks go than about b */
		for (int pass = 0; pass < 2; pass++)
			for (int k = 0; k < pool->n && t->n < o->max_candidates; k++)
				if (pool->e[k].eet <= best * (1 + t->band) && !chosen(t, k) &&
				    (pass || !same_processes_chosen(t, k)))
					t->cand[t->n++] = k;
		qsort(t->cand, (size_t)t->n, sizeof(int), by_index);
	}
	if (o->sweep) {
		order_pool = pool;
		qsort(t->cand, (size_t)t->n, sizeof(int), hpl_order);
	}
	return 0;
}

/* The records of this tune's id in the results file, in file order (NULL:
 * none), read as every reader of results reads them (read_file.h): a
 * record after a crash's zero block counts, a line too long ends them. */
static cJSON *earlier_records(const struct hm_tune *t, const struct hm_run_session *s)
{
	FILE *f = s->results_fd >= 0 ? fopen(s->results, "r") : NULL;
	cJSON *all = cJSON_CreateArray();
	char *line = NULL;
	size_t cap = 0, len, zeros;

	while (f && all && hm_read_line(f, &line, &cap, &len) > 0) {
		const char *text = hm_line_after_zeros(line, len, &zeros);
		cJSON *rec = text && strstr(text, t->id) ? cJSON_Parse(text) : NULL;
		struct hm_run_record r;
		const char *id;

		if (rec && hm_record_read(rec, &r) && r.tune &&
		    (id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r.tune, "id"))) && !strcmp(id, t->id))
			cJSON_AddItemToArray(all, rec);
		else
			cJSON_Delete(rec);
	}
	free(line);
	if (f)
		fclose(f);
	return all;
}

/* The first earlier record's candidate list, or NULL. */
static const cJSON *earlier_candidates(const cJSON *records)
{
	const cJSON *rec, *list;

	cJSON_ArrayForEach(rec, records)
		if (cJSON_IsArray(list = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, HM_REC_TUNE),
									   "candidates")))
			return list;
	return NULL;
}

/* The earlier records' runs into the race. */
static void resume(struct hm_tune *t, const cJSON *records)
{
	const cJSON *rec;

	cJSON_ArrayForEach(rec, records) {
		struct hm_run_record r;
		const char *label;
		const cJSON *round;
		int c;

		if (hm_record_read(rec, &r) &&
		    (label = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r.tune, "candidate"))) &&
		    sscanf(label, "c%d", &c) == 1 && c >= 0 && c < t->n &&
		    cJSON_IsNumber(round = cJSON_GetObjectItemCaseSensitive(r.tune, "round")) &&
		    round->valuedouble >= 0 && round->valuedouble < HM_RACE_MAX_ROUNDS &&
		    !(r.exit_code > 128)) {     /* an interrupted run measured nothing: run again */
			char why[64];

			snprintf(why, sizeof(why), "exit %d (recorded earlier)", r.exit_code);
			hm_race_record(&t->race, c, (int)round->valuedouble,
				       r.exit_code == 0 && r.measured > 0 ? r.measured : -1, why);
			t->runs++, t->resumed++;
		}
	}
}

/* "2 ranks of 2 threads, 1 x 2, b 64"; on several processors its counts
 * too: "d 2,1,0*2 t 2,1*3, 1 x 3, b 32" */
static const char *describe(const struct hm_config_set *pool, int k, char *buf, size_t size)
{
	const struct hm_config *e = &pool->e[k];
	struct hm_text d = { 0 }, th = { 0 };
	char *ds, *ts;
	int t = 0, threaded = 0;

	for (int i = 0; i < pool->P; i++)
		if (e->d[i])
			t = e->threads[i], threaded |= t > 1;
	if (pool->P == 1) {
		snprintf(buf, size, "%d rank%s%s%.0d%s, %d x %d, b %d", e->D, e->D == 1 ? "" : "s",
			 t > 1 ? " of " : "", t > 1 ? t : 0, t > 1 ? " threads" : "", e->r, e->c, e->b);
		return buf;
	}
	fold(e->d, pool->P, &d), fold(e->threads, pool->P, &th);
	ds = hm_text_done(&d), ts = hm_text_done(&th);
	snprintf(buf, size, "d %s%s%s, %d x %d, b %d", ds ? ds : "?", threaded ? " t " : "", threaded && ts ? ts : "",
		 e->r, e->c, e->b);
	free(ds), free(ts);
	return buf;
}

/* The round candidate c runs next in: the first it has no time in. */
static int next_round(const struct hm_race *r, int c)
{
	int j = 0;

	while (j < HM_RACE_MAX_ROUNDS - 1 && !isnan(r->t[c][j]))
		j++;
	return j;
}

/* The launch directory of candidate c under -o DIR. */
static int candidate_dir(const struct hm_tune_opts *o, int c, char *buf, size_t size)
{
	if (!o->dir)
		return 0;
	if (mkdir(o->dir, 0777) && errno != EEXIST)
		return -1;
	snprintf(buf, size, "%s/c%02d", o->dir, c);
	return 1;
}

/* One run of candidate c in round 'round'; hetmap's exit code of it. */
static int run_one(struct hm_tune *t, struct hm_run_session *s, const struct hm_plan_inputs *in,
		   const struct hm_tune_opts *o, int c, int round)
{
	const struct hm_config *e = &t->pool->e[t->cand[c]];
	struct hm_placement pl = { 0 };
	struct hm_run_outcome out;
	struct hm_result res;
	struct hm_error err;
	char label[16], dir[4200], why[64];
	cJSON *extra = cJSON_CreateObject(), *tune;
	int ret, has_dir;

	hm_error_clear(&err);
	snprintf(label, sizeof(label), "c%02d", c);
	if (!extra || hm_config_result(t->pool, t->cand[c], e->origin, &res, &err) ||
	    hm_placement_from_result(&pl, in, &res, &err)) {
		hm_say_error("tune: %s", err.msg[0] ? err.msg : "out of memory");
		cJSON_Delete(extra);
		hm_result_release(&res);
		return HM_EXIT_FAILURE;
	}
	hm_result_release(&res);
	tune = cJSON_AddObjectToObject(extra, HM_REC_TUNE);
	cJSON_AddStringToObject(tune, "id", t->id);
	cJSON_AddStringToObject(tune, "candidate", label);
	cJSON_AddNumberToObject(tune, "round", round);
	cJSON_AddStringToObject(tune, "origin", e->origin);
	cJSON_AddStringToObject(tune, "mode", o->sweep ? "sweep" : "race");
	if (!t->list_recorded)          /* what a resumed tune takes its candidates from */
		cJSON_AddItemToObject(tune, "candidates", candidates_json(t));
	if ((has_dir = candidate_dir(o, c, dir, sizeof(dir))) < 0) {
		hm_say_error("tune: cannot make %s: %s", o->dir, strerror(errno));
		ret = HM_EXIT_OUTPUT;
	} else {
		s->keep_dir = has_dir ? dir : NULL;
		ret = hm_run_plan(s, &pl, extra, 0, &out);
		s->keep_dir = NULL;
		snprintf(why, sizeof(why), "exit %d", ret);
		if (ret <= 128 && ret != HM_EXIT_OUTPUT) {
			t->list_recorded = 1;
			hm_race_record(&t->race, c, round, ret == 0 ? out.measured : -1, why);
			t->runs++;
		} else if (ret != HM_EXIT_OUTPUT) {
			t->runs++;      /* launched, then stopped: counted, not measured */
		}
	}
	cJSON_Delete(extra);
	hm_placement_release(&pl);
	return ret;
}

static void progress(const struct hm_tune *t, int c, int round, int budget, double started)
{
	char what[96], took[32] = "failed", lead[64] = "";
	int L = hm_race_leader(&t->race), left = hm_race_left(&t->race);
	double per_run = t->runs - t->resumed > 0 ? (hm_now() - started) / (t->runs - t->resumed) : 0;
	int most = budget - t->runs;

	if (L >= 0)
		snprintf(lead, sizeof(lead), "; leader c%02d %.4g s", L, hm_race_mean(&t->race, L, NULL));
	if (!isnan(t->race.t[c][round]))
		snprintf(took, sizeof(took), "%.4g s", t->race.t[c][round]);
	hm_say_note("hetmap: tune: run %d of at most %d, round %d: c%02d (%s, %s) %s%s; %d racing; "
		    "at most %d runs, about %.0f s, left\n", t->runs, budget, round + 1, c,
		    t->pool->e[t->cand[c]].origin, describe(t->pool, t->cand[c], what, sizeof(what)), took,
		    lead, left, most, most * per_run);
}

/* One round: every candidate still in it (a sweep: every candidate) that
 * has not run in it yet, in a fresh random order or the sweep's. The
 * exit code that stops the tune (a signal, an output), else 0; *stop set
 * when the budget or the time ran out. */
static int one_round(struct hm_tune *t, struct hm_run_session *s, const struct hm_plan_inputs *in,
		     const struct hm_tune_opts *o, int round, int budget, double deadline, unsigned *seed,
		     double started, const char **stop)
{
	int *order = malloc((size_t)t->n * sizeof(int)), m = 0, ret = 0;

	if (!order)
		return HM_EXIT_FAILURE;
	for (int c = 0; c < t->n; c++)
		if (t->race.racing[c] && next_round(&t->race, c) <= round)
			order[m++] = c;
	if (!o->sweep || o->random_order)
		shuffle(order, m, seed);
	for (int i = 0; i < m && !ret; i++) {
		if (t->runs >= budget) {
			*stop = "budget";
			break;
		}
		if (deadline > 0 && hm_now() >= deadline) {
			*stop = "time";
			break;
		}
		ret = run_one(t, s, in, o, order[i], round);
		if (ret > 128 || ret == HM_EXIT_OUTPUT || ret == HM_EXIT_FAILURE) {
			*stop = ret > 128 ? "signal" : "error";
			break;
		}
		ret = 0;
		progress(t, order[i], round, budget, started);
	}
	free(order);
	return ret;
}

/* The winner: the race's leader; a sweep's, the least median. */
static int winner(const struct hm_tune *t, const struct hm_tune_opts *o)
{
	int best = -1;
	double least = INFINITY;

	if (!o->sweep)
		return hm_race_leader(&t->race);
	for (int c = 0; c < t->n; c++) {
		double v[HM_RACE_MAX_ROUNDS], m;
		int k = 0;

		for (int j = 0; j < HM_RACE_MAX_ROUNDS; j++)
			if (!isnan(t->race.t[c][j]))
				v[k++] = t->race.t[c][j];
		m = k ? hm_median(v, k) : NAN;
		if (!isnan(m) && m < least)
			least = m, best = c;
	}
	return best;
}

int hm_tune_run(struct hm_run_session *s, const struct hm_plan_inputs *in, struct hm_config_set *pool,
		const struct hm_tune_opts *o, struct hm_tune *t)
{
	cJSON *earlier;
	double started = hm_now(), deadline = o->max_time > 0 ? started + o->max_time : 0;
	unsigned seed = o->seed ? o->seed : (unsigned)(started * 1e3);
	int budget, ret = 0, rounds = o->sweep ? (o->rounds > 0 ? o->rounds : 1) : HM_RACE_MAX_ROUNDS;
	const char *stop = NULL;

	t->pool = pool, t->winner = -1;
	tune_id(t, s, in, o);
	earlier = earlier_records(t, s);
	if ((ret = choose(t, o, earlier_candidates(earlier))) || hm_race_init(&t->race, t->n)) {
		hm_say_error("tune: %s", ret == -2 ? "the candidates an earlier tune of the same question recorded "
			     "do not fit this platform" : "out of memory");
		cJSON_Delete(earlier);
		return ret == -2 ? HM_EXIT_INPUT : HM_EXIT_FAILURE;
	}
	if (!t->n) {
		hm_say_error("tune: no configuration to run (the model priced none that fits)");
		cJSON_Delete(earlier);
		return HM_EXIT_NO_PLAN;
	}
	budget = o->budget > 0 ? o->budget : o->sweep ? t->n * rounds : HM_TUNE_RUNS_PER_CANDIDATE * t->n;
	t->budget = budget;
	if (o->list) {
		t->stopped = "listed";
		cJSON_Delete(earlier);
		return HM_EXIT_OK;
	}
	resume(t, earlier);
	t->list_recorded = earlier_candidates(earlier) != NULL;
	cJSON_Delete(earlier);
	if (t->resumed) {
		hm_say_note("hetmap: tune: %d runs of this tune (%s) were recorded in %s: going on from them\n",
			    t->resumed, t->id, s->results);
		if (!o->sweep)
			hm_race_eliminate(&t->race);
	}
	for (int round = 0; round < rounds && !stop; round++) {
		/* every candidate runs once at least: the winner is a measured one */
		if (!o->sweep && round > 0 && hm_race_left(&t->race) <= 1) {
			stop = "one left";
			break;
		}
		ret = one_round(t, s, in, o, round, budget, deadline, &seed, started, &stop);
		if (!stop && !o->sweep) {
			int before = hm_race_left(&t->race);

			if (hm_race_eliminate(&t->race))
				hm_say_note("hetmap: tune: after round %d, %d of %d candidates race on\n", round + 1,
					    hm_race_left(&t->race), before);
			if (hm_race_settled(&t->race, o->tolerance)) {
				stop = "settled";
				hm_say_note("hetmap: tune: after round %d, the %d candidates left are within %.0f %% of the "
					    "leader: settled\n", round + 1, hm_race_left(&t->race), 100 * o->tolerance);
			}
		}
	}
	t->stopped = stop ? stop : o->sweep ? "rounds done" : hm_race_left(&t->race) <= 1 ? "one left" : "rounds";
	t->seconds = hm_now() - started;
	t->winner = winner(t, o);
	if (ret)
		return ret;
	if (t->winner < 0) {
		hm_say_error("tune: no candidate measured a time (%d runs)", t->runs);
		return hm_race_left(&t->race) ? HM_EXIT_BUDGET : HM_EXIT_JOB_FAILED;
	}
	return HM_EXIT_OK;
}

void hm_tune_release(struct hm_tune *t)
{
	free(t->cand);
	hm_race_release(&t->race);
	memset(t, 0, sizeof(*t));
}

static cJSON *times_json(const struct hm_race *r, int c)
{
	cJSON *a = cJSON_CreateArray();
	int last = -1;

	for (int j = 0; j < HM_RACE_MAX_ROUNDS; j++)
		if (!isnan(r->t[c][j]))
			last = j;
	for (int j = 0; a && j <= last; j++)
		cJSON_AddItemToArray(a, isnan(r->t[c][j]) ? cJSON_CreateNull() : cJSON_CreateNumber(r->t[c][j]));
	return a;
}

static const char *fate(const struct hm_tune *t, int c)
{
	if (c == t->winner)
		return "winner";
	if (t->race.fate[c][0])
		return t->race.fate[c];
	if (t->stopped && !strcmp(t->stopped, "settled") && t->race.racing[c])
		return "within the tolerance of the winner when the race settled";
	return t->race.runs[c] ? "racing when the tune stopped" : "not run";
}

cJSON *hm_tune_winner_plan(const struct hm_tune *t, const struct hm_plan_inputs *in)
{
	struct hm_result res;
	struct hm_error err;
	cJSON *doc, *tune;
	char label[16];

	hm_error_clear(&err);
	if (t->winner < 0 || hm_config_result(t->pool, t->cand[t->winner], t->pool->e[t->cand[t->winner]].origin,
					      &res, &err))
		return NULL;
	doc = hm_plan_json(in, &res);
	hm_result_release(&res);
	if (!doc)
		return NULL;
	snprintf(label, sizeof(label), "c%02d", t->winner);
	tune = cJSON_AddObjectToObject(doc, "tune");
	cJSON_AddStringToObject(tune, "id", t->id);
	cJSON_AddStringToObject(tune, "winner", label);
	cJSON_AddNumberToObject(tune, "measured_s", hm_race_mean(&t->race, t->winner, NULL));
	cJSON_AddItemToObject(tune, "runs_s", times_json(&t->race, t->winner));
	cJSON_AddNumberToObject(tune, "tune_runs", t->runs);
	cJSON_AddNumberToObject(tune, "candidates", t->n);
	cJSON_AddStringToObject(tune, "stopped", t->stopped);
	return doc;
}

cJSON *hm_tune_json(const struct hm_tune *t, cJSON *winner_plan)
{
	cJSON *doc = cJSON_CreateObject(), *list;

	if (!doc)
		return NULL;
	cJSON_AddNumberToObject(doc, "hetmap_tune", 1);
	cJSON_AddStringToObject(doc, "id", t->id);
	cJSON_AddNumberToObject(doc, "band", t->band);
	cJSON_AddStringToObject(doc, "band_from", t->band_source);
	cJSON_AddNumberToObject(doc, "runs", t->runs);
	cJSON_AddNumberToObject(doc, "budget", t->budget);
	cJSON_AddNumberToObject(doc, "resumed_runs", t->resumed);
	cJSON_AddNumberToObject(doc, "seconds", t->seconds);
	cJSON_AddStringToObject(doc, "stopped", t->stopped ? t->stopped : "");
	cJSON_AddItemToObject(doc, "winner", winner_plan ? winner_plan : cJSON_CreateNull());
	list = cJSON_AddArrayToObject(doc, "candidates");
	for (int c = 0; c < t->n; c++) {
		const struct hm_config *e = &t->pool->e[t->cand[c]];
		cJSON *o = cJSON_CreateObject();
		char label[16];
		double m = hm_race_mean(&t->race, c, NULL);

		snprintf(label, sizeof(label), "c%02d", c);
		cJSON_AddStringToObject(o, "label", label);
		cJSON_AddStringToObject(o, "origin", e->origin);
		cJSON_AddItemToObject(o, "d", cJSON_CreateIntArray(e->d, t->pool->P));
		cJSON_AddItemToObject(o, "threads", cJSON_CreateIntArray(e->threads, t->pool->P));
		cJSON_AddNumberToObject(o, "D", e->D);
		cJSON_AddNumberToObject(o, "r", e->r);
		cJSON_AddNumberToObject(o, "c", e->c);
		cJSON_AddNumberToObject(o, "b", e->b);
		cJSON_AddNumberToObject(o, "predicted_s", e->eet);
		cJSON_AddItemToObject(o, "runs_s", times_json(&t->race, c));
		if (isnan(m))
			cJSON_AddNullToObject(o, "measured_s");
		else
			cJSON_AddNumberToObject(o, "measured_s", m);
		cJSON_AddStringToObject(o, "fate", fate(t, c));
		cJSON_AddItemToArray(list, o);
	}
	return doc;
}

void hm_tune_print(FILE *f, const struct hm_tune *t)
{
	fprintf(f, "%-4s %-12s %-36s %11s %11s %5s  %s\n", "", "origin", "configuration", "predicted_s",
		"measured_s", "runs", "fate");
	for (int c = 0; c < t->n; c++) {
		char what[96], measured[32] = "-";
		double m = hm_race_mean(&t->race, c, NULL);

		if (!isnan(m))
			snprintf(measured, sizeof(measured), "%.4g", m);
		fprintf(f, "c%02d  %-12s %-36s %11.4g %11s %5d  %s\n", c, t->pool->e[t->cand[c]].origin,
			describe(t->pool, t->cand[c], what, sizeof(what)), t->pool->e[t->cand[c]].eet, measured,
			t->race.runs[c], fate(t, c));
	}
}

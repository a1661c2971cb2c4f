/* mapper/cli/cmd_tune.c - 'hetmap tune': the model narrows the configurations
 * to its close candidates, real runs on the cluster decide among them
 * (mapper/tune/tune.h), and the winner is written as a plan. */
#include "cli.h"
#include "run_options.h"
#include "mapper/launch/spawn.h"
#include "mapper/tune/history.h"
#include "mapper/tune/tune.h"
#include "models/util/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct hm_usage usage = {
	"tune",
	"hetmap tune [plan options] [run options] [--budget RUNS] [--max-time S] [--winner FILE] [-- PROGRAM [ARGS...]]",
	"Let real runs decide among the model's close candidates. The candidates\n"
	"are the distinct configurations (processes per processor, BLAS threads,\n"
	"grid, block size) that the plan's method, the modeled users and the\n"
	"search's next best give, and the best one's neighbours (the next block\n"
	"sizes, the transposed and next grids, one process more or fewer on a\n"
	"type, the next thread count), kept while the model prices them within\n"
	"its error band of the best: the spread of measured over predicted time\n"
	"of this platform's own runs in the results file (and --history), else\n"
	"the model's median error on its real evidence ('hetmap models').\n"
	"They race: each round runs every candidate still racing once, in a fresh\n"
	"random order, exactly as 'hetmap run' runs a plan (the same launch, time,\n"
	"placement check and record, with a \"tune\" object); after each round a\n"
	"candidate slower than the leader beyond the spread measured so far is\n"
	"dropped (a one-sided paired t-test at 5 % on the logs of the rounds'\n"
	"times, the spread pooled over the candidates). The tune stops with one\n"
	"left, when the rest are within --tolerance of the leader at the same\n"
	"confidence, or at --budget runs (every launch counts) or --max-time, and the\n"
	"leader (the least geometric mean) wins: its plan goes to --winner FILE\n"
	"and DIR/winner.json, for 'hetmap run --plan'. Asked again with the same\n"
	"results file, a tune goes on from the runs it recorded.\n"
	"--sweep runs every configuration the model priced instead, in HPL.dat's\n"
	"order (the processes, then the grids, then the block sizes), --rounds\n"
	"times: what users do by hand, with the same records.",
	"Runs never overlap: one at a time, on the plan's nodes; with --launcher slurm\n"
	"inside an allocation each run is a step of it. The programs' output is\n"
	"shown with -v only (a failing run's last lines are said).\n"
	"exit codes: 0 a winner (also when the budget or the time stopped the race:\n"
	"the leader wins); 3 bad usage; 4 an output cannot be written; 5 no run\n"
	"measured a time within the budget; 7 every candidate failed; 8 the launcher\n"
	"cannot be started; 128+N stopped by signal N (the runs so far recorded, the\n"
	"tune resumable).\n"
	"examples:\n"
	"  hetmap tune -p cluster.json -n 20000 --budget 20 --winner best.json\n"
	"  hetmap tune -n 6000 -r gemm --results runs.jsonl -- ./my_solver {n} {b} {r} {c}\n"
	"  hetmap tune -n 3000 --sweep --rounds 2 --results sweep.jsonl",
};

/* Besides the plan's method: the modeled users, and the search's next best */
#define DEFAULT_METHODS "GU,CU,EU,HU"
#define DEFAULT_NEXT 8

struct tune_setup {
	struct hm_run_options ro;
	struct hm_tune_opts to;
	const char *method, *methods, *winner, *order, *format;
	int next;
	struct hm_budget budget;
};

/* --methods: the plan's method first, then the list (comma-separated). */
static int method_list(const struct tune_setup *ts, char *buf, size_t size, const char **names, int max)
{
	int n = 0;

	if (!hm_method_find(ts->method)) {
		hm_say_error("tune: unknown method '%s' (%s)", ts->method, hm_help_methods());
		return -1;
	}
	names[n++] = ts->method;
	snprintf(buf, size, "%s", ts->methods);
	for (char *save = NULL, *w = strtok_r(buf, ",", &save); w && n < max; w = strtok_r(NULL, ",", &save)) {
		if (!hm_method_find(w)) {
			char searches[256], users[64];

			hm_say_error("tune: unknown method '%s' in --methods (methods: %s; users: %s)", w,
				     hm_method_names(HM_METHOD_SEARCH, searches, sizeof(searches)),
				     hm_method_names(HM_METHOD_USER, users, sizeof(users)));
			return -1;
		}
		if (strcasecmp(w, ts->method))
			names[n++] = w;
	}
	return n;
}

/* The candidates the model gives (pool) by the n methods 'names', sorted by prediction. */
static int gather(const struct tune_setup *ts, const char *const *names, int n, struct hm_problem *pb,
		  struct hm_config_set *pool)
{
	struct hm_error err;

	hm_error_clear(&err);
	if (hm_config_set_init(pool, pb, &err) ||
	    hm_config_set_gather(pool, names, n, ts->next, &ts->budget, &err)) {
		hm_say_error("tune: %s", err.msg);
		return hm_stop_signal_caught() ? 128 + hm_stop_signal_caught() : HM_EXIT_USAGE;
	}
	if (ts->to.sweep)               /* a sweep tries every b of what it runs */
		hm_config_set_add_blocks(pool);
	hm_config_set_sort(pool);
	return HM_EXIT_OK;
}

/* The error band: --band, else this platform's runs in the results file
 * and --history, else the model's evidence. */
static void error_band(const struct tune_setup *ts, const struct hm_problem_opts *po, const struct hm_problem *pb,
		       struct hm_tune *t)
{
	struct hm_history h;
	struct hm_error err;

	if (ts->to.band > 0) {
		t->band = ts->to.band;
		snprintf(t->band_source, sizeof(t->band_source), "--band");
		return;
	}
	hm_history_init(&h, pb->platform);
	hm_history_read(&h, pb->platform, ts->ro.results, &err);        /* a new file has no runs: fine */
	for (int i = 0; i < po->history.n; i++)
		hm_history_read(&h, pb->platform, po->history.v[i], &err);
	t->band = hm_tune_band(pb, &h, t->band_source, sizeof(t->band_source));
	hm_history_release(&h);
}

/* The winner's plan into --winner and DIR/winner.json; an exit code. */
static int write_winner(const struct tune_setup *ts, const cJSON *plan)
{
	const char *paths[2] = { ts->winner, NULL };
	char in_dir[4200];
	struct hm_error err;
	int ret = HM_EXIT_OK;

	if (ts->to.dir) {
		snprintf(in_dir, sizeof(in_dir), "%s/winner.json", ts->to.dir);
		paths[1] = in_dir;
	}
	for (int i = 0; i < 2; i++) {
		hm_error_clear(&err);
		if (!paths[i])
			continue;
		if (hm_json_write(paths[i], plan, &err)) {
			hm_say_report(&err);
			ret = HM_EXIT_OUTPUT;
		} else {
			hm_say_note("hetmap: tune: the winner's plan written to %s (hetmap run --plan %s)\n", paths[i],
				    paths[i]);
		}
	}
	return ret;
}

static void print_text(const struct hm_tune *t, const struct hm_problem *pb, int sweep)
{
	printf("tune for %s n=%.0f on %s: ", hm_routine_name(pb->routine), pb->n, pb->platform->name);
	if (sweep)
		printf("a sweep of %d configurations", t->n);
	else
		printf("%d candidates within %.0f %% of the model's best", t->n, 100 * t->band);
	printf("; %d of at most %d runs (%d recorded earlier) in %.1f s, stopped: %s\n", t->runs, t->budget,
	       t->resumed, t->seconds, t->stopped);
	if (!sweep)
		printf("  band from %s\n", t->band_source);
	hm_tune_print(stdout, t);
	if (t->winner >= 0)
		printf("winner c%02d (%s): %.4g s measured, %.4g s predicted\n", t->winner,
		       t->pool->e[t->cand[t->winner]].origin, hm_race_mean(&t->race, t->winner, NULL),
		       t->pool->e[t->cand[t->winner]].eet);
}

/* Everything after the options: the problem, the candidates, the race. */
static int tune(struct tune_setup *ts, struct hm_problem_opts *po, int fmt)
{
	struct hm_run_session s;
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_config_set pool = { 0 };
	struct hm_tune t = { 0 };
	struct hm_plan_inputs in = { NULL, &pb, &ts->budget };
	cJSON *plan = NULL;
	const char *names[16];
	char names_buf[256];
	int ret, wret, nnames;

	if ((nnames = method_list(ts, names_buf, sizeof(names_buf), names, 16)) < 0)
		return HM_EXIT_USAGE;   /* before any file is opened or anything runs */
	if ((ret = hm_run_session_open("tune", &ts->ro, ts->to.list, &s)))
		return ret;
	s.quiet_success = s.quiet_program = 1;
	s.output_to_stderr = fmt == HM_FORMAT_JSON;
	if ((ret = hm_problem_open("tune", po, &pb, &p)))
		goto out;
	in.platform_path = po->platform;
	s.platform = po->platform;
	if ((ret = gather(ts, names, nnames, &pb, &pool)))
		goto out;
	error_band(ts, po, &pb, &t);
	for (int k = 0; k < pool.n; k++)
		hm_say_detail("hetmap: tune: priced %-12s D=%d %d x %d b=%d threads %d: %.4g s\n", pool.e[k].origin,
			      pool.e[k].D, pool.e[k].r, pool.e[k].c, pool.e[k].b, pool.e[k].threads[0], pool.e[k].eet);
	hm_say_note("hetmap: tune: the model priced %d configurations; the error band %.0f %% (from %s)\n",
		    pool.n, 100 * t.band, t.band_source);
	ret = hm_tune_run(&s, &in, &pool, &ts->to, &t);
	if (t.winner >= 0 && ret <= 128 && !ts->to.list) {
		if (!(plan = hm_tune_winner_plan(&t, &in)))
			ret = HM_EXIT_FAILURE;
		else if ((wret = write_winner(ts, plan)))
			ret = ret ? ret : wret;
	}
	if (fmt == HM_FORMAT_JSON) {
		cJSON *doc = hm_tune_json(&t, plan);
		char *text = doc ? cJSON_Print(doc) : NULL;

		plan = NULL;            /* the document owns it */
		if (text)
			printf("%s\n", text);
		free(text);
		cJSON_Delete(doc);
	} else if (t.n) {
		print_text(&t, &pb, ts->to.sweep);
	}
	cJSON_Delete(plan);
out:
	hm_tune_release(&t);
	hm_config_set_release(&pool);
	hm_platform_free(p);
	hm_run_session_close(&s);
	return ret;
}

int cmd_tune(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct tune_setup ts = { .ro = HM_RUN_OPTIONS_INIT, .method = HM_DEFAULT_METHOD, .methods = DEFAULT_METHODS,
				 .order = "hpl", .format = "text", .next = DEFAULT_NEXT,
				 .to = { .max_candidates = HM_TUNE_DEFAULT_CANDIDATES, .rounds = 1,
					 .tolerance = HM_TUNE_TOLERANCE } };
	int ret, fmt;

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_HISTORY_OPTION(po),
			{ 'M', "method", HM_OPT_STRING, &ts.method, "M", "the plan's method (default " HM_DEFAULT_METHOD ")", 0, 0 },
			{ 0, "methods", HM_OPT_STRING, &ts.methods, "LIST", "more methods and users whose choices are candidates (default " DEFAULT_METHODS "; those that do not apply are left out)", 0, 0 },
			{ 0, "next", HM_OPT_INT, &ts.next, "K", "the search's next best configurations taken as candidates (default " HM_STR(DEFAULT_NEXT) ")", 0, HM_TOP_K_MAX },
			HM_DEPTH_OPTION(po),
			{ 0, "max-nodes", HM_OPT_LONG, &ts.budget.max_nodes, "N", "stop each search after N evaluated nodes (default: no limit)", 0, 1e15 },
			{ 'b', "block-size", HM_OPT_INT, &po.shape.b, "B", "candidates with this block size only", 1, 1e6 },
			{ 0, "rows-le-cols", HM_OPT_FLAG, &po.shape.rows_le_cols, NULL, "candidates with r <= c only", 0, 0 },
			HM_RUN_OPTIONS(ts.ro, "each candidate's launch directory DIR/cNN (kept) and the winner DIR/winner.json"),
			{ 0, "budget", HM_OPT_INT, &ts.to.budget, "RUNS", "launches in all, failed ones too (default: " HM_STR(HM_TUNE_RUNS_PER_CANDIDATE) " a candidate; a sweep: every configuration, --rounds times)", 1, 100000 },
			{ 0, "max-time", HM_OPT_DOUBLE, &ts.to.max_time, "S", "stop starting runs after S seconds (default: none)", 0, 1e9 },
			{ 0, "max-candidates", HM_OPT_INT, &ts.to.max_candidates, "K", "race at most K candidates, the model's fastest (default " HM_STR(HM_TUNE_DEFAULT_CANDIDATES) ")", 1, HM_MAX_CANDIDATES },
			{ 0, "tolerance", HM_OPT_DOUBLE, &ts.to.tolerance, "F", "the race is settled when every candidate left is within F of the leader, at 95 % confidence (default " HM_STR(HM_TUNE_TOLERANCE) ")", 0.001, 1 },
			{ 0, "band", HM_OPT_DOUBLE, &ts.to.band, "F", "the model's error band as a fraction (default: measured, see above)", 0.001, 10 },
			{ 0, "winner", HM_OPT_STRING, &ts.winner, "FILE", "write the winner's plan there (atomically)", 0, 0 },
			{ 0, "sweep", HM_OPT_FLAG, &ts.to.sweep, NULL, "run every configuration the model priced, HPL.dat's way, instead of racing", 0, 0 },
			{ 0, "rounds", HM_OPT_INT, &ts.to.rounds, "R", "--sweep: every configuration R times (default 1)", 1, HM_RACE_MAX_ROUNDS },
			{ 0, "order", HM_OPT_STRING, &ts.order, "O", "--sweep: hpl (HPL.dat's order, default) or random (each round shuffled)", 0, 0 },
			{ 0, "list", HM_OPT_FLAG, &ts.to.list, NULL, "list the candidates (with --sweep, the sweep's configurations in order) and the budget; run nothing", 0, 0 },
			{ 0, "order-seed", HM_OPT_INT, &ts.to.seed, "S", "the seed of the rounds' random order (default: the clock)", 1, 2147483647 },
			HM_FORMAT_OPTION(ts.format, "text, or json: one document (the winner's plan and every candidate); the programs' output then goes to standard error"),
			HM_OPT_TABLE_END,
		};

		if ((ret = hm_options_parse_rest(&usage, opts, argc, argv, &ts.ro.lo.program, &ts.ro.lo.nprogram)) >= 0)
			return ret;
	}
	if ((fmt = hm_format_parse("tune", ts.format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	{
		const struct hm_option_rule rules[] = {
			{ ts.to.rounds > 1, ts.to.sweep, "--rounds goes with --sweep (a race decides its own rounds)" },
			{ strcmp(ts.order, "hpl") != 0, ts.to.sweep, "--order goes with --sweep" },
			{ 1, !strcmp(ts.order, "hpl") || !strcmp(ts.order, "random"), "--order is hpl or random" },
		};

		if (HM_OPTION_RULES_CHECK("tune", rules))
			return HM_EXIT_USAGE;
	}
	ts.to.random_order = !strcmp(ts.order, "random");
	ts.to.dir = ts.ro.keep_dir;
	ts.ro.keep_dir = NULL;          /* each candidate runs in its own DIR/cNN */
	/* the searches take a tenth of the tune's time, at most their default */
	ts.budget.max_seconds = ts.to.max_time > 0 && ts.to.max_time / 10 < HM_DEFAULT_MAX_TIME ?
				ts.to.max_time / 10 : HM_DEFAULT_MAX_TIME;
	return hm_cli_finish(tune(&ts, &po, fmt));
}

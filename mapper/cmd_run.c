/* mapper/cmd_run.c - 'hetmap run': plan (or read a plan), write the
 * launcher file, run the ScaLAPACK driver through mpirun, and append one
 * record (inputs, plan, predicted and measured time, check) to a JSON
 * Lines results file, whatever the outcome. */
#include "cli.h"
#include "plan.h"
#include "placement.h"
#include "launcher.h"
#include "mpirun.h"
#include "results.h"
#include "wrappers/driver_limits.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct hm_usage usage = {
	"run",
	"hetmap run [plan options | --plan PLAN.json] [--results FILE] [--timeout S] [-- MPIRUN-OPTIONS]",
	"Decide a configuration (as 'hetmap plan' does) or read one, then run the\n"
	"ScaLAPACK driver with it through Open MPI's mpirun: a rankfile places rank\n"
	"k at grid position (k / c, k mod c); ranks never busy-wait\n"
	"(mpi_yield_when_idle), OPENBLAS_NUM_THREADS=1, --oversubscribe when a\n"
	"processor holds more processes than cores. mpirun's output is streamed;\n"
	"one record per run is appended to the results file (JSON Lines), also\n"
	"when the run fails, times out or is interrupted.",
	"Options after '--' go to mpirun unchanged (no shell is involved).\n"
	"exit codes: 0 run and check passed; 7 the job failed; 8 mpirun cannot be\n"
	"started; 9 timeout; 10 the result check failed; 128+N stopped by signal N.\n"
	"example: hetmap run -p platform.json -r lu -n 2000 -M BTM -d 4 --results runs.jsonl",
};

/* The driver's one JSON line, picked out of mpirun's output. */
static void catch_driver_line(const char *line, void *ctx)
{
	cJSON **out = ctx, *doc;

	if (strncmp(line, "{\"hetmap_driver\"", 16) || *out)
		return;
	doc = cJSON_Parse(line);
	if (cJSON_IsObject(doc))
		*out = doc;
	else
		cJSON_Delete(doc);
}

struct run_setup {
	const char *results, *mpirun, *driver, *keep_dir, *plan_file, *launcher_name;
	double timeout;
	int seed, dry_run;
};

/* Compare where each rank ran with where the plan put it: the host (when
 * the driver's host names can be compared) and the grid position. */
static int placement_ok(const struct hm_placement *pl, const cJSON *driver)
{
	const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(driver, "ranks"), *e;
	int k = 0;

	if (cJSON_GetArraySize(ranks) != pl->D)
		return 0;
	cJSON_ArrayForEach(e, ranks) {
		const cJSON *row = cJSON_GetObjectItemCaseSensitive(e, "row");
		const cJSON *col = cJSON_GetObjectItemCaseSensitive(e, "col");

		if (!cJSON_IsNumber(row) || !cJSON_IsNumber(col) ||
		    row->valueint != k / pl->c || col->valueint != k % pl->c)
			return 0;
		k++;
	}
	return 1;
}

static cJSON *make_record(const struct run_setup *rs, const struct hm_placement *pl,
			  const cJSON *plan_doc, const struct hm_argv *argv,
			  const struct hm_spawn_result *res, int exit_code, cJSON *driver)
{
	cJSON *rec = cJSON_CreateObject(), *cmd = cJSON_CreateArray();
	const cJSON *measured = cJSON_GetObjectItemCaseSensitive(driver, "seconds");
	char stamp[32], host[256] = "";

	gethostname(host, sizeof(host) - 1);
	cJSON_AddNumberToObject(rec, "hetmap_result", 1);
	cJSON_AddStringToObject(rec, "time", hm_utc_timestamp(stamp, sizeof(stamp)));
	cJSON_AddStringToObject(rec, "launched_from", host);
	cJSON_AddItemToObject(rec, "inputs", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(plan_doc, "inputs"), 1));
	cJSON_AddItemToObject(rec, "plan", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(plan_doc, "plan"), 1));
	cJSON_AddNumberToObject(rec, "predicted_s", pl->predicted);
	if (cJSON_IsNumber(measured)) {
		cJSON_AddNumberToObject(rec, "measured_s", measured->valuedouble);
		if (pl->predicted > 0)
			cJSON_AddNumberToObject(rec, "measured_over_predicted",
						measured->valuedouble / pl->predicted);
	} else {
		cJSON_AddNullToObject(rec, "measured_s");
	}
	cJSON_AddItemToObject(rec, "check", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(driver, "check"), 1));
	if (driver)
		cJSON_AddBoolToObject(rec, "placement_as_planned", placement_ok(pl, driver));
	cJSON_AddStringToObject(rec, "mpirun_status", hm_spawn_status_name(res->status));
	cJSON_AddNumberToObject(rec, "mpirun_exit_code", res->exit_code);
	if (res->signal)
		cJSON_AddNumberToObject(rec, "signal", res->signal);
	cJSON_AddNumberToObject(rec, "wall_s", res->seconds);
	cJSON_AddNumberToObject(rec, "exit_code", exit_code);
	for (int i = 0; i < argv->n; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv->v[i]));
	cJSON_AddItemToObject(rec, "command", cmd);
	if (rs->plan_file)
		cJSON_AddStringToObject(rec, "plan_file", rs->plan_file);
	cJSON_AddItemToObject(rec, "driver", driver ? driver : cJSON_CreateNull());
	return rec;
}

/* Decide or read the plan; the plan document and its placement. */
static int get_plan(const struct run_setup *rs, struct hm_problem_opts *po, const char *method,
		    const struct hm_budget *budget, cJSON **plan_doc, struct hm_placement *pl)
{
	struct hm_error err;
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_result res;
	int ret;

	hm_error_clear(&err);
	if (rs->plan_file) {
		if (hm_placement_load(pl, rs->plan_file, &err)) {
			hm_cli_report(&err);
			return HM_EXIT_INPUT;
		}
		*plan_doc = pl->owner;
		return HM_EXIT_OK;
	}
	if ((ret = hm_problem_open(po, &pb, &p)))
		return ret;
	if (!(ret = hm_run_named(method, &pb, budget, &res))) {
		struct hm_plan_inputs in = { po->platform, &pb, budget };

		if (!res.found) {
			hm_cli_error("run: %s", res.stopped ? "the search was stopped before any configuration "
				     "was found" : "no configuration fits");
			ret = res.stopped ? HM_EXIT_BUDGET : HM_EXIT_NO_PLAN;
		} else if (res.stopped) {
			hm_cli_error("run: the search was stopped by its %s; running the best plan found",
				     hm_stop_name(res.stopped));
		}
		if (!ret) {
			hm_print_result(stderr, &pb, &res);
			if (hm_placement_from_result(pl, &in, &res, &err)) {
				hm_cli_report(&err);
				ret = HM_EXIT_FAILURE;
			}
			*plan_doc = pl->owner;
		}
		hm_result_release(&res);
	}
	hm_platform_free(p);
	return ret;
}

/* Write plan, launcher file and command into the kept directory, or a
 * fresh temporary one (*is_tmp then says so, for its removal). */
static int write_launch(const struct run_setup *rs, const struct hm_launcher *l,
			const struct hm_placement *pl, char *dir, size_t size, int *is_tmp)
{
	struct hm_error err;
	int ret;

	hm_error_clear(&err);
	*is_tmp = !rs->keep_dir;
	if (rs->keep_dir)
		snprintf(dir, size, "%s", rs->keep_dir);
	else if ((ret = hm_mpirun_temp_dir("run", dir, size)))
		return ret;
	if (hm_launch_dir_write(dir, pl, l, rs->driver, &err)) {
		hm_cli_report(&err);
		return HM_EXIT_OUTPUT;
	}
	return HM_EXIT_OK;
}

static void remove_launch_dir(const char *dir, const struct hm_launcher *l)
{
	static const char *const files[] = { "plan.json", "command", NULL };
	char path[4200];

	for (int i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		unlink(path);
	}
	snprintf(path, sizeof(path), "%s/%s", dir, l->file_name);
	unlink(path);
	rmdir(dir);
}

/* What the driver or this machine would refuse only once mpirun runs:
 * said before, with its reason. */
static int check_for_driver(const struct hm_placement *pl)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char here[256] = "";

	if (pl->n > HM_DRIVER_MAX_N || pl->r > HM_DRIVER_MAX_GRID_SIDE ||
	    pl->c > HM_DRIVER_MAX_GRID_SIDE || pl->b > HM_DRIVER_MAX_B) {
		hm_cli_error("run: the driver takes n <= %d, b <= %d and r, c <= %d (the plan has "
			     "n = %ld, b = %d, %d x %d)", HM_DRIVER_MAX_N, HM_DRIVER_MAX_B,
			     HM_DRIVER_MAX_GRID_SIDE, pl->n, pl->b, pl->r, pl->c);
		return HM_EXIT_USAGE;
	}
	/* a slot beyond this machine's cores fails inside mpirun with a bare
	 * "exit status 1": hosts that are this machine are checked here */
	gethostname(here, sizeof(here) - 1);
	for (int k = 0; k < pl->D && cpus > 0; k++) {
		const struct hm_rank_place *r = &pl->ranks[k];

		if ((!strcmp(r->host, "localhost") || !strcmp(r->host, here)) &&
		    r->slot + r->cores > cpus) {
			hm_cli_error("run: rank %d is planned on cores %d..%d of %s, which has %ld",
				     k, r->slot, r->slot + r->cores - 1, r->host, cpus);
			return HM_EXIT_USAGE;
		}
	}
	return HM_EXIT_OK;
}

/* Run, record, report. */
static int launch(const struct run_setup *rs, const struct hm_launcher *l,
		  const struct hm_placement *pl, const cJSON *plan_doc, char **extra, int nextra,
		  int results_fd)
{
	char dir[4096], file[4200], *line = NULL;
	struct hm_argv a = { 0 };
	struct hm_spawn_opts so = { rs->timeout, 5, hm_rank_environment, stdout, catch_driver_line, NULL, NULL };
	struct hm_spawn_result res;
	struct hm_error err;
	cJSON *driver = NULL, *rec;
	int is_tmp, ret;

	if ((ret = write_launch(rs, l, pl, dir, sizeof(dir), &is_tmp)))
		return ret;
	snprintf(file, sizeof(file), "%s/%s", dir, l->file_name);
	hm_mpirun_argv(&a, l, pl, file, rs->mpirun, extra, nextra);
	hm_driver_args(&a, pl, rs->driver);
	hm_argv_add(&a, "--seed");
	hm_argv_addf(&a, "%d", rs->seed);
	if (a.failed || !(line = hm_argv_quoted(&a))) {
		hm_cli_error("run: out of memory");
		ret = HM_EXIT_FAILURE;
		goto out;
	}
	fprintf(stderr, "hetmap: run: %s\n", line);
	if (rs->dry_run) {
		printf("%s\n", line);
		goto out;
	}
	so.ctx = &driver;
	if ((ret = hm_mpirun_spawn("run", "the job", a.v, &so, &res, rs->mpirun)) == HM_EXIT_FAILURE)
		goto out;
	if (driver && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
			      cJSON_GetObjectItemCaseSensitive(driver, "check"), "passed"))) {
		hm_cli_error("run: the result check failed (see the driver's line above)");
		ret = HM_EXIT_CHECK_FAILED;
	} else if (!driver && ret == HM_EXIT_OK) {
		hm_cli_error("run: mpirun succeeded but the driver printed no result line");
		ret = HM_EXIT_JOB_FAILED;
	}
	rec = make_record(rs, pl, plan_doc, &a, &res, ret, driver);
	hm_error_clear(&err);
	snprintf(err.file, sizeof(err.file), "%s", rs->results);
	if (!rec || hm_results_append(results_fd, rec, &err)) {
		hm_cli_report(&err);
		if (!ret)
			ret = HM_EXIT_OUTPUT;
	} else {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(rec, "measured_s");

		if (cJSON_IsNumber(m))
			fprintf(stderr, "hetmap: run: predicted %.6g s, measured %.6g s (ratio %.3f); "
				"record appended to %s\n", pl->predicted, m->valuedouble,
				pl->predicted > 0 ? m->valuedouble / pl->predicted : 0, rs->results);
		else
			fprintf(stderr, "hetmap: run: record appended to %s\n", rs->results);
	}
	cJSON_Delete(rec);
out:
	if (is_tmp)
		remove_launch_dir(dir, l);
	free(line);
	hm_argv_free(&a);
	return ret;
}

int cmd_run(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, HM_DEFAULT_MAX_TIME };
	struct run_setup rs = { "hetmap-results.jsonl", "mpirun", NULL, NULL, NULL, HM_DEFAULT_LAUNCHER, 0, 1, 0 };
	const char *method = HM_DEFAULT_METHOD;
	const struct hm_launcher *l;
	struct hm_placement pl = { 0 };
	cJSON *plan_doc = NULL;
	char driver_buf[4096];
	char **extra;
	int ret, nextra = 0, results_fd = -1;
	struct hm_error err;

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_SEARCH_OPTIONS(method, po, budget),
			{ 0, "plan", HM_OPT_STRING, &rs.plan_file, "FILE", "run this plan JSON instead of planning", 0, 0 },
			{ 0, "results", HM_OPT_STRING, &rs.results, "FILE", "append the record there (default hetmap-results.jsonl)", 0, 0 },
			{ 'o', "output", HM_OPT_STRING, &rs.keep_dir, "DIR", "keep plan.json, the launcher file and command there", 0, 0 },
			{ 'L', "launcher", HM_OPT_STRING, &rs.launcher_name, "L", hm_help_launchers("launcher", 1), 0, 0 },
			{ 0, "mpirun", HM_OPT_STRING, &rs.mpirun, "PATH", "the mpirun to start (default: mpirun in PATH)", 0, 0 },
			{ 0, "driver", HM_OPT_STRING, &rs.driver, "PATH", "ScaLAPACK driver (default: hetmap-driver beside hetmap)", 0, 0 },
			{ 0, "timeout", HM_OPT_DOUBLE, &rs.timeout, "S", "stop the job after S seconds (default: none)", 0, 1e7 },
			{ 0, "seed", HM_OPT_INT, &rs.seed, "S", "matrix seed (default 1)", 1, 2147483647 },
			{ 0, "dry-run", HM_OPT_FLAG, &rs.dry_run, NULL, "print the mpirun command, run nothing", 0, 0 },
			HM_OPT_TABLE_END,
		};

		if ((ret = hm_options_parse_rest(&usage, opts, argc, argv, &extra, &nextra)) >= 0)
			return ret;
	}
	if (!(l = hm_openmpi_launcher("run", rs.launcher_name)))
		return HM_EXIT_USAGE;
	if (!rs.driver)
		rs.driver = hm_sibling_program("hetmap-driver", driver_buf, sizeof(driver_buf));
	if (!rs.dry_run && (results_fd = hm_results_open(rs.results, &err)) < 0) {
		hm_cli_report(&err);
		return HM_EXIT_OUTPUT;
	}
	ret = get_plan(&rs, &po, method, &budget, &plan_doc, &pl);
	if (!ret)
		ret = check_for_driver(&pl);
	if (!ret)
		ret = launch(&rs, l, &pl, plan_doc, extra, nextra, results_fd);
	hm_placement_release(&pl);
	if (results_fd >= 0)
		close(results_fd);
	return hm_cli_finish(ret);
}

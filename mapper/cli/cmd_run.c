/* mapper/cli/cmd_run.c - 'hetmap run': plan (or read a plan), make the job's
 * launch directory, run the program (the user's, or the built-in driver)
 * through the launcher in that directory, read what its profile knows
 * how to read, check where each rank ran, and append one record to a
 * JSON Lines results file, whatever the outcome. */
#include "cli.h"
#include "mapper/launch/plan.h"
#include "mapper/launch/placement.h"
#include "mapper/launch/placement_check.h"
#include "mapper/launch/job.h"
#include "launch_opts.h"
#include "mapper/launch/launcher_detect.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/sim_setup.h"
#include "mapper/launch/program_mpi.h"
#include "mapper/launch/program_time.h"
#include "mapper/launch/results.h"
#include "models/util/decimal.h"
#include "models/util/read_file.h"
#include "models/platform/hostname.h"
#include "models/platform/simgrid_platform.h"
#include "wrappers/common/driver_limits.h"
#include "wrappers/common/kernel_terms.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct hm_usage usage = {
	"run",
	"hetmap run [plan options | --plan PLAN.json] [run options] [-- PROGRAM [ARGS...]]",
	"Decide a configuration (as 'hetmap plan' does) or read one, then run PROGRAM\n"
	"with it through the launcher, as mpirun would: rank k on the processor and\n"
	"cores the plan gives grid position (k / c, k mod c), waiting ranks yielding\n"
	"their core, each rank with the plan's BLAS threads (OPENBLAS_NUM_THREADS,\n"
	"OMP_NUM_THREADS; one unless the platform's types know ranks of more:\n"
	"calibrate --threads). Without PROGRAM, hetmap's ScaLAPACK\n"
	"driver runs. The job runs in its launch directory (-o DIR, or a new one\n"
	"under $TMPDIR), where the profile's input file is rendered. One record per\n"
	"run is appended to the results file (JSON Lines), also when the run fails,\n"
	"times out or is interrupted.",
	"PROGRAM's arguments and --input templates may hold the plan's values; every\n"
	"rank also gets them in its environment:\n"
	"%PLAN_VALUES%"
	"Profiles (--profile; chosen by PROGRAM's name when not given):\n"
	"%PROFILES%"
	"The time compared with the prediction: the profile's reading of the\n"
	"program's own time; for any program, a line 'hetmap-time: SECONDS' it prints\n"
	"(rank 0, or every rank: the largest counts), or the first group of\n"
	"--time-regex; else the longest rank's time from MPI_Init's return to\n"
	"MPI_Finalize (hetmap-probe preloads libhetmap-mpi-span, which measures it:\n"
	"it includes the program's set-up and checks). A time under ten ticks of\n"
	"the timer it was printed with (0.01 s for '0.05') is kept without a ratio.\n"
	"A program linked with another MPI than the launcher's is refused (its ELF\n"
	"dependencies say which). 'hetmap report' tabulates and plots the records.\n"
	"Launcher options: --launcher-args 'WORDS' (split at blanks; no shell).\n"
	"Simulators (--launcher smpi): --kernels modeled spends each simulated host's\n"
	"modeled kernel time instead of computing (the user's n on hundreds of ranks;\n"
	"no residual to check, the record's verdict says 'modeled') and times nothing\n"
	"on this machine: every simulated second is charged from the platform, so a\n"
	"job simulates to the same time however busy this machine is; a program of\n"
	"yours must be linked with libhetmap-smpi-kernels (wrappers/README.md).\n"
	"exit codes: 0 run and check passed (modeled: nothing to check); 3 bad usage; 4 the\n"
	"results file or the launch directory cannot be written; 7 the job failed or printed\n"
	"no result; 8 the launcher cannot be started; 9 timeout; 10 the program's\n"
	"check failed or it skipped the test; 128+N stopped by signal N.\n"
	"examples:\n"
	"  hetmap run -p cluster.json -n 2000 --results runs.jsonl\n"
	"  hetmap run -p cluster.json -n 900 -o job -- /usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu\n"
	"  hetmap run -p cluster.json -n 4000 --launcher mpich -- ./my_solver -n {n} -nb {b} -p {r} -q {c}",
};

struct run_setup {
	const char *results, *keep_dir, *plan_file;
	const char *platform;           /* -p, or the plan's (simulators need it) */
	struct hm_sim_opts sim;
	double host_speed;              /* simulators: this machine's core, flop/s */
	struct hm_launch_opts lo;
	double timeout;
	int seed, dry_run, no_check;
	const char *probe;              /* hetmap-probe's path; NULL with no_check */
	int given_n, given_routine;     /* -n, -r on the command line: a --plan must agree */
	const char *time_regex;         /* --time-regex */
	struct hm_program_time *time;   /* its reader, made once (cmd_run) */
	int json;                       /* -f json: the record on stdout, the program's output on stderr */
};

/* What the job's output tells, line by line. */
struct reading {
	const struct hm_app_profile *profile;
	struct hm_app_result result;
	struct hm_placement_check check;
	struct hm_program_time *time;   /* hetmap-time lines, --time-regex, MPI spans */
	int kernels_modeled;            /* the program printed HM_KERNELS_MARK */
};

static void read_line(const char *line, void *ctx)
{
	struct reading *rd = ctx;

	if (hm_placement_check_line(&rd->check, line) || hm_program_time_line(rd->time, line))
		return;
	if (!strcmp(line, HM_KERNELS_MARK)) {
		rd->kernels_modeled = 1;
		return;
	}
	if (rd->profile->read_line && !rd->profile->output_file)
		rd->profile->read_line(&rd->result, line);
}

/* A profile that reads a file the program wrote in the job's directory. */
static void read_output_file(struct reading *rd, const char *dir)
{
	char path[4400], *text, *line, *save = NULL;
	enum hm_read_status st;
	size_t len;

	if (!rd->profile->output_file || !rd->profile->read_line)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, rd->profile->output_file);
	if (!(text = hm_read_file(path, 64u << 20, &len, &st)))
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		rd->profile->read_line(&rd->result, line);
	free(text);
}

/* A program's output file left by an earlier run in the same directory
 * would be read as this run's (HPCC appends to it): moved aside to the
 * first free NAME.N, never over another file. */
static void set_aside_old_output(const struct hm_job *j)
{
	char path[4400], old[4500];

	if (!j->profile->output_file)
		return;
	snprintf(path, sizeof(path), "%s/%s", j->dir, j->profile->output_file);
	if (access(path, F_OK))
		return;
	for (int k = 1; k < 1000; k++) {
		snprintf(old, sizeof(old), "%s.%d", path, k);
		if (link(path, old) == 0) {     /* fails if 'old' exists: no clobbering */
			unlink(path);
			hm_say_note("hetmap: run: the earlier %s was moved to %s\n", path, old);
			return;
		}
		if (errno != EEXIST)
			break;
	}
	hm_say_error("run: warning: cannot move the earlier %s aside; the profile may read it", path);
}

static void add_program_record(cJSON *rec, const struct hm_job *j, const struct reading *rd)
{
	cJSON *prog = cJSON_AddObjectToObject(rec, "program"), *args = cJSON_CreateArray();
	const struct hm_app_result *r = &rd->result;

	cJSON_AddStringToObject(prog, "path", j->program.v[0]);
	for (int i = 1; i < j->program.n; i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(j->program.v[i]));
	cJSON_AddItemToObject(prog, "args", args);
	cJSON_AddStringToObject(prog, "profile", j->profile->name);
	cJSON_AddStringToObject(prog, "verdict", hm_verdict_name(r->verdict));
	if (r->seconds >= 0)
		cJSON_AddNumberToObject(prog, "seconds", r->seconds);
	else
		cJSON_AddNullToObject(prog, "seconds");
	if (r->gflops >= 0)
		cJSON_AddNumberToObject(prog, "gflops", r->gflops);
	if (r->note[0])
		cJSON_AddStringToObject(prog, "note", r->note);
	cJSON_AddStringToObject(prog, "grid_order", j->pl->column_major ? "column" : "row");
}

static const struct { const char *variable, *key; } slurm_ids[] = {
	{ "SLURM_JOB_ID", "slurm_job" }, { "SLURM_STEP_ID", "slurm_step" },
};

/* Every record starts so. */
static cJSON *record_start(void)
{
	cJSON *rec = cJSON_CreateObject();
	char stamp[32], host[256] = "";

	gethostname(host, sizeof(host) - 1);
	cJSON_AddNumberToObject(rec, "hetmap_result", 1);
	cJSON_AddStringToObject(rec, "time", hm_utc_timestamp(stamp, sizeof(stamp)));
	cJSON_AddStringToObject(rec, "launched_from", host);
	/* inside Slurm, the job (and step) to look up with sacct: numbers, as
	 * Slurm writes them, checked before they go in */
	for (size_t i = 0; i < sizeof(slurm_ids) / sizeof(slurm_ids[0]); i++) {
		const char *v = getenv(slurm_ids[i].variable);

		if (v && hm_is_digits(v, 15))
			cJSON_AddStringToObject(rec, slurm_ids[i].key, v);
	}
	return rec;
}

/* The launcher and how its child ended. */
static void record_outcome(cJSON *rec, const struct hm_launcher *l, const struct hm_launcher_found *lf,
			   const struct hm_spawn_result *res, int exit_code)
{
	cJSON *launcher = cJSON_AddObjectToObject(rec, "launcher");

	cJSON_AddStringToObject(launcher, "name", l->name);
	cJSON_AddStringToObject(launcher, "program", lf->program);
	cJSON_AddStringToObject(launcher, "version", lf->version);
	cJSON_AddStringToObject(rec, "mpirun_status", hm_spawn_status_name(res->status));
	cJSON_AddNumberToObject(rec, "mpirun_exit_code", res->exit_code);
	if (res->signal)
		cJSON_AddNumberToObject(rec, "signal", res->signal);
	cJSON_AddNumberToObject(rec, "wall_s", res->seconds);
	cJSON_AddNumberToObject(rec, "exit_code", exit_code);
}

/* What a record would repeat rank by rank, said once: the plan's list of
 * each rank's processor (its 'processes' say the same, in rank order) is
 * left out; the driver's ranks are folded into runs (results.h). */
static void shorten_record(cJSON *rec, int c)
{
	cJSON *driver = cJSON_GetObjectItemCaseSensitive(rec, "driver");
	cJSON *folded = hm_fold_rank_list(cJSON_GetObjectItemCaseSensitive(driver, "ranks"), c);

	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, "plan"), "ranks");
	if (folded) {
		cJSON_DeleteItemFromObjectCaseSensitive(driver, "ranks");
		cJSON_AddItemToObject(driver, "rank_runs", folded);
	}
}

static cJSON *make_record(const struct run_setup *rs, const struct hm_job *j,
			  const struct hm_launcher_found *lf, const struct hm_argv *argv,
			  const struct hm_spawn_result *res, int exit_code, const struct reading *rd)
{
	cJSON *rec = record_start(), *cmd = cJSON_CreateArray();
	const cJSON *plan_doc = j->pl->owner;
	const struct hm_app_result *r = &rd->result;

	cJSON_AddItemToObject(rec, "inputs", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(plan_doc, "inputs"), 1));
	cJSON_AddItemToObject(rec, "plan", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(plan_doc, "plan"), 1));
	cJSON_AddNumberToObject(rec, "predicted_s", j->pl->predicted);
	/* measured: what program_time.h settled on, and its timer's tick */
	if (r->seconds >= 0) {
		cJSON_AddNumberToObject(rec, "measured_s", r->seconds);
		cJSON_AddStringToObject(rec, "measured_by", r->measured_by);
		if (r->tick > 0)
			cJSON_AddNumberToObject(rec, "timer_tick_s", r->tick);
		if (hm_time_under_ticks(r))
			cJSON_AddStringToObject(rec, "ratio_withheld", "under " HM_STR(HM_MIN_TICKS) " ticks of the program's timer");
		else if (j->pl->predicted > 0)
			cJSON_AddNumberToObject(rec, "measured_over_predicted", r->seconds / j->pl->predicted);
	} else {
		cJSON_AddNullToObject(rec, "measured_s");
	}
	add_program_record(rec, j, rd);
	cJSON_AddItemToObject(rec, "check", r->raw ? cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(r->raw, "check"), 1)
			      : cJSON_CreateNull());
	if (rd->check.host)
		cJSON_AddItemToObject(rec, "placement", hm_placement_check_json(&rd->check));
	cJSON_AddBoolToObject(rec, "placement_as_planned",
			      rd->check.host && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
				      cJSON_GetObjectItemCaseSensitive(rec, "placement"), "as_planned")));
	cJSON_AddBoolToObject(rec, "simulated", j->l->simulated);
	if (j->l->simulated) {
		/* modeled, nothing was timed here: no speed of this machine's counts */
		if (j->times_nothing)
			cJSON_AddNullToObject(rec, "simulator_host_speed");
		else
			cJSON_AddNumberToObject(rec, "simulator_host_speed", j->host_speed);
		if (rs->sim.platform)
			cJSON_AddStringToObject(rec, "simulated_platform", rs->sim.platform);
		cJSON_AddStringToObject(rec, "kernels", hm_sim_kernels_name(rd->kernels_modeled ? rs->sim.kernels
									    : HM_SIM_EXECUTED));
	}
	record_outcome(rec, j->l, lf, res, exit_code);
	for (int i = 0; i < argv->n; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv->v[i]));
	cJSON_AddItemToObject(rec, "command", cmd);
	cJSON_AddStringToObject(rec, "job_dir", j->dir);
	if (rs->plan_file)
		cJSON_AddStringToObject(rec, "plan_file", rs->plan_file);
	cJSON_AddItemToObject(rec, "driver", r->raw ? cJSON_Duplicate(r->raw, 1) : cJSON_CreateNull());
	shorten_record(rec, j->pl->c);
	return rec;
}

/* Decide or read the plan, into its placement. */
static int get_plan(const struct run_setup *rs, struct hm_problem_opts *po, const char *method,
		    const struct hm_budget *budget, struct hm_placement *pl)
{
	struct hm_error err;
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_result res;
	int ret;

	hm_error_clear(&err);
	if (rs->plan_file) {
		if (hm_placement_load(pl, rs->plan_file, &err)) {
			hm_say_report(&err);
			return HM_EXIT_INPUT;
		}
		/* never run another problem than the one asked for */
		if ((rs->given_n && (long)po->n != pl->n) || (rs->given_routine && strcasecmp(po->routine, pl->routine))) {
			hm_say_error("run: the plan %s is for %s n = %ld, not what -r/-n ask (%s n = %.0f): "
				     "give --plan or -r/-n, or plan again", rs->plan_file, pl->routine, pl->n,
				     rs->given_routine ? po->routine : pl->routine, rs->given_n ? po->n : (double)pl->n);
			return HM_EXIT_USAGE;
		}
		return HM_EXIT_OK;
	}
	if ((ret = hm_problem_open("run", po, &pb, &p)))
		return ret;
	if (!(ret = hm_run_named(method, &pb, budget, &res))) {
		struct hm_plan_inputs in = { po->platform, &pb, budget };

		if (res.stopped == HM_STOP_SIGNAL) {
			ret = 128 + hm_stop_signal_caught();    /* said and recorded by the caller */
		} else if (!res.found) {
			hm_say_error("run: %s", res.stopped ? "the search was stopped before any configuration "
				     "was found" : "no configuration fits");
			ret = res.stopped ? HM_EXIT_BUDGET : HM_EXIT_NO_PLAN;
		} else if (res.stopped) {
			hm_say_error("run: the search was stopped by its %s; running the best plan found",
				     hm_stop_name(res.stopped));
		}
		if (!ret) {
			if (hm_verbosity > 0)
				hm_print_result(stderr, &pb, &res);
			if (hm_placement_from_result(pl, &in, &res, &err)) {
				hm_say_report(&err);
				ret = HM_EXIT_FAILURE;
			}
		}
		hm_result_release(&res);
	}
	hm_platform_free(p);
	return ret;
}

/* A program linked with another MPI than the launcher's would run as
 * singletons, each rank alone: refused, naming the MPI it needs (one
 * rank alone is the whole job, and runs). */
static int check_program_mpi(const struct hm_job *j)
{
	struct hm_program_mpi m;
	char via[160] = "";

	if (j->pl->D < 2 || !j->l->mpi_libraries || !hm_program_mpi(j->program.v[0], &m) ||
	    !strcmp(m.launcher->mpi_libraries, j->l->mpi_libraries))
		return HM_EXIT_OK;
	if (m.via[0])
		snprintf(via, sizeof(via), ", through %s", m.via);
	hm_say_error("run: %s is linked with %s (%s%s), and the '%s' launcher starts %s programs: "
		     "its ranks would each run alone. Use --launcher %s%s", j->program.v[0], m.launcher->mpi,
		     m.library, via, j->l->name, j->l->mpi, m.launcher->runs ? m.launcher->name : "slurm",
		     m.launcher->runs ? " (or slurm inside an allocation)" : "");
	return HM_EXIT_USAGE;
}

/* What the driver, this machine or the allocation would refuse only once
 * the launcher runs: said before, with its reason. */
static int check_before_launch(const struct hm_job *j, int dry_run)
{
	const struct hm_placement *pl = j->pl;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char here[256] = "";
	struct hm_error err;
	int ret;

	if (!strcmp(j->profile->name, "driver") &&
	    (pl->n > HM_DRIVER_MAX_N || pl->r > HM_DRIVER_MAX_GRID_SIDE ||
	     pl->c > HM_DRIVER_MAX_GRID_SIDE || pl->b > HM_DRIVER_MAX_B)) {
		hm_say_error("run: the driver takes n <= %d, b <= %d and r, c <= %d (the plan has "
			     "n = %ld, b = %d, %d x %d)", HM_DRIVER_MAX_N, HM_DRIVER_MAX_B,
			     HM_DRIVER_MAX_GRID_SIDE, pl->n, pl->b, pl->r, pl->c);
		return HM_EXIT_USAGE;
	}
	if (j->profile->process_bytes && j->profile->process_bytes(pl) > j->profile->max_process_bytes) {
		hm_say_error("run: %s holds %.0f bytes a process (its compiled-in work array); this plan "
			     "needs at least %.0f: take a smaller n or more processes", j->program.v[0],
			     j->profile->max_process_bytes, j->profile->process_bytes(pl));
		return HM_EXIT_USAGE;
	}
	/* a core beyond this machine's fails inside the launcher with a bare
	 * "exit status 1": hosts that are this machine are checked here, as
	 * the placement check names them */
	gethostname(here, sizeof(here) - 1);
	for (int k = 0; k < pl->D && cpus > 0 && !j->l->simulated; k++) {
		const struct hm_rank_place *r = &pl->ranks[k];

		if (hm_host_names(r->host, here) && r->slot + r->cores > cpus) {
			hm_say_error("run: rank %d is planned on cores %d..%d of %s, which has %ld",
				     k, r->slot, r->slot + r->cores - 1, r->host, cpus);
			return HM_EXIT_USAGE;
		}
	}
	if ((ret = check_program_mpi(j)))
		return ret;
	if (j->l->stacked_warning && pl->oversubscribed)
		hm_say_error("run: warning: %s", j->l->stacked_warning);
	hm_error_clear(&err);
	if (!dry_run && j->l->check_hosts && j->l->check_hosts(pl, &err)) {
		hm_say_error("run: %s: %s", j->l->name, err.msg);
		return HM_EXIT_USAGE;
	}
	return HM_EXIT_OK;
}

/* The exit code for what the program said, after the launcher's. A
 * program whose kernels were modeled computed nothing: whatever its check
 * said, there is nothing to judge. */
static int verdict_exit(const struct hm_job *j, struct hm_app_result *r, int kernels_modeled, int ret)
{
	if (kernels_modeled && r->found) {
		const cJSON *info = cJSON_GetObjectItemCaseSensitive(r->raw, "info");

		r->verdict = HM_VERDICT_MODELED;
		/* the modeled kernels pivot as a random matrix does (kernels.c):
		 * a zero pivot means this run's control flow is not a real one's */
		if (cJSON_IsNumber(info) && info->valuedouble > 0)
			fprintf(stderr, "hetmap: run: warning: the modeled LU met a zero pivot at column %.0f: "
				"it skipped that column's swap and scaling, which a real run does (%s)\n",
				info->valuedouble, j->modeled_kernels && !j->times_nothing ?
				"--kernels modeled-as-executed pivots on the shared matrix's data" :
				"the program's kernels were not hetmap's");
	}
	else if (j->modeled_kernels && !ret && j->times_nothing) {
		/* its computation ran here untimed: the simulated time is its messages' */
		hm_say_error("run: %s computed its kernels, and --kernels modeled times nothing on this "
			     "machine: its simulated time counts its messages only (link it with "
			     "libhetmap-smpi-kernels ahead of the BLAS, wrappers/README.md, or simulate it with "
			     "--kernels executed)", j->program.v[0]);
		return HM_EXIT_JOB_FAILED;
	} else if (j->modeled_kernels && !ret)
		fprintf(stderr, "hetmap: run: warning: --kernels was asked but %s computed its kernels (link "
			"it with libhetmap-smpi-kernels ahead of the BLAS: wrappers/README.md)\n",
			j->program.v[0]);
	if (r->verdict == HM_VERDICT_FAILED || r->verdict == HM_VERDICT_SKIPPED) {
		hm_say_error("run: %s %s the test%s%s", j->program.v[0],
			     r->verdict == HM_VERDICT_FAILED ? "failed" : "skipped",
			     r->note[0] ? ": " : "", r->note);
		return ret ? ret : HM_EXIT_CHECK_FAILED;
	}
	if (!ret && j->profile->read_line && !r->found) {
		hm_say_error("run: the job succeeded but %s printed no result the '%s' profile reads%s%s",
			     j->program.v[0], j->profile->name, r->note[0] ? ": " : "", r->note);
		return HM_EXIT_JOB_FAILED;
	}
	return ret;
}

/* One record into the results file; -1 after a message when it cannot. */
static int write_record(const struct run_setup *rs, int results_fd, const cJSON *rec)
{
	struct hm_error err;

	hm_error_clear(&err);
	snprintf(err.file, sizeof(err.file), "%s", rs->results);
	if (!rec || hm_results_append(results_fd, rec, &err)) {
		hm_say_report(&err);
		return -1;
	}
	if (rs->json) {         /* -f json: the record on standard output too */
		char *text = cJSON_Print(rec);

		if (text)
			printf("%s\n", text);
		free(text);
	}
	return 0;
}

/* Who measured, in words. */
static const char *measured_by_text(const struct hm_job *j, const struct hm_app_result *r)
{
	static char text[128];

	if (!strcmp(r->measured_by, "profile"))
		snprintf(text, sizeof(text), "the program's own time, '%s' profile", j->profile->name);
	else if (!strcmp(r->measured_by, "mpi-span"))
		snprintf(text, sizeof(text), "the longest rank's MPI_Init to MPI_Finalize");
	else if (!strcmp(r->measured_by, "time-line"))
		snprintf(text, sizeof(text), "the program's '" HM_TIME_LINE "' line");
	else
		snprintf(text, sizeof(text), "--time-regex on the program's output");
	return text;
}

static void append_record(const struct run_setup *rs, int results_fd, cJSON *rec, int *ret,
			  const struct hm_job *j, const struct reading *rd)
{
	const char *placement;

	if (write_record(rs, results_fd, rec)) {
		if (!*ret)
			*ret = HM_EXIT_OUTPUT;
		return;
	}
	placement = rd->kernels_modeled ? "simulated, kernels modeled (no residual to check)" :
		    j->l->simulated ? "simulated" : rs->no_check ? "not checked" :
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "placement_as_planned"))
		    ? "as planned" : "NOT as planned (see the record)";
	if (rd->result.seconds >= 0 && !hm_time_under_ticks(&rd->result))
		fprintf(stderr, "hetmap: run: predicted %.6g s, measured %.6g s (ratio %.3f, by %s); "
			"placement %s; record appended to %s\n", j->pl->predicted, rd->result.seconds,
			j->pl->predicted > 0 ? rd->result.seconds / j->pl->predicted : 0,
			measured_by_text(j, &rd->result), placement, rs->results);
	else if (rd->result.seconds >= 0)
		fprintf(stderr, "hetmap: run: predicted %.6g s, measured %.6g s by %s, under %d ticks of its "
			"timer (%g s): no ratio; placement %s; record appended to %s\n", j->pl->predicted,
			rd->result.seconds, measured_by_text(j, &rd->result), HM_MIN_TICKS, rd->result.tick,
			placement, rs->results);
	else
		fprintf(stderr, "hetmap: run: no measured time (print a line '" HM_TIME_LINE " SECONDS', or "
			"give --time-regex); placement %s; record appended to %s\n", placement, rs->results);
}

/* A time printed as 0 ("0.00": below the program's resolution) or as
 * infinite measures nothing: no measured_s, no ratio, no rate. */
static void no_measurement(const struct hm_job *j, struct hm_app_result *r)
{
	if (r->seconds != 0 && !isinf(r->seconds))
		return;
	fprintf(stderr, "hetmap: run: %s printed its time as %g (below its resolution): no measurement "
		"recorded\n", j->program.v[0], r->seconds);
	if (!r->note[0])
		snprintf(r->note, sizeof(r->note), "time printed as %g: below the program's resolution", r->seconds);
	r->seconds = r->gflops = -1;
}

/* A signal before the job started (while the launcher was asked its
 * version): a record says so, as it would later in the run. */
static void record_interrupted_early(const struct run_setup *rs, const struct hm_launcher *l,
				     const struct hm_launcher_found *lf, const char *stage, int sig,
				     int results_fd)
{
	struct hm_spawn_result res = { HM_SPAWN_INTERRUPTED, 0, sig, 0, 0 };
	cJSON *rec = record_start();

	cJSON_AddStringToObject(rec, "stage", stage);
	cJSON_AddNullToObject(rec, "plan");
	cJSON_AddNullToObject(rec, "measured_s");
	record_outcome(rec, l, lf, &res, 128 + sig);
	if (rs->plan_file)
		cJSON_AddStringToObject(rec, "plan_file", rs->plan_file);
	if (!write_record(rs, results_fd, rec))
		fprintf(stderr, "hetmap: run: record appended to %s\n", rs->results);
	cJSON_Delete(rec);
}

/* Run, read, record. */
static int launch(const struct run_setup *rs, struct hm_job *j, const struct hm_launcher_found *lf,
		  int results_fd)
{
	char *line = NULL, *launcher_var = hm_job_launcher_variable(j);
	const char *probe = rs->probe;
	const char *env[] = { hm_rank_environment[0], launcher_var, NULL };  /* the launcher's own */
	struct hm_argv a = { 0 };
	struct reading rd = { .profile = j->profile, .time = rs->time };
	/* ranks that are threads of the launcher: its environment is theirs */
	struct hm_spawn_opts so = { rs->timeout, 5, j->l->ranks_share_env ? (const char *const *)j->env.v : env,
				    rs->json ? stderr : stdout, read_line, NULL, &rd, j->dir };
	struct hm_spawn_result res;
	int ret;

	hm_app_result_init(&rd.result);
	hm_job_command(j, probe, &a);
	if (a.failed || !(line = hm_argv_quoted(&a)) ||
	    (!rs->no_check && hm_placement_check_init(&rd.check, j->pl, j->l->binds))) {
		hm_say_error("run: out of memory");
		ret = HM_EXIT_FAILURE;
		goto out;
	}
	hm_say_note("hetmap: run: in %s: %s\n", j->dir, line);
	if (j->profile->caveat)
		hm_say_note("hetmap: run: note: %s\n", j->profile->caveat);
	set_aside_old_output(j);
	if ((ret = hm_mpirun_spawn("run", "the job", a.v, &so, &res, lf->program)) == HM_EXIT_FAILURE)
		goto out;
	read_output_file(&rd, j->dir);
	hm_program_time_settle(rd.time, &rd.result);
	no_measurement(j, &rd.result);
	ret = verdict_exit(j, &rd.result, rd.kernels_modeled, ret);
	{
		cJSON *rec = make_record(rs, j, lf, &a, &res, ret, &rd);

		append_record(rs, results_fd, rec, &ret, j, &rd);
		cJSON_Delete(rec);
	}
out:
	hm_placement_check_release(&rd.check);
	hm_app_result_release(&rd.result);
	free(line);
	free(launcher_var);
	hm_argv_free(&a);
	return ret;
}

/* --dry-run: the command on stdout (as run.sh has it, with absolute
 * paths); the directory stays for it. */
static int print_command(const struct hm_job *j)
{
	struct hm_argv a = { 0 };
	char *line;

	hm_job_command(j, NULL, &a);
	if (a.failed || !(line = hm_argv_quoted(&a))) {
		hm_argv_free(&a);
		hm_say_error("run: out of memory");
		return HM_EXIT_FAILURE;
	}
	printf("%s\n", line);
	hm_say_note("hetmap: run: launch directory %s written (run it with %s/run.sh)\n",
		j->dir, j->dir);
	free(line);
	hm_argv_free(&a);
	return HM_EXIT_OK;
}

/* The launch directory: -o DIR, or a fresh one under $TMPDIR. */
static int make_job(struct run_setup *rs, struct hm_placement *pl, const struct hm_launcher *l,
		    const struct hm_launcher_found *lf, struct hm_job *j)
{
	struct hm_job_request rq;
	char tmp[4096], *xml = NULL;
	struct hm_error err;
	int ret;

	if (l->simulated &&
	    (ret = hm_sim_setup("run", &rs->sim, rs->platform, pl, rs->dry_run, &xml, &rs->host_speed)))
		return ret;
	/* no probe (--no-placement-check): the launcher binds as it can */
	if ((ret = hm_launch_request(&rq, &rs->lo, pl, l, NULL, rs->seed, 1, rs->no_check)))
		return ret;
	rs->probe = rq.binder;
	hm_sim_request(&rq, &rs->sim, l, xml, rs->host_speed);
	rq.launcher_program = lf->program, rq.launcher_major = lf->major;
	if (rs->keep_dir)
		rq.dir = rs->keep_dir;
	else if ((ret = hm_mpirun_temp_dir("run", tmp, sizeof(tmp)))) {
		free(xml);
		return ret;
	} else {
		rq.dir = tmp;
	}
	hm_error_clear(&err);
	ret = hm_job_prepare(j, &rq, &err);
	free(xml);
	if (ret) {
		hm_say_error("run: %s", err.msg);
		if (!rs->keep_dir)
			rmdir(tmp);
		return ret == HM_JOB_NO_DIR ? HM_EXIT_OUTPUT : HM_EXIT_USAGE;
	}
	if (!rs->keep_dir)
		j->made_dir = 1;
	hm_error_clear(&err);
	if (hm_job_write(j, &err)) {
		/* nothing was put in place (all or none): only a directory made
		 * for this job goes; what was there stays, whatever it is */
		hm_say_report(&err);
		if (j->made_dir)
			rmdir(j->dir);
		hm_job_release(j);
		return HM_EXIT_OUTPUT;
	}
	return HM_EXIT_OK;
}

static const char *epilog(void)
{
	static char text[6000];
	const char *t = usage.epilog, *mark;
	size_t len = 0;

	if (text[0])
		return text;
	while ((mark = strchr(t, '%')) && len < sizeof(text)) {
		const char *fill = !strncmp(mark, "%PLAN_VALUES%", 13) ? hm_help_plan_values() :
				   !strncmp(mark, "%PROFILES%", 10) ? hm_help_app_profiles() : NULL;
		size_t skip = fill ? strcspn(mark + 1, "%") + 2 : 1;

		len += (size_t)snprintf(text + len, sizeof(text) - len, "%.*s%s", (int)(mark - t), t,
					fill ? fill : "%");
		t = mark + skip;
	}
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, "%s", t);
	return text;
}

int cmd_run(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, HM_DEFAULT_MAX_TIME };
	struct run_setup rs = { NULL, NULL, NULL, NULL, HM_SIM_OPTS_INIT, 0,
				HM_LAUNCH_OPTS_INIT, 0, 1, 0, 0, NULL, 0, 0, NULL, NULL, 0 };
	const char *method = HM_DEFAULT_METHOD, *format = "text";
	const struct hm_launcher *l;
	struct hm_launcher_found lf;
	struct hm_placement pl = { 0 };
	struct hm_program_time time;
	struct hm_job job;
	struct hm_usage u = usage;
	int ret, results_fd = -1, have_job = 0, launched = 0, sig;
	struct hm_error err;

	u.epilog = epilog();
	hm_problem_opts_init(&po);
	po.n = 0, po.routine = NULL;    /* given or not: a --plan has its own */
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_SEARCH_OPTIONS(method, po, budget),
			{ 0, "plan", HM_OPT_STRING, &rs.plan_file, "FILE", "run this plan JSON instead of planning", 0, 0 },
			{ 0, "results", HM_OPT_STRING, &rs.results, "FILE", "append the record there (default: $HETMAP_RESULTS, the configuration's, else " HM_DEFAULT_RESULTS ")", 0, 0 },
			{ 'o', "output", HM_OPT_STRING, &rs.keep_dir, "DIR", "the launch directory (kept); default: a new one under $TMPDIR", 0, 0 },
			HM_LAUNCH_OPTIONS(rs.lo, hm_help_launchers("launcher", 1)),
			{ 0, "time-regex", HM_OPT_STRING, &rs.time_regex, "RE", "the program's time: the first group of this extended regular expression on its output (default: its profile's reader, or a '" HM_TIME_LINE " SECONDS' line)", 0, 0 },
			{ 0, "timeout", HM_OPT_DOUBLE, &rs.timeout, "S", "stop the job after S seconds (default: none)", 0, 1e7 },
			{ 0, "seed", HM_OPT_INT, &rs.seed, "S", "matrix seed of the built-in driver (default 1)", 1, 2147483647 },
			HM_SIM_OPTIONS(rs.sim),
			{ 0, "no-placement-check", HM_OPT_FLAG, &rs.no_check, NULL, "do not start ranks through hetmap-probe (which also binds them where the launcher cannot name each host's cores)", 0, 0 },
			HM_FORMAT_OPTION(format, "text, or json: the record also on standard output (the program's output then goes to standard error)"),
			{ 0, "dry-run", HM_OPT_FLAG, &rs.dry_run, NULL, "write the launch directory and print its command; run nothing", 0, 0 },
			HM_OPT_TABLE_END,
		};

		if ((ret = hm_options_parse_rest(&u, opts, argc, argv, &rs.lo.program, &rs.lo.nprogram)) >= 0)
			return ret;
	}
	if ((rs.json = hm_format_parse("run", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	rs.given_n = po.n > 0, rs.given_routine = po.routine != NULL;
	if (!rs.given_n)
		po.n = HM_DEFAULT_N;
	if (!rs.given_routine)
		po.routine = "lu";
	if ((ret = hm_launch_opts_check("run", &rs.lo)) || (ret = hm_default_results(&rs.results)))
		return ret;
	if (!(l = hm_launcher_find(rs.lo.launcher_name)) || !l->runs) {
		char names[128];

		hm_say_error("run: launcher must be %s%s", hm_launcher_names(HM_LAUNCHERS_RUN, ", ", names, sizeof(names)),
			     l ? " ('hetmap plan --launcher' writes the others' files)" : "");
		return HM_EXIT_USAGE;
	}
	if ((ret = hm_sim_opts_check("run", &rs.sim, l)))
		return ret;
	hm_error_clear(&err);            /* --time-regex checked before anything is planned or run */
	if (hm_program_time_init(&time, rs.time_regex, &err)) {
		hm_say_error("run: %s", err.msg);
		return HM_EXIT_USAGE;
	}
	rs.time = &time;
	hm_error_clear(&err);
	if (!rs.dry_run && (results_fd = hm_results_open(rs.results, &err)) < 0) {
		hm_say_report(&err);
		hm_program_time_release(&time);
		return HM_EXIT_OUTPUT;
	}
	if (hm_launcher_detect(l, rs.lo.mpirun, rs.lo.launcher_version, !rs.dry_run, &lf, &err)) {
		hm_say_error("run: %s", err.msg);
		ret = lf.signal ? 128 + lf.signal : HM_EXIT_NO_MPIRUN;
		if (lf.signal && results_fd >= 0)
			record_interrupted_early(&rs, l, &lf, "launcher version check", lf.signal, results_fd);
		if (results_fd >= 0)
			close(results_fd);
		hm_program_time_release(&time);
		return ret;
	}
	/* from here on a signal stops the search, or the job, and is recorded */
	hm_stop_signals_catch();
	rs.no_check |= l->simulated;     /* simulated hosts: nothing to check */

	ret = get_plan(&rs, &po, method, &budget, &pl);
	rs.platform = rs.plan_file ? NULL : po.platform;   /* a plan names its own */
	if (!ret && !(ret = make_job(&rs, &pl, l, &lf, &job)))
		have_job = 1;
	if (!ret)
		ret = check_before_launch(&job, rs.dry_run);
	if ((sig = hm_stop_signal_caught()) && (!ret || ret == 128 + sig)) {
		/* stopped before the launch: nothing runs, the record says so */
		hm_say_error("run: stopped by %s before the launch", strsignal(sig));
		ret = 128 + sig;
		if (results_fd >= 0)
			record_interrupted_early(&rs, l, &lf, have_job ? "preparing the job" : "planning",
						 sig, results_fd);
	} else if (!ret && rs.dry_run) {
		ret = print_command(&job);
	} else if (!ret) {
		ret = launch(&rs, &job, &lf, results_fd);
		launched = ret != HM_EXIT_NO_MPIRUN;    /* else the launcher never started */
	}
	if (have_job) {
		/* a temporary directory goes, unless it is the dry run's answer or
		 * a program ran that may have left files in it (the driver's
		 * result is all in the record) */
		if (!rs.keep_dir && ((!launched && ret) || (launched && !strcmp(job.profile->name, "driver"))))
			hm_job_remove(&job);
		else if (!rs.keep_dir && launched)
			hm_say_note("hetmap: run: the job's files are kept in %s\n", job.dir);
		hm_job_release(&job);
	}
	hm_placement_release(&pl);
	hm_program_time_release(&time);
	if (results_fd >= 0)
		close(results_fd);
	return hm_cli_finish(ret);
}

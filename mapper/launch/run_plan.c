/* mapper/launch/run_plan.c - one run of a plan (see run_plan.h). */
#include "run_plan.h"
#include "mpirun.h"
#include "placement_check.h"
#include "run_load.h"
#include "models/util/strbuild.h"
#include "program_mpi.h"
#include "program_time.h"
#include "record.h"
#include "results.h"
#include "models/util/say.h"
#include "models/util/read_file.h"
#include "models/platform/hostname.h"
#include "models/common/driver_limits.h"
#include "models/common/kernel_terms.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the job's output tells, line by line. */
#define TAIL_LINES 8

struct reading {
	const struct hm_app_profile *profile;
	struct hm_app_result result;
	struct hm_placement_check check;
	struct hm_program_time *time;   /* hetmap-time lines, --time-regex, MPI spans */
	struct hm_run_load load;        /* what other work took of the ranks' cores */
	int kernels_modeled;            /* the program printed HM_KERNELS_MARK */
	/* the output's last lines, said when a run whose output was not shown fails */
	char tail[TAIL_LINES][200];
	long lines;
};

/* hetmap's own lines among the program's (the probe's, the span
 * library's, the modeled kernels' mark): read, kept in the record, not
 * shown as the program's output (also with -q). */
static int own_line(const char *line)
{
	return strstr(line, HM_PROBE_MARK) || !strncmp(line, HM_SPAN_LINE, strlen(HM_SPAN_LINE)) ||
	       !strcmp(line, HM_KERNELS_MARK);
}

static void read_line(const char *line, void *ctx)
{
	struct reading *rd = ctx;

	if (!own_line(line))
		snprintf(rd->tail[rd->lines++ % TAIL_LINES], sizeof(rd->tail[0]), "%s", line);
	hm_run_load_line(&rd->load, line);
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
static void set_aside_old_output(const struct hm_run_session *s, const struct hm_job *j)
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
			hm_say_note("hetmap: %s: the earlier %s was moved to %s\n", s->cmd, path, old);
			return;
		}
		if (errno != EEXIST)
			break;
	}
	hm_say_error("%s: warning: cannot move the earlier %s aside; the profile may read it", s->cmd, path);
}

static void add_program_record(cJSON *rec, const struct hm_job *j, const struct reading *rd)
{
	cJSON *prog = cJSON_AddObjectToObject(rec, HM_REC_PROGRAM), *args = cJSON_CreateArray();
	const struct hm_app_result *r = &rd->result;

	cJSON_AddStringToObject(prog, HM_REC_PROG_PATH, j->program.v[0]);
	for (int i = 1; i < j->program.n; i++)
		cJSON_AddItemToArray(args, cJSON_CreateString(j->program.v[i]));
	cJSON_AddItemToObject(prog, "args", args);
	cJSON_AddStringToObject(prog, "profile", j->profile->name);
	cJSON_AddStringToObject(prog, HM_REC_PROG_VERDICT, hm_verdict_name(r->verdict));
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

/* 1 when the run went as planned: the placement check's verdict. */
static int placed_as_planned(const cJSON *rec)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, HM_REC_PLACEMENT),
							     "as_planned"));
}

static void add_measurement(cJSON *rec, const struct hm_job *j, const struct hm_app_result *r)
{
	cJSON_AddNumberToObject(rec, HM_REC_PREDICTED, j->pl->predicted);
	/* measured: what program_time.h settled on, and its timer's tick */
	if (r->seconds < 0) {
		cJSON_AddNullToObject(rec, HM_REC_MEASURED);
		return;
	}
	cJSON_AddNumberToObject(rec, HM_REC_MEASURED, r->seconds);
	cJSON_AddStringToObject(rec, HM_REC_MEASURED_BY, r->measured_by);
	if (r->tick > 0)
		cJSON_AddNumberToObject(rec, HM_REC_TICK, r->tick);
	if (hm_time_under_ticks(r))
		cJSON_AddStringToObject(rec, HM_REC_RATIO_WITHHELD, "under " HM_STR(HM_MIN_TICKS) " ticks of the program's timer");
	else if (j->pl->predicted > 0)
		cJSON_AddNumberToObject(rec, HM_REC_RATIO, r->seconds / j->pl->predicted);
}

static void add_simulation(cJSON *rec, const struct hm_run_session *s, const struct hm_job *j,
			   const struct reading *rd)
{
	cJSON_AddBoolToObject(rec, HM_REC_SIMULATED, j->l->simulated);
	if (!j->l->simulated)
		return;
	/* modeled, nothing was timed here: no speed of this machine's counts */
	if (j->times_nothing)
		cJSON_AddNullToObject(rec, HM_REC_SIM_HOST_SPEED);
	else
		cJSON_AddNumberToObject(rec, HM_REC_SIM_HOST_SPEED, j->host_speed);
	if (s->sim.platform)
		cJSON_AddStringToObject(rec, HM_REC_SIM_PLATFORM, s->sim.platform);
	cJSON_AddStringToObject(rec, HM_REC_KERNELS, hm_sim_kernels_name(rd->kernels_modeled ? s->sim.kernels
									  : HM_SIM_EXECUTED));
	if (j->modeled_kernels)         /* it moves the wall time (job.c) */
		cJSON_AddNumberToObject(rec, HM_REC_SIM_MMAP, j->mmap_threshold);
}

/* The record of a run that launched (or tried to); NULL: out of memory. */
static cJSON *make_record(const struct hm_run_session *s, const struct hm_job *j, const struct hm_argv *argv,
			  const struct hm_spawn_result *res, int exit_code, const struct reading *rd,
			  const cJSON *extra)
{
	cJSON *rec = hm_record_start(), *cmd = cJSON_CreateArray(), *e;
	const cJSON *plan_doc = j->pl->owner;
	const struct hm_app_result *r = &rd->result;

	if (!rec || !cmd) {
		cJSON_Delete(rec), cJSON_Delete(cmd);
		return NULL;
	}
	cJSON_AddItemToObject(rec, HM_REC_INPUTS, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(plan_doc, HM_REC_INPUTS), 1));
	cJSON_AddItemToObject(rec, HM_REC_PLAN, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(plan_doc, HM_REC_PLAN), 1));
	add_measurement(rec, j, r);
	add_program_record(rec, j, rd);
	cJSON_AddItemToObject(rec, HM_REC_CHECK, r->raw ? cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(r->raw, "check"), 1)
			      : cJSON_CreateNull());
	if (rd->check.host)
		cJSON_AddItemToObject(rec, HM_REC_PLACEMENT, hm_placement_check_json(&rd->check));
	cJSON_AddBoolToObject(rec, HM_REC_AS_PLANNED, rd->check.host && placed_as_planned(rec));
	if ((e = hm_run_load_json(&rd->load)))
		cJSON_AddItemToObject(rec, HM_REC_LOAD, e);
	add_simulation(rec, s, j, rd);
	hm_record_outcome(rec, j->l, &s->lf, res, exit_code);
	for (int i = 0; i < argv->n; i++)
		cJSON_AddItemToArray(cmd, cJSON_CreateString(argv->v[i]));
	cJSON_AddItemToObject(rec, HM_REC_COMMAND, cmd);
	cJSON_AddStringToObject(rec, HM_REC_JOB_DIR, j->dir);
	if (s->plan_file)
		cJSON_AddStringToObject(rec, HM_REC_PLAN_FILE, s->plan_file);
	cJSON_AddItemToObject(rec, HM_REC_DRIVER, r->raw ? cJSON_Duplicate(r->raw, 1) : cJSON_CreateNull());
	cJSON_ArrayForEach(e, extra)
		cJSON_AddItemToObject(rec, e->string, cJSON_Duplicate(e, 1));
	hm_record_shorten(rec, j->pl->c);
	return rec;
}

/* A program linked with another MPI than the launcher's would run as
 * singletons, each rank alone: refused, naming the MPI it needs (one
 * rank alone is the whole job, and runs). */
static int check_program_mpi(const struct hm_run_session *s, const struct hm_job *j)
{
	struct hm_program_mpi m;
	char via[160] = "";

	if (j->pl->D < 2 || !j->l->mpi_libraries || !hm_program_mpi(j->program.v[0], &m) ||
	    !strcmp(m.launcher->mpi_libraries, j->l->mpi_libraries))
		return HM_EXIT_OK;
	if (m.via[0])
		snprintf(via, sizeof(via), ", through %s", m.via);
	hm_say_error("%s: %s is linked with %s (%s%s), and the '%s' launcher starts %s programs: "
		     "its ranks would each run alone. Use --launcher %s%s", s->cmd, j->program.v[0], m.launcher->mpi,
		     m.library, via, j->l->name, j->l->mpi, m.launcher->runs ? m.launcher->name : "slurm",
		     m.launcher->runs ? " (or slurm inside an allocation)" : "");
	return HM_EXIT_USAGE;
}

/* What the driver, this machine or the allocation would refuse only once
 * the launcher runs: said before, with its reason. */
static int check_before_launch(const struct hm_run_session *s, const struct hm_job *j, int dry_run)
{
	const struct hm_placement *pl = j->pl;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char here[256] = "";
	struct hm_error err;
	int ret;

	if (!strcmp(j->profile->name, "driver") &&
	    (pl->n > HM_DRIVER_MAX_N || pl->r > HM_DRIVER_MAX_GRID_SIDE ||
	     pl->c > HM_DRIVER_MAX_GRID_SIDE || pl->b > HM_DRIVER_MAX_B)) {
		hm_say_error("%s: the driver takes n <= %d, b <= %d and r, c <= %d (the plan has "
			     "n = %ld, b = %d, %d x %d)", s->cmd, HM_DRIVER_MAX_N, HM_DRIVER_MAX_B,
			     HM_DRIVER_MAX_GRID_SIDE, pl->n, pl->b, pl->r, pl->c);
		return HM_EXIT_USAGE;
	}
	if (j->profile->process_bytes && j->profile->process_bytes(pl) > j->profile->max_process_bytes) {
		hm_say_error("%s: %s holds %.0f bytes a process (its compiled-in work array); this plan "
			     "needs at least %.0f: take a smaller n or more processes", s->cmd, j->program.v[0],
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
			hm_say_error("%s: rank %d is planned on cores %d..%d of %s, which has %ld", s->cmd,
				     k, r->slot, r->slot + r->cores - 1, r->host, cpus);
			return HM_EXIT_USAGE;
		}
	}
	if ((ret = check_program_mpi(s, j)))
		return ret;
	if (j->l->stacked_warning && pl->oversubscribed)
		hm_say_error("%s: warning: %s", s->cmd, j->l->stacked_warning);
	hm_error_clear(&err);
	if (!dry_run && j->l->check_hosts && j->l->check_hosts(pl, &err)) {
		hm_say_error("%s: %s: %s", s->cmd, j->l->name, err.msg);
		return HM_EXIT_USAGE;
	}
	return HM_EXIT_OK;
}

/* The exit code for what the program said, after the launcher's. A
 * program whose kernels were modeled computed nothing: whatever its check
 * said, there is nothing to judge. */
static int verdict_exit(const struct hm_run_session *s, const struct hm_job *j, struct hm_app_result *r,
			int kernels_modeled, int ret)
{
	if (kernels_modeled && r->found) {
		const cJSON *info = cJSON_GetObjectItemCaseSensitive(r->raw, "info");

		r->verdict = HM_VERDICT_MODELED;
		/* the modeled kernels pivot as a random matrix does (kernels.c):
		 * a zero pivot means this run's control flow is not a real one's */
		if (cJSON_IsNumber(info) && info->valuedouble > 0)
			fprintf(stderr, "hetmap: %s: warning: the modeled LU met a zero pivot at column %.0f: "
				"it skipped that column's swap and scaling, which a real run does (%s)\n", s->cmd,
				info->valuedouble, j->modeled_kernels && !j->times_nothing ?
				"--kernels modeled-as-executed pivots on the shared matrix's data" :
				"the program's kernels were not hetmap's");
	}
	else if (j->modeled_kernels && !ret && j->times_nothing) {
		/* its computation ran here untimed: the simulated time is its messages' */
		hm_say_error("%s: %s computed its kernels, and --kernels modeled times nothing on this "
			     "machine: its simulated time counts its messages only (link it with "
			     "libhetmap-smpi-kernels ahead of the BLAS, wrappers/README.md, or simulate it with "
			     "--kernels executed)", s->cmd, j->program.v[0]);
		return HM_EXIT_JOB_FAILED;
	} else if (j->modeled_kernels && !ret)
		fprintf(stderr, "hetmap: %s: warning: --kernels was asked but %s computed its kernels (link "
			"it with libhetmap-smpi-kernels ahead of the BLAS: wrappers/README.md)\n", s->cmd,
			j->program.v[0]);
	if (r->verdict == HM_VERDICT_FAILED || r->verdict == HM_VERDICT_SKIPPED) {
		hm_say_error("%s: %s %s the test%s%s", s->cmd, j->program.v[0],
			     r->verdict == HM_VERDICT_FAILED ? "failed" : "skipped",
			     r->note[0] ? ": " : "", r->note);
		return ret ? ret : HM_EXIT_CHECK_FAILED;
	}
	if (!ret && j->profile->read_line && !r->found) {
		hm_say_error("%s: the job succeeded but %s printed no result the '%s' profile reads%s%s", s->cmd,
			     j->program.v[0], j->profile->name, r->note[0] ? ": " : "", r->note);
		return HM_EXIT_JOB_FAILED;
	}
	return ret;
}

/* One record into the results file; -1 after a message when it cannot. */
static int write_record(const struct hm_run_session *s, const cJSON *rec)
{
	struct hm_error err;

	hm_error_clear(&err);
	snprintf(err.file, sizeof(err.file), "%s", s->results);
	if (!rec) {
		hm_say_error("%s: out of memory: no record written", s->cmd);
		return -1;
	}
	if (hm_results_append(s->results_fd, rec, &err)) {
		hm_say_report(&err);
		return -1;
	}
	if (s->record_on_stdout) {     /* run -f json: the record on standard output too */
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

static void append_record(const struct hm_run_session *s, const cJSON *rec, int *ret,
			  const struct hm_job *j, const struct reading *rd)
{
	const char *placement;

	if (write_record(s, rec)) {
		if (!*ret)
			*ret = HM_EXIT_OUTPUT;
		return;
	}
	if (s->quiet_success)
		return;
	placement = rd->kernels_modeled ? "simulated, kernels modeled (no residual to check)" :
		    j->l->simulated ? "simulated" : s->no_check ? "not checked" :
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, HM_REC_AS_PLANNED))
		    ? "as planned" : "NOT as planned (see the record)";
	if (rd->result.seconds >= 0 && !hm_time_under_ticks(&rd->result))
		fprintf(stderr, "hetmap: %s: predicted %.6g s, measured %.6g s (ratio %.3f, by %s); "
			"placement %s; record appended to %s\n", s->cmd, j->pl->predicted, rd->result.seconds,
			j->pl->predicted > 0 ? rd->result.seconds / j->pl->predicted : 0,
			measured_by_text(j, &rd->result), placement, s->results);
	else if (rd->result.seconds >= 0)
		fprintf(stderr, "hetmap: %s: predicted %.6g s, measured %.6g s by %s, under %d ticks of its "
			"timer (%g s): no ratio; placement %s; record appended to %s\n", s->cmd, j->pl->predicted,
			rd->result.seconds, measured_by_text(j, &rd->result), HM_MIN_TICKS, rd->result.tick,
			placement, s->results);
	else if (*ret)          /* the job failed: said above, no advice about time */
		fprintf(stderr, "hetmap: %s: no measured time, the job failed; placement %s; record appended "
			"to %s\n", s->cmd, placement, s->results);
	else
		fprintf(stderr, "hetmap: %s: no measured time (print a line '" HM_TIME_LINE " SECONDS', or "
			"give --time-regex); placement %s; record appended to %s\n", s->cmd, placement, s->results);
}

/* A time printed as 0 ("0.00": below the program's resolution) or as
 * infinite measures nothing: no measured_s, no ratio, no rate. */
static void no_measurement(const struct hm_run_session *s, const struct hm_job *j, struct hm_app_result *r)
{
	if (r->seconds != 0 && !isinf(r->seconds))
		return;
	fprintf(stderr, "hetmap: %s: %s printed its time as %g (below its resolution): no measurement "
		"recorded\n", s->cmd, j->program.v[0], r->seconds);
	if (!r->note[0])
		snprintf(r->note, sizeof(r->note), "time printed as %g: below the program's resolution", r->seconds);
	r->seconds = r->gflops = -1;
}

void hm_run_record_interrupted(const struct hm_run_session *s, const char *stage, int sig)
{
	cJSON *rec;

	if (s->results_fd < 0)
		return;
	rec = hm_record_interrupted(s->l, &s->lf, stage, sig, s->plan_file);
	if (!write_record(s, rec))
		fprintf(stderr, "hetmap: %s: record appended to %s\n", s->cmd, s->results);
	cJSON_Delete(rec);
}

/* The last lines of a job whose output was not shown, after it failed. */
static void say_tail(const struct hm_run_session *s, const struct reading *rd)
{
	long first = rd->lines > TAIL_LINES ? rd->lines - TAIL_LINES : 0;

	if (!rd->lines)
		return;
	fprintf(stderr, "hetmap: %s: the job's last lines of output:\n", s->cmd);
	for (long k = first; k < rd->lines; k++)
		fprintf(stderr, "  %s\n", rd->tail[k % TAIL_LINES]);
}

/* After the job failed: the launcher's failure when no rank reported
 * (the probe reports each rank as it starts), else the program's. */
static void say_who_failed(const struct hm_run_session *s, const struct hm_job *j, const struct reading *rd)
{
	if (!s->no_check && !rd->check.reports)
		hm_say_error("%s: no rank started: %s failed before the program ran (its own message is above)",
			     s->cmd, s->lf.program);
	else
		hm_say_error("%s: the program %s failed (its exit status, or the launcher's, is above)", s->cmd,
			     j->program.v[0]);
}

/* Run, read, record. */
static int launch(const struct hm_run_session *s, struct hm_job *j, const cJSON *extra,
		  struct hm_run_outcome *out)
{
	char *line = NULL, *launcher_var = hm_job_launcher_variable(j);
	const char *env[] = { hm_rank_environment[0], launcher_var, NULL };  /* the launcher's own */
	struct hm_argv a = { 0 };
	struct hm_program_time time;
	struct reading rd = { .profile = j->profile, .time = &time };
	/* ranks that are threads of the launcher: its environment is theirs */
	int shown = !s->quiet_program || hm_verbosity > 1;     /* -v */
	struct hm_spawn_opts so = { .timeout = s->timeout, .grace = 5,
				    .env = j->l->ranks_share_env ? (const char *const *)j->env.v : env,
				    .echo = !shown ? NULL : s->output_to_stderr ? stderr : stdout,
				    .hidden = own_line, .on_line = read_line, .ctx = &rd, .cwd = j->dir };
	struct hm_spawn_result res;
	struct hm_error err;
	int ret;

	hm_app_result_init(&rd.result);
	hm_run_load_init(&rd.load);
	hm_error_clear(&err);
	/* each run reads its own lines: the expression was checked at the start */
	if (hm_program_time_init(&time, s->time_regex, &err)) {
		hm_say_error("%s: %s", s->cmd, err.msg);
		hm_app_result_release(&rd.result);
		free(launcher_var);
		return HM_EXIT_USAGE;
	}
	hm_job_command(j, s->job.binder, &a);
	if (a.failed || !(line = hm_argv_quoted(&a)) ||
	    (!s->no_check && hm_placement_check_init(&rd.check, j->pl, j->l->binds))) {
		hm_say_error("%s: out of memory", s->cmd);
		ret = HM_EXIT_FAILURE;
		goto out;
	}
	(shown ? hm_say_note : hm_say_detail)("hetmap: %s: in %s: %s\n", s->cmd, j->dir, line);
	if (j->profile->caveat)
		hm_say_note("hetmap: %s: note: %s\n", s->cmd, j->profile->caveat);
	set_aside_old_output(s, j);
	if ((ret = hm_mpirun_spawn(s->cmd, "the job", a.v, &so, &res, s->lf.program)) == HM_EXIT_FAILURE)
		goto out;
	out->launched = ret != HM_EXIT_NO_MPIRUN;       /* else the launcher never started */
	if (ret == HM_EXIT_JOB_FAILED)
		say_who_failed(s, j, &rd);
	if (ret && !shown)
		say_tail(s, &rd);
	read_output_file(&rd, j->dir);
	hm_program_time_settle(rd.time, &rd.result);
	if (s->time_regex && strcmp(rd.result.measured_by, "time-regex"))
		fprintf(stderr, "hetmap: %s: warning: --time-regex matched no line of the program's output "
			"(or no number in its group): %s\n", s->cmd, rd.result.seconds >= 0 ?
			"the time below is another's" : "no time from it");
	no_measurement(s, j, &rd.result);
	if (rd.load.largest > HM_RUN_LOAD_WARN && !j->l->simulated)
		fprintf(stderr, "hetmap: %s: warning: other work held the ranks' cores up to %.0f %% of the run "
			"(the record's 'load'): the measured time counts its turns, the prediction does not\n",
			s->cmd, 100 * rd.load.largest);
	ret = verdict_exit(s, j, &rd.result, rd.kernels_modeled, ret);
	out->measured = rd.result.seconds;
	out->measured_by = rd.result.seconds >= 0 ? rd.result.measured_by : "";
	{
		cJSON *rec = make_record(s, j, &a, &res, ret, &rd, extra);

		append_record(s, rec, &ret, j, &rd);
		cJSON_Delete(rec);
	}
out:
	hm_placement_check_release(&rd.check);
	hm_app_result_release(&rd.result);
	hm_program_time_release(&time);
	free(line);
	free(launcher_var);
	hm_argv_free(&a);
	return ret;
}

/* A temporary launch directory after the job: kept when it failed (to
 * look into), removed when it succeeded, never launched or was stopped by
 * a signal (the user's), unless the program left files of its own there;
 * the dry run's is its answer. */
static void keep_or_remove(const struct hm_run_session *s, const struct hm_job *j, struct hm_run_outcome *out,
			   int ret)
{
	if (s->keep_dir || (!out->launched && !ret))
		return;
	if (out->launched && ret && ret < 128) {
		hm_say_error("%s: the failed job's files are kept in %s", s->cmd, j->dir);
	} else if (hm_job_remove(j)) {
		hm_say_note("hetmap: %s: the program's own files are kept in %s\n", s->cmd, j->dir);
	} else {
		out->job_dir[0] = '\0';
	}
}

/* A dry run: the command on stdout (as run.sh has it, with absolute
 * paths); the directory stays for it. */
static int print_command(const struct hm_run_session *s, const struct hm_job *j)
{
	struct hm_argv a = { 0 };
	char *line;

	hm_job_command(j, NULL, &a);
	if (a.failed || !(line = hm_argv_quoted(&a))) {
		hm_argv_free(&a);
		hm_say_error("%s: out of memory", s->cmd);
		return HM_EXIT_FAILURE;
	}
	printf("%s\n", line);
	hm_say_note("hetmap: %s: launch directory %s written (run it with %s/run.sh)\n",
		    s->cmd, j->dir, j->dir);
	free(line);
	hm_argv_free(&a);
	return HM_EXIT_OK;
}

/* The launch directory: s->keep_dir, or a fresh one under $TMPDIR. */
static int make_job(struct hm_run_session *s, struct hm_placement *pl, int dry_run, struct hm_job *j)
{
	struct hm_job_request rq = s->job;
	char tmp[4096], *xml = NULL;
	struct hm_error err;
	int ret;

	if (s->l->simulated &&
	    (ret = hm_sim_setup(s->cmd, &s->sim, s->platform, pl, dry_run, &xml, &s->host_speed)))
		return ret;
	rq.pl = pl;
	hm_sim_request(&rq, &s->sim, s->l, xml, s->host_speed);
	rq.launcher_program = s->lf.program, rq.launcher_major = s->lf.major;
	if (s->keep_dir)
		rq.dir = s->keep_dir;
	else if ((ret = hm_mpirun_temp_dir(s->cmd, tmp, sizeof(tmp)))) {
		free(xml);
		return ret;
	} else {
		rq.dir = tmp;
	}
	hm_error_clear(&err);
	ret = hm_job_prepare(j, &rq, &err);
	free(xml);
	if (ret) {
		hm_say_error("%s: %s", s->cmd, err.msg);
		if (!s->keep_dir)
			rmdir(tmp);
		return ret == HM_JOB_NO_DIR ? HM_EXIT_OUTPUT : HM_EXIT_USAGE;
	}
	if (!s->keep_dir)
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

int hm_run_plan(struct hm_run_session *s, struct hm_placement *pl, const cJSON *extra, int dry_run,
		struct hm_run_outcome *out)
{
	struct hm_job job;
	int ret, sig, have_job = 0;

	memset(out, 0, sizeof(*out));
	out->measured = -1;
	out->measured_by = "";
	if (!(ret = make_job(s, pl, dry_run, &job))) {
		have_job = 1;
		snprintf(out->job_dir, sizeof(out->job_dir), "%s", job.dir);
		ret = check_before_launch(s, &job, dry_run);
	}
	if ((sig = hm_stop_signal_caught()) && (!ret || ret == 128 + sig)) {
		/* stopped before the launch: nothing runs, the record says so */
		hm_say_error("%s: stopped by %s before the launch", s->cmd, strsignal(sig));
		ret = 128 + sig;
		hm_run_record_interrupted(s, "preparing the job", sig);
	} else if (!ret && dry_run) {
		ret = print_command(s, &job);
	} else if (!ret) {
		ret = launch(s, &job, extra, out);
	}
	if (have_job) {
		keep_or_remove(s, &job, out, ret);
		hm_job_release(&job);
	}
	return out->exit_code = ret;
}

/* mapper/launch/job.c - one launch under a plan (see job.h). */
#define _GNU_SOURCE /* asprintf */
#include "job.h"
#include "spawn.h"
#include "launcher_detect.h"
#include "models/util/atomic_file.h"
#include "models/util/decimal.h"
#include "models/util/read_file.h"
#include "models/platform/hostname.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_TEMPLATE_BYTES = 1 << 20 };

/* Names the launch directory keeps for itself. */
static int reserved_name(const struct hm_job *j, const char *name)
{
	return !strcmp(name, "plan.json") || !strcmp(name, "run.sh") || !strcmp(name, j->l->file_name) ||
	       !strcmp(name, HM_RANK_CPUS_FILE) || !strcmp(name, HM_RANK_THREADS_FILE) ||
	       (j->l->batch_file && !strcmp(name, j->l->batch_file));
}

static int bad_file_name(const char *name)
{
	return !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	       strlen(name) > 255;
}

/* A file for the directory, its text taken over (freed on failure). */
static int add_file(struct hm_job *j, const char *name, char *text, const char *what, struct hm_error *err)
{
	if (!(j->inputs[j->ninputs].name = strdup(name))) {
		free(text);
		return hm_error_set(err, "out of memory (%s)", what);
	}
	j->inputs[j->ninputs++].text = text;
	return 0;
}

static int check_input_name(const struct hm_job *j, const char *name, const char *what, struct hm_error *err)
{
	if (bad_file_name(name) || reserved_name(j, name) ||
	    (j->l->platform_file && !strcmp(name, j->l->platform_file)))
		return hm_error_set(err, "%s: '%s' cannot be an input file's name in the launch directory "
				    "(a plain file name, not plan.json, run.sh or %s)", what, name,
				    j->l->file_name);
	for (int i = 0; i < j->ninputs; i++)
		if (!strcmp(j->inputs[i].name, name))
			return hm_error_set(err, "%s: input file '%s' is given twice", what, name);
	return 0;
}

static int add_input(struct hm_job *j, const char *name, const char *template, const char *what,
		     struct hm_error *err)
{
	struct hm_run_values v = { j->pl, 0, j->dir };
	char *text;

	if (check_input_name(j, name, what, err))
		return -1;
	if (!(text = hm_render(template, &v, what, err)))
		return -1;
	return add_file(j, name, text, what, err);
}

/* --input TEMPLATE[:NAME]: NAME defaults to the template's base name. */
static int add_user_input(struct hm_job *j, const char *spec, struct hm_error *err)
{
	char path[4096], what[4200];
	const char *colon = strrchr(spec, ':'), *name;
	enum hm_read_status st;
	size_t len;
	char *template;
	int ret;

	/* TEMPLATE:NAME at the last ':', unless the whole names a file */
	if (colon && access(spec, F_OK)) {
		snprintf(path, sizeof(path), "%.*s", (int)(colon - spec), spec);
		name = colon + 1;
	} else {
		snprintf(path, sizeof(path), "%s", spec);
		name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	}
	snprintf(what, sizeof(what), "--input %s", spec);
	if (check_input_name(j, name, what, err))
		return -1;
	if (!(template = hm_read_file(path, MAX_TEMPLATE_BYTES, &len, &st))) {
		char why[128];

		return hm_error_set(err, "%s: %s", what, hm_read_failure(st, MAX_TEMPLATE_BYTES, why, sizeof(why)));
	}
	if (strlen(template) != len) {
		free(template);
		return hm_error_set(err, "%s: the template holds a NUL byte (a text file is expected)", what);
	}
	ret = add_input(j, name, template, what, err);
	free(template);
	return ret;
}

/* The program: its path made absolute when it names a file (the job runs
 * in its own directory), its arguments rendered. */
/* The program and its arguments, rendered, into j->program. 0, or -1
 * with 'err' set. */
static int set_program(struct hm_job *j, const struct hm_job_request *rq, struct hm_error *err)
{
	struct hm_run_values v = { j->pl, rq->seed, j->dir };
	struct hm_argv args = { 0 };
	char buf[PATH_MAX], self[PATH_MAX], found[PATH_MAX];
	const char *program;
	int ret = 0;

	if (rq->nprogram > 0) {
		program = rq->program[0];
		if (!*program)
			return hm_error_set(err, "the program's name is empty");
		if (program[0] == '-')
			return hm_error_set(err, "program '%s': a name that starts with '-' would reach the "
					    "launcher as an option (write ./%s)", program, program);
		/* found as exec finds it, once: the checks before the launch read the
		 * file the launcher will run */
		if (!strchr(program, '/') && rq->program_here) {
			if (hm_program_path(program, found, sizeof(found)) != HM_PROGRAM_OK)
				return hm_error_set(err, "program '%s': not found in PATH (give its path)", program);
			program = found;
		}
	} else {
		char name[64];

		snprintf(name, sizeof(name), "hetmap-driver%s", j->l->flavour);
		self[0] = '\0';
		/* files written for later (plan --launcher) name where it will be */
		if (!(program = hm_helper_program(name, self, sizeof(self), err)) &&
		    (rq->program_here || !self[0]))
			return -1;
		program = self;
		hm_error_clear(err);
	}
	if (strchr(program, '/') && rq->program_here) {
		int status = hm_program_path(program, buf, sizeof(buf));

		if (status != HM_PROGRAM_OK)
			return hm_error_set(err, "program '%s': %s", program, hm_program_path_error(status));
		if (!realpath(program, buf))
			return hm_error_set(err, "program '%s': %s", program, strerror(errno));
		program = buf;
	} else if (strchr(program, '/') && program[0] != '/') {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd)))
			return hm_error_set(err, "program '%s': %s", program, strerror(errno));
		snprintf(buf, sizeof(buf), "%s/%s", cwd, program + (strncmp(program, "./", 2) ? 0 : 2));
		program = buf;
	}
	/* its arguments only now: every return above leaves nothing allocated */
	if (rq->nprogram > 0) {
		for (int i = 1; i < rq->nprogram; i++)
			hm_argv_add(&args, rq->program[i]);
	} else {
		hm_argv_split(&args, j->profile->default_args);
		if (rq->modeled_kernels)
			hm_argv_add(&args, "--modeled");
	}
	hm_argv_add(&j->program, program);
	for (int i = 0; i < args.n && !ret; i++) {
		char what[64], *word;

		snprintf(what, sizeof(what), "program argument %d", i + 1);
		if (!(word = hm_render(args.v[i], &v, what, err)))
			ret = -1;
		else
			hm_argv_add(&j->program, word);
		free(word);
	}
	if (!ret && (j->program.failed || args.failed))
		ret = hm_error_set(err, "out of memory");
	hm_argv_free(&args);
	return ret;
}

static int make_dir(struct hm_job *j, const char *dir, struct hm_error *err)
{
	struct stat st;

	if (mkdir(dir, 0777) == 0)
		j->made_dir = 1;
	else if (errno != EEXIST)
		return hm_error_set(err, "launch directory '%s': %s", dir, strerror(errno));
	else if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return hm_error_set(err, "launch directory '%s': exists and is not a directory", dir);
	if (!realpath(dir, j->dir)) {
		hm_error_set(err, "launch directory '%s': %s", dir, strerror(errno));
		if (j->made_dir)
			rmdir(dir);
		j->made_dir = 0;
		return -1;
	}
	return 0;
}

/* Modeled kernels keep the simulator's memory from growing with the
 * matrix (wrappers/README.md, "Modeled kernels"): the built-in driver
 * shares its matrices itself; another program's big allocations are
 * shared by SMPI when at least half a rank's share of the matrix (never
 * below 8 MiB, so that BLACS's message buffers, header and data in one
 * block, stay private). All ranks are threads of one process, whose
 * allocator would keep every freed buffer: blocks from 1 MiB up are given
 * back at once (measured, LU n = 20000 on 320 ranks: 2.4 GB -> 1.1 GB).
 * That costs time where messages pass 1 MiB (a fresh mapping faulted in
 * page by page): a user's own MALLOC_MMAP_THRESHOLD_ wins, e.g. 4 MiB for
 * LU n = 50000 on 320 ranks in 10.3 minutes instead of 12.1 at 2.1x the
 * memory (3.5 GB; experiments/README.md, "At scale"). */
#define MMAP_THRESHOLD_VARIABLE "MALLOC_MMAP_THRESHOLD_"
#define MMAP_THRESHOLD_DEFAULT "1048576"

static int modeled_kernels(struct hm_job *j, const struct hm_job_request *rq, struct hm_error *err)
{
	double share = 8.0 * (double)j->pl->n * (double)j->pl->n / j->pl->D / 2;
	const char *threshold = getenv(MMAP_THRESHOLD_VARIABLE);

	if (!threshold)
		threshold = MMAP_THRESHOLD_DEFAULT;
	else if (!hm_is_digits(threshold, 12))
		return hm_error_set(err, "%s='%s': give a number of bytes (hetmap's default for modeled "
				    "kernels: %s)", MMAP_THRESHOLD_VARIABLE, threshold, MMAP_THRESHOLD_DEFAULT);
	hm_argv_addf(&j->env, "%s=%s", MMAP_THRESHOLD_VARIABLE, threshold);
	j->mmap_threshold = strtod(threshold, NULL);
	if (rq->nprogram > 0)
		j->shared_malloc_bytes = share > 8 << 20 ? share : 8 << 20;
	j->modeled_kernels = 1;
	return 0;
}

/* A launcher that binds by one CPU list for every host cannot name the
 * cores of hosts whose lists differ: then each rank binds itself, started
 * through the binder, to its line of HM_RANK_CPUS_FILE. Ranks of
 * different thread counts each set their own, through the binder, from
 * their line of HM_RANK_THREADS_FILE (hm_job_prepare gives ranks of one
 * count theirs in the environment of all). 'threads': the ranks' one count, or
 * 0 where they differ. */
static int bind_ranks_themselves(struct hm_job *j, const struct hm_job_request *rq, int threads,
				 struct hm_error *err)
{
	char map[8192];

	if (!threads) {
		if (!rq->binder)
			return hm_error_set(err, "the plan's ranks have different thread counts, which each "
					    "sets through hetmap-probe: not with --no-placement-check");
		j->binder = rq->binder;
		hm_argv_addf(&j->env, "%s=%s/%s", HM_RANK_THREADS_VARIABLE, j->dir, HM_RANK_THREADS_FILE);
		if (add_file(j, HM_RANK_THREADS_FILE, hm_rank_threads_text(j->pl), "the ranks' threads", err))
			return -1;
	}
	if (!rq->binder || j->l->binds != HM_BINDS_ONE_LIST ||
	    hm_common_core_map(j->pl, j->l->set_form, map, sizeof(map)))
		return 0;
	j->binder = rq->binder;
	hm_argv_addf(&j->env, "%s=%s/%s", HM_RANK_CPUS_VARIABLE, j->dir, HM_RANK_CPUS_FILE);
	return add_file(j, HM_RANK_CPUS_FILE, hm_rank_cpus_text(j->pl), "the ranks' CPUs", err);
}

#define BATCH_RULE HM_STR(HM_BATCH_MARGIN) " times the prediction\n# and " HM_STR(HM_BATCH_START_MINUTES) " to start"

/* The batch job's time limit: the one given, else the rule's, in whole minutes. */
static int batch_minutes(double predicted, int given)
{
	double m = ceil(HM_BATCH_MARGIN * predicted / 60 + HM_BATCH_START_MINUTES);

	return given > 0 ? given : m < 1e6 ? (int)m : 1000000;
}

/* 'path' as named from anywhere: relative ones from here (a batch job
 * starts in the launch directory). */
static void add_absolute(struct hm_argv *a, const char *prefix, const char *path)
{
	char here[PATH_MAX];

	while (path[0] == '.' && path[1] == '/')
		path += 2;
	if (path[0] == '/' || !getcwd(here, sizeof(here)))
		hm_argv_addf(a, "%s%s", prefix, path);
	else
		hm_argv_addf(a, "%s%s/%s", prefix, here, path);
}

/* The batch script's command: this hetmap, 'run --plan' of the launch
 * directory's plan there, with the request's launcher, options, inputs and
 * program as given (run renders them again on the nodes). */
static int batch_command(struct hm_job *j, const struct hm_job_request *rq, struct hm_error *err)
{
	char self[PATH_MAX + 1];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct hm_argv *a = &j->batch_run;

	if (n <= 0 || (size_t)n >= sizeof(self) - 1)
		return hm_error_set(err, "hetmap cannot read its own path (/proc/self/exe) for %s", j->l->batch_file);
	self[n] = '\0';
	hm_argv_add(a, self);
	hm_argv_add(a, "run");
	hm_argv_add(a, "--plan");
	hm_argv_addf(a, "%s/plan.json", j->dir);
	hm_argv_add(a, "-o");
	hm_argv_add(a, j->dir);
	hm_argv_add(a, "--launcher");
	hm_argv_add(a, j->l->name);
	if (rq->launcher_args) {
		hm_argv_add(a, "--launcher-args");
		hm_argv_add(a, rq->launcher_args);
	}
	if (rq->profile) {
		hm_argv_add(a, "--profile");
		hm_argv_add(a, rq->profile);
	}
	if (rq->column_major >= 0) {
		hm_argv_add(a, "--grid-order");
		hm_argv_add(a, rq->column_major ? "column" : "row");
	}
	for (int i = 0; i < rq->ninputs; i++) {
		hm_argv_add(a, "--input");
		add_absolute(a, "", rq->inputs[i]);
	}
	if (rq->nprogram) {
		hm_argv_add(a, "--");
		/* a program named by a path: from anywhere; a bare name: from PATH */
		if (strchr(rq->program[0], '/'))
			add_absolute(a, "", rq->program[0]);
		else
			hm_argv_add(a, rq->program[0]);
		for (int i = 1; i < rq->nprogram; i++)
			hm_argv_add(a, rq->program[i]);
	}
	j->batch_given = rq->batch_minutes > 0;
	j->batch_minutes = batch_minutes(j->pl->predicted, rq->batch_minutes);
	return 0;
}

int hm_job_prepare(struct hm_job *j, const struct hm_job_request *rq, struct hm_error *err)
{
	struct hm_run_values v = { rq->pl, rq->seed, NULL };
	int column_major, threads;

	memset(j, 0, sizeof(*j));
	j->pl = rq->pl, j->l = rq->l;
	j->launcher_program = rq->launcher_program, j->launcher_major = rq->launcher_major;
	if (rq->profile && !(j->profile = hm_app_profile_find(rq->profile))) {
		char names[128];

		return hm_error_set(err, "unknown profile '%s' (known: %s)", rq->profile,
				    hm_app_profile_names(names, sizeof(names)));
	}
	if (j->profile && !rq->nprogram && j->profile->default_args == NULL)
		return hm_error_set(err, "profile '%s' needs its program after '--'", j->profile->name);
	if (!j->profile)
		j->profile = rq->nprogram > 0 ? hm_app_profile_for(rq->program[0]) :
			     hm_app_profile_find("driver");
	column_major = rq->column_major >= 0 ? rq->column_major : j->profile->column_major;
	if (column_major && !j->pl->column_major && hm_placement_column_major(j->pl))
		return hm_error_set(err, "out of memory");
	if (make_dir(j, rq->dir, err))
		return HM_JOB_NO_DIR;
	v.dir = j->dir;
	if (set_program(j, rq, err))
		goto fail;
	/* a simulator's ranks run on one thread: their simulated hosts carry
	 * the threads' speed (sim_setup.c) */
	threads = j->l->simulated ? 1 : hm_placement_threads(j->pl);
	hm_thread_environment(&j->env, threads ? threads : 1);
	hm_plan_environment(&j->env, &v);
	hm_argv_split(&j->launcher_args, rq->launcher_args);
	for (int i = 0; i < rq->ninputs; i++)
		if (add_user_input(j, rq->inputs[i], err))
			goto fail;
	if (j->profile->input_name) {
		int given = 0;

		for (int i = 0; i < j->ninputs; i++)
			given |= !strcmp(j->inputs[i].name, j->profile->input_name);
		if (!given && add_input(j, j->profile->input_name, j->profile->input_template,
					j->profile->name, err))
			goto fail;
	}
	if (j->l->platform_file) {
		char *text = rq->platform_text ? strdup(rq->platform_text) : NULL;

		if (rq->modeled_kernels && modeled_kernels(j, rq, err)) {
			free(text);
			goto fail;
		}
		j->host_speed = rq->host_speed;
		j->times_nothing = rq->times_nothing;
		if (!rq->platform_text || !(rq->host_speed > 0)) {
			hm_error_set(err, "launcher %s simulates: it needs a platform and this machine's speed",
				     j->l->name);
			free(text);
			goto fail;
		}
		if (add_file(j, j->l->platform_file, text, "the simulated platform", err))
			goto fail;
	}
	if (bind_ranks_themselves(j, rq, threads, err))
		goto fail;
	if (j->l->batch_file && batch_command(j, rq, err))
		goto fail;
	if (j->env.failed || j->launcher_args.failed || j->batch_run.failed) {
		hm_error_set(err, "out of memory");
		goto fail;
	}
	return 0;
fail:
	if (j->made_dir)
		rmdir(j->dir);
	hm_job_release(j);
	return -1;
}

/* The launcher program and its options; its file (and a simulator's
 * platform) named by absolute paths in the job's directory. */
static void launcher_command(const struct hm_job *j, struct hm_argv *a)
{
	char file[4400], platform[4400];
	struct hm_launch x = { j->pl, file, (const char *const *)j->env.v, j->launcher_major,
			       j->l->platform_file ? platform : NULL, j->host_speed, j->shared_malloc_bytes,
			       j->times_nothing, j->binder != NULL };

	snprintf(file, sizeof(file), "%s/%s", j->dir, j->l->file_name);
	if (j->l->platform_file)
		snprintf(platform, sizeof(platform), "%s/%s", j->dir, j->l->platform_file);
	hm_argv_add(a, j->launcher_program);
	j->l->options(a, &x);
	for (int i = 0; i < j->launcher_args.n; i++)
		hm_argv_add(a, j->launcher_args.v[i]);
}

void hm_job_command(const struct hm_job *j, const char *probe, struct hm_argv *a)
{
	launcher_command(j, a);
	if (probe || j->binder)
		hm_argv_add(a, probe ? probe : j->binder);
	for (int i = 0; i < j->program.n; i++)
		hm_argv_add(a, j->program.v[i]);
}

char *hm_job_launcher_variable(const struct hm_job *j)
{
	char *s = NULL;

	if (j->l->file_variable &&
	    asprintf(&s, "%s=%s/%s", j->l->file_variable, j->dir, j->l->file_name) < 0)
		s = NULL;
	return s;
}

/* One word of a script, quoted for the shell. */
static void shell_word(struct hm_text *t, const char *w)
{
	char *q = malloc(4 * strlen(w) + 3);

	if (!q) {
		t->failed = 1;
		return;
	}
	hm_shell_quote(q, 0, w);
	hm_text_addf(t, "%s", q);
	free(q);
}

/* One word of run.sh, quoted, with every mention of the job's directory
 * (a word of its own, a launcher file inside an option's value, {dir}
 * inside an argument) made "$here", so that the script travels. */
static void script_word(struct hm_text *t, const char *dir, const char *w)
{
	size_t n = strlen(dir);
	const char *p, *from = w;

	if (!*w)
		hm_text_addf(t, "''");
	while (*from) {
		for (p = strstr(from, dir); p && p[n] && p[n] != '/'; p = strstr(p + 1, dir))
			;
		if (p != from) {
			size_t len = p ? (size_t)(p - from) : strlen(from);
			char *part = strndup(from, len);

			if (!part) {
				t->failed = 1;
				break;
			}
			shell_word(t, part);
			free(part);
			if (!p)
				break;
		}
		hm_text_addf(t, "\"$here\"");
		from = p + n;
	}
}

/* run.sh: the command, from wherever the directory is; no probe, unless
 * the ranks bind themselves through it. */
static char *script_text(const struct hm_job *j)
{
	struct hm_text t = { 0 };
	struct hm_argv a = { 0 };

	hm_job_command(j, NULL, &a);
	hm_text_addf(&t, "#!/bin/sh\n"
		     "# Written by hetmap: run the plan in plan.json (%s, n = %ld, b = %d, %d x %d,\n"
		     "# %d processes) with launcher '%s'%s, program profile '%s'.\n"
		     "# The files are found beside this script, wherever the directory is\n"
		     "# copied; the launcher and the program are named as where it was written.\n"
		     /* not $(dirname ...) nor a bare $(pwd): command substitution
		      * drops the trailing newlines a directory's name may end in */
		     "case $0 in */*) here=${0%%/*} ;; *) here=. ;; esac\n"
		     "here=$(CDPATH= cd -- \"${here:-/}\" && pwd && echo x) || exit 1\n"
		     "here=${here%%?x}\n"
		     "cd -- \"$here\" || exit 1\n",
		     j->pl->routine, j->pl->n, j->pl->b, j->pl->r, j->pl->c, j->pl->D, j->l->name,
		     j->pl->column_major ? " (ranks in column-major grid order)" : "",
		     j->profile->name);
	if (j->l->file_variable) {
		char file[4400];

		snprintf(file, sizeof(file), "%s/%s", j->dir, j->l->file_name);
		hm_text_addf(&t, "%s=", j->l->file_variable);
		script_word(&t, j->dir, file);
		hm_text_addf(&t, "; export %s\n", j->l->file_variable);
	}
	/* ranks that are threads of the launcher: its environment is theirs */
	for (int i = 0; j->l->ranks_share_env && i < j->env.n; i++) {
		hm_text_addf(&t, "export ");
		script_word(&t, j->dir, j->env.v[i]);
		hm_text_addf(&t, "\n");
	}
	hm_text_addf(&t, "exec");
	for (int i = 0; i < a.n; i++) {
		hm_text_addf(&t, " ");
		script_word(&t, j->dir, a.v[i]);
	}
	hm_text_addf(&t, "\n");
	if (a.failed)
		t.failed = 1;
	hm_argv_free(&a);
	return hm_text_done(&t);
}

/* This machine's name as Slurm names its node (short), into here; "" when
 * it has none. */
static void slurm_here(char *here, size_t size)
{
	if (gethostname(here, size))
		here[0] = '\0';
	here[size - 1] = '\0';
	here[strcspn(here, ".")] = '\0';        /* Slurm's node names are short */
}

/* A host as Slurm names its node: this machine's own name ('here') for the
 * names of this machine ("localhost": what a calibration of it calls it). */
static const char *slurm_node_name(const char *host, const char *here)
{
	return here[0] && hm_host_names(host, here) ? here : host;
}

/* sbatch.sh (launchers with a batch_file): a batch job asking the plan's
 * hosts whole, for a time limit from the prediction, that runs the plan
 * with 'hetmap run --plan' (so that the run is recorded; run.sh alone
 * launches without a record). Slurm runs a copy of the script, so the
 * directory is named as where it was written. */
static char *batch_text(const struct hm_job *j)
{
	struct hm_text t = { 0 };
	char *seen = calloc((size_t)j->pl->nr_hosts + 1, 1), here[256];
	const char *sep = "";

	if (!seen)
		return NULL;
	slurm_here(here, sizeof(here));
	hm_text_addf(&t, "#!/bin/sh\n"
		     "# Written by hetmap: submit with 'sbatch sbatch.sh' (or sbatch DIR/sbatch.sh);\n"
		     "# it runs the plan in the launch directory (named below), %s n = %ld, b = %d,\n"
		     "# %d x %d, on the plan's nodes, whole, through 'hetmap run --plan', which appends\n"
		     "# the run's record to the results file (HETMAP_RESULTS, the configuration's, else\n"
		     "# hetmap-results.jsonl in the launch directory).\n"
		     "# The time limit is %s.\n"
		     "#SBATCH --job-name=hetmap-%s-%ld\n"
		     "#SBATCH --nodes=%d\n"
		     "#SBATCH --ntasks=%d\n"
		     "#SBATCH --exclusive\n%s"
		     "#SBATCH --time=%d\n"
		     "#SBATCH --output=hetmap-%%j.out\n"
		     "#SBATCH --nodelist=", j->pl->routine, j->pl->n, j->pl->b, j->pl->r, j->pl->c,
		     j->batch_given ? "as given (--batch-time)" : "in minutes " BATCH_RULE " (--batch-time MINUTES to give it)",
		     j->pl->routine, j->pl->n, j->pl->nr_hosts, j->pl->D,
		     j->pl->oversubscribed ? "#SBATCH --overcommit\n" : "", j->batch_minutes);
	for (int k = 0; k < j->pl->D; k++) {
		const struct hm_rank_place *r = &j->pl->ranks[k];

		if (!seen[r->host_id]) {
			hm_text_addf(&t, "%s%s", sep, slurm_node_name(r->host, here));
			seen[r->host_id] = 1, sep = ",";
		}
	}
	hm_text_addf(&t, "\ncd -- ");
	shell_word(&t, j->dir);
	hm_text_addf(&t, " || exit 1\nexec");
	for (int i = 0; i < j->batch_run.n; i++) {
		hm_text_addf(&t, " ");
		shell_word(&t, j->batch_run.v[i]);
	}
	hm_text_addf(&t, "\n");
	t.failed |= j->batch_run.failed;
	free(seen);
	return hm_text_done(&t);
}

/* Every file of the directory: names and texts (malloc'd). */
struct dir_files {
	int n;
	const char *name[HM_MAX_INPUTS + 4];
	char *text[HM_MAX_INPUTS + 4];
	int owned[HM_MAX_INPUTS + 4];
};

static int dir_files(const struct hm_job *j, struct dir_files *f)
{
	char *plan = cJSON_Print(j->pl->owner);
	int ok = 1;

	memset(f, 0, sizeof(*f));
	if (plan) {
		size_t len = strlen(plan);
		char *p = realloc(plan, len + 2);

		if (p)
			strcpy(p + len, "\n"), plan = p;
	}
	f->name[f->n] = "plan.json", f->owned[f->n] = 1, f->text[f->n++] = plan;
	f->name[f->n] = j->l->file_name, f->owned[f->n] = 1, f->text[f->n++] = j->l->file_text(j->pl);
	for (int i = 0; i < j->ninputs; i++)
		f->name[f->n] = j->inputs[i].name, f->text[f->n++] = j->inputs[i].text;
	f->name[f->n] = "run.sh", f->owned[f->n] = 1, f->text[f->n++] = script_text(j);
	if (j->l->batch_file)
		f->name[f->n] = j->l->batch_file, f->owned[f->n] = 1, f->text[f->n++] = batch_text(j);
	for (int i = 0; i < f->n; i++)
		ok &= f->text[i] != NULL;
	return ok ? 0 : -1;
}

static void dir_files_free(struct dir_files *f)
{
	for (int i = 0; i < f->n; i++)
		if (f->owned[i])
			free(f->text[i]);
}

static mode_t executable_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0777 & ~mask;
}

int hm_job_write(const struct hm_job *j, struct hm_error *err)
{
	struct hm_atomic_file files[HM_MAX_INPUTS + 4];
	struct dir_files f;
	char path[4400];
	int ready = 0, ret = -1;

	if (dir_files(j, &f)) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	/* all written before any is put in place: a full disk leaves the
	 * directory as it was */
	for (ready = 0; ready < f.n; ready++) {
		snprintf(path, sizeof(path), "%s/%s", j->dir, f.name[ready]);
		if (hm_atomic_prepare(&files[ready], path, f.text[ready], strlen(f.text[ready]), err))
			break;
	}
	if (ready == f.n) {
		ret = 0;
		for (int i = 0; i < f.n; i++)
			if (ret)
				hm_atomic_abort(&files[i]);
			else
				ret = hm_atomic_commit(&files[i], err);
		ready = 0;
		snprintf(path, sizeof(path), "%s/run.sh", j->dir);
		if (!ret && chmod(path, executable_mode()))
			ret = hm_error_set(err, "%s: cannot make it executable: %s", path, strerror(errno));
	}
out:
	while (ready > 0)
		hm_atomic_abort(&files[--ready]);
	dir_files_free(&f);
	return ret;
}

int hm_job_remove(const struct hm_job *j)
{
	char path[4400];
	const char *own[] = { "plan.json", "run.sh", j->l->file_name, j->l->batch_file,
			      j->profile ? j->profile->output_file : NULL };

	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		if (!own[i])
			continue;
		snprintf(path, sizeof(path), "%s/%s", j->dir, own[i]);
		unlink(path);
	}
	for (int i = 0; i < j->ninputs; i++) {
		snprintf(path, sizeof(path), "%s/%s", j->dir, j->inputs[i].name);
		unlink(path);
	}
	return j->made_dir && rmdir(j->dir) ? -1 : 0;
}

void hm_job_release(struct hm_job *j)
{
	hm_argv_free(&j->program);
	hm_argv_free(&j->env);
	hm_argv_free(&j->launcher_args);
	hm_argv_free(&j->batch_run);
	for (int i = 0; i < j->ninputs; i++) {
		free(j->inputs[i].name);
		free(j->inputs[i].text);
	}
	j->ninputs = 0;
}

const char *hm_helper_program(const char *name, char *buf, size_t size, struct hm_error *err)
{
	char self[PATH_MAX + 1], libexec[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash, *prefix;
	int len;

	/* never a bare name, which a launcher would look up in PATH */
	if (n <= 0 || (size_t)n >= sizeof(self) - 1 || !(slash = strrchr((self[n] = '\0', self), '/')))
		return hm_error_set(err, "%s: hetmap cannot read its own path (/proc/self/exe), beside "
				    "which its helpers are", name), NULL;
	*slash = '\0';
	/* an installed hetmap (PREFIX/bin) has its helpers in PREFIX/libexec/hetmap,
	 * the build tree beside it: the first that exists is the one meant;
	 * /proc/self/exe is canonical, so its directory's parent is PREFIX */
	prefix = strrchr(self, '/');
	snprintf(libexec, sizeof(libexec), "%.*s/libexec/hetmap/%s", (int)(prefix ? prefix - self : 0),
		 self, name);
	len = access(libexec, F_OK) ? snprintf(buf, size, "%s/%s", self, name) :
				      snprintf(buf, size, "%s", libexec);
	if (len < 0 || (size_t)len >= size) {
		buf[0] = '\0';         /* never a path cut short */
		return hm_error_set(err, "%s: the path of hetmap's helpers is longer than %zu characters",
				    name, size - 1), NULL;
	}
	if (access(buf, X_OK) && errno == ENOENT && strstr(name, "-smpi"))
		return hm_error_set(err, "%s: not found beside hetmap (%s): the SMPI flavour is built only "
				    "when asked, once, in about 3 minutes: cmake -S . -B build "
				    "-DHETMAP_SMPI_SCALAPACK=scalapack-2.2.1.tar.gz && cmake --build build "
				    "(README.md, \"The two commands\")", name, buf), NULL;
	if (access(buf, X_OK))
		return hm_error_set(err, "%s: %s (%s; reinstall hetmap, or build it: README.md)", name,
				    errno == ENOENT ? "not found beside hetmap" : strerror(errno), buf), NULL;
	return buf;
}

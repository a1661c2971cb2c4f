/* mapper/launch/judge.c - the simulator as the plan's judge (see judge.h).
 *
 * Each candidate is one 'hetmap run --plan cNN.json --launcher smpi
 * --kernels modeled' child, its output in cNN.log and its record in
 * cNN.jsonl of the judge's directory: the run command already knows how to
 * make the job, bound it in time and record it, so the judge only
 * schedules. Children stay in hetmap's process group: Ctrl-C reaches them,
 * and each stops its own simulation. With the slurm launcher a child is
 * srun, whose step runs the same command on a CPU of the allocation; srun
 * forwards the signal to it. */
#define _GNU_SOURCE /* nftw's FTW_DEPTH | FTW_PHYS */
#include "judge.h"
#include "sim_setup.h"
#include "mpirun.h"
#include "job.h"
#include "spawn.h"
#include "launcher_detect.h"
#include "slurm_alloc.h"
#include "models/util/say.h"
#include "models/platform/simgrid_platform.h"
#include "models/util/clock.h"
#include "models/util/read_file.h"
#include "models/util/rows.h"
#include "models/common/progress.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum status { WAITING, RUNNING, SIMULATED, FAILED, TIMED_OUT, NOT_RUN, SAME, INTERRUPTED };

static const char *const status_names[] = { "waiting", "running", "simulated", "failed",
					     "timeout", "not run: out of time", "same as another",
					     "interrupted" };

struct candidate {
	char label[32];
	struct hm_result r;     /* configuration and prediction (owned) */
	int same_as;            /* SAME: the candidate it repeats */
	enum status st;
	pid_t pid;
	double started, wall, simulated;
	int earlier;            /* simulated by an earlier judge in --judge-dir */
};

/* Where the simulations run (judge.h, hm_judge_launchers): the words put
 * before each 'hetmap run', the first of them a program found in PATH. */
static const struct judge_launcher {
	const char *name;
	const char *const *prefix;      /* NULL: a child of hetmap itself */
} judge_launchers[] = {
	{ "local", NULL },
	{ "slurm", (const char *const[]){ "srun", "--exclusive", "-N1", "-n1", "-c1", "--quiet",
					  "--job-name=hetmap-judge", NULL } },
};
#define NR_JUDGE_LAUNCHERS (int)(sizeof(judge_launchers) / sizeof(judge_launchers[0]))

/* ctx unused */
static int judge_launcher_name(const void *ctx, int i, char *out, size_t room)
{
	(void)ctx;
	return snprintf(out, room, "%s", judge_launchers[i].name);
}

/* Their names, comma-separated (help and messages). */
static const char *hm_judge_launchers(void)
{
	static char names[64];

	return hm_join(names, sizeof(names), NR_JUDGE_LAUNCHERS, ", ", judge_launcher_name, NULL);
}

/* The row of --judge-launcher 'name' (NULL: slurm inside an allocation,
 * else local), or -1 after a message: an unknown name, slurm outside an
 * allocation. */
static int judge_launcher_index(const char *name)
{
	int slurm = hm_in_slurm_allocation();

	if (!name)
		name = slurm ? "slurm" : "local";
	for (int i = 0; i < NR_JUDGE_LAUNCHERS; i++) {
		if (strcasecmp(judge_launchers[i].name, name))
			continue;
		if (judge_launchers[i].prefix && !slurm) {
			hm_say_error("plan: --judge-launcher %s: not inside a Slurm allocation (run plan "
				     "under salloc or sbatch, with a CPU for each simulation at once)", name);
			return -1;
		}
		return i;
	}
	hm_say_error("plan: --judge-launcher must be one of %s, not '%s'", hm_judge_launchers(), name);
	return -1;
}

struct judging {
	struct hm_judge *jd;
	const struct hm_plan_inputs *in;
	struct candidate c[HM_TOP_K_MAX + 3];
	int n;
	char dir[4096];
	int made_dir;
	int lock_fd;            /* --judge-dir's .hetmap-judge, locked while we judge */
	char self[PATH_MAX];    /* this hetmap */
	char srun[4096];        /* slurm: the srun found */
	double t0;              /* when the simulations began (hm_now) */
};

int hm_judge_start(struct hm_judge *jd, const struct hm_judge_opts *o, struct hm_problem *pb)
{
	struct hm_error err;
	char path[4096];

	memset(jd, 0, sizeof(*jd));
	jd->o = *o;
	if (!o->k)
		return HM_EXIT_OK;
	if ((jd->launcher = judge_launcher_index(o->launcher)) < 0 || hm_progress_check("plan"))
		return HM_EXIT_USAGE;
	if (pb->platform->nr_procs > HM_SIMGRID_MAX_PROCESSORS) {
		/* said once, here, rather than by every candidate's failed simulation */
		hm_say_error("plan: --judge simulates each candidate on the whole platform, and SimGrid's "
			     "export takes at most %d processors (this one has %d)", HM_SIMGRID_MAX_PROCESSORS,
			     pb->platform->nr_procs);
		return HM_EXIT_USAGE;
	}
	hm_error_clear(&err);
	if (!hm_helper_program("hetmap-driver-smpi", path, sizeof(path), &err)) {
		hm_say_error("plan: --judge simulates hetmap's driver under SMPI: %s (the SMPI flavour: "
			     "wrappers/README.md)", err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	/* the search keeps more than K, so that K remain once near twins are left out */
	if (hm_top_k_init(&jd->top, o->k * 4 < HM_TOP_K_MAX ? o->k * 4 : HM_TOP_K_MAX, pb->platform->nr_procs,
			  &err)) {
		hm_say_error("plan: --judge: %s", err.msg);
		return HM_EXIT_FAILURE;
	}
	pb->collect = &jd->top;
	return HM_EXIT_OK;
}

void hm_judge_release(struct hm_judge *jd)
{
	hm_top_k_release(&jd->top);
}

static int same_config(const struct hm_result *a, const struct hm_result *b)
{
	return a->D == b->D && a->r == b->r && a->c == b->c && a->b == b->b &&
	       !memcmp(a->d, b->d, (size_t)a->P * sizeof(int));
}

/* Add a candidate (its result taken over); a repeat is kept as SAME. */
static void add(struct judging *jg, struct hm_result *r, const char *label)
{
	struct candidate *c = &jg->c[jg->n++];

	memset(c, 0, sizeof(*c));
	snprintf(c->label, sizeof(c->label), "%s", label);
	c->r = *r;
	memset(r, 0, sizeof(*r));
	c->simulated = NAN;
	for (int i = 0; i < jg->n - 1; i++)
		if (same_config(&jg->c[i].r, &c->r) && jg->c[i].st != SAME) {
			c->st = SAME, c->same_as = i;
			break;
		}
}

/* Whether a configuration is a near twin (or a copy) of a candidate
 * already taken: simulating it would tell little more. */
static int twin_of_added(const struct judging *jg, const struct hm_candidate *e)
{
	for (int i = 0; i < jg->n; i++) {
		const struct hm_result *r = &jg->c[i].r;
		struct hm_candidate taken = { r->eet, r->D, r->r, r->c, r->b, r->d };

		if (hm_near_twins(&taken, e, r->P))
			return 1;
	}
	return 0;
}

/* The model's choice first, then the users (the comparison a person
 * wants even when time runs short), then the model's next best that are
 * not near twins of a candidate taken. */
static int gather(struct judging *jg, struct hm_result *plan)
{
	static const char *const users[] = { "GU", "CU", "EU" };
	struct hm_problem pb = *jg->in->pb;
	const struct hm_top_k *top = &jg->jd->top;
	struct hm_error err;
	struct hm_result r;
	char label[32];
	int rank = 1;

	pb.collect = NULL;
	hm_error_clear(&err);
	snprintf(label, sizeof(label), "%s", plan->method);
	if (hm_evaluate_config(&pb, plan->d, plan->r, plan->c, plan->b, plan->method, &r, &err))
		goto fail;
	add(jg, &r, label);
	for (int u = 0; u < 3; u++) {
		const struct hm_method *m = hm_method_find(users[u]);
		struct hm_budget none = { 0, 0 };

		if (hm_method_applies(m, &pb, &err))
			continue;
		if (hm_search(m, &pb, &none, &r, &err))
			goto fail;
		if (r.found)
			add(jg, &r, users[u]);
		else
			hm_result_release(&r);
	}
	for (int i = 0; i < top->n && rank < jg->jd->o.k; i++) {
		const struct hm_candidate *e = &top->e[i];

		if (twin_of_added(jg, e))
			continue;
		if (hm_evaluate_config(&pb, e->d, e->r, e->c, e->b, plan->method, &r, &err))
			goto fail;
		snprintf(label, sizeof(label), "%s #%d", plan->method, ++rank);
		add(jg, &r, label);
	}
	return HM_EXIT_OK;
fail:
	hm_say_error("plan: --judge: %s", err.msg);
	return HM_EXIT_FAILURE;
}

static void file_of(const struct judging *jg, int i, const char *suffix, char *buf, size_t size)
{
	snprintf(buf, size, "%s/c%02d%s", jg->dir, i, suffix);
}

/* The last record of candidate i's results file, or NULL. */
static cJSON *last_record(const struct judging *jg, int i)
{
	char path[4200], *text, *last;
	enum hm_read_status st;
	size_t len;
	cJSON *rec = NULL;

	file_of(jg, i, ".jsonl", path, sizeof(path));
	if ((text = hm_read_file(path, 64u << 20, &len, &st))) {
		while (len > 0 && text[len - 1] == '\n')
			text[--len] = '\0';
		last = strrchr(text, '\n');
		rec = cJSON_Parse(last ? last + 1 : text);
		free(text);
	}
	return rec;
}

static int same_member(const cJSON *a, const cJSON *b, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(a, key);

	return x && cJSON_Compare(x, cJSON_GetObjectItemCaseSensitive(b, key), 1);
}

/* A judge rerun in the same --judge-dir (one interrupted, or one asking
 * again) finds candidate i simulated already when the last record of its
 * results file is of the same platform (path, name and content), routine,
 * n and configuration, kernels modeled, with a time: that time is kept,
 * not simulated again. (The modeled engine times nothing on this machine:
 * its speed is no input.) */
static int simulated_before(struct judging *jg, int i, const cJSON *doc)
{
	static const char *const inputs[] = { "platform", "platform_name", "platform_digest", "routine", "n" };
	static const char *const plan[] = { "D", "r", "c", "b", "d" };
	struct candidate *c = &jg->c[i];
	cJSON *rec = last_record(jg, i);
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(rec, "measured_s");
	const cJSON *wall = cJSON_GetObjectItemCaseSensitive(rec, "wall_s");
	const char *kernels = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(rec, "kernels"));
	int same = cJSON_IsNumber(t) && t->valuedouble > 0 && kernels && !strcmp(kernels, "modeled");

	for (size_t k = 0; same && k < sizeof(inputs) / sizeof(inputs[0]); k++)
		same = same_member(cJSON_GetObjectItemCaseSensitive(rec, "inputs"),
				   cJSON_GetObjectItemCaseSensitive(doc, "inputs"), inputs[k]);
	for (size_t k = 0; same && k < sizeof(plan) / sizeof(plan[0]); k++)
		same = same_member(cJSON_GetObjectItemCaseSensitive(rec, "plan"),
				   cJSON_GetObjectItemCaseSensitive(doc, "plan"), plan[k]);
	if (same) {
		c->st = SIMULATED, c->simulated = t->valuedouble, c->earlier = 1;
		c->wall = cJSON_IsNumber(wall) ? wall->valuedouble : 0;
		hm_say_note("hetmap: judge: %s simulated before in %s: %.4g s (predicted %.4g s)\n",
			c->label, jg->dir, c->simulated, c->r.eet);
	}
	cJSON_Delete(rec);
	return same;
}

/* 1 if 'path' is absent or of the kind the judge writes there (a
 * directory, or a regular file; never a symbolic link). */
static int ours_or_absent(const char *path, int directory)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT;
	return directory ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

/* --judge-dir: a new or empty directory, or one a judge used before (its
 * .hetmap-judge), locked for this judge alone; no entry of a candidate's
 * that is not what the judge would write there. An exit code. */
static int claim_dir(struct judging *jg)
{
	static const char *const kinds[][2] = { { "", "d" }, { ".json", "f" }, { ".jsonl", "f" },
						{ ".log", "f" } };
	char marker[4200];
	struct stat st;
	DIR *d;
	int others = 0;

	snprintf(jg->dir, sizeof(jg->dir), "%s", jg->jd->o.dir);
	if ((mkdir(jg->dir, 0777) && errno != EEXIST) || lstat(jg->dir, &st) || !S_ISDIR(st.st_mode)) {
		hm_say_error("plan: --judge-dir %s: %s", jg->dir, errno && errno != EEXIST ? strerror(errno) :
			     "not a directory");
		return HM_EXIT_OUTPUT;
	}
	snprintf(marker, sizeof(marker), "%s/.hetmap-judge", jg->dir);
	if (lstat(marker, &st) && (d = opendir(jg->dir))) {
		for (struct dirent *e; (e = readdir(d));)
			others += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
		closedir(d);
	}
	if (others) {
		hm_say_error("plan: --judge-dir %s holds files and is not a judge's (no .hetmap-judge): "
			     "give a new or empty directory", jg->dir);
		return HM_EXIT_OUTPUT;
	}
	if ((jg->lock_fd = open(marker, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666)) < 0 ||
	    flock(jg->lock_fd, LOCK_EX | LOCK_NB)) {
		hm_say_error("plan: --judge-dir %s: %s", jg->dir, errno == EWOULDBLOCK ?
			     "another judge is using it now" : strerror(errno));
		return HM_EXIT_OUTPUT;
	}
	for (int i = 0; i < jg->n; i++)
		for (size_t k = 0; jg->c[i].st != SAME && k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			char path[4200];

			file_of(jg, i, kinds[k][0], path, sizeof(path));
			if (!ours_or_absent(path, kinds[k][1][0] == 'd')) {
				hm_say_error("plan: --judge-dir: %s is not the %s a judge writes there: "
					     "not written over", path, kinds[k][1][0] == 'd' ?
					     "directory" : "regular file");
				return HM_EXIT_OUTPUT;
			}
		}
	return HM_EXIT_OK;
}

static int prepare_dir(struct judging *jg)
{
	struct hm_error err;
	int ret;

	if (!jg->jd->o.dir) {
		if ((ret = hm_mpirun_temp_dir("judge", jg->dir, sizeof(jg->dir))))
			return ret;
		jg->made_dir = 1;
	} else if ((ret = claim_dir(jg))) {
		return ret;
	}
	for (int i = 0; i < jg->n; i++) {
		char path[4200];
		cJSON *doc;

		if (jg->c[i].st == SAME)
			continue;
		file_of(jg, i, ".json", path, sizeof(path));
		hm_error_clear(&err);
		if (!(doc = hm_plan_json(jg->in, &jg->c[i].r)) || hm_json_write(path, doc, &err)) {
			cJSON_Delete(doc);
			hm_say_report(&err);
			return HM_EXIT_OUTPUT;
		}
		if (!jg->made_dir)
			simulated_before(jg, i, doc);
		cJSON_Delete(doc);
	}
	return HM_EXIT_OK;
}

/* Start candidate i: 'hetmap run' on its plan (a Slurm step of it with
 * the slurm launcher), output into its log. */
static int start(struct judging *jg, int i, double deadline)
{
	struct candidate *c = &jg->c[i];
	const char *const *prefix = judge_launchers[jg->jd->launcher].prefix;
	char plan[4200], launch[4200], results[4200], log[4200];
	struct hm_argv a = { 0 };
	pid_t pid;

	file_of(jg, i, ".json", plan, sizeof(plan));
	file_of(jg, i, "", launch, sizeof(launch));
	file_of(jg, i, ".jsonl", results, sizeof(results));
	file_of(jg, i, ".log", log, sizeof(log));
	for (int w = 0; prefix && prefix[w]; w++)
		hm_argv_add(&a, w == 0 ? jg->srun : prefix[w]);
	hm_argv_add(&a, jg->self);
	hm_argv_add(&a, "run");
	hm_argv_add(&a, "--plan");
	hm_argv_add(&a, plan);
	hm_argv_add(&a, "--launcher");
	hm_argv_add(&a, "smpi");
	hm_argv_add(&a, "--kernels");
	hm_argv_add(&a, "modeled");
	hm_argv_add(&a, "--results");
	hm_argv_add(&a, results);
	hm_argv_add(&a, "-o");
	hm_argv_add(&a, launch);
	if (deadline > 0) {
		hm_argv_add(&a, "--timeout");
		hm_argv_addf(&a, "%.3f", fmax(deadline - hm_now(), 1));
	}
	if (a.failed) {
		hm_argv_free(&a);
		return -1;
	}
	fflush(NULL);
	if ((pid = fork()) == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0666);

		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		execvp(a.v[0], a.v);    /* srun from PATH, as the launchers find it */
		hm_say_error("judge: %s: %s", a.v[0], strerror(errno));     /* into the log */
		_exit(127);
	}
	hm_argv_free(&a);
	if (pid < 0)
		return -1;
	c->pid = pid, c->st = RUNNING, c->started = hm_now();
	hm_say_note("hetmap: judge: simulating %s (%d x %d, b = %d, %d processes; predicted %.4g s)%s\n",
		c->label, c->r.r, c->r.c, c->r.b, c->r.D, c->r.eet, prefix ? " as a Slurm step" : "");
	return 0;
}

/* A finished child: its record's simulated time. */
static void finish(struct judging *jg, int i, int wstatus)
{
	struct candidate *c = &jg->c[i];
	char path[4200];
	cJSON *rec;
	const cJSON *t, *code;

	c->wall = hm_now() - c->started;
	c->st = FAILED;
	rec = last_record(jg, i);
	t = cJSON_GetObjectItemCaseSensitive(rec, "measured_s");
	code = cJSON_GetObjectItemCaseSensitive(rec, "exit_code");
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0 && cJSON_IsNumber(t) && t->valuedouble > 0) {
		c->st = SIMULATED;
		c->simulated = t->valuedouble;
	} else if ((cJSON_IsNumber(code) && code->valueint == HM_EXIT_TIMEOUT) ||
		   (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == HM_EXIT_TIMEOUT)) {
		c->st = TIMED_OUT;
	}
	cJSON_Delete(rec);
	file_of(jg, i, ".log", path, sizeof(path));
	if (c->st == SIMULATED)
		hm_say_note("hetmap: judge: %s simulated %.4g s (predicted %.4g s), %.1f s of wall time\n",
			c->label, c->simulated, c->r.eet, c->wall);
	else
		hm_say_note("hetmap: judge: %s %s after %.1f s (its output: %s)\n", c->label,
			status_names[c->st], c->wall, jg->jd->o.dir ? path : "removed with the directory");
}

/* The simulated clock a candidate's log last reported (its last
 * HM_PROGRESS_MARK line, models/common/progress.h), or -1: its last 8 kB
 * are read. */
static double simulated_so_far(const struct judging *jg, int i)
{
	char path[4200], tail[8193];
	double t = -1;
	size_t got;
	FILE *f;

	file_of(jg, i, ".log", path, sizeof(path));
	if (!(f = fopen(path, "r")))
		return -1;
	if (fseek(f, -(long)(sizeof(tail) - 1), SEEK_END))
		rewind(f);
	got = fread(tail, 1, sizeof(tail) - 1, f);
	fclose(f);
	tail[got] = '\0';
	for (const char *p = tail; (p = strstr(p, HM_PROGRESS_MARK)); p++)
		t = atof(p + strlen(HM_PROGRESS_MARK));
	return t;
}

/* One line per running simulation: how far its simulated clock got
 * against the model's prediction, and the wall time that leaves at the
 * pace so far (a guess: the model errs, and the pace changes). */
static void say_progress(const struct judging *jg)
{
	for (int i = 0; i < jg->n; i++) {
		const struct candidate *c = &jg->c[i];
		double sim, f, wall = hm_now() - c->started;

		if (c->st != RUNNING || (sim = simulated_so_far(jg, i)) <= 0)
			continue;
		f = fmin(sim / c->r.eet, 0.99);
		hm_say_note("hetmap: judge: %s simulated %.4g of about %.4g s in %.0f s; about %.0f s left\n",
			    c->label, sim, c->r.eet, wall, wall * (1 - f) / f);
	}
}

static int running(const struct judging *jg)
{
	int k = 0;

	for (int i = 0; i < jg->n; i++)
		k += jg->c[i].st == RUNNING;
	return k;
}

/* A signal came: each running simulation ('hetmap run', which stops its
 * smpirun and records) is asked to stop, and waited for; one that does
 * not end within STOP_GRACE seconds is killed. Nothing is left running. */
#define STOP_GRACE 30
static void stop_running(struct judging *jg)
{
	double until = hm_now() + STOP_GRACE;

	for (int i = 0; i < jg->n; i++)
		if (jg->c[i].st == RUNNING)
			kill(jg->c[i].pid, SIGTERM);
	while (running(jg)) {
		int wstatus;
		pid_t pid = waitpid(-1, &wstatus, WNOHANG);

		for (int i = 0; pid > 0 && i < jg->n; i++)
			if (jg->c[i].st == RUNNING && jg->c[i].pid == pid)
				jg->c[i].st = INTERRUPTED, jg->c[i].wall = hm_now() - jg->c[i].started;
		if (pid < 0 && errno == ECHILD)
			break;
		if (pid <= 0 && hm_now() > until)
			for (int i = 0; i < jg->n; i++)
				if (jg->c[i].st == RUNNING)
					kill(jg->c[i].pid, SIGKILL);
		if (pid <= 0)
			nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
}

/* What a candidate's simulation is expected to cost: its ranks times its
 * predicted time (SimGrid handles every rank's every event; on smpi4, LU
 * n = 12000, GU's 5 ranks simulated in 28 s, the 2-rank candidates in 7-8
 * s each: experiments/README.md, "The judge through Slurm"). The dearest
 * start first (longest first: the last to start is a cheap one, so the
 * CPUs finish close together), after the model's own choice, which under
 * a --max-time is the one to have simulated. */
static const struct judging *cost_of;

static int dearer_first(const void *a, const void *b)
{
	const struct hm_result *x = &cost_of->c[*(const int *)a].r, *y = &cost_of->c[*(const int *)b].r;
	double cx = x->D * x->eet, cy = y->D * y->eet;

	return (cx < cy) - (cx > cy);
}

/* Keep 'jobs' children busy, the model's choice then the dearest first, until every
 * candidate ran or the deadline passed; a child past the deadline by more
 * than its own timeout's grace is stopped; a signal stops them all
 * (stop_running). */
static void simulate(struct judging *jg, int jobs, double deadline)
{
	int next = 0, order[HM_TOP_K_MAX + 3];
	/* a progress line per simulation every 3 of its progress periods (30 s) */
	double every = 3 * hm_progress_period(), report_at = hm_now() + every;

	for (int i = 0; i < jg->n; i++)
		order[i] = i;
	cost_of = jg;
	if (jg->n > 1)
		qsort(order + 1, (size_t)jg->n - 1, sizeof(order[0]), dearer_first);

	for (;;) {
		int wstatus;
		pid_t pid;

		if (hm_stop_signal_caught()) {
			stop_running(jg);
			return;
		}

		while (next < jg->n && running(jg) < jobs) {
			int i = order[next++];
			struct candidate *c = &jg->c[i];

			if (c->st != WAITING)
				continue;
			if ((deadline > 0 && hm_now() >= deadline) || start(jg, i, deadline))
				c->st = NOT_RUN;
		}
		if (!running(jg))
			return;
		if ((pid = waitpid(-1, &wstatus, WNOHANG)) > 0) {
			for (int i = 0; i < jg->n; i++)
				if (jg->c[i].st == RUNNING && jg->c[i].pid == pid)
					finish(jg, i, wstatus);
			continue;
		}
		if (pid < 0 && errno != EINTR)
			return;
		for (int i = 0; deadline > 0 && hm_now() > deadline + 30 && i < jg->n; i++)
			if (jg->c[i].st == RUNNING)
				kill(jg->c[i].pid, SIGTERM);
		if (every > 0 && hm_now() >= report_at) {
			say_progress(jg);
			report_at = hm_now() + every;
		}
		nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
	}
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	remove(path);       /* what cannot go stays: the directory is only ours */
	return 0;
}

/* The slurm launcher: srun, found as 'hetmap run --launcher slurm' finds
 * it, and *jobs, when not given, the allocation's CPUs (one simulation
 * each). 0, or -1 with 'err' set. */
static int find_srun(struct judging *jg, int *jobs, struct hm_error *err)
{
	struct hm_launcher_found found;
	char **names;
	int *cpus, n;

	if (hm_launcher_detect(hm_launcher_find("slurm"), NULL, 0, 1, &found, err))
		return -1;
	snprintf(jg->srun, sizeof(jg->srun), "%s", found.program);
	if (*jobs)
		return 0;
	if ((n = hm_slurm_allocation(&names, &cpus, err)) < 0)
		return -1;
	{
		/* summed wide, then bounded as --judge-jobs is: 65536 nodes of 2^20
		 * CPUs each (what Slurm's variables may say) overflow an int */
		long all = 0;

		for (int i = 0; i < n; i++)
			all += cpus[i];
		*jobs = all < 1 ? 1 : all > HM_JUDGE_MAX_JOBS ? HM_JUDGE_MAX_JOBS : (int)all;
	}
	hm_slurm_allocation_free(names, n, cpus);
	return 0;
}

static cJSON *record_json(const struct judging *jg, int chosen, int jobs)
{
	cJSON *o = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(o, "candidates");
	const struct candidate *model = &jg->c[0];

	cJSON_AddStringToObject(o, "engine", "smpi");
	cJSON_AddStringToObject(o, "kernels", "modeled");
	cJSON_AddStringToObject(o, "launcher", judge_launchers[jg->jd->launcher].name);
	cJSON_AddNumberToObject(o, "jobs", jobs);
	if (jg->jd->o.dir)
		cJSON_AddStringToObject(o, "dir", jg->dir);
	for (int i = 0; i < jg->n; i++) {
		const struct candidate *c = &jg->c[i];
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "label", c->label);
		cJSON_AddStringToObject(e, "method", c->r.method);
		cJSON_AddNumberToObject(e, "D", c->r.D);
		cJSON_AddNumberToObject(e, "r", c->r.r);
		cJSON_AddNumberToObject(e, "c", c->r.c);
		cJSON_AddNumberToObject(e, "b", c->r.b);
		cJSON_AddItemToObject(e, "d", cJSON_CreateIntArray(c->r.d, c->r.P));
		cJSON_AddNumberToObject(e, "predicted_s", c->r.eet);
		if (c->st == SIMULATED)
			cJSON_AddNumberToObject(e, "simulated_s", c->simulated);
		else
			cJSON_AddNullToObject(e, "simulated_s");
		cJSON_AddStringToObject(e, "status", status_names[c->st]);
		if (c->st == SAME)
			cJSON_AddStringToObject(e, "same_as", jg->c[c->same_as].label);
		if (c->earlier)
			cJSON_AddBoolToObject(e, "earlier_run", 1);
		if (c->wall > 0) {
			cJSON_AddNumberToObject(e, "started_s", c->started - jg->t0);
			cJSON_AddNumberToObject(e, "wall_s", c->wall);
		}
		cJSON_AddItemToArray(list, e);
	}
	cJSON_AddStringToObject(o, "decided_by", chosen >= 0 ? "simulator" : "model");
	cJSON_AddStringToObject(o, "chosen", jg->c[chosen >= 0 ? chosen : 0].label);
	cJSON_AddStringToObject(o, "model_choice", model->label);
	if (chosen >= 0 && model->st == SIMULATED)
		cJSON_AddNumberToObject(o, "chosen_over_model_choice", jg->c[chosen].simulated / model->simulated);
	return o;
}

int hm_judge_decide(struct hm_judge *jd, const struct hm_plan_inputs *in, struct hm_result *res,
		    double deadline, cJSON **record)
{
	struct judging *jg = calloc(1, sizeof(*jg));
	struct hm_error err;
	int ret, chosen = -1, jobs = jd->o.jobs;

	*record = NULL;
	if (!jg) {
		hm_say_error("plan: out of memory");
		return HM_EXIT_FAILURE;
	}
	jg->jd = jd, jg->in = in;
	hm_error_clear(&err);
	if (!hm_helper_program("hetmap", jg->self, sizeof(jg->self), &err) ||
	    (judge_launchers[jd->launcher].prefix && find_srun(jg, &jobs, &err))) {
		hm_say_error("plan: judge: %s", err.msg);
		free(jg);
		return HM_EXIT_NO_MPIRUN;
	}
	if (!jobs) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cores > 0 ? (int)cores : 1;
	}
	jg->lock_fd = -1;
	hm_stop_signals_catch();
	if (!(ret = gather(jg, res)) && !(ret = prepare_dir(jg))) {
		hm_say_note("hetmap: judge: %d candidates, %d at a time (%s), in %s\n", jg->n, jobs,
			    judge_launchers[jd->launcher].prefix ? "Slurm steps" : "on this machine", jg->dir);
		jg->t0 = hm_now();
		simulate(jg, jobs, deadline);
	}
	if (!ret && hm_stop_signal_caught()) {
		/* what was simulated stays for a rerun with --judge-dir */
		ret = 128 + hm_stop_signal_caught();
		jg->made_dir = 0;
		hm_say_error("plan: judge: stopped by %s, every simulation with it; the records are in %s "
			     "(rerun with --judge-dir %s to keep what was simulated)",
			     strsignal(hm_stop_signal_caught()), jg->dir, jg->dir);
	}
	for (int i = 0; i < jg->n; i++)
		if (jg->c[i].st == SIMULATED &&
		    (chosen < 0 || jg->c[i].simulated < jg->c[chosen].simulated))
			chosen = i;
	if (jg->n > 0)
		*record = record_json(jg, chosen, jobs);
	if (chosen >= 0) {
		struct hm_result *w = &jg->c[chosen].r;

		/* the search that found the candidates is the plan's */
		w->evaluated = res->evaluated, w->pruned = res->pruned;
		w->level_reached = res->level_reached, w->stopped = res->stopped;
		w->seconds = res->seconds, w->seconds_to_best = res->seconds_to_best;
		hm_result_release(res);
		*res = *w;
		memset(w, 0, sizeof(*w));
	} else if (!ret) {
		int out_of_time = 0;

		for (int i = 0; i < jg->n; i++)
			out_of_time |= jg->c[i].st == NOT_RUN || jg->c[i].st == TIMED_OUT;
		hm_say_error("plan: --judge: no candidate could be simulated%s: the plan is the model's",
			     out_of_time ? " within --max-time" : "");
		ret = out_of_time ? HM_EXIT_BUDGET : HM_EXIT_JOB_FAILED;
	}
	if (jg->made_dir)
		nftw(jg->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	if (jg->lock_fd >= 0)
		close(jg->lock_fd);
	for (int i = 0; i < jg->n; i++)
		hm_result_release(&jg->c[i].r);
	free(jg);
	return ret;
}

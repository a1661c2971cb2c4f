/* mapper/cli/cmd_calibrate.c - 'hetmap calibrate': the install phase. Start
 * hetmap-calibrate-bench with one rank per processor of the host list
 * (plus a second rank on the first processor, for the same-processor
 * ping-pong), fit what it measured and write a platform file that
 * 'hetmap plan' reads. */
#include "cli.h"
#include "models/platform/calibration_trust.h"
#include "mapper/launch/host_source.h"
#include "mapper/launch/slurm_alloc.h"
#include "mapper/launch/launcher.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/node_topologies.h"
#include "mapper/launch/launcher_detect.h"
#include "mapper/launch/job.h"
#include "mapper/launch/plan.h"
#include "mapper/launch/results.h"
#include "models/util/atomic_file.h"
#include "models/platform/calibration.h"
#include "wrappers/common/host_links.h"
#include "models/platform/hostname.h"
#include "models/platform/platform.h"
#include "models/platform/simgrid_platform.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

static const struct hm_usage usage = {
	"calibrate",
	"hetmap calibrate [--hosts HOST[:N],...] -o PLATFORM.json [options] [--launcher-args 'WORDS' | -- MPIRUN-OPTIONS]",
	"Measure the system parameters of the given processors in one MPI run\n"
	"(k3_dgemm, k3_dtrsm and k2_dgetf2 per block size with OpenBLAS, the way\n"
	"LU uses them; t_s and t_w of each link scope by ping-pong), fit them and\n"
	"write a platform JSON. HOST:N is a node of N cores: one rank per core,\n"
	"all measuring at once (every core busy, as the model's k values are), and\n"
	"one processor HOST with N cores in the platform, k the median over its\n"
	"cores (--split-cores: N processors HOST-0 .. HOST-(N-1) instead). Then,\n"
	"on every node of two or more cores, one core alone measures dgemm again:\n"
	"when it runs faster than with every core busy (memory bandwidth), the\n"
	"node's type gets a busy_cores_scale (--all-busy-only skips this).\n"
	"Links between processors get t_w_core, the same-processor t_w, when it is\n"
	"below their t_w: processes sharing a core slow that part, not the wire.\n"
	"Before measuring, one process per host reads its topology with hwloc\n"
	"(hetmap-topology, installed beside the benchmark): its allowed cores (not\n"
	"hardware threads, unless --smt), packages, NUMA nodes. A host listed with\n"
	"more processes than those cores is measured on its cores, one with fewer on\n"
	"its first cores in hwloc's order (package by package); the platform\n"
	"records each processor's cores as the operating system's CPU numbers, so\n"
	"that every launcher binds the cores hwloc found.\n"
	"Progress goes to standard error.",
	NULL,   /* epilog(): it names the trust limits */
};

/* The help's end. The trust limits come from calibration_trust.c's table. */
static const char *epilog(void)
{
	static char text[2048];

	snprintf(text, sizeof(text),
		 "Measuring shares the machine with whatever else runs: a kernel's time is\n"
		 "the time it held its core (the scheduler's wait for other processes on it,\n"
		 "Linux's run_delay, is left out), each kernel is sampled in rounds over every\n"
		 "block size until its median settles (at most 3 x --repeat rounds), and each\n"
		 "type's trust is printed. A type is in doubt unless it has\n%s"
		 "A platform in doubt is kept as PLATFORM.unreliable, not written (exit 11),\n"
		 "unless --accept-unreliable.\n"
		 "Link scopes that cannot be measured (one host: no inter-node pair) copy the\n"
		 "slowest measured scope and are listed under calibration.scopes_not_measured.\n"
		 "With --launcher smpi the hosts are the simulated processors of -p PLATFORM\n"
		 "(each with its cores), measured under SimGrid's SMPI as a user would measure\n"
		 "a real cluster; plan from the result, run the plan with --sim-platform.\n"
		 "examples:\n"
		 "  hetmap calibrate --hosts localhost:2 -o build/localhost.json\n"
		 "  hetmap calibrate --launcher smpi -p cluster.json -o cluster-measured.json",
		 hm_trust_limits());
	return text;
}

enum { MAX_CAL_PROCS = 4096 };

struct host_list {
	char *names[MAX_CAL_PROCS];     /* processor names */
	char *hosts[MAX_CAL_PROCS];     /* host of each processor */
	int slot[MAX_CAL_PROCS];        /* core index on its host */
	int host_index[MAX_CAL_PROCS];  /* its host's place among the hosts, in order */
	int n, nr_hosts;
	char *text;                     /* owns the host strings */
};

static void host_list_free(struct host_list *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->names[i]);
	free(h->text);
}

/* 0 if 'name' can be a host's, else -1 after a message naming 'source'. */
static int check_host_name(const char *name, const char *source)
{
	struct hm_error err;

	hm_error_clear(&err);
	if (!hm_check_listed_host(name, &err))
		return 0;
	hm_say_error("calibrate: %s: %s", source, err.msg);
	return -1;
}

/* "a:2,b,c:4" -> processors a-0 a-1 b-0 c-0..c-3; 'source' names where
 * the list came from in messages. 0, or -1 after a message. */
static int parse_hosts(const char *spec, const char *source, struct host_list *h)
{
	char *save = NULL, here[256] = "";

	memset(h, 0, sizeof(*h));
	gethostname(here, sizeof(here) - 1);
	if (!(h->text = strdup(spec)))
		return -1;
	for (char *item = strtok_r(h->text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':'), *end;
		long count = 1;

		if (colon) {
			*colon = '\0';
			errno = 0;
			count = strtol(colon + 1, &end, 10);
			if (errno || end == colon + 1 || *end || count < 1 || count > HM_HOST_SLOTS_MAX) {
				hm_say_error("calibrate: %s: '%s:%s' needs a count in [1, %d]", source, item,
					     colon + 1, HM_HOST_SLOTS_MAX);
				return -1;
			}
		}
		if (check_host_name(item, source))
			return -1;
		for (int i = 0; i < h->n; i++)
			if (hm_host_one_machine(h->hosts[i], item, here)) {
				hm_say_error("calibrate: %s: host '%s' is listed twice%s%s%s", source, item,
					     strcmp(h->hosts[i], item) ? " (as '" : "",
					     strcmp(h->hosts[i], item) ? h->hosts[i] : "",
					     strcmp(h->hosts[i], item) ? "': both name this machine)" : "");
				return -1;
			}
		if (h->n + count > MAX_CAL_PROCS) {
			hm_say_error("calibrate: %s: more than %d processors", source, MAX_CAL_PROCS);
			return -1;
		}
		for (int k = 0; k < count; k++) {
			char name[256];

			snprintf(name, sizeof(name), "%s-%d", item, k);
			if (!(h->names[h->n] = strdup(name)))
				return -1;
			h->hosts[h->n] = item;
			h->host_index[h->n] = h->nr_hosts;
			h->slot[h->n++] = k;
		}
		h->nr_hosts++;
	}
	if (!h->n) {
		hm_say_error("calibrate: %s names no processor", source);
		return -1;
	}
	return 0;
}

struct cal_setup {
	const char *hosts, *out, *name, *block_sizes, *mpirun, *bench, *launcher;
	const char *platform, *host_speed_text;        /* simulators */
	double host_speed;
	char *platform_xml;
	int rows, repeat, link_rounds;
	double tolerance, timeout, min_time;
	int split;              /* one processor per rank, not per node */
	int all_busy_only;      /* no busy-cores scale (no alone phase) */
	int no_shapes;          /* no kernel models for the simulator (no shapes phase) */
	int smt;                /* a process per hardware thread, not per core */
	int no_topology;        /* do not read the nodes' topologies (core j is CPU j) */
	int accept_unreliable;  /* write the platform even when calibration_trust.h doubts it */
	int launcher_major;     /* Open MPI 4 or 5: their syntax differs */
};

/* The benchmark's ranks as a placement: rank i on processor i, the shadow
 * rank beside rank 0 (the launcher then writes its file and command);
 * with 'one_per_host', one rank on the first core of each host instead
 * (hetmap-topology). Each rank is bound to its core's first CPU as hwloc
 * numbers them ('topo'), else to the CPU of the core's number. */
static int placement_of(const struct host_list *h, int simulated, const struct hm_node_topologies *topo,
			int one_per_host, struct hm_placement *pl)
{
	int k = 0;

	memset(pl, 0, sizeof(*pl));
	pl->D = one_per_host ? h->nr_hosts : h->n + 1;
	pl->oversubscribed = !one_per_host;     /* the shadow shares processor 0 */
	pl->threads_as_cores = topo && topo->threads_as_cores;
	if (!(pl->ranks = calloc((size_t)pl->D, sizeof(*pl->ranks))))
		return -1;
	for (int i = 0; i <= h->n && k < pl->D; i++) {
		int p = i < h->n ? i : 0;
		const struct hm_node_topology *node = topo ? &topo->node[h->host_index[p]] : NULL;

		if (one_per_host && (i == h->n || h->slot[p]))
			continue;
		/* a simulator's processor is the simulated host itself */
		pl->ranks[k++] = (struct hm_rank_place){
			.processor = simulated ? h->hosts[p] : h->names[p], .host = h->hosts[p],
			.slot = h->slot[p], .cores = 1, .stacked = p == 0 && !one_per_host ? 2 : 1,
			.core = h->slot[p], .sockets = 1,
			.cpu = node && node->seen ? hm_topology_cpu(&node->cores, h->slot[p]) : h->slot[p] };
	}
	return hm_placement_number_hosts(pl);
}

/* The benchmark and its arguments, after the launcher's command. */
static void bench_argv(struct hm_argv *a, const struct cal_setup *cs, const struct host_list *h)
{
	hm_argv_add(a, cs->bench);
	hm_argv_add(a, "--block-sizes");
	hm_argv_add(a, cs->block_sizes);
	hm_argv_addf(a, "--rows=%d", cs->rows);
	hm_argv_addf(a, "--repeat=%d", cs->repeat);
	hm_argv_addf(a, "--min-time=%g", cs->min_time);
	hm_argv_addf(a, "--link-rounds=%d", cs->link_rounds);
	hm_argv_add(a, "--shadow");
	if (!cs->split && !cs->all_busy_only && h->nr_hosts < h->n)
		hm_argv_add(a, "--alone");     /* the busy-cores scale of nodes */
	if (!cs->no_shapes)
		hm_argv_add(a, "--shapes");    /* the kernel models of the simulator */
	hm_argv_add(a, "--hosts");
	{
		size_t size = (size_t)h->n * 201 + 1, len = 0;
		char *list = malloc(size);

		if (!list) {
			a->failed = 1;
			return;
		}
		list[0] = '\0';
		for (int i = 0; i < h->n; i++)
			len += (size_t)snprintf(list + len, size - len, "%s%s", i ? "," : "", h->hosts[i]);
		hm_argv_add(a, list);
		free(list);
	}
}

static void say_doubt(void *ctx, const char *type, const char *line)
{
	(void)ctx;
	fprintf(stderr, "calibrate: %s: %s\n", type, line);
}

/* How far each type's values can be trusted, on standard error; the
 * number of doubts (calibration_trust.h). */
static int report_trust(const cJSON *plat)
{
	const cJSON *record = cJSON_GetObjectItemCaseSensitive(plat, "calibration"), *facts;
	char line[512];

	cJSON_ArrayForEach(facts, cJSON_GetObjectItemCaseSensitive(record, "trust")) {
		if (!cJSON_IsObject(facts))
			continue;
		hm_trust_summary(facts, line, sizeof(line));
		fprintf(stderr, "calibrate: %s: %s\n", facts->string, line);
	}
	return hm_trust_doubts(record, say_doubt, NULL);
}

/* Where a platform in doubt is kept: OUT.unreliable. */
static int keep_aside(const char *out, const char *text, size_t len)
{
	struct hm_error err;
	char *path = malloc(strlen(out) + sizeof(".unreliable"));
	int ret = HM_EXIT_UNRELIABLE;

	if (!path)
		return HM_EXIT_FAILURE;
	strcpy(path, out);
	strcat(path, ".unreliable");
	hm_error_clear(&err);
	if (hm_write_file_atomic(path, text, len, &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_OUTPUT;
	} else {
		hm_say_error("calibrate: %s not written: its measurements are too unsteady to plan with (above); "
			     "they are kept in %s (plan with it as it is, or measure again; "
			     "--accept-unreliable writes %s anyway)", out, path, out);
	}
	free(path);
	return ret;
}

/* Fit, record the nodes' topologies, check that hetmap reads the result,
 * say how far it can be trusted, write it (or keep it aside when in
 * doubt). An exit code. */
static int write_platform(const struct cal_setup *cs, const struct host_list *h, const cJSON *raw,
			  const struct hm_node_topologies *topo)
{
	struct hm_calibration_opts o = { cs->name, cs->tolerance, (const char *const *)h->names,
					 (const char *const *)h->hosts, NULL, h->n, 0, !cs->split, NULL };
	struct hm_host_ranks ranks = { (const char *const *)h->hosts, h->host_index, h->n };
	struct hm_platform *check = NULL;
	struct hm_error err;
	char when[32], *text;
	cJSON *plat;
	int ret, doubts;
	const cJSON *mem = cJSON_GetObjectItemCaseSensitive(raw, "memory_bytes_rank0_host");

	/* memory is only known for the first host: share it when it is the only one */
	if (h->nr_hosts == 1 && cJSON_IsNumber(mem) && mem->valuedouble > 0)
		o.memory_per_proc = mem->valuedouble / h->n;
	o.when = hm_utc_timestamp(when, sizeof(when));
	hm_error_clear(&err);
	if (!(plat = hm_calibration_platform(raw, &o, &err))) {
		hm_say_error("calibrate: the measurements cannot be used: %s: %s", err.path, err.msg);
		return HM_EXIT_FAILURE;
	}
	if (topo && hm_node_topologies_record(topo, plat, &ranks)) {
		hm_say_error("calibrate: the processors do not fit the topologies read (out of memory?)");
		cJSON_Delete(plat);
		return HM_EXIT_FAILURE;
	}
	doubts = report_trust(plat);
	text = cJSON_Print(plat);
	cJSON_Delete(plat);
	if (!text)
		return HM_EXIT_FAILURE;
	if (hm_platform_load_buffer(text, strlen(text), cs->out, &check, &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_FAILURE;
	} else if (doubts && !cs->accept_unreliable) {
		size_t len = strlen(text);

		text[len] = '\n';
		ret = keep_aside(cs->out, text, len + 1);
	} else {
		size_t len = strlen(text);

		text[len] = '\n';
		ret = hm_write_file_atomic(cs->out, text, len + 1, &err) ? HM_EXIT_OUTPUT : HM_EXIT_OK;
		if (ret)
			hm_say_report(&err);
		else
			hm_say_note("calibrate: wrote %s: %d processor%s of %d type%s\n", cs->out,
				check->nr_procs, check->nr_procs == 1 ? "" : "s", check->nr_types,
				check->nr_types == 1 ? "" : "s");
	}
	hm_platform_free(check);
	free(text);
	return ret;
}

/* Where a calibration's launches happen: one launch directory for all. */
struct launch_site {
	const struct cal_setup *cs;
	const struct hm_launcher *l;
	char **extra;
	int nextra;
	char dir[4096], file[4200], platform[4200];
};

/* Where a launcher binds by one CPU list for every host (MPICH, Slurm) and
 * the hosts need different ones (the shadow rank on one host, cores
 * numbered otherwise on another), each rank binds itself through
 * hetmap-probe to its line of a rank-cpus file, as 'run' does. */
struct self_binding {
	const char *probe;              /* NULL: the launcher binds */
	char probe_path[4096], cpus_file[4300], variable[4400], file_variable[4400];
	const char *env[8];             /* the ranks' environment, NULL-terminated */
	/* the launcher's own: the ranks', and where its file is for a
	 * launcher that reads it from a variable (SLURM_HOSTFILE) */
	const char *launcher_env[9];
};

/* sb->launcher_env from sb->env. */
static void launcher_environment(const struct launch_site *ls, struct self_binding *sb)
{
	int k = 0;

	while (sb->env[k])
		sb->launcher_env[k] = sb->env[k], k++;
	if (ls->l->file_variable) {
		snprintf(sb->file_variable, sizeof(sb->file_variable), "%s=%s", ls->l->file_variable, ls->file);
		sb->launcher_env[k++] = sb->file_variable;
	}
	sb->launcher_env[k] = NULL;
}

static int bind_by_probe(const struct launch_site *ls, const struct hm_placement *pl, struct self_binding *sb)
{
	char map[4096], *text;
	struct hm_error err;
	int k = 0;

	memset(sb, 0, sizeof(*sb));
	for (const char *const *e = hm_rank_environment; *e && k < 6; e++)
		sb->env[k++] = *e;
	if (ls->l->binds != HM_BINDS_ONE_LIST || hm_common_core_map(pl, map, sizeof(map))) {
		launcher_environment(ls, sb);
		return HM_EXIT_OK;
	}
	hm_error_clear(&err);
	if (!hm_helper_program("hetmap-probe", sb->probe_path, sizeof(sb->probe_path), &err)) {
		hm_say_error("calibrate: %s", err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	snprintf(sb->cpus_file, sizeof(sb->cpus_file), "%s/%s", ls->dir, HM_RANK_CPUS_FILE);
	snprintf(sb->variable, sizeof(sb->variable), "%s=%s", HM_RANK_CPUS_VARIABLE, sb->cpus_file);
	if (!(text = hm_rank_cpus_text(pl)) || hm_write_file_atomic(sb->cpus_file, text, strlen(text), &err)) {
		free(text);
		hm_say_error("calibrate: %s", err.msg[0] ? err.msg : "out of memory");
		return HM_EXIT_OUTPUT;
	}
	free(text);
	sb->env[k] = sb->variable;
	sb->probe = sb->probe_path;
	launcher_environment(ls, sb);
	return HM_EXIT_OK;
}

/* Launch 'program' (its words) as the ranks of 'pl', each line of its
 * output to on_line(ctx); 'what' names it in messages. An exit code. */
static int launch(const struct launch_site *ls, const struct hm_placement *pl, const struct hm_argv *program,
		  const char *what, void (*on_line)(const char *, void *), void *ctx)
{
	const struct cal_setup *cs = ls->cs;
	struct hm_launch x = { .pl = pl, .file = ls->file, .major = cs->launcher_major,
				.platform = ls->platform, .host_speed = cs->host_speed };
	struct hm_spawn_opts so = { cs->timeout, 5, hm_rank_environment, NULL, on_line, NULL, ctx, ls->dir };
	struct hm_spawn_result res;
	struct hm_argv a = { 0 };
	struct hm_error err;
	char *text = ls->l->file_text(pl), *line = NULL;
	int ret = HM_EXIT_FAILURE;
	struct self_binding sb = { 0 };

	hm_error_clear(&err);
	if (text && hm_write_file_atomic(ls->file, text, strlen(text), &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_OUTPUT;
	} else if (text && !(ret = bind_by_probe(ls, pl, &sb))) {
		ret = HM_EXIT_FAILURE;
		x.ranks_bind_themselves = sb.probe != NULL;
		x.env = sb.env;
		so.env = sb.launcher_env;
		hm_mpirun_argv(&a, ls->l, x, cs->mpirun, ls->extra, ls->nextra);
		if (sb.probe)
			hm_argv_add(&a, sb.probe);
		for (int i = 0; i < program->n; i++)
			hm_argv_add(&a, program->v[i]);
		if (!program->failed && !a.failed && (line = hm_argv_quoted(&a))) {
			hm_say_note("calibrate: %s\n", line);
			ret = hm_mpirun_spawn("calibrate", what, a.v, &so, &res, cs->mpirun);
		}
	}
	unlink(ls->file);
	if (text && sb.probe)
		unlink(sb.cpus_file);
	free(text);
	free(line);
	hm_argv_free(&a);
	return ret;
}

/* Each host's cores as hwloc sees them there: hetmap-topology, one rank
 * per host, through the launcher. An exit code (a host that did not
 * answer is an error: its binding would be guessed). */
static int read_topologies(const struct launch_site *ls, const struct host_list *h,
			   struct hm_node_topologies *topo)
{
	struct hm_placement pl;
	struct hm_argv program = { 0 };
	char path[PATH_MAX];
	struct hm_error err;
	int ret, missing = 0;

	hm_error_clear(&err);
	if (!hm_helper_program("hetmap-topology", path, sizeof(path), &err)) {
		hm_say_error("calibrate: %s", err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	if (hm_node_topologies_init(topo, h->nr_hosts, ls->cs->smt) ||
	    placement_of(h, 0, NULL, 1, &pl))
		return HM_EXIT_FAILURE;
	hm_argv_add(&program, path);
	if (ls->cs->smt)
		hm_argv_add(&program, "--smt");
	ret = launch(ls, &pl, &program, "hetmap-topology", hm_node_topology_line, topo);
	for (int i = 0; !ret && i < h->n; i++)
		if (!h->slot[i] && !topo->node[h->host_index[i]].seen) {
			const char *refused = topo->node[h->host_index[i]].refused;

			if (*refused)
				hm_say_error("calibrate: %s: hetmap-topology's line is not a topology hetmap "
					     "can use: %s", h->hosts[i], refused);
			else
				hm_say_error("calibrate: %s: no topology from hetmap-topology (is %s installed "
					     "there?)", h->hosts[i], program.v[0]);
			missing++;
		}
	if (missing)
		ret = HM_EXIT_JOB_FAILED;
	if (ret)
		hm_say_error("calibrate: the hosts' topologies were not read (without them, --no-topology "
			     "assumes core j of a host is its CPU j)");
	free(pl.ranks);
	hm_argv_free(&program);
	return ret;
}

/* Measure no more processes on a host than the cores hwloc finds allowed
 * there (the host list's count may be CPUs, that is hardware threads, or
 * more than a cgroup leaves): drop the rest, say so. */
static void fit_to_topologies(struct host_list *h, const struct hm_node_topologies *topo)
{
	int kept = 0;

	for (int i = 0; i < h->n; i++) {
		const struct hm_node_topology *node = &topo->node[h->host_index[i]];
		int given = 0;

		if (h->slot[i] < node->cores.cores) {
			h->names[kept] = h->names[i], h->hosts[kept] = h->hosts[i];
			h->slot[kept] = h->slot[i], h->host_index[kept++] = h->host_index[i];
			continue;
		}
		free(h->names[i]);
		if (h->slot[i] == node->cores.cores) {
			const char *unit = topo->threads_as_cores ? "hardware thread" : "core";

			for (int j = i; j < h->n && h->host_index[j] == h->host_index[i]; j++)
				given++;
			hm_say_note("calibrate: %s: %d processes listed, but hwloc finds %d %s%s allowed there "
				"(CPUs %s): measuring %d%s\n", h->hosts[i], node->cores.cores + given,
				node->cores.cores, unit, node->cores.cores > 1 ? "s" : "", node->cores.allowed,
				node->cores.cores, node->cores.threads_per_core > 1 && !topo->threads_as_cores ?
				" (--smt: one per hardware thread)" : "");
		}
	}
	h->n = kept;
}

static int calibrate(const struct cal_setup *cs, struct host_list *h, char **extra, int nextra)
{
	struct launch_site ls = { cs, hm_launcher_find(cs->launcher), extra, nextra, "", "", "" };
	struct hm_node_topologies topo = { 0 }, *known = NULL;
	struct hm_placement pl = { 0 };
	struct hm_argv program = { 0 };
	struct hm_error err;
	cJSON *raw = NULL;
	int ret;

	if ((ret = hm_mpirun_temp_dir("calibrate", ls.dir, sizeof(ls.dir))))
		return ret;
	snprintf(ls.file, sizeof(ls.file), "%s/%s", ls.dir, ls.l->file_name);
	snprintf(ls.platform, sizeof(ls.platform), "%s/%s", ls.dir, ls.l->platform_file ? ls.l->platform_file : "");
	hm_error_clear(&err);
	if (ls.l->platform_file && hm_write_file_atomic(ls.platform, cs->platform_xml, strlen(cs->platform_xml), &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_OUTPUT;
		goto out;
	}
	/* a simulator's hosts have no hardware to read */
	if (!ls.l->platform_file && !cs->no_topology) {
		if ((ret = read_topologies(&ls, h, &topo)))
			goto out;
		known = &topo;
		hm_node_topologies_describe(known, &(struct hm_host_ranks){ (const char *const *)h->hosts,
									   h->host_index, h->n });
		fit_to_topologies(h, known);
	}
	bench_argv(&program, cs, h);
	if (placement_of(h, ls.l->platform_file != NULL, known, 0, &pl)) {
		ret = HM_EXIT_FAILURE;
		goto out;
	}
	ret = launch(&ls, &pl, &program, "the benchmark", hm_calibration_raw_line, &raw);
	if (!ret && !raw) {
		hm_say_error("calibrate: the benchmark printed no measurements");
		ret = HM_EXIT_JOB_FAILED;
	}
	if (!ret)
		ret = write_platform(cs, h, raw, known);
out:
	cJSON_Delete(raw);
	if (ls.l->platform_file)
		unlink(ls.platform);
	rmdir(ls.dir);
	free(pl.ranks);
	hm_argv_free(&program);
	hm_node_topologies_release(&topo);
	return ret;
}

/* A simulator measures the processors of -p PLATFORM, each a host of its
 * cores: the host list, the exported platform (speeds at the middle block
 * size measured) and this machine's dgemm rate. An exit code. */
static int simulation_setup(struct cal_setup *cs, char **hosts_text)
{
	struct hm_platform *p;
	struct hm_error err;
	struct hm_text t = { 0 };
	int bs[64], nbs = 0, b, ret;

	if (!cs->platform) {
		hm_say_error("calibrate: --launcher %s simulates: give the simulated platform with -p", cs->launcher);
		return HM_EXIT_USAGE;
	}
	hm_error_clear(&err);
	if (hm_platform_load(cs->platform, &p, &err)) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	for (const char *s = cs->block_sizes; *s && nbs < 64; s += strcspn(s, ","), s += *s == ',')
		bs[nbs++] = atoi(s);
	b = bs[nbs / 2];
	for (int i = 0; i < p->nr_procs; i++)
		hm_text_addf(&t, "%s%s:%d", i ? "," : "", p->procs[i].name, p->procs[i].cores);
	*hosts_text = hm_text_done(&t);
	cs->platform_xml = hm_simgrid_platform(p, b, HM_SIM_EXECUTED, NULL, &err);
	hm_platform_free(p);
	if (!*hosts_text || !cs->platform_xml) {
		hm_say_error("calibrate: %s: %s", cs->platform, cs->platform_xml ? "out of memory" : err.msg);
		return HM_EXIT_INPUT;
	}
	if ((ret = hm_simulator_host_speed("calibrate", cs->host_speed_text, b, HM_SIM_EXECUTED,
					   &cs->host_speed)))
		return ret;
	hm_say_note("calibrate: simulating %s under SMPI; this machine's dgemm rate at b = %d: "
		"%.3f GFLOP/s\n", cs->platform, b, cs->host_speed / 1e9);
	return HM_EXIT_OK;
}

/* Where the processors to measure come from: --hosts, else --hostfile,
 * else the Slurm allocation calibrate runs in, else this machine's cores
 * ('local', of 'size' bytes). Sets cs->hosts; *found owns a list read from
 * a file or the allocation. 0, or an exit code after a message. */
static int hosts_to_measure(struct cal_setup *cs, const char *hostfile, char **found, char *local,
			    size_t size)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct hm_error err;

	hm_error_clear(&err);
	if (cs->hosts)
		return 0;
	if (hostfile) {
		int bare;

		if (!(*found = hm_hosts_from_hostfile(hostfile, &bare, &err))) {
			hm_say_report(&err);
			return HM_EXIT_INPUT;
		}
		hm_say_note("calibrate: the hosts of %s: %s\n", hostfile, *found);
		if (bare)
			fprintf(stderr, "calibrate: warning: %d line%s of %s give%s no slots: one each "
				"(MPICH's reading; Open MPI's would be the node's cores: write "
				"'HOST slots=N')\n", bare, bare > 1 ? "s" : "", hostfile, bare > 1 ? "" : "s");
	} else if (hm_in_slurm_allocation()) {
		if (!(*found = hm_hosts_from_slurm(&err))) {
			hm_say_report(&err);
			return HM_EXIT_USAGE;
		}
		hm_say_note("calibrate: the Slurm allocation's nodes and CPUs: %s\n", *found);
	} else {
		snprintf(local, size, "localhost:%ld", ncpu > 0 ? ncpu : 1);
		*found = NULL;
		cs->hosts = local;
		return 0;
	}
	cs->hosts = *found;
	return 0;
}

int cmd_calibrate(int argc, char **argv)
{
	/* b = 16 is not measured unless asked: LU at b = 16 on this machine's two
	 * cores ran slower than at 32 in 7 of 8 real groups (the driver and HPL,
	 * n = 2000-4000, two studies; up to 1.48x), faster in one (0.92x):
	 * per-panel work the models do not see, while its kernels measure within
	 * their noise of b = 32's (experiments/README.md, "Real runs") */
	struct cal_setup cs = { .name = "calibrated", .block_sizes = "32,64,128,256",
				.launcher = HM_DEFAULT_LAUNCHER, .rows = 1024, .repeat = 5, .tolerance = 0.20,
				.timeout = 600, .min_time = 0.2 };
	char *sim_hosts = NULL, *found_hosts = NULL;
	const char *hostfile = NULL;
	struct host_list h;
	char bench_buf[PATH_MAX], default_hosts[64];
	char **extra;
	int ret, nextra = 0;
	const struct hm_launcher *l;
	const char *launcher_args = NULL;
	struct hm_argv words = { 0 };
	struct hm_launcher_found found;
	struct hm_error err;

	{
		const struct hm_option opts[] = {
			{ 'H', "hosts", HM_OPT_STRING, &cs.hosts, "LIST", "HOST[:N],... processors to measure (default: --hostfile's, else the Slurm allocation's nodes and CPUs, else localhost:CORES)", 0, 0 },
			{ 0, "hostfile", HM_OPT_STRING, &hostfile, "FILE", "the hosts of an Open MPI ('host slots=N') or MPICH ('host:N') hostfile", 0, 0 },
			{ 'o', "output", HM_OPT_STRING, &cs.out, "FILE", "platform JSON to write (required)", 0, 0 },
			{ 0, "name", HM_OPT_STRING, &cs.name, "NAME", "platform name (default calibrated)", 0, 0 },
			{ 0, "block-sizes", HM_OPT_STRING, &cs.block_sizes, "LIST", "block sizes to measure, the plans' candidates (default 32,64,128,256)", 0, 0 },
			{ 0, "rows", HM_OPT_INT, &cs.rows, "M", "rows of the kernel shapes (default 1024)", 64, 16384 },
			{ 0, "repeat", HM_OPT_INT, &cs.repeat, "R", "repetitions of each measurement (default 5)", 1, 1000 },
			{ 0, "min-time", HM_OPT_DOUBLE, &cs.min_time, "S", "each sample repeats a kernel for at least S seconds (default 0.2: many periods of a CPU quota)", 0, 60 },
			{ 0, "link-rounds", HM_OPT_INT, &cs.link_rounds, "R", "pairs of hosts measured at once in R rounds, each host against R partners, before each host still only bounded is paired with a fast one (default: every pair up to " HM_STR(HM_LINK_ALL_PAIRS_UP_TO) " hosts, else " HM_STR(HM_LINK_FIRST_ROUNDS) ")", 1, 100000 },
			{ 0, "tolerance", HM_OPT_DOUBLE, &cs.tolerance, "T", "relative difference within which processors share a type (default 0.20)", 0, 10 },
			{ 0, "mpirun", HM_OPT_STRING, &cs.mpirun, "PATH", "the mpirun to start (default: mpirun.openmpi or mpirun in PATH)", 0, 0 },
			{ 0, "launcher-args", HM_OPT_STRING, &launcher_args, "WORDS", "more mpirun options, split at blanks (or after '--')", 0, 0 },
			{ 'L', "launcher", HM_OPT_STRING, &cs.launcher, "L", hm_help_launchers("launcher", 1), 0, 0 },
			{ 'p', "platform", HM_OPT_STRING, &cs.platform, "FILE", "smpi: the simulated platform, whose processors are measured", 0, 0 },
			{ 0, "host-speed", HM_OPT_STRING, &cs.host_speed_text, "RATE", "smpi: this machine's dgemm rate per core, e.g. 50Gf (default: measured)", 0, 0 },
			{ 0, "bench", HM_OPT_STRING, &cs.bench, "PATH", "the benchmark (default: hetmap-calibrate-bench beside hetmap)", 0, 0 },
			{ 0, "timeout", HM_OPT_DOUBLE, &cs.timeout, "S", "stop after S seconds (default 600)", 0, 1e7 },
			{ 0, "split-cores", HM_OPT_FLAG, &cs.split, NULL, "one processor per measured core (HOST-0 .., 1 core each) instead of one per node", 0, 0 },
			{ 0, "all-busy-only", HM_OPT_FLAG, &cs.all_busy_only, NULL, "measure with every core busy only: no busy-cores scale (faster)", 0, 0 },
			{ 0, "accept-unreliable", HM_OPT_FLAG, &cs.accept_unreliable, NULL, "write the platform even when its measurements are too unsteady to trust (see below)", 0, 0 },
			{ 0, "no-shapes", HM_OPT_FLAG, &cs.no_shapes, NULL, "do not time kernel shapes: no kernel models for the simulator's modeled kernels (faster)", 0, 0 },
			{ 0, "smt", HM_OPT_FLAG, &cs.smt, NULL, "a process per hardware thread: every thread of a core counts as a core", 0, 0 },
			{ 0, "no-topology", HM_OPT_FLAG, &cs.no_topology, NULL, "do not read the nodes' topologies with hwloc: core j of a host is taken to be its CPU j", 0, 0 },
			HM_OPT_TABLE_END,
		};

		struct hm_usage u = usage;

		u.epilog = epilog();
		if ((ret = hm_options_parse_rest(&u, opts, argc, argv, &extra, &nextra)) >= 0)
			return ret;
	}
	if (!cs.out) {
		hm_say_error("calibrate: -o FILE is required (the platform to write)");
		return HM_EXIT_USAGE;
	}
	if (!(l = hm_calibration_launcher("calibrate", cs.launcher)))
		return HM_EXIT_USAGE;
	{
		const struct hm_option_rule rules[] = {
			{ cs.platform || cs.host_speed_text, l->platform_file != NULL,
			  "-p and --host-speed are for a simulator (--launcher smpi)" },
			{ cs.smt, !cs.no_topology, "--smt counts the hardware threads hwloc reads on each node: not with --no-topology" },
			{ cs.smt, !l->platform_file, "--smt counts the hardware threads hwloc reads on each node: not with a simulator" },
			{ cs.hosts && hostfile, 0, "give --hosts or --hostfile, not both" },
			{ launcher_args && nextra, 0, "give mpirun's options either with --launcher-args or after '--'" },
		};

		if (HM_OPTION_RULES_CHECK("calibrate", rules))
			return HM_EXIT_USAGE;
	}
	hm_error_clear(&err);
	if (hm_launcher_detect(l, cs.mpirun, 0, 1, &found, &err)) {
		hm_say_report(&err);
		return HM_EXIT_NO_MPIRUN;
	}
	cs.mpirun = found.program;
	cs.launcher_major = found.major;
	{
		/* the block sizes reach the benchmark as one argument: check them here */
		const char *s = cs.block_sizes;

		if (!*s || strspn(s, "0123456789,") != strlen(s) || strstr(s, ",,") || *s == ',' ||
		    s[strlen(s) - 1] == ',') {
			hm_say_error("calibrate: --block-sizes must be a list like 32,64,128");
			return HM_EXIT_USAGE;
		}
	}
	if (!cs.bench) {
		char name[64];

		hm_error_clear(&err);
		snprintf(name, sizeof(name), "hetmap-calibrate-bench%s", l->flavour);
		if (!(cs.bench = hm_helper_program(name, bench_buf, sizeof(bench_buf), &err))) {
			hm_say_error("calibrate: %s", err.msg);
			return HM_EXIT_NO_MPIRUN;
		}
	}
	if (l->platform_file && (ret = simulation_setup(&cs, &sim_hosts))) {
		free(sim_hosts);
		free(cs.platform_xml);
		return ret;
	}
	if (!sim_hosts && (ret = hosts_to_measure(&cs, hostfile, &found_hosts, default_hosts,
						  sizeof(default_hosts)))) {
		free(cs.platform_xml);
		return ret;
	}
	ret = parse_hosts(sim_hosts ? sim_hosts : cs.hosts,
			  sim_hosts ? "the simulated platform" : hostfile ? hostfile :
			  found_hosts ? "the Slurm allocation" : "--hosts", &h);
	free(found_hosts);      /* parse_hosts keeps a copy */
	if (ret) {
		host_list_free(&h);
		free(sim_hosts);
		free(cs.platform_xml);
		return HM_EXIT_USAGE;
	}
	if (launcher_args) {
		hm_argv_split(&words, launcher_args);
		extra = words.v, nextra = words.n;
	}
	ret = calibrate(&cs, &h, extra, nextra);
	hm_argv_free(&words);
	host_list_free(&h);
	free(sim_hosts);
	free(cs.platform_xml);
	return hm_cli_finish(ret);
}

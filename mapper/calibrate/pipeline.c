/* mapper/calibrate/pipeline.c - see pipeline.h. */
#include "pipeline.h"
#include "bench_launch.h"
#include "host_list.h"
#include "host_source.h"
#include "node_topologies.h"
#include "mapper/launch/exit_code.h"
#include "mapper/launch/job.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/results.h"
#include "mapper/launch/slurm_alloc.h"
#include "models/platform/calibration.h"
#include "models/platform/calibration_trust.h"
#include "models/platform/platform.h"
#include "models/platform/simgrid_platform.h"
#include "models/util/atomic_file.h"
#include "models/util/say.h"
#include "models/util/strbuild.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the stages make, each from the ones before it. */
struct calibration {
	const struct hm_calibration_setup *cs;
	char **extra;
	int nextra;
	struct hm_host_list h;          /* hosts */
	char *hosts_found;              /* hosts: a list read from a file, the allocation or the simulated platform */
	char local[64];                 /* hosts: this machine's "localhost:CORES" */
	char *platform_xml;             /* hosts: a simulator's exported platform */
	struct hm_bench_site ls;        /* site */
	struct hm_node_topologies topo; /* topology */
	const struct hm_node_topologies *known;   /* topology: &topo once read, else NULL */
	cJSON *raw;                     /* measure: the benchmark's JSON */
	cJSON *plat;                    /* fit: the platform document */
	int doubts;                     /* trust */
};

/* hosts, for a simulator: the processors of -p PLATFORM, each a host of
 * its cores; the exported platform (speeds at the middle block size
 * measured) and this machine's dgemm rate. */
static int simulated_hosts(struct calibration *c)
{
	const struct hm_calibration_setup *cs = c->cs;
	struct hm_platform *p;
	struct hm_error err;
	struct hm_text t = { 0 };
	int bs[64], nbs = 0, b, ret;

	if (!cs->platform) {
		hm_say_error("calibrate: --launcher %s simulates: give the simulated platform with -p", cs->l->name);
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
	c->hosts_found = hm_text_done(&t);
	c->platform_xml = hm_simgrid_platform(p, b, HM_SIM_EXECUTED, NULL, &err);
	hm_platform_free(p);
	if (!c->hosts_found || !c->platform_xml) {
		hm_say_error("calibrate: %s: %s", cs->platform, c->platform_xml ? "out of memory" : err.msg);
		return HM_EXIT_INPUT;
	}
	if ((ret = hm_simulator_host_speed("calibrate", cs->host_speed_text, b, HM_SIM_EXECUTED,
					   &c->ls.host_speed)))
		return ret;
	hm_say_note("calibrate: simulating %s under SMPI; this machine's dgemm rate at b = %d: "
		    "%.3f GFLOP/s\n", cs->platform, b, c->ls.host_speed / 1e9);
	return hm_host_list_parse(c->hosts_found, "the simulated platform", &c->h) ? HM_EXIT_USAGE : HM_EXIT_OK;
}

/* hosts: --hosts, else --hostfile, else the Slurm allocation calibrate
 * runs in, else this machine's cores. */
static int stage_hosts(struct calibration *c)
{
	const struct hm_calibration_setup *cs = c->cs;
	const char *list = cs->hosts, *source = "--hosts";
	struct hm_error err;

	if (c->cs->l->simulated)
		return simulated_hosts(c);
	hm_error_clear(&err);
	if (list) {
		/* as given */
	} else if (cs->hostfile) {
		int bare;

		if (!(list = c->hosts_found = hm_hosts_from_hostfile(cs->hostfile, &bare, &err))) {
			hm_say_report(&err);
			return HM_EXIT_INPUT;
		}
		source = cs->hostfile;
		hm_say_note("calibrate: the hosts of %s: %s\n", cs->hostfile, list);
		if (bare)
			hm_say_error("calibrate: warning: %d line%s of %s give%s no slots: one each "
				     "(MPICH's reading; Open MPI's would be the node's cores: write "
				     "'HOST slots=N')", bare, bare > 1 ? "s" : "", cs->hostfile, bare > 1 ? "" : "s");
	} else if (hm_in_slurm_allocation()) {
		if (!(list = c->hosts_found = hm_hosts_from_slurm(&err))) {
			hm_say_report(&err);
			return HM_EXIT_USAGE;
		}
		source = "the Slurm allocation";
		hm_say_note("calibrate: the Slurm allocation's nodes and CPUs: %s\n", list);
	} else {
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		snprintf(c->local, sizeof(c->local), "localhost:%ld", ncpu > 0 ? ncpu : 1);
		list = c->local;
	}
	return hm_host_list_parse(list, source, &c->h) ? HM_EXIT_USAGE : HM_EXIT_OK;
}

/* site: one launch directory for every launch, a simulator's platform in it. */
static int stage_site(struct calibration *c)
{
	struct hm_bench_site *ls = &c->ls;
	const struct hm_launcher *l = c->cs->l;
	struct hm_error err;
	int ret;

	ls->l = l, ls->mpirun = c->cs->mpirun, ls->launcher_major = c->cs->launcher_major;
	ls->timeout = c->cs->timeout, ls->extra = c->extra, ls->nextra = c->nextra;
	if ((ret = hm_mpirun_temp_dir("calibrate", ls->dir, sizeof(ls->dir))))
		return ret;
	snprintf(ls->file, sizeof(ls->file), "%s/%s", ls->dir, l->file_name);
	snprintf(ls->platform, sizeof(ls->platform), "%s/%s", ls->dir, l->platform_file ? l->platform_file : "");
	hm_error_clear(&err);
	if (l->platform_file && hm_write_file_atomic(ls->platform, c->platform_xml, strlen(c->platform_xml), &err)) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	return HM_EXIT_OK;
}

/* topology: each host's cores as hwloc sees them there, hetmap-topology
 * one rank per host through the launcher (a host that did not answer is
 * an error: its binding would be guessed); the list trimmed to them. A
 * simulator's hosts have no hardware to read. */
static int stage_topology(struct calibration *c)
{
	const struct hm_host_list *h = &c->h;
	struct hm_placement pl = { 0 };
	struct hm_argv program = { 0 };
	char path[PATH_MAX];
	struct hm_error err;
	int ret, missing = 0;

	if (c->cs->l->simulated || c->cs->no_topology)
		return HM_EXIT_OK;
	hm_error_clear(&err);
	if (!hm_helper_program("hetmap-topology", path, sizeof(path), &err)) {
		hm_say_error("calibrate: %s", err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	if (hm_node_topologies_init(&c->topo, h->nr_hosts, c->cs->smt) ||
	    hm_bench_placement(h, 0, NULL, 1, &pl)) {
		free(pl.ranks);
		return HM_EXIT_FAILURE;
	}
	hm_argv_add(&program, path);
	if (c->cs->smt)
		hm_argv_add(&program, "--smt");
	ret = hm_bench_launch(&c->ls, &pl, &program, "hetmap-topology", hm_node_topology_line, &c->topo);
	for (int i = 0; !ret && i < h->n; i++)
		if (!h->slot[i] && !c->topo.node[h->host_index[i]].seen) {
			const char *refused = c->topo.node[h->host_index[i]].refused;

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
	if (ret)
		return ret;
	c->known = &c->topo;
	hm_node_topologies_describe(c->known, &(struct hm_host_ranks){ (const char *const *)h->hosts,
								       h->host_index, h->n });
	hm_host_list_fit(&c->h, c->known);
	return HM_EXIT_OK;
}

/* --threads auto: the counts every measured host allows, into buf ("2,4,8"
 * or "" when a host has one core): the powers of two up to the smallest
 * host's measured cores, and the cores of one of its NUMA domains and of
 * one of its packages where the topology says (split evenly), at most
 * HM_MAX_THREAD_COUNTS, ascending. */
static const char *thread_counts_auto(const struct calibration *c, char *buf, size_t size)
{
	int per_host[HM_CAL_MAX_PROCS] = { 0 }, least = 0, t[HM_MAX_THREAD_COUNTS + 3], n = 0;
	size_t len = 0;

	for (int i = 0; i < c->h.n; i++)
		per_host[c->h.host_index[i]]++;
	for (int k = 0; k < c->h.nr_hosts; k++)
		least = !least || per_host[k] < least ? per_host[k] : least;
	for (int v = 2; v <= least && n < HM_MAX_THREAD_COUNTS; v *= 2)
		t[n++] = v;
	/* the first host's domains: a cluster's nodes are alike, and 'least' fits all */
	if (c->known && c->known->n > 0 && c->known->node[0].seen) {
		const struct hm_node_topology *node = &c->known->node[0];
		int parts[2] = { node->packages, node->cores.numa_nodes };

		for (int j = 0; j < 2; j++)
			if (parts[j] > 1 && least % parts[j] == 0 && least / parts[j] >= 2)
				t[n++] = least / parts[j];
	}
	/* ascending, each once, at most HM_MAX_THREAD_COUNTS */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && t[j - 1] > t[j]; j--) {
			int x = t[j];

			t[j] = t[j - 1], t[j - 1] = x;
		}
	buf[0] = '\0';
	for (int i = 0, kept = 0; i < n && kept < HM_MAX_THREAD_COUNTS; i++)
		if (!i || t[i] != t[i - 1])
			hm_buf_addf(buf, size, &len, kept++ ? ",%d" : "%d", t[i]);
	return buf;
}

/* The benchmark and its arguments, after the launcher's command. */
static void bench_argv(struct hm_argv *a, const struct calibration *c)
{
	const struct hm_calibration_setup *cs = c->cs;
	const struct hm_host_list *h = &c->h;
	char counts[128];

	hm_argv_add(a, cs->bench);
	hm_argv_add(a, "--block-sizes");
	hm_argv_add(a, cs->block_sizes);
	hm_argv_addf(a, "--rows=%d", cs->rows);
	hm_argv_addf(a, "--repeat=%d", cs->repeat);
	hm_argv_addf(a, "--min-time=%g", cs->min_time);
	hm_argv_addf(a, "--link-rounds=%d", cs->link_rounds);
	hm_argv_add(a, "--shadow");
	if (hm_verbosity < 1)
		hm_argv_add(a, "--quiet");     /* -q: the benchmark's progress too */
	if (!cs->split && !cs->all_busy_only && h->nr_hosts < h->n)
		hm_argv_add(a, "--alone");     /* the busy-cores scale of nodes */
	if (!cs->no_shapes)
		hm_argv_add(a, "--shapes");    /* the kernel models of the simulator */
	if (cs->threads && cs->thread_rows)
		hm_argv_addf(a, "--thread-rows=%d", cs->thread_rows);
	if (cs->threads && strcmp(cs->threads, "auto"))
		hm_argv_addf(a, "--threads=%s", cs->threads);   /* ranks of t threads */
	else if (cs->threads && *thread_counts_auto(c, counts, sizeof(counts)))
		hm_argv_addf(a, "--threads=%s", counts);
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

/* measure: the benchmark, one rank per processor and a shadow beside the
 * first (wrappers/calibrate_bench.c: its phases), its JSON kept. */
static int stage_measure(struct calibration *c)
{
	struct hm_placement pl = { 0 };
	struct hm_argv program = { 0 };
	int ret = HM_EXIT_FAILURE;

	bench_argv(&program, c);
	if (!hm_bench_placement(&c->h, c->cs->l->simulated, c->known, 0, &pl))
		ret = hm_bench_launch(&c->ls, &pl, &program, "the benchmark", hm_calibration_raw_line, &c->raw);
	if (!ret && !c->raw) {
		hm_say_error("calibrate: the benchmark printed no measurements");
		ret = HM_EXIT_JOB_FAILED;
	}
	free(pl.ranks);
	hm_argv_free(&program);
	return ret;
}

/* fit: kernels, types and links into a platform document
 * (models/platform/calibration.c), the nodes' topologies recorded in it. */
static int stage_fit(struct calibration *c)
{
	const struct hm_calibration_setup *cs = c->cs;
	const struct hm_host_list *h = &c->h;
	struct hm_calibration_opts o = { cs->name, cs->tolerance, (const char *const *)h->names,
					 (const char *const *)h->hosts, NULL, h->n, 0, !cs->split, NULL };
	struct hm_host_ranks ranks = { (const char *const *)h->hosts, h->host_index, h->n };
	const cJSON *mem = cJSON_GetObjectItemCaseSensitive(c->raw, "memory_bytes_rank0_host");
	struct hm_error err;
	char when[32];

	/* memory is only known for the first host: share it when it is the only one */
	if (h->nr_hosts == 1 && cJSON_IsNumber(mem) && mem->valuedouble > 0)
		o.memory_per_proc = mem->valuedouble / h->n;
	o.when = hm_utc_timestamp(when, sizeof(when));
	hm_error_clear(&err);
	if (!(c->plat = hm_calibration_platform(c->raw, &o, &err))) {
		hm_say_error("calibrate: the measurements cannot be used: %s: %s", err.path, err.msg);
		return HM_EXIT_FAILURE;
	}
	if (c->known && hm_node_topologies_record(c->known, c->plat, &ranks)) {
		hm_say_error("calibrate: the processors do not fit the topologies read (out of memory?)");
		return HM_EXIT_FAILURE;
	}
	return HM_EXIT_OK;
}

static void say_doubt(void *ctx, const char *type, const char *line)
{
	(void)ctx;
	/* a warning, not progress: -q keeps it */
	hm_say_error("calibrate: warning: %s: %s", type, line);
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
		hm_say_note("calibrate: %s: %s\n", facts->string, line);
	}
	return hm_trust_doubts(record, say_doubt, NULL);
}

/* trust: how far each type can be trusted (calibration_trust.h). */
static int stage_trust(struct calibration *c)
{
	c->doubts = report_trust(c->plat);
	return HM_EXIT_OK;
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

/* The output could not be written after every measurement was made: the
 * platform goes to a file of its own under $TMPDIR, said, so that the
 * minutes of measuring are not lost. HM_EXIT_OUTPUT either way. */
static int keep_measurements(const char *out, const char *text, size_t len)
{
	const char *dir = getenv("TMPDIR");
	char path[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/hetmap-calibration-XXXXXX", dir && *dir == '/' ? dir : "/tmp");
	if ((fd = mkstemp(path)) >= 0 && write(fd, text, len) == (ssize_t)len && !fsync(fd) && !close(fd)) {
		hm_say_error("calibrate: %s was not written; the measurements are kept in %s (copy it there, or plan "
			     "with it as it is)", out, path);
		return HM_EXIT_OUTPUT;
	}
	if (fd >= 0)
		close(fd), unlink(path);
	hm_say_error("calibrate: %s was not written, nor a copy in %s: the measurements are lost", out,
		     dir && *dir == '/' ? dir : "/tmp");
	return HM_EXIT_OUTPUT;
}

/* What the card phase measured, in words (the record's card). */
static void say_card(const cJSON *plat)
{
	const cJSON *card = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(plat, "calibration"),
							      "card");
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(card, "host");
	const cJSON *stretch = cJSON_GetObjectItemCaseSensitive(card, "stretch");
	int n = cJSON_GetArraySize(stretch);
	const cJSON *last = cJSON_GetArrayItem(stretch, n - 1);

	if (cJSON_IsString(host) && n >= 2 && cJSON_IsNumber(last))
		hm_say_note("calibrate: %s's card: %d of its ranks sending off it at once each took %.2fx one's "
			    "time\n", host->valuestring, n, last->valuedouble);
}

/* write: the platform, once hetmap reads it back, or kept aside when in
 * doubt (unless --accept-unreliable). */
static int stage_write(struct calibration *c)
{
	const struct hm_calibration_setup *cs = c->cs;
	struct hm_platform *check = NULL;
	struct hm_error err;
	char *text = cJSON_Print(c->plat);
	size_t len;
	int ret;

	if (!text)
		return HM_EXIT_FAILURE;
	say_card(c->plat);
	hm_error_clear(&err);
	len = strlen(text);
	ret = hm_platform_load_buffer(text, len, cs->out, &check, &err);
	text[len] = '\n';       /* cJSON_Print's NUL becomes the final newline */
	if (ret) {
		hm_say_report(&err);
		ret = HM_EXIT_FAILURE;
	} else if (c->doubts && !cs->accept_unreliable) {
		ret = keep_aside(cs->out, text, len + 1);
	} else if (hm_write_file_atomic(cs->out, text, len + 1, &err)) {
		hm_say_report(&err);
		ret = keep_measurements(cs->out, text, len + 1);
	} else {
		hm_say_note("calibrate: wrote %s: %d processor%s of %d type%s\n", cs->out, check->nr_procs,
			    check->nr_procs == 1 ? "" : "s", check->nr_types, check->nr_types == 1 ? "" : "s");
		ret = HM_EXIT_OK;
	}
	hm_platform_free(check);
	free(text);
	return ret;
}

static const struct stage {
	const char *name, *what;
	int (*run)(struct calibration *c);
} stages[] = {
	{ "hosts", "the processors to measure", stage_hosts },
	{ "site", "one launch directory for every launch", stage_site },
	{ "topology", "each host's cores as hwloc sees them", stage_topology },
	{ "measure", "hetmap-calibrate-bench on every processor at once", stage_measure },
	{ "fit", "kernels, types and links into a platform", stage_fit },
	{ "trust", "how far each type can be trusted", stage_trust },
	{ "write", "the platform, or kept aside when in doubt", stage_write },
};
#define NR_STAGES (int)(sizeof(stages) / sizeof(stages[0]))

const char *hm_calibration_stage_list(char *buf, int size)
{
	int len = 0;

	buf[0] = '\0';
	for (int i = 0; i < NR_STAGES && len < size; i++)
		len += snprintf(buf + len, (size_t)(size - len), "  %-9s %s\n", stages[i].name, stages[i].what);
	return buf;
}

static void release(struct calibration *c)
{
	if (c->ls.dir[0]) {
		if (c->ls.l->platform_file)
			unlink(c->ls.platform);
		rmdir(c->ls.dir);
	}
	cJSON_Delete(c->plat);
	cJSON_Delete(c->raw);
	hm_node_topologies_release(&c->topo);
	hm_host_list_free(&c->h);
	free(c->hosts_found);
	free(c->platform_xml);
}

int hm_calibrate(const struct hm_calibration_setup *cs, char **extra, int nextra)
{
	/* the host list alone is 80 kB: not on the stack */
	struct calibration *c = calloc(1, sizeof(*c));
	int ret = HM_EXIT_OK;

	if (!c)
		return HM_EXIT_FAILURE;
	c->cs = cs, c->extra = extra, c->nextra = nextra;
	/* the output checked before any measurement: a missing folder or a
	 * link must not end a long calibration with nothing written */
	{
		struct hm_error err;

		hm_error_clear(&err);
		if (cs->out && hm_atomic_check(cs->out, &err)) {
			hm_say_report(&err);
			free(c);
			return HM_EXIT_OUTPUT;
		}
	}
	for (int i = 0; i < NR_STAGES && ret == HM_EXIT_OK; i++) {
		hm_say_detail("calibrate: stage %d/%d, %s: %s\n", i + 1, NR_STAGES, stages[i].name, stages[i].what);
		ret = stages[i].run(c);
	}
	release(c);
	free(c);
	return ret;
}

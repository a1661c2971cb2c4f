/* tests/test_launch.c - the pieces of a launch that need no MPI: Slurm's
 * host lists and CPU counts, the common core map, placeholders, the
 * profiles' readers on lines the real programs printed (xdlu, HPL inside
 * hpcc), the column-major reordering, the nodes' topologies as
 * hetmap-topology prints them, recorded into a platform and bound by
 * every launcher; a search result placed directly as its plan file would
 * place it. */
#include "check.h"
#include "mapper/launch/app_profile.h"
#include "mapper/calibrate/host_source.h"
#include "mapper/launch/launcher.h"
#include "mapper/calibrate/node_topologies.h"
#include "mapper/launch/placement_check.h"
#include "mapper/launch/plan_values.h"
#include "mapper/launch/results.h"
#include "mapper/launch/run_load.h"
#include "mapper/launch/slurm_alloc.h"
#include "models/model.h"
#include "models/util/nearest_name.h"
#include "search/search.h"
#include "models/util/decimal.h"
#include "models/platform/hostname.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void slurm_host_lists_should_expand(void)
{
	struct hm_error err;
	char **names;
	int *cpus, n;

	n = hm_slurm_hostlist("n[01-03,7],gpu1,rack[9-10]a", &names, &err);
	CHECK(n == 7);
	if (n == 7) {
		CHECK(!strcmp(names[0], "n01") && !strcmp(names[2], "n03") && !strcmp(names[3], "n7"));
		CHECK(!strcmp(names[4], "gpu1") && !strcmp(names[5], "rack9a") && !strcmp(names[6], "rack10a"));
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	/* several groups in one name, as Slurm expands them: the first slowest */
	n = hm_slurm_hostlist("rack[1-2]-n[01-04],a[1-2]b[3,5]c", &names, &err);
	CHECK(n == 12);
	if (n == 12) {
		CHECK(!strcmp(names[0], "rack1-n01") && !strcmp(names[3], "rack1-n04"));
		CHECK(!strcmp(names[4], "rack2-n01") && !strcmp(names[7], "rack2-n04"));
		CHECK(!strcmp(names[8], "a1b3c") && !strcmp(names[9], "a1b5c") && !strcmp(names[11], "a2b5c"));
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	names = NULL;
	CHECK(hm_slurm_hostlist("n[1[2]]", &names, &err) < 0 && !names);
	CHECK(hm_slurm_hostlist("a[0-999]b[0-999]", &names, &err) < 0 && !names);     /* bounded */
	CHECK(hm_slurm_hostlist("n[3-1]", &names, &err) < 0);
	CHECK(hm_slurm_hostlist("n[1-2", &names, &err) < 0);
	CHECK(hm_slurm_hostlist("n[0-99999999]", &names, &err) < 0);
	n = hm_slurm_cpus("4(x2),2", &cpus, &err);
	CHECK(n == 3 && cpus[0] == 4 && cpus[1] == 4 && cpus[2] == 2);
	free(cpus);
	CHECK(hm_slurm_cpus("4(x2", &cpus, &err) < 0);
	CHECK(hm_slurm_cpus("0", &cpus, &err) < 0);
	/* numbers beyond their range are refused, never saturated, wrapped
	 * or truncated into another number */
	{
		static const char *const lists[] = {
			"n[9223372036854775807]", "n[9223372036854775806-9223372036854775807]",
			"n[99999999999999999999]", "n[1-99999999999999999999]", "n[1000000000]", "n[+1]",
			"n[ 1]", "n[-1]", "n[1--2]",
		};
		static const char *const specs[] = {
			"4294967298", "2147483648", "99999999999999999999", "2(x4294967297)", "2(x99999999999999999999)",
			"+2", " 2", "1048577",
		};

		for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
			names = NULL;
			CHECK(hm_slurm_hostlist(lists[i], &names, &err) < 0 && !names);
		}
		for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
			cpus = NULL;
			CHECK(hm_slurm_cpus(specs[i], &cpus, &err) < 0 && !cpus);
		}
		n = hm_slurm_hostlist("n[999999998-999999999]", &names, &err);
		CHECK(n == 2 && !strcmp(names[1], "n999999999"));
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
		n = hm_slurm_cpus("1048576", &cpus, &err);
		CHECK(n == 1 && cpus[0] == 1048576);
		free(cpus);
	}
}

/* 'text' as a hostfile in a scratch file, its host list (NULL: refused). */
static int bare_lines;

static char *hostfile_list(const char *text, struct hm_error *err)
{
	char path[] = "/tmp/hetmap-hostfile-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	char *list = NULL;

	if (f && fputs(text, f) >= 0 && !fclose(f)) {
		hm_error_clear(err);
		list = hm_hosts_from_hostfile(path, &bare_lines, err);
	}
	if (fd >= 0)
		unlink(path);
	return list;
}

static int hostfile_gives(const char *text, const char *want)
{
	struct hm_error err = { 0 };
	char *list = hostfile_list(text, &err);
	int ok = list && !strcmp(list, want);

	if (!ok)
		printf("  hostfile gave '%s' (%s), want '%s'\n", list ? list : "NULL", err.msg, want);
	free(list);
	return ok;
}

static int hostfile_refused(const char *text, const char *why)
{
	struct hm_error err = { 0 };
	char *list = hostfile_list(text, &err);
	int ok = !list && strstr(err.msg, why);

	free(list);
	return ok;
}

static void hostfiles_should_read_both_formats(void)
{
	/* Open MPI: slots=, other keys ignored, comments, a host again adds */
	CHECK(hostfile_gives("# the nodes\nn01 slots=4 max_slots=8\n\nn02 slots=2  # old one\nn01 slots=4\n",
			     "n01:8,n02:2") && bare_lines == 0);
	/* MPICH: host:n, a bare host is one slot, per line */
	CHECK(hostfile_gives("a:2\nb\nb\r\n\tc:1\n", "a:2,b:2,c:1") && bare_lines == 2);
	CHECK(hostfile_refused("", "no host"));
	CHECK(hostfile_refused("# only a comment\n\n", "no host"));
	CHECK(hostfile_refused("a slots=0\n", "line 1: 'slots=0' needs a count"));
	CHECK(hostfile_refused("a\nb:x\n", "line 2: 'b:x' needs a count"));
	CHECK(hostfile_refused("a:1025\n", "needs a count"));
	CHECK(hostfile_refused("a:600\na:600\n", "more than 1024 slots"));
	CHECK(hostfile_refused(":4\n", "no host name"));
}

static void slurm_allocations_should_give_hosts(void)
{
	struct hm_error err;
	char *list;

	setenv("SLURM_JOB_NODELIST", "n[01-02],gpu1", 1);
	setenv("SLURM_JOB_CPUS_PER_NODE", "4(x2),8", 1);
	CHECK(hm_in_slurm_allocation());
	list = hm_hosts_from_slurm(&err);
	CHECK(list && !strcmp(list, "n01:4,n02:4,gpu1:8"));
	free(list);
	setenv("SLURM_JOB_CPUS_PER_NODE", "4", 1);
	CHECK(!hm_hosts_from_slurm(&err) && strstr(err.msg, "3 nodes but CPUs for 1"));
	unsetenv("SLURM_JOB_NODELIST");
	unsetenv("SLURM_JOB_CPUS_PER_NODE");
	CHECK(!hm_in_slurm_allocation() && !hm_hosts_from_slurm(&err));
}

/* Four ranks: a, a, b, a with cores 0, 1, 0, 2. */
static void fill(struct hm_placement *pl, struct hm_rank_place *r)
{
	static const char *const host[] = { "a", "a", "b", "a" };
	static const int core[] = { 0, 1, 0, 2 };

	memset(pl, 0, sizeof(*pl));
	pl->D = 4, pl->r = 2, pl->c = 2, pl->n = 100, pl->b = 8;
	strcpy(pl->routine, "lu");
	for (int k = 0; k < 4; k++)
		r[k] = (struct hm_rank_place){ .processor = "p", .host = host[k], .slot = core[k],
					       .cores = 1, .stacked = 1, .core = core[k], .cpu = core[k],
					       .sockets = 1, .threads = 1 };
	pl->ranks = r;
	hm_placement_number_hosts(pl);
}

static void core_maps_should_agree_or_refuse(void)
{
	struct hm_placement pl;
	struct hm_rank_place r[4];
	char buf[64];

	fill(&pl, r);
	CHECK(hm_common_core_map(&pl, HM_SET_SINGLE, buf, sizeof(buf)) && !strcmp(buf, "0,1,2"));
	r[2].core = r[2].cpu = 1;      /* b's first rank wants core 1, a's core 0 */
	CHECK(hm_common_core_map(&pl, HM_SET_SINGLE, buf, sizeof(buf)) == NULL);
}

static void placeholders_should_render_or_refuse(void)
{
	struct hm_placement pl;
	struct hm_rank_place r[4];
	struct hm_run_values v = { &pl, 7, "/job" };
	struct hm_error err;
	char *s;

	fill(&pl, r);
	s = hm_render("-n {n} -b {b} {r}x{c} D={D} {routine} {{x}} {dir} {seed}", &v, "t", &err);
	CHECK(s && !strcmp(s, "-n 100 -b 8 2x2 D=4 lu {x} /job 7"));
	free(s);
	CHECK(!hm_render("{nb}", &v, "t", &err) && strstr(err.msg, "unknown placeholder '{nb}'"));
	CHECK(!hm_render("{n", &v, "t", &err) && strstr(err.msg, "unclosed"));
	CHECK(!hm_render("a}b", &v, "t", &err) && strstr(err.msg, "lone '}'"));
}

static void feed(const char *profile, const char *const *lines, struct hm_app_result *r)
{
	const struct hm_app_profile *p = hm_app_profile_find(profile);

	hm_app_result_init(r);
	for (int i = 0; lines[i]; i++)
		p->read_line(r, lines[i]);
}

/* Lines as Debian's xdlu and hpcc printed them on this machine. */
static void readers_should_read_the_real_programs(void)
{
	static const char *const xdlu[] = {
		"TIME     M     N  NB NRHS NBRHS    P    Q  LU Time Sol Time  MFLOPS  CHECK",
		"WALL   600   600  32     1    1    1    2     0.01     0.00 22680.57 PASSED",
		"    0 tests skipped because of illegal input values.", NULL };
	static const char *const skipped[] = {
		"Unable to perform factorization: need TOTMEM of at least    5172840",
		"Bad MEMORY parameters: going on to next test case.",
		"    1 tests skipped because of illegal input values.", NULL };
	/* under 5 ms: the time prints 0.00 and the rate overflows its field */
	static const char *const too_fast[] = {
		"WALL   800   800  32     1    1    1    2     0.00     0.00 ******** PASSED",
		"    0 tests skipped because of illegal input values.", NULL };
	static const char *const hpl[] = {
		"T/V                N    NB     P     Q               Time                 Gflops",
		"--------------------------------------------------------------------------------",
		"WR11C2R4        1000    80     1     2               0.02              4.009e+01",
		"||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=        0.0044729 ...... PASSED",
		"HPL_Tflops=0.0400949", "HPL_time=0.0166646", NULL };
	static const char *const hpl_failed[] = {
		"T/V                N    NB     P     Q               Time                 Gflops",
		"WR11C2R4        1000    80     1     2               0.02              4.009e+01",
		"||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N)=        91.2 ...... FAILED", NULL };
	struct hm_app_result r;

	feed("scalapack-test", xdlu, &r);
	CHECK(r.found && r.verdict == HM_VERDICT_PASSED);
	CHECK_NEAR(r.seconds, 0.01, 1e-12);
	CHECK_NEAR(r.gflops, 22.68057, 1e-9);
	feed("scalapack-test", skipped, &r);
	CHECK(r.verdict == HM_VERDICT_SKIPPED && strstr(r.note, "need TOTMEM"));
	feed("scalapack-test", too_fast, &r);
	CHECK(r.found && r.verdict == HM_VERDICT_PASSED && r.seconds == 0 && r.gflops < 0);
	feed("hpcc", hpl, &r);
	CHECK(r.found && r.verdict == HM_VERDICT_PASSED);
	CHECK_NEAR(r.seconds, 0.0166646, 1e-12);
	CHECK_NEAR(r.gflops, 40.0949, 1e-9);
	feed("hpl", hpl_failed, &r);
	CHECK(r.found && r.verdict == HM_VERDICT_FAILED);
	CHECK(!strcmp(hm_app_profile_for("/usr/lib/x86_64-linux-gnu/scalapack/mpich-tests/xdlu")->name,
		      "scalapack-test"));
	CHECK(!strcmp(hm_app_profile_for("./my_solver")->name, "none"));
}

static void column_major_should_keep_grid_positions(void)
{
	struct hm_placement pl = { 0 };
	const char *names[6] = { "p0", "p1", "p2", "p3", "p4", "p5" };

	pl.D = 6, pl.r = 2, pl.c = 3;
	pl.ranks = calloc(6, sizeof(*pl.ranks));
	for (int k = 0; k < 6; k++)
		pl.ranks[k].processor = names[k];       /* row-major: k at (k / 3, k mod 3) */
	CHECK(hm_placement_column_major(&pl) == 0 && pl.column_major);
	/* column-major rank i + 2 j sits at (i, j), which held row-major rank 3 i + j */
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 3; j++)
			CHECK(pl.ranks[i + 2 * j].processor == names[3 * i + j]);
	free(pl.ranks);
}

/* One rule says which host names are this machine: the placement check
 * and run's core check both use it. */
static void this_machine_should_have_its_names(void)
{
	CHECK(hm_host_names("localhost", "vm") && hm_host_names("127.0.0.1", "vm"));
	CHECK(hm_host_names("vm", "vm") && hm_host_names("vm.lab.org", "vm"));
	CHECK(hm_host_names("vm", "vm.lab.org") && hm_host_names("vm.a", "vm.b"));
	CHECK(!hm_host_names("vm2", "vm") && !hm_host_names("v", "vm") && !hm_host_names("127.0.1.1", "vm"));
	CHECK(!hm_host_names("vm", "") && hm_host_names("localhost", ""));
	CHECK(hm_host_same("n07", "n07.lab") && !hm_host_same("n07", "n071"));
}

/* What hetmap-topology printed on a node of two packages, four cores
 * with two threads each, the operating system numbering the packages'
 * cores alternately (tests/data/topology/interleaved-smt.xml has 8). */
static const char interleaved_line[] =
	"hetmap-topology {\"rank\":0,\"host\":\"n0\",\"packages\":2,\"numa_nodes\":2,"
	"\"threads_per_core\":2,\"allowed\":\"0-7\",\"core_cpus\":[[0,4],[2,6],[1,5],[3,7]],"
	"\"core_package\":[0,0,1,1]}";

static void node_topologies_should_read_lines_and_record(void)
{
	struct hm_node_topologies t;
	const char *hosts[] = { "n0", "n0", "n0", "n1" };
	const int node[] = { 0, 0, 0, 1 };
	struct hm_host_ranks hr = { hosts, node, 3 };
	cJSON *plat, *topo;
	char *text;

	CHECK(hm_node_topologies_init(&t, 2, 0) == 0);
	hm_node_topology_line("[1,0]<stdout>:hetmap-topology {\"rank\":0", &t);   /* cut: ignored */
	hm_node_topology_line("hetmap-topology {\"rank\":7,\"core_cpus\":[[0]],\"core_package\":[0]}", &t);
	CHECK(!t.node[0].seen && !t.node[1].seen);
	/* values the platform loader would refuse are refused here, with why
	 * (calibrate must not measure, then refuse its own platform) */
	{
		static const char *const refused[][2] = {
			{ "\"numa_nodes\":70000,\"core_cpus\":[[0]],\"core_package\":[0]", "numa_nodes" },
			{ "\"core_cpus\":[[0],[0]],\"core_package\":[0,0]", "CPU 0 is listed twice" },
			{ "\"core_cpus\":[[2000000]],\"core_package\":[0]", "core_cpus[0][0]" },
			{ "\"core_cpus\":[[0],[1]],\"core_package\":[0]", "one package per core" },
			{ "\"allowed\":\"0\",\"core_cpus\":[[0],[1]],\"core_package\":[0,0]",
			  "CPU 1 of core_cpus is not among the allowed CPUs" },
			{ "\"packages\":9,\"core_cpus\":[[0]],\"core_package\":[0]", "packages" },
		};
		for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); k++) {
			char line[256];

			snprintf(line, sizeof(line), "hetmap-topology {\"rank\":1,%s}", refused[k][0]);
			hm_node_topology_line(line, &t);
			CHECK(!t.node[1].seen && strstr(t.node[1].refused, refused[k][1]));
			if (!strstr(t.node[1].refused, refused[k][1]))
				fprintf(stderr, "  refused line %zu: '%s'\n", k, t.node[1].refused);
		}
		/* a rank that is not a whole number is nobody's */
		hm_node_topology_line("hetmap-topology {\"rank\":0.5,\"core_cpus\":[[0]],\"core_package\":[0]}", &t);
		CHECK(!t.node[0].seen && !t.node[0].refused[0]);
	}
	hm_node_topology_line(interleaved_line, &t);       /* after a launcher's tag too */
	CHECK(t.node[0].seen && t.node[0].cores.cores == 4 && t.node[0].packages == 2);
	CHECK(hm_topology_cpu(&t.node[0].cores, 2) == 1 && !strcmp(t.node[0].cores.allowed, "0-7"));
	/* a processor of all four cores fills both packages: 2 sockets */
	plat = cJSON_Parse("{\"processors\":[{\"name\":\"n0\",\"host\":\"n0\",\"cores\":4}]}");
	CHECK(hm_node_topologies_record(&t, plat, &hr) == 0);
	topo = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(plat, "processors"), 0), "topology");
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(topo, "core_cpus"));
	CHECK(text && !strcmp(text, "[[0,4],[2,6],[1,5],[3,7]]"));
	free(text);
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(plat, "processors"), 0),
				  "sockets")->valueint == 2);
	cJSON_Delete(plat);
	/* one processor per core (--split-cores): each takes the next core */
	plat = cJSON_Parse("{\"processors\":[{\"name\":\"n0-0\",\"host\":\"n0\",\"cores\":1},"
			   "{\"name\":\"n0-1\",\"host\":\"n0\",\"cores\":1},{\"name\":\"n0-2\",\"host\":\"n0\",\"cores\":1}]}");
	CHECK(hm_node_topologies_record(&t, plat, &hr) == 0);
	text = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(
		cJSON_GetObjectItem(plat, "processors"), 2), "topology"), "core_cpus"));
	CHECK(text && !strcmp(text, "[[1,5]]"));
	free(text);
	cJSON_Delete(plat);
	/* more cores than the node allows, or a node that never answered */
	plat = cJSON_Parse("{\"processors\":[{\"name\":\"n0\",\"host\":\"n0\",\"cores\":5}]}");
	CHECK(hm_node_topologies_record(&t, plat, &hr) == -1);
	cJSON_Delete(plat);
	hr.n = 4;
	plat = cJSON_Parse("{\"processors\":[{\"name\":\"n1\",\"host\":\"n1\",\"cores\":1}]}");
	CHECK(hm_node_topologies_record(&t, plat, &hr) == -1);
	cJSON_Delete(plat);
	hm_node_topologies_release(&t);
}

/* A plan of four ranks on the interleaved node's four cores, 2 sockets. */
static int interleaved_plan(struct hm_placement *pl, const char *extra)
{
	char text[1024];
	struct hm_error err;
	cJSON *doc;
	int ret;

	snprintf(text, sizeof(text), "{\"hetmap_plan\":1,\"inputs\":{\"routine\":\"lu\",\"n\":1000},"
		 "\"plan\":{\"method\":\"GU\",\"found\":true,\"D\":4,\"r\":2,\"c\":2,\"b\":32,"
		 "\"processes\":[{\"processor\":\"n0\",\"host\":\"n0\",\"count\":4,\"slot\":0,\"cores\":4,"
		 "\"sockets\":2,\"core_cpus\":[[0,4],[2,6],[1,5],[3,7]]%s}],\"ranks\":[\"n0\",\"n0\",\"n0\",\"n0\"]}}",
		 extra);
	hm_error_clear(&err);
	doc = cJSON_Parse(text);
	if ((ret = hm_placement_from_plan(pl, doc, "t", &err)))
		cJSON_Delete(doc);
	else
		pl->owner = doc;        /* the placement's strings point into it */
	return ret;
}

/* Whether launcher 'name' (major version 'major') for pl says 'words'. */
static int command_says(const char *name, const struct hm_placement *pl, int major, const char *words)
{
	const struct hm_launcher *l = hm_launcher_find(name);
	struct hm_launch x = { .pl = pl, .file = "/d/f", .major = major };
	struct hm_argv a = { 0 };
	char *line;
	int says;

	l->options(&a, &x);
	line = hm_argv_quoted(&a);
	says = line && strstr(line, words);
	if (!says)
		fprintf(stderr, "%s says: %s\n", name, line ? line : "(out of memory)");
	free(line);
	hm_argv_free(&a);
	return says;
}

/* Every launcher binds the intended cores: ranks spread over the sockets
 * take cores 0, 2, 1, 3 (logical, package by package: Open MPI's
 * rankfile), which the operating system numbers 0, 1, 2, 3 (the CPU lists
 * of MPICH, Slurm and Intel MPI). */
static void launchers_should_bind_the_cores_hwloc_numbers(void)
{
	static const struct { const char *name, *words; int major, threads; } said[] = {
		{ "mpich", "-bind-to user:0,1,2,3", 4, 0 },
		{ "slurm", "--cpu-bind=map_cpu:0,1,2,3", 22, 0 },
		{ "intelmpi", "I_MPI_PIN_PROCESSOR_LIST 0,1,2,3", 2021, 0 },
		/* hardware threads as cores: Open MPI must number threads too */
		{ "openmpi", "--use-hwthread-cpus", 4, 1 },
		{ "openmpi", "rankfile:file=f:HWTCPUS", 5, 1 },
	};
	struct hm_placement pl;
	char *text;

	CHECK(interleaved_plan(&pl, "") == 0);
	text = hm_launcher_find("openmpi")->file_text(&pl);
	CHECK(text && !strcmp(text, "rank 0=n0 slot=0\nrank 1=n0 slot=2\nrank 2=n0 slot=1\nrank 3=n0 slot=3\n"));
	free(text);
	hm_placement_release(&pl);
	for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
		CHECK(interleaved_plan(&pl, said[i].threads ? ",\"threads_as_cores\":true" : "") == 0);
		CHECK(pl.threads_as_cores == said[i].threads);
		CHECK(command_says(said[i].name, &pl, said[i].major, said[i].words));
		hm_placement_release(&pl);
	}
	CHECK(interleaved_plan(&pl, ",\"threads_as_cores\":1") == -1);
}

/* A rank reported on its core's own CPUs is where planned: one thread of
 * it (the per-thread launchers) or both (Open MPI binds the whole core). */
static void the_check_should_take_a_core_by_its_threads(void)
{
	struct hm_placement pl;
	struct hm_placement_check c;
	cJSON *report, *ranks;

	CHECK(interleaved_plan(&pl, "") == 0);
	CHECK(hm_placement_check_init(&c, &pl, 1) == 0);
	hm_placement_check_line(&c, "hetmap-probe {\"rank\":0,\"host\":\"n0\",\"cpus\":\"0,4\"}");
	hm_placement_check_line(&c, "hetmap-probe {\"rank\":1,\"host\":\"n0\",\"cpus\":\"1\"}");
	hm_placement_check_line(&c, "hetmap-probe {\"rank\":2,\"host\":\"n0\",\"cpus\":\"2-3\"}");
	hm_placement_check_line(&c, "hetmap-probe {\"rank\":3,\"host\":\"n0\",\"cpus\":\"7\"}");
	report = hm_placement_check_json(&c);
	ranks = cJSON_GetObjectItem(report, "ranks");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(ranks, 0), "core_ok")));
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(ranks, 1), "core_ok")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(ranks, 2), "core_ok")));  /* 3 is another core's */
	CHECK(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(ranks, 3), "core_ok")));
	CHECK(cJSON_IsFalse(cJSON_GetObjectItem(report, "as_planned")));
	cJSON_Delete(report);
	hm_placement_check_release(&c);
	hm_placement_release(&pl);
}

/* A record's driver ranks fold into runs only when every rank sits where
 * planned; one out of place keeps the list whole. */
static void rank_lists_should_fold_when_as_planned(void)
{
	const char *good = "[{\"rank\":0,\"host\":\"a\",\"cpus\":\"0\",\"row\":0,\"col\":0},"
			   "{\"rank\":1,\"host\":\"a\",\"cpus\":\"0\",\"row\":0,\"col\":1},"
			   "{\"rank\":2,\"host\":\"b\",\"cpus\":\"0\",\"row\":1,\"col\":0},"
			   "{\"rank\":3,\"host\":\"b\",\"cpus\":\"0\",\"row\":1,\"col\":1}]";
	cJSON *ranks = cJSON_Parse(good), *runs = hm_fold_rank_list(ranks, 2);

	CHECK(cJSON_GetArraySize(runs) == 2);
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 1), "first")->valueint == 2);
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 1), "count")->valueint == 2);
	cJSON_Delete(runs);
	/* rank 3 at (1, 0): out of place, the list stays */
	cJSON_SetIntValue(cJSON_GetObjectItem(cJSON_GetArrayItem(ranks, 3), "col"), 0);
	CHECK(hm_fold_rank_list(ranks, 2) == NULL);
	CHECK(hm_fold_rank_list(ranks, 0) == NULL);
	cJSON_Delete(ranks);
}

/* A search result is placed straight from the platform, and its plan
 * document read back must give the same placement: rank by rank the
 * processor, host, slot, core, CPU and topology; the grid, the flags. On
 * two hosts, the first holding two processors (the second's slot 4), a
 * 2-socket one with hwloc's core numbers stacking 5 ranks on 4 cores. */
static void a_result_should_place_as_its_plan_file(void)
{
	static const char platform[] =
		"{\"name\":\"t\",\"types\":{\"a\":{\"k3_dgemm\":1e-10,\"k3_dtrsm\":1e-10,\"k2_dgetf2\":1e-9}},"
		"\"processors\":[{\"name\":\"p0\",\"host\":\"h0\",\"type\":\"a\",\"cores\":4,\"sockets\":2,"
		"\"topology\":{\"core_cpus\":[[0,4],[2,6],[1,5],[3,7]]}},"
		"{\"name\":\"p1\",\"host\":\"h0\",\"type\":\"a\",\"cores\":2},"
		"{\"name\":\"p2\",\"host\":\"h1\",\"type\":\"a\"}],"
		"\"network\":{\"same_processor\":{\"t_s\":0,\"t_w\":0},\"same_node\":{\"t_s\":1e-6,\"t_w\":1e-9},"
		"\"inter_node\":{\"t_s\":1e-5,\"t_w\":1e-8}},\"block_sizes\":[32]}";
	struct hm_platform *p = NULL;
	struct hm_error err;
	int d[3] = { 5, 2, 1 };
	struct hm_result res = { .method = "GU", .found = 1, .d = d, .P = 3, .D = 8, .r = 2, .c = 4, .b = 32 };
	struct hm_placement a, b;

	hm_error_clear(&err);
	CHECK(hm_platform_load_buffer(platform, sizeof(platform) - 1, "t", &p, &err) == 0);
	if (!p) {
		fprintf(stderr, "%s\n", err.msg);
		return;
	}
	struct hm_problem pb = { .platform = p, .model = hm_model_default(), .routine = HM_ROUTINE_LU,
				 .n = 1000, .depth = 8 };
	struct hm_plan_inputs in = { "t.json", &pb, NULL };

	res.pred.total = 1.5;
	CHECK(hm_placement_from_result(&a, &in, &res, &err) == 0);
	CHECK(hm_placement_from_plan(&b, a.owner, "t", &err) == 0);
	hm_platform_free(p);    /* the placement made from it keeps its own copies */
	CHECK(a.D == 8 && b.D == 8 && a.r == b.r && a.c == b.c && a.b == b.b && a.n == b.n);
	CHECK(!strcmp(a.routine, b.routine) && !strcmp(a.method, b.method) && a.predicted == b.predicted);
	CHECK(a.oversubscribed == 1 && b.oversubscribed == 1 && a.nr_hosts == 2 && b.nr_hosts == 2);
	for (int k = 0; k < 8; k++) {
		const struct hm_rank_place *x = &a.ranks[k], *y = &b.ranks[k];
		int cx[HM_MAX_RANK_CPUS], nx = hm_rank_cpus(x, cx, HM_MAX_RANK_CPUS);
		int cy[HM_MAX_RANK_CPUS], ny = hm_rank_cpus(y, cy, HM_MAX_RANK_CPUS);

		CHECK(!strcmp(x->processor, y->processor) && !strcmp(x->host, y->host));
		CHECK(x->host_id == y->host_id && x->slot == y->slot && x->cores == y->cores);
		CHECK(x->stacked == y->stacked && x->core == y->core && x->cpu == y->cpu && x->sockets == y->sockets);
		CHECK(x->threads == 1 && y->threads == 1);
		CHECK(nx == ny && !memcmp(cx, cy, (size_t)nx * sizeof(int)));
	}
	/* p0's ranks alternate sockets (cores 0, 2, 1, 3, then 0 again: CPUs 0, 1, 2, 3, 0);
	 * p1 starts at slot 4 on h0; p2 alone on h1 */
	CHECK(a.ranks[1].core == 2 && a.ranks[1].cpu == 1 && a.ranks[4].core == 0);
	CHECK(a.ranks[5].slot == 4 && a.ranks[6].core == 5 && a.ranks[7].slot == 0);
	b.owner = NULL;         /* a's document */
	hm_placement_release(&b);
	hm_placement_release(&a);
}

/* Ranks of two threads on a 4-core, 2-socket host (hwloc's cores 0-3 on
 * CPUs 0, 2, 1, 3) and on a 2-core one: each rank holds two cores inside a
 * socket; the rankfile gives slot ranges, Hydra "+" sets, Slurm masks,
 * the probe's files every rank's CPUs and threads; read back alike. */
static void ranks_of_threads_should_hold_their_cores(void)
{
	static const char platform[] =
		"{\"name\":\"t\",\"types\":{\"a\":{\"k3_dgemm\":1e-10,\"k3_dtrsm\":1e-10,\"k2_dgetf2\":1e-9,"
		"\"threads\":{\"2\":{\"dgemm\":1.9,\"dtrsm\":1.8,\"panel\":1.1}}}},"
		"\"processors\":[{\"name\":\"p0\",\"host\":\"h0\",\"type\":\"a\",\"cores\":4,\"sockets\":2,"
		"\"topology\":{\"core_cpus\":[[0],[2],[1],[3]]}},"
		"{\"name\":\"p1\",\"host\":\"h1\",\"type\":\"a\",\"cores\":2}],"
		"\"network\":{\"same_processor\":{\"t_s\":0,\"t_w\":0},\"same_node\":{\"t_s\":1e-6,\"t_w\":1e-9},"
		"\"inter_node\":{\"t_s\":1e-5,\"t_w\":1e-8}},\"block_sizes\":[32]}";
	struct hm_platform *p = NULL;
	struct hm_error err;
	int d[2] = { 2, 1 }, threads[2] = { 2, 2 };
	struct hm_result res = { .method = "exact", .found = 1, .d = d, .threads = threads, .P = 2, .D = 3,
				 .r = 1, .c = 3, .b = 32 };
	struct hm_placement a, b;
	char buf[256], *text;

	if (!CHECK(hm_platform_load_buffer(platform, sizeof(platform) - 1, "t", &p, &err) == 0))
		return;
	struct hm_problem pb = { .platform = p, .model = hm_model_default(), .routine = HM_ROUTINE_LU,
				 .n = 1000, .depth = 8 };
	struct hm_plan_inputs in = { "t.json", &pb, NULL };

	if (!CHECK(hm_placement_from_result(&a, &in, &res, &err) == 0)) {
		hm_platform_free(p);
		return;
	}
	CHECK(hm_placement_from_plan(&b, a.owner, "t", &err) == 0);
	hm_platform_free(p);
	{       /* a plan file with two ranks of two threads on p1's two cores: refused */
		cJSON *count = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(
			cJSON_GetObjectItem(a.owner, "plan"), "processes"), 1), "count");
		struct hm_placement c;

		cJSON_SetNumberValue(count, 2);
		CHECK(hm_placement_from_plan(&c, a.owner, "t", &err) == -1 && strstr(err.msg, "never share cores"));
		cJSON_SetNumberValue(count, 1);
	}
	CHECK(!a.oversubscribed && hm_placement_threads(&a) == 2 && hm_placement_threads(&b) == 2);
	/* p0's two ranks on sockets 0 and 1: cores 0-1 (CPUs 0, 2) and 2-3 (CPUs 1, 3) */
	CHECK(b.ranks[0].core == 0 && b.ranks[1].core == 2 && b.ranks[2].core == 0 && b.ranks[2].threads == 2);
	text = hm_launcher_find("openmpi")->file_text(&b);
	CHECK(text && !strcmp(text, "rank 0=h0 slot=0-1\nrank 1=h0 slot=2-3\nrank 2=h1 slot=0-1\n"));
	free(text);
	text = hm_rank_cpus_text(&b);
	CHECK(text && !strcmp(text, "0,2\n1,3\n0,1\n"));
	free(text);
	text = hm_rank_threads_text(&b);
	CHECK(text && !strcmp(text, "2\n2\n2\n"));
	free(text);
	/* h0 and h1 number their first rank's cores differently: no common list */
	CHECK(hm_common_core_map(&b, HM_SET_PLUS, buf, sizeof(buf)) == NULL);
	b.ranks[0].topology = b.ranks[1].topology = NULL;       /* h0's cores as CPUs 0-3 */
	b.ranks[0].cpu = 0, b.ranks[1].cpu = 2;
	CHECK(hm_common_core_map(&b, HM_SET_PLUS, buf, sizeof(buf)) && !strcmp(buf, "0+1,2+3"));
	CHECK(hm_common_core_map(&b, HM_SET_MASK, buf, sizeof(buf)) && !strcmp(buf, "0x3,0xc"));
	CHECK(hm_common_core_map(&b, HM_SET_SINGLE, buf, sizeof(buf)) == NULL);
	b.owner = NULL;         /* a's document */
	hm_placement_release(&b);
	hm_placement_release(&a);
}

/* numbers read from the environment (Slurm's ids, an allocator threshold)
 * are digits only, within their length */
static void environment_numbers_should_be_digits_only(void)
{
	CHECK(hm_is_digits("4194304", 12) && hm_is_digits("0", 1) && hm_is_digits("123456789012", 12));
	CHECK(!hm_is_digits("", 12) && !hm_is_digits("1234567890123", 12));
	CHECK(!hm_is_digits("4M", 12) && !hm_is_digits("-1", 12) && !hm_is_digits(" 1", 12) && !hm_is_digits("1.5", 12));
}

/* "did you mean": a swap of neighbours is one edit, case does not count,
 * and each registry answers from its rows */
static void mistyped_names_should_find_what_was_meant(void)
{
	static const char *const formats[] = { "text", "csv", "json", NULL };

	CHECK(!strcmp(hm_method_nearest("GPMT"), "GPTM") && !strcmp(hm_method_nearest("gptm_"), "GPTM"));
	CHECK(!strcmp(hm_method_nearest("exat"), "exact") && hm_method_nearest("zzzz") == NULL);
	CHECK(!strcmp(hm_model_nearest("panl"), "panel") && !strcmp(hm_model_nearest("THESIS"), "thesis"));
	CHECK(!strcmp(hm_launcher_nearest("opnmpi"), "openmpi") && !strcmp(hm_launcher_nearest("mpch"), "mpich"));
	CHECK(!strcmp(hm_nearest_name("jsn", formats), "json") && hm_nearest_name("x", formats) == NULL);
}

/* launcher options that choose the placement are refused, by name, with
 * or without a value attached where the launcher takes one so */
static void placement_options_should_be_refused(void)
{
	struct hm_argv w = { 0 };
	struct hm_error err;

	hm_error_clear(&err);
	hm_argv_split(&w, "--mca btl self,vader -x FOO=1 --display-map");
	CHECK(hm_launcher_args_check(hm_launcher_find("openmpi"), &w, &err) == 0);
	hm_argv_free(&w);
	hm_argv_split(&w, "--mca btl self --map-by=socket");
	CHECK(hm_launcher_args_check(hm_launcher_find("openmpi"), &w, &err) == -1 && strstr(err.msg, "'--map-by=socket'"));
	hm_argv_free(&w);
	hm_argv_split(&w, "--bind-to none");       /* the sequential mapper binds nothing of hetmap's */
	CHECK(hm_launcher_args_check(hm_launcher_find("openmpi-seq"), &w, &err) == 0);
	CHECK(hm_launcher_args_check(hm_launcher_find("openmpi"), &w, &err) == -1);
	hm_argv_free(&w);
	hm_argv_split(&w, "--mpi=pmix -n4");
	CHECK(hm_launcher_args_check(hm_launcher_find("slurm"), &w, &err) == -1 && strstr(err.msg, "'-n4'"));
	hm_argv_free(&w);
	hm_argv_split(&w, "-nolocal -genv A 1");   /* Hydra's -n takes no attached value */
	CHECK(hm_launcher_args_check(hm_launcher_find("mpich"), &w, &err) == 0);
	hm_argv_free(&w);
}

/* the span lines' waits: per host the largest share, the old form (no
 * wait) and other lines ignored */
static void loads_should_be_read_from_span_lines(void)
{
	struct hm_run_load l;
	cJSON *o;

	hm_run_load_init(&l);
	CHECK(hm_run_load_json(&l) == NULL);
	hm_run_load_line(&l, "hetmap-mpi-span: 2.0 waited 0.5 on node1");
	hm_run_load_line(&l, "hetmap-mpi-span: 2.0 waited 0.1 on node1");
	hm_run_load_line(&l, "hetmap-mpi-span: 4.0 waited 0.4 on node2");
	hm_run_load_line(&l, "hetmap-mpi-span: 3.0");                   /* a quota: no wait said */
	hm_run_load_line(&l, "hetmap-mpi-span: 1.0 waited 9 on node3");  /* never above the span */
	hm_run_load_line(&l, "hetmap-time: 1.0 waited 0.9 on node4");
	CHECK(l.n == 3 && check_near(l.hosts[0].share, 0.25, 1e-12) && check_near(l.hosts[1].share, 0.1, 1e-12));
	CHECK(check_near(l.hosts[2].share, 1, 1e-12));
	CHECK(check_near(l.largest, 1, 1e-12));
	o = hm_run_load_json(&l);
	CHECK(o && check_near(cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(o, "hosts"), "node2")), 0.1, 1e-12));
	cJSON_Delete(o);
}

static const struct check_case cases[] = {
	CHECK_CASE(ranks_of_threads_should_hold_their_cores),
	CHECK_CASE(this_machine_should_have_its_names),
	CHECK_CASE(slurm_host_lists_should_expand),
	CHECK_CASE(hostfiles_should_read_both_formats),
	CHECK_CASE(slurm_allocations_should_give_hosts),
	CHECK_CASE(core_maps_should_agree_or_refuse),
	CHECK_CASE(placeholders_should_render_or_refuse),
	CHECK_CASE(readers_should_read_the_real_programs),
	CHECK_CASE(column_major_should_keep_grid_positions),
	CHECK_CASE(node_topologies_should_read_lines_and_record),
	CHECK_CASE(launchers_should_bind_the_cores_hwloc_numbers),
	CHECK_CASE(the_check_should_take_a_core_by_its_threads),
	CHECK_CASE(rank_lists_should_fold_when_as_planned),
	CHECK_CASE(a_result_should_place_as_its_plan_file),
	CHECK_CASE(environment_numbers_should_be_digits_only),
	CHECK_CASE(mistyped_names_should_find_what_was_meant),
	CHECK_CASE(placement_options_should_be_refused),
	CHECK_CASE(loads_should_be_read_from_span_lines),
};

CHECK_MAIN("test_launch")

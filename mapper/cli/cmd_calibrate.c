/* mapper/cli/cmd_calibrate.c - 'hetmap calibrate': the install phase's
 * options, checked, then the pipeline (mapper/calibrate/pipeline.h) that
 * measures the processors and writes a platform file 'hetmap plan' reads. */
#include "cli.h"
#include "mapper/calibrate/pipeline.h"
#include "mapper/launch/job.h"
#include "mapper/launch/launcher_detect.h"
#include "mapper/launch/mpirun.h"
#include "models/platform/calibration_trust.h"
#include "models/common/host_links.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	static char text[3072];
	char stages[1024];

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
		 "The stages, in order:\n%s"
		 "examples:\n"
		 "  hetmap calibrate --hosts localhost:2 -o build/localhost.json\n"
		 "  hetmap calibrate --launcher smpi -p cluster.json -o cluster-measured.json",
		 hm_trust_limits(), hm_calibration_stage_list(stages, sizeof(stages)));
	return text;
}

/* "2,4,8": 1..HM_MAX_THREAD_COUNTS counts in 2..4096, each once. */
static int thread_counts_valid(const char *s)
{
	int seen[HM_MAX_THREAD_COUNTS], n = 0;

	if (!*s || strspn(s, "0123456789,") != strlen(s))
		return 0;
	for (;;) {
		char *end;
		long t = strtol(s, &end, 10);

		if (end == s || t < 2 || t > 4096 || n == HM_MAX_THREAD_COUNTS)
			return 0;
		for (int i = 0; i < n; i++)
			if (seen[i] == t)
				return 0;
		seen[n++] = (int)t;
		if (!*end)
			return 1;
		s = end + 1;
	}
}

/* 1 after a message when the launcher's options (--launcher-args WORDS,
 * or 'extra' after '--') choose where the benchmark's ranks go, which its
 * own rankfile says (launcher.h). */
static int placement_fought(const struct hm_launcher *l, const char *words, char **extra, int nextra)
{
	struct hm_argv given = { .v = extra, .n = nextra }, split = { 0 };
	struct hm_error err;
	int fights;

	hm_error_clear(&err);
	hm_argv_split(&split, words);
	fights = hm_launcher_args_check(l, words ? &split : &given, &err);
	hm_argv_free(&split);
	if (fights)
		hm_say_error("calibrate: %s (calibrate starts one rank on every core it measures)", err.msg);
	return fights;
}

int cmd_calibrate(int argc, char **argv)
{
	/* b = 16 is not measured unless asked: LU at b = 16 on this machine's two
	 * cores ran slower than at 32 in 7 of 8 real groups (the driver and HPL,
	 * n = 2000-4000, two studies; up to 1.48x), faster in one (0.92x):
	 * per-panel work the models do not see, while its kernels measure within
	 * their noise of b = 32's (experiments/README.md, "Real runs") */
	struct hm_calibration_setup cs = { .name = "calibrated", .block_sizes = "32,64,128,256",
					   .rows = 1024, .repeat = 5, .tolerance = 0.20, .timeout = 600,
					   .min_time = 0.2 };
	const char *launcher = HM_DEFAULT_LAUNCHER, *launcher_args = NULL;
	char bench_buf[PATH_MAX];
	char **extra;
	int ret, nextra = 0;
	struct hm_argv words = { 0 };
	struct hm_launcher_found found;
	struct hm_error err;

	{
		const struct hm_option opts[] = {
			{ 'H', "hosts", HM_OPT_STRING, &cs.hosts, "LIST", "HOST[:N],... processors to measure (default: --hostfile's, else the Slurm allocation's nodes and CPUs, else localhost:CORES)", 0, 0 },
			{ 0, "hostfile", HM_OPT_STRING, &cs.hostfile, "FILE", "the hosts of an Open MPI ('host slots=N') or MPICH ('host:N') hostfile", 0, 0 },
			{ 'o', "output", HM_OPT_STRING, &cs.out, "FILE", "platform JSON to write (required)", 0, 0 },
			{ 0, "name", HM_OPT_STRING, &cs.name, "NAME", "platform name (default calibrated)", 0, 0 },
			{ 0, "block-sizes", HM_OPT_STRING, &cs.block_sizes, "LIST", "block sizes to measure, the plans' candidates (default 32,64,128,256)", 0, 0 },
			{ 0, "rows", HM_OPT_INT, &cs.rows, "M", "rows of the kernel shapes (default 1024)", 64, 16384 },
			{ 0, "thread-rows", HM_OPT_INT, &cs.thread_rows, "M", "with --threads: rows of the kernels timed with threads, about the n / r of the runs you plan (default 4 x --rows: a short column does not earn back its threads' start)", 64, 16384 },
			{ 0, "repeat", HM_OPT_INT, &cs.repeat, "R", "repetitions of each measurement (default 5)", 1, 1000 },
			{ 0, "min-time", HM_OPT_DOUBLE, &cs.min_time, "S", "each sample repeats a kernel for at least S seconds (default 0.2: many periods of a CPU quota)", 0, 60 },
			{ 0, "link-rounds", HM_OPT_INT, &cs.link_rounds, "R", "pairs of hosts measured at once in R rounds, each host against R partners, before each host still only bounded is paired with a fast one (default: every pair up to " HM_STR(HM_LINK_ALL_PAIRS_UP_TO) " hosts, else " HM_STR(HM_LINK_FIRST_ROUNDS) ")", 1, 100000 },
			{ 0, "tolerance", HM_OPT_DOUBLE, &cs.tolerance, "T", "relative difference within which processors share a type (default 0.20)", 0, 10 },
			{ 0, "mpirun", HM_OPT_STRING, &cs.mpirun, "PATH", "the mpirun to start (default: mpirun.openmpi or mpirun in PATH)", 0, 0 },
			{ 0, "launcher-args", HM_OPT_STRING, &launcher_args, "WORDS", "more mpirun options, split at blanks (or after '--')", 0, 0 },
			{ 'L', "launcher", HM_OPT_STRING, &launcher, "L", hm_help_launchers("launcher", 1), 0, 0 },
			{ 'p', "platform", HM_OPT_STRING, &cs.platform, "FILE", "smpi: the simulated platform, whose processors are measured", 0, 0 },
			{ 0, "host-speed", HM_OPT_STRING, &cs.host_speed_text, "RATE", "smpi: this machine's dgemm rate per core, e.g. 50Gf (default: measured)", 0, 0 },
			{ 0, "bench", HM_OPT_STRING, &cs.bench, "PATH", "the benchmark (default: hetmap-calibrate-bench beside hetmap)", 0, 0 },
			{ 0, "timeout", HM_OPT_DOUBLE, &cs.timeout, "S", "stop after S seconds (default 600)", 0, 1e7 },
			{ 0, "split-cores", HM_OPT_FLAG, &cs.split, NULL, "one processor per measured core (HOST-0 .., 1 core each) instead of one per node", 0, 0 },
			{ 0, "all-busy-only", HM_OPT_FLAG, &cs.all_busy_only, NULL, "measure with every core busy only: no busy-cores scale (faster)", 0, 0 },
			{ 0, "accept-unreliable", HM_OPT_FLAG, &cs.accept_unreliable, NULL, "write the platform even when its measurements are too unsteady to trust (see below)", 0, 0 },
			{ 0, "no-shapes", HM_OPT_FLAG, &cs.no_shapes, NULL, "do not time kernel shapes: no kernel models for the simulator's modeled kernels (faster)", 0, 0 },
			{ 0, "threads", HM_OPT_STRING, &cs.threads, "LIST", "also time ranks of these BLAS thread counts (e.g. 2,4,8), for plans of ranks x threads; auto: the powers of two up to a node's cores and the cores of its NUMA domains and packages", 0, 0 },
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
	if (!(cs.l = hm_runnable_launcher("calibrate", launcher)))
		return HM_EXIT_USAGE;
	{
		const struct hm_option_rule rules[] = {
			{ cs.platform || cs.host_speed_text, cs.l->simulated,
			  "-p and --host-speed are for a simulator (--launcher smpi)" },
			{ cs.smt, !cs.no_topology, "--smt counts the hardware threads hwloc reads on each node: not with --no-topology" },
			{ cs.smt, !cs.l->simulated, "--smt counts the hardware threads hwloc reads on each node: not with a simulator" },
			{ cs.hosts && cs.hostfile, 0, "give --hosts or --hostfile, not both" },
			{ launcher_args && nextra, 0, "give mpirun's options either with --launcher-args or after '--'" },
			{ cs.threads != NULL, !cs.l->simulated && !cs.split,
			  "--threads times ranks of several cores of a real node: not with a simulator nor --split-cores" },
			{ cs.thread_rows != 0, cs.threads != NULL, "--thread-rows is the rows of the kernels --threads times: give --threads" },
			{ cs.thread_rows != 0, cs.thread_rows >= cs.rows, "--thread-rows must be at least --rows" },
		};
		/* the block sizes reach the benchmark as one argument: check them here */
		const char *s = cs.block_sizes;

		if (HM_OPTION_RULES_CHECK("calibrate", rules))
			return HM_EXIT_USAGE;
		if (placement_fought(cs.l, launcher_args, extra, nextra))
			return HM_EXIT_USAGE;
		if (!*s || strspn(s, "0123456789,") != strlen(s) || strstr(s, ",,") || *s == ',' ||
		    s[strlen(s) - 1] == ',') {
			hm_say_error("calibrate: --block-sizes must be a list like 32,64,128");
			return HM_EXIT_USAGE;
		}
		if (cs.threads && strcmp(cs.threads, "auto") && !thread_counts_valid(cs.threads)) {
			hm_say_error("calibrate: --threads must be auto or list 1 to %d thread counts from 2 to 4096, like 2,4,8",
				     HM_MAX_THREAD_COUNTS);
			return HM_EXIT_USAGE;
		}
	}
	hm_error_clear(&err);
	if (hm_launcher_detect(cs.l, cs.mpirun, 0, 1, &found, &err)) {
		hm_say_report(&err);
		return HM_EXIT_NO_MPIRUN;
	}
	cs.mpirun = found.program;
	cs.launcher_major = found.major;
	if (!cs.bench) {
		char name[64];

		snprintf(name, sizeof(name), "hetmap-calibrate-bench%s", cs.l->flavour);
		if (!(cs.bench = hm_helper_program(name, bench_buf, sizeof(bench_buf), &err))) {
			hm_say_error("calibrate: %s", err.msg);
			return HM_EXIT_NO_MPIRUN;
		}
	}
	if (launcher_args) {
		hm_argv_split(&words, launcher_args);
		extra = words.v, nextra = words.n;
	}
	ret = hm_calibrate(&cs, extra, nextra);
	hm_argv_free(&words);
	return hm_cli_finish(ret);
}

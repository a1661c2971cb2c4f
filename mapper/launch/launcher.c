/* mapper/launch/launcher.c - the launchers (see launcher.h and
 * mapper/README.md, "Launchers"). What each option is for, measured on
 * this project's machines, is in wrappers/README.md. */
#include "launcher.h"
#include "slurm_alloc.h"
#include "models/util/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* The plan already decided how many ranks share a core; a threaded BLAS
 * would oversubscribe it behind its back. */
const char *const hm_rank_environment[] = { "OPENBLAS_NUM_THREADS=1", NULL };

/* Open MPI rankfile: "rank k=HOST slot=CORE", CORE the core's hwloc
 * logical index among those the node allows (Open MPI 4.1:
 * wrappers/README.md, "Binding"), which is what the placement's 'core'
 * is; a hardware thread's with threads counted as cores. A rank of t
 * BLAS threads gets its t cores as a range, "slot=4-7". */
static char *rankfile_text(const struct hm_placement *pl)
{
	struct hm_text t = { 0 };

	for (int k = 0; k < pl->D; k++) {
		const struct hm_rank_place *r = &pl->ranks[k];

		hm_text_addf(&t, "rank %d=%s slot=%d", k, r->host, r->core);
		if (r->threads > 1)
			hm_text_addf(&t, "-%d", r->core + r->threads - 1);
		hm_text_addf(&t, "\n");
	}
	return hm_text_done(&t);
}

/* One host per line, line k for rank k: Open MPI's seq mapper and
 * SLURM_HOSTFILE with --distribution=arbitrary both read this. */
static char *host_per_rank_text(const struct hm_placement *pl)
{
	struct hm_text t = { 0 };

	for (int k = 0; k < pl->D; k++)
		hm_text_addf(&t, "%s\n", pl->ranks[k].host);
	return hm_text_done(&t);
}

/* "NAME:n" lines filling ranks in order, NAME the rank's host or
 * processor. A name whose ranks are not consecutive gets one line per run
 * of ranks, which every reader of such files takes in order. */
static char *runs_text(const struct hm_placement *pl, int by_processor)
{
	struct hm_text t = { 0 };

	for (int k = 0; k < pl->D;) {
		const char *name = by_processor ? pl->ranks[k].processor : pl->ranks[k].host;
		int run = 1;

		while (k + run < pl->D &&
		       !strcmp(by_processor ? pl->ranks[k + run].processor : pl->ranks[k + run].host, name))
			run++;
		hm_text_addf(&t, "%s:%d\n", name, run);
		k += run;
	}
	return hm_text_done(&t);
}

/* Hosts: MPICH's -f, Intel MPI's -machinefile (Intel's -f would keep one
 * line per host name and lose the counts). */
static char *machinefile_text(const struct hm_placement *pl)
{
	return runs_text(pl, 0);
}

/* SMPI's hostfile: the simulated hosts are the processors. */
static char *simulated_hostfile_text(const struct hm_placement *pl)
{
	return runs_text(pl, 1);
}

char *hm_rank_cpus_text(const struct hm_placement *pl)
{
	struct hm_text t = { 0 };

	for (int k = 0; k < pl->D; k++) {
		int cpus[HM_MAX_RANK_CPUS], n = hm_rank_cpus(&pl->ranks[k], cpus, HM_MAX_RANK_CPUS);

		for (int i = 0; i < n; i++)
			hm_text_addf(&t, "%s%d", i ? "," : "", cpus[i]);
		hm_text_addf(&t, "\n");
	}
	return hm_text_done(&t);
}

/* OS CPU of the i-th core of rank r (its first hardware thread). */
static int rank_core_cpu(const struct hm_rank_place *r, int i)
{
	return r->topology ? hm_topology_cpu(r->topology, r->core - r->slot + i) : r->cpu + i;
}

static int same_cores(const struct hm_rank_place *a, const struct hm_rank_place *b)
{
	if (a->threads != b->threads)
		return 0;
	for (int i = 0; i < a->threads; i++)
		if (rank_core_cpu(a, i) != rank_core_cpu(b, i))
			return 0;
	return 1;
}

/* Rank r's CPUs in 'form' at buf + *len; 0, or -1 when they do not fit. */
static int write_cpu_set(const struct hm_rank_place *r, enum hm_cpu_set_form form, char *buf, size_t size,
			 size_t *len)
{
	if (form == HM_SET_MASK) {
		int top = 0;

		for (int i = 0; i < r->threads; i++)
			top = rank_core_cpu(r, i) > top ? rank_core_cpu(r, i) : top;
		*len += (size_t)snprintf(buf + *len, size > *len ? size - *len : 0, "0x");
		for (int nibble = top / 4; nibble >= 0 && *len < size; nibble--) {
			int bits = 0;

			for (int i = 0; i < r->threads; i++)
				if (rank_core_cpu(r, i) / 4 == nibble)
					bits |= 1 << rank_core_cpu(r, i) % 4;
			buf[(*len)++] = "0123456789abcdef"[bits];
		}
	} else {
		for (int i = 0; i < r->threads; i++)
			*len += (size_t)snprintf(buf + *len, size > *len ? size - *len : 0, i ? "+%d" : "%d",
						 rank_core_cpu(r, i));
	}
	return *len < size ? 0 : -1;
}

const char *hm_common_core_map(const struct hm_placement *pl, enum hm_cpu_set_form form, char *buf,
			       size_t size)
{
	int *seen = calloc((size_t)pl->nr_hosts, sizeof(int)), *first = malloc((size_t)pl->D * sizeof(int));
	int longest = 0, ok = seen && first && size > 0;
	size_t len = 0;

	for (int k = 0; k < pl->D && ok; k++) {
		int j = seen[pl->ranks[k].host_id]++;   /* the host's j-th rank */

		ok = form != HM_SET_SINGLE || pl->ranks[k].threads == 1;
		if (j == longest)
			first[longest++] = k;
		else if (!same_cores(&pl->ranks[first[j]], &pl->ranks[k]))
			ok = 0;
	}
	buf[0] = '\0';
	for (int j = 0; j < longest && ok; j++) {
		if (j)
			len += (size_t)snprintf(buf + len, size - len, ",");
		ok = len < size && !write_cpu_set(&pl->ranks[first[j]], form, buf, size, &len);
	}
	free(seen), free(first);
	return ok ? buf : NULL;
}

void hm_thread_environment(struct hm_argv *env, int t)
{
	hm_argv_addf(env, "OPENBLAS_NUM_THREADS=%d", t);
	hm_argv_addf(env, "OMP_NUM_THREADS=%d", t);
}

char *hm_rank_threads_text(const struct hm_placement *pl)
{
	struct hm_text t = { 0 };

	for (int k = 0; k < pl->D; k++)
		hm_text_addf(&t, "%d\n", pl->ranks[k].threads);
	return hm_text_done(&t);
}

/* -x NAME=VALUE (Open MPI) / -genv NAME VALUE (Hydra, Intel MPI) */
static void env_dash_x(struct hm_argv *a, const struct hm_launch *x)
{
	for (const char *const *e = x->env; e && *e; e++) {
		hm_argv_add(a, "-x");
		hm_argv_add(a, *e);
	}
}

static void env_genv(struct hm_argv *a, const struct hm_launch *x)
{
	for (const char *const *e = x->env; e && *e; e++) {
		size_t name = strcspn(*e, "=");

		hm_argv_add(a, "-genv");
		hm_argv_addf(a, "%.*s", (int)name, *e);
		hm_argv_add(a, (*e)[name] ? *e + name + 1 : "");
	}
}

/* Open MPI: root needs a flag (CI and containers run as root); waiting
 * ranks must yield the core (busy polling made stacked LU 20-350x
 * slower); the environment goes by -x. Open MPI 5 (PRRTE) names the
 * rankfile and seq mappers as --map-by directives, and refuses two ranks
 * bound to one core without overload-allowed. */
static void openmpi_tail(struct hm_argv *a, const struct hm_launch *x)
{
	if (geteuid() == 0)
		hm_argv_add(a, "--allow-run-as-root");
	hm_argv_add(a, "--mca");
	hm_argv_add(a, "mpi_yield_when_idle");
	hm_argv_add(a, "1");
	env_dash_x(a, x);
}

static void openmpi_options(struct hm_argv *a, const struct hm_launch *x)
{
	hm_argv_add(a, "-np");
	hm_argv_addf(a, "%d", x->pl->D);
	if (x->major >= 5) {
		/* by its name: the launcher runs in the file's directory (run,
		 * run.sh, calibrate), whose own name may hold the ':' or ','
		 * that separate --map-by's modifiers */
		const char *name = strrchr(x->file, '/');

		hm_argv_add(a, "--map-by");
		hm_argv_addf(a, "rankfile:file=%s%s%s", name ? name + 1 : x->file,
			     x->pl->oversubscribed ? ":OVERSUBSCRIBE" : "",
			     x->pl->threads_as_cores ? ":HWTCPUS" : "");
		if (x->pl->oversubscribed) {
			hm_argv_add(a, "--bind-to");
			hm_argv_add(a, "core:overload-allowed");
		}
	} else {
		hm_argv_add(a, "--rankfile");
		hm_argv_add(a, x->file);
		if (x->pl->oversubscribed)
			hm_argv_add(a, "--oversubscribe");
		if (x->pl->threads_as_cores)
			hm_argv_add(a, "--use-hwthread-cpus");  /* slots name hardware threads */
	}
	openmpi_tail(a, x);
}

static void openmpi_seq_options(struct hm_argv *a, const struct hm_launch *x)
{
	hm_argv_add(a, "-np");
	hm_argv_addf(a, "%d", x->pl->D);
	hm_argv_add(a, "--hostfile");
	hm_argv_add(a, x->file);
	if (x->major >= 5) {
		hm_argv_add(a, "--map-by");
		hm_argv_add(a, x->pl->oversubscribed ? "seq:OVERSUBSCRIBE" : "seq");
	} else {
		/* each line is a slot, so stacked ranks need no --oversubscribe
		 * (with it, 4.1.4's mpirun crashed at its end on the local host:
		 * wrappers/README.md); mpi_yield_when_idle keeps them yielding */
		hm_argv_add(a, "--mca");
		hm_argv_add(a, "rmaps");
		hm_argv_add(a, "seq");
	}
	openmpi_tail(a, x);
}

/* FLAG FILE -n D (Hydra and Intel MPI) */
static void file_and_ranks(struct hm_argv *a, const char *flag, const struct hm_launch *x)
{
	hm_argv_add(a, flag);
	hm_argv_add(a, x->file);
	hm_argv_add(a, "-n");
	hm_argv_addf(a, "%d", x->pl->D);
}

/* The binding words of a launcher that binds by one CPU list for every
 * host, each form split at blanks: 'list' followed by the list when the
 * hosts agree on one, else 'none' when the ranks bind
 * themselves, else 'own' (the launcher chooses; the placement check
 * records what it chose). */
static void one_list_binding(struct hm_argv *a, const struct hm_launch *x, enum hm_cpu_set_form form,
			     const char *list, const char *none, const char *own)
{
	char map[8192], words[8300];
	const char *cpus = hm_common_core_map(x->pl, form, map, sizeof(map));

	if (cpus)
		snprintf(words, sizeof(words), "%s%s", list, cpus);
	hm_argv_split(a, cpus ? words : x->ranks_bind_themselves ? none : own);
}

/* Hydra: -bind-to user:LIST binds the j-th local rank of every host to
 * LIST[j]. Nothing in MPICH 4.0's ch4:ucx stops a waiting rank from
 * spinning (wrappers/README.md). */
static void mpich_options(struct hm_argv *a, const struct hm_launch *x)
{
	file_and_ranks(a, "-f", x);
	one_list_binding(a, x, HM_SET_PLUS, "-bind-to user:", "-bind-to none", "-bind-to core");
	env_genv(a, x);
}

/* srun inside an allocation: SLURM_HOSTFILE (set by the caller) lists
 * the host of each rank; map_cpu binds the j-th task of every node (a
 * task of t threads: mask_cpu and --cpus-per-task, where all have t);
 * --overcommit where ranks outnumber CPUs. */
static void slurm_options(struct hm_argv *a, const struct hm_launch *x)
{
	struct hm_text exports = { 0 };
	int t = hm_placement_threads(x->pl);

	hm_argv_add(a, "--distribution=arbitrary");
	hm_argv_add(a, "-n");
	hm_argv_addf(a, "%d", x->pl->D);
	if (t == 1)
		one_list_binding(a, x, HM_SET_SINGLE, "--cpu-bind=map_cpu:", "--cpu-bind=none", "--cpu-bind=cores");
	else
		one_list_binding(a, x, HM_SET_MASK, "--cpu-bind=mask_cpu:", "--cpu-bind=none", "--cpu-bind=cores");
	if (t > 1)
		hm_argv_addf(a, "--cpus-per-task=%d", t);
	if (x->pl->oversubscribed)
		hm_argv_add(a, "--overcommit");
	hm_text_addf(&exports, "--export=ALL");
	for (const char *const *e = x->env; e && *e; e++)
		hm_text_addf(&exports, ",%s", *e);
	if (hm_text_done(&exports)) {
		hm_argv_add(a, exports.data);
		free(exports.data);
	} else {
		a->failed = 1;
	}
}

/* Intel MPI: -machinefile keeps the per-host counts; pinning by one list
 * per host (I_MPI_PIN_PROCESSOR_LIST); I_MPI_WAIT_MODE makes waiting
 * ranks sleep where they share cores. */
static void intelmpi_options(struct hm_argv *a, const struct hm_launch *x)
{
	file_and_ranks(a, "-machinefile", x);
	one_list_binding(a, x, HM_SET_SINGLE, "-genv I_MPI_PIN_PROCESSOR_LIST ", "-genv I_MPI_PIN 0", "");
	if (x->pl->oversubscribed) {
		hm_argv_add(a, "-genv");
		hm_argv_add(a, "I_MPI_WAIT_MODE");
		hm_argv_add(a, "1");
	}
	env_genv(a, x);
}

/* SimGrid's SMPI: -platform is the exported platform beside the hostfile
 * (models/platform/simgrid_platform.h); smpi/host-speed makes a burst of
 * computation measured here last (this machine's rate / the simulated
 * host's speed) times as long. The rest is SMPI's configuration as
 * chosen by measurement against real runs (wrappers/README.md, "The SMPI
 * flavour"; experiments/smpi/trust.sh):
 *  - CM02, the network model without SMPI's own latency and bandwidth
 *    factors: the platform's t_s and t_w are already end-to-end MPI
 *    ping-pong values, and under CM02 the calibration's ping-pong gets them
 *    back (50.4 us for 50 us; SMPI's model gave 101 us);
 *  - smpi/test 0: SMPI charges 100 us of simulated time for every MPI_Test
 *    by default, and BLACS polls its sends with MPI_Test, so LU on grids
 *    with more than one process row came out 3.8-5x slower than the same
 *    run for real (0.61 s against 0.12-0.16 s), and 1.0x-1.3x with it.
 * SimGrid's other options were tried for a faster simulation
 * (experiments/scale/engine_options.sh): none both kept the simulated time
 * within 1 % and saved wall time beyond this machine's noise; smpirun's
 * own surf/precision (1e-9) stays, as 1e-6 saved 10-14 % by moving the
 * time 1.7 %. The run record's command and run.sh list every option used.
 * Ranks are threads of one process: the environment is the launcher's. */
static const char *const smpi_config[] = {
	"--cfg=network/model:CM02",
	"--cfg=smpi/test:0",
	"--cfg=smpi/display-timing:no",
	"--log=root.thres:warning",
	NULL,
};

static void smpi_options(struct hm_argv *a, const struct hm_launch *x)
{
	hm_argv_add(a, "-platform");
	hm_argv_add(a, x->platform);
	hm_argv_add(a, "-hostfile");
	hm_argv_add(a, x->file);
	hm_argv_add(a, "-np");
	hm_argv_addf(a, "%d", x->pl->D);
	hm_argv_addf(a, "--cfg=smpi/host-speed:%.6gf", x->host_speed);
	if (x->shared_malloc_bytes > 0)
		hm_argv_addf(a, "--cfg=smpi/auto-shared-malloc-thresh:%.0f", x->shared_malloc_bytes);
	/* every simulated second charged from the platform (--kernels modeled):
	 * the same job simulates to the same time on a busy machine */
	if (x->times_nothing)
		hm_argv_add(a, "--cfg=smpi/simulate-computation:no");
	for (const char *const *c = smpi_config; *c; c++)
		hm_argv_add(a, *c);
}

/* An MPI's libraries, as a program's ELF dependencies name them
 * (program_mpi.c): Open MPI's libmpi.so.40 (.20 before 4.0), MPICH's
 * libmpich.so.12 and the MPICH ABI's libmpi.so.12 (Intel MPI), and
 * Debian's ScaLAPACK built for each. */
#define OPENMPI_LIBRARIES "libmpi.so.40 libmpi.so.20 libscalapack-openmpi.so"
#define MPICH_LIBRARIES "libmpich.so libmpi.so.12 libscalapack-mpich.so"

/* Options that choose ranks' hosts, cores, order or number (Open MPI 4
 * and 5, Hydra, srun, smpirun, Intel MPI's mpirun, as their manuals name
 * them): the plan's file and options say all of it. */
#define OPENMPI_MAPPING "-np -n -c --np -H -host --host -hostfile --hostfile -machinefile --machinefile " \
	"-rf --rankfile -rankfile --map-by -map-by --rank-by -rank-by -npernode --npernode -N -npersocket " \
	"--npersocket --cpu-set --cpus-per-proc --cpus-per-rank --use-hwthread-cpus"
/* the sequential mapper binds nothing of hetmap's: its binding is the user's
 * (the emulated cluster's nodes give --bind-to none) */
#define OPENMPI_PLACEMENT OPENMPI_MAPPING " --bind-to -bind-to"
#define HYDRA_PLACEMENT "-n -np -f -hostfile -machinefile -host -hosts -bind-to -binding -map-by -ppn " \
	"-rankmap -configfile"

static const struct hm_launcher launchers[] = {
	{ .name = "openmpi", .file_name = "rankfile",
	  .summary = "Open MPI 4/5 rankfile: each rank bound to its core",
	  .runs = 1, .binds = HM_BINDS_PER_RANK, .programs = "mpirun.openmpi mpirun",
	  .version_mark = "Open MPI|OpenRTE", .package = "openmpi-bin", .flavour = "",
	  .mpi = "Open MPI", .mpi_libraries = OPENMPI_LIBRARIES,
	  .placement_options = OPENMPI_PLACEMENT,
	  .file_text = rankfile_text, .options = openmpi_options },
	{ .name = "openmpi-seq", .file_name = "seqfile",
	  .summary = "Open MPI sequential mapper, one host per rank; no core binding",
	  .runs = 1, .binds = HM_BINDS_NONE, .programs = "mpirun.openmpi mpirun",
	  .version_mark = "Open MPI|OpenRTE", .package = "openmpi-bin", .flavour = "",
	  .mpi = "Open MPI", .mpi_libraries = OPENMPI_LIBRARIES,
	  .placement_options = OPENMPI_MAPPING,
	  .file_text = host_per_rank_text, .options = openmpi_seq_options },
	{ .name = "mpich", .file_name = "machinefile",
	  .summary = "MPICH Hydra (mpiexec -f, host:n lines), -bind-to user:CORES",
	  .runs = 1, .binds = HM_BINDS_ONE_LIST, .set_form = HM_SET_PLUS,
	  .programs = "mpiexec.mpich mpiexec.hydra mpiexec",
	  .version_mark = "HYDRA", .package = "mpich", .flavour = "-mpich",
	  .mpi = "MPICH", .mpi_libraries = MPICH_LIBRARIES,
	  .stacked_warning = "the plan stacks ranks on cores and MPICH's waiting ranks spin (no setting "
			     "stops it, wrappers/README.md): expect it slower than predicted",
	  .placement_options = HYDRA_PLACEMENT,
	  .file_text = machinefile_text, .options = mpich_options },
	/* srun starts programs of either MPI (PMI-2, PMIx): no check */
	{ .name = "slurm", .file_name = "hostfile",
	  .summary = "Slurm srun in an allocation, SLURM_HOSTFILE + --distribution=arbitrary",
	  .runs = 1, .binds = HM_BINDS_ONE_LIST, .set_form = HM_SET_MASK, .programs = "srun", .version_mark = "slurm",
	  .package = "slurm-client", .file_variable = "SLURM_HOSTFILE", .batch_file = "sbatch.sh",
	  .flavour = "", .check_hosts = hm_slurm_check,
	  .placement_options = "-n* --ntasks -N* --nodes -w* --nodelist -x* --exclude -m* --distribution "
			       "--cpu-bind --cpu_bind --ntasks-per-node --ntasks-per-socket --ntasks-per-core -c* "
			       "--cpus-per-task",
	  .file_text = host_per_rank_text, .options = slurm_options },
	{ .name = "intelmpi", .file_name = "machinefile",
	  .summary = "Intel MPI -machinefile (host:n lines) and pinning; files only",
	  .runs = 0, .binds = HM_BINDS_ONE_LIST, .programs = "mpirun", .flavour = "",
	  .mpi = "the MPICH ABI", .mpi_libraries = MPICH_LIBRARIES,
	  .placement_options = HYDRA_PLACEMENT " -perhost -rr",
	  .file_text = machinefile_text, .options = intelmpi_options },
	{ .name = "smpi", .file_name = "hostfile",
	  .summary = "SimGrid SMPI: simulated run on the platform exported beside the hostfile",
	  .runs = 1, .binds = HM_BINDS_NONE, .programs = "smpirun", .version_mark = "SimGrid",
	  .package = "libsimgrid-dev", .flavour = "-smpi",
	  .simulated = 1, .platform_file = "platform.xml", .ranks_share_env = 1,
	  .mpi = "SimGrid's SMPI", .mpi_libraries = "libsimgrid.so",
	  .placement_options = "-np -hostfile -machinefile -platform -map",
	  .file_text = simulated_hostfile_text, .options = smpi_options },
};
#define NR_LAUNCHERS (int)(sizeof(launchers) / sizeof(launchers[0]))
_Static_assert(offsetof(struct hm_launcher, name) == 0, "a row starts with its name (rows.h)");

const struct hm_launcher *hm_launcher_find(const char *name)
{
	return hm_row_named(launchers, NR_LAUNCHERS, sizeof(launchers[0]), name);
}

const char *hm_launcher_nearest(const char *name)
{
	return hm_row_nearest(launchers, NR_LAUNCHERS, sizeof(launchers[0]), name);
}

const struct hm_launcher *hm_launcher_for_library(const char *library)
{
	for (int i = 0; i < NR_LAUNCHERS; i++) {
		const char *p = launchers[i].mpi_libraries;

		while (p && *p) {
			size_t w = strcspn(p, " ");

			if (!strncmp(library, p, w))
				return &launchers[i];
			p += w + (p[w] == ' ');
		}
	}
	return NULL;
}

/* ctx: which launchers (enum hm_launcher_set) */
static int launcher_name(const void *ctx, int i, char *out, size_t room)
{
	enum hm_launcher_set set = *(const enum hm_launcher_set *)ctx;

	if ((set == HM_LAUNCHERS_RUN && !launchers[i].runs) || (set == HM_LAUNCHERS_FILES_ONLY && launchers[i].runs))
		return -1;
	return snprintf(out, room, "%s", launchers[i].name);
}

const char *hm_launcher_names(enum hm_launcher_set set, const char *sep, char *buf, int size)
{
	return hm_join(buf, (size_t)size, NR_LAUNCHERS, sep, launcher_name, &set);
}

/* 1 if 'word' is the option 'opt' of 'len' characters: alone, with
 * "=VALUE", or with its value attached where opt ends in '*'. */
static int is_option(const char *word, const char *opt, size_t len)
{
	int attached = opt[len - 1] == '*';

	len -= (size_t)attached;
	if (strncmp(word, opt, len))
		return 0;
	return word[len] == '\0' || word[len] == '=' || attached;
}

int hm_launcher_args_check(const struct hm_launcher *l, const struct hm_argv *words, struct hm_error *err)
{
	for (int i = 0; i < words->n; i++)
		for (const char *p = l->placement_options; p && *p;) {
			size_t len = strcspn(p, " ");

			if (len && is_option(words->v[i], p, len))
				return hm_error_set(err, "launcher option '%s' chooses where ranks go or how many start, "
						    "which hetmap's %s already says (%s would refuse both, or let it "
						    "override hetmap's): leave it out", words->v[i], l->file_name, l->name);
			p += len + (p[len] == ' ');
		}
	return 0;
}

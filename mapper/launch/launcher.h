/* mapper/launch/launcher.h - launchers (mapper/README.md, "Launchers"): for each, the
 * file that forces rank k onto the processor and core the plan gives it,
 * and the options that make the launcher use that file, bind each rank,
 * allow oversubscription where the plan stacks ranks, keep waiting ranks
 * from spinning, and give every rank the job's environment. A table; the
 * command is an argument vector, executed without a shell. */
#ifndef HM_LAUNCHER_H
#define HM_LAUNCHER_H

#include "placement.h"
#include "models/util/error.h"
#include "models/util/strbuild.h"

/* What a launcher command is made from. */
struct hm_launch {
	const struct hm_placement *pl;
	const char *file;               /* the launcher file's path; the launcher runs in its directory */
	const char *const *env;         /* "NAME=VALUE" every rank gets; NULL-terminated */
	int major;                      /* the launcher's major version; 0 unknown */
	const char *platform;           /* simulators: the platform file's path */
	double host_speed;              /* simulators: this machine's core, flop/s */
	double shared_malloc_bytes;     /* simulators: share allocations this big; 0 none */
	int times_nothing;              /* simulators: time none of the program's own code */
	int ranks_bind_themselves;      /* hetmap-probe binds each rank (HM_RANK_CPUS_VARIABLE):
					 * the launcher binds none */
};

/* How a launcher binds ranks to cores. */
enum hm_binding {
	HM_BINDS_NONE,          /* not at all */
	HM_BINDS_PER_RANK,      /* its file names each rank's core (Open MPI's rankfile) */
	HM_BINDS_ONE_LIST,      /* one CPU list for every host (hm_common_core_map); where
				 * hosts need different lists, the ranks bind themselves */
};

/* Where hosts need different CPU lists, each rank's CPUs are line k of
 * this file in the launch directory, which hetmap-probe reads from the
 * variable's path and binds itself to (wrappers/rank_probe.c). */
#define HM_RANK_CPUS_FILE "rank-cpus"
#define HM_RANK_CPUS_VARIABLE "HETMAP_RANK_CPUS"

/* How a launcher that binds by one list writes one rank's CPUs (its
 * cores' first hardware threads): a single CPU (ranks of one thread
 * only), "0+1" (Hydra's user binding) or a hexadecimal mask ("0x3",
 * Slurm's mask_cpu). */
enum hm_cpu_set_form { HM_SET_SINGLE, HM_SET_PLUS, HM_SET_MASK };

struct hm_launcher {
	const char *name;               /* "openmpi", "mpich", ... */
	const char *file_name;          /* written in the launch directory */
	const char *summary;
	int runs;                       /* 'hetmap run' drives it (else files only) */
	enum hm_binding binds;
	enum hm_cpu_set_form set_form;  /* HM_BINDS_ONE_LIST: how its list names a rank's CPUs */
	const char *programs;           /* launcher programs tried in order, space-separated */
	const char *version_mark;       /* what 'PROGRAM --version' prints ("A|B": either), or NULL */
	const char *package;            /* the Debian package that has it (for messages) */
	const char *file_variable;      /* set to the file's path in the launcher's environment, or NULL */
	const char *batch_file;         /* a batch script that submits run.sh (job.c), or NULL */
	const char *flavour;            /* suffix of hetmap's programs built for it ("" or
					 * "-smpi": hetmap-driver-smpi), found beside hetmap */
	/* a simulator (SMPI): its ranks run on simulated hosts, so there is
	 * no hardware to read or check (topologies, the placement, core
	 * counts), a processor is its simulated host, and the time is simulated */
	int simulated;
	/* the simulated platform's file, written in the launch directory, or NULL */
	const char *platform_file;
	/* its ranks are threads of the launcher's process: the ranks'
	 * environment is given to the launcher itself */
	int ranks_share_env;
	/* the MPI its programs must be linked with, in words, and the ELF
	 * dependencies that say so (prefixes, space-separated); NULL: any */
	const char *mpi, *mpi_libraries;
	/* its options that choose where ranks go or how many start, which the
	 * plan's file and options already say (space-separated; a trailing '*'
	 * also takes its value attached, srun's "-n4"): refused in
	 * --launcher-args (hm_launcher_args_check) */
	const char *placement_options;
	/* what to warn of when the plan stacks ranks on cores, or NULL: it
	 * keeps waiting ranks from spinning */
	const char *stacked_warning;
	/* a check of the placement against where the launcher can start ranks
	 * (Slurm: the allocation), before a launch; NULL: none. 0, or -1 with
	 * the reason in 'err' */
	int (*check_hosts)(const struct hm_placement *pl, struct hm_error *err);
	/* the file's text (malloc'd), or NULL when out of memory */
	char *(*file_text)(const struct hm_placement *pl);
	/* the options after the launcher program, up to the program */
	void (*options)(struct hm_argv *a, const struct hm_launch *x);
};

/* The environment every rank gets besides the plan's (NULL-terminated
 * "NAME=VALUE"): one BLAS thread per rank. */
extern const char *const hm_rank_environment[];

/* The BLAS and OpenMP thread variables a rank of t threads gets
 * (OPENBLAS_NUM_THREADS, OMP_NUM_THREADS), added to 'env'. */
void hm_thread_environment(struct hm_argv *env, int t);

/* Where ranks have different thread counts, each rank's count is line k
 * of this file, which hetmap-probe reads from the variable's path and
 * sets the thread variables from (wrappers/rank_probe.c). */
#define HM_RANK_THREADS_FILE "rank-threads"
#define HM_RANK_THREADS_VARIABLE "HETMAP_RANK_THREADS"

/* The text of HM_RANK_THREADS_FILE (malloc'd, NULL when out of memory). */
char *hm_rank_threads_text(const struct hm_placement *pl);

/* Launcher by name (case-insensitive), or NULL. */
const struct hm_launcher *hm_launcher_find(const char *name);
/* The launcher a mistyped 'name' most likely meant, or NULL. */
const char *hm_launcher_nearest(const char *name);
/* The first launcher whose MPI's libraries include 'library' (an ELF
 * dependency's name, "libmpich.so.12"), or NULL. */
const struct hm_launcher *hm_launcher_for_library(const char *library);
/* The launchers' names, joined by 'sep' into buf: all, those 'hetmap run'
 * drives, or those whose files only 'plan' writes; for help texts and
 * messages. */
enum hm_launcher_set { HM_LAUNCHERS_ALL, HM_LAUNCHERS_RUN, HM_LAUNCHERS_FILES_ONLY };
const char *hm_launcher_names(enum hm_launcher_set set, const char *sep, char *buf, int size);

/* 0 when none of 'words' (the user's launcher options) is one of l's
 * placement options; else -1 with the first named in 'err', and what to do
 * instead. Such an option fights the plan: Open MPI refuses --map-by beside
 * a rankfile ("Conflicting directives"), others override the plan's
 * placement behind its back. */
int hm_launcher_args_check(const struct hm_launcher *l, const struct hm_argv *words, struct hm_error *err);

/* The text of HM_RANK_CPUS_FILE: line k the CPUs of rank k's core
 * ("2,10"; malloc'd, NULL when out of memory). */
char *hm_rank_cpus_text(const struct hm_placement *pl);

/* The one list "s0,s1,..." such that the j-th rank placed on any host is
 * bound to the OS CPUs s_j (its cores' first hardware threads, written
 * in 'form'), into buf; NULL when hosts disagree or 'form' cannot name a
 * rank's CPUs (then only per-rank files can say it). MPICH, Slurm and
 * Intel MPI bind by such a list, in the operating system's numbers. */
const char *hm_common_core_map(const struct hm_placement *pl, enum hm_cpu_set_form form, char *buf,
			       size_t size);

#endif /* HM_LAUNCHER_H */

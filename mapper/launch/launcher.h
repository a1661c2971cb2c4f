/* mapper/launch/launcher.h - launchers (mapper/README.md, "Launchers"): for each, the
 * file that forces rank k onto the processor and core the plan gives it,
 * and the options that make the launcher use that file, bind each rank,
 * allow oversubscription where the plan stacks ranks, keep waiting ranks
 * from spinning, and give every rank the job's environment. A table; the
 * command is an argument vector, executed without a shell. */
#ifndef HM_LAUNCHER_H
#define HM_LAUNCHER_H

#include "placement.h"
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
};

struct hm_launcher {
	const char *name;               /* "openmpi", "mpich", ... */
	const char *file_name;          /* written in the launch directory */
	const char *summary;
	int runs;                       /* 'hetmap run' drives it (else files only) */
	int binds;                      /* it binds each rank to one core */
	const char *programs;           /* launcher programs tried in order, space-separated */
	const char *version_mark;       /* what 'PROGRAM --version' prints ("A|B": either), or NULL */
	const char *package;            /* the Debian package that has it (for messages) */
	const char *file_variable;      /* set to the file's path in the launcher's environment, or NULL */
	const char *flavour;            /* suffix of hetmap's programs built for it ("" or
					 * "-smpi": hetmap-driver-smpi), found beside hetmap */
	/* a simulator (SMPI): ranks run on the simulated hosts of 'platform_file'
	 * (written in the launch directory), not on real ones, so no placement
	 * check, and its time is simulated */
	const char *platform_file;
	/* the file's text (malloc'd), or NULL when out of memory */
	char *(*file_text)(const struct hm_placement *pl);
	/* the options after the launcher program, up to the program */
	void (*options)(struct hm_argv *a, const struct hm_launch *x);
};

/* The environment every rank gets besides the plan's (NULL-terminated
 * "NAME=VALUE"): one BLAS thread per rank. */
extern const char *const hm_rank_environment[];

/* Launcher by name (case-insensitive), or NULL. */
const struct hm_launcher *hm_launcher_find(const char *name);
/* The launchers' names, joined by 'sep' into buf (only those 'hetmap run'
 * drives when 'runnable_only'); for help texts and messages. */
const char *hm_launcher_names(int runnable_only, const char *sep, char *buf, int size);

/* The one core list "c0,c1,..." such that the j-th rank placed on any
 * host is bound to core c_j, into buf; NULL when hosts disagree (then
 * only per-rank files can say it). MPICH, Slurm and Intel MPI bind by
 * such a list. */
const char *hm_common_core_map(const struct hm_placement *pl, char *buf, size_t size);

#endif /* HM_LAUNCHER_H */

/* mapper/launch/job.h - one launch of a program under a plan, as 'hetmap run'
 * and 'hetmap plan --launcher' make it: the program and its arguments
 * with the plan's values in place, the input files rendered for it, the
 * environment of every rank, the launcher command, and the launch
 * directory that holds it all (mapper/README.md, "Launch directories"):
 *
 *   plan.json      the plan
 *   rankfile ...   the launcher's file (launcher.h)
 *   LU.dat ...     input files: the profile's and --input's, rendered
 *   rank-cpus      each rank's CPUs, where the ranks bind themselves
 *   run.sh         the command, executable, runnable from wherever the
 *                  directory is copied (files are found beside it)
 *
 * The program runs in that directory, so it finds its input files. */
#ifndef HM_JOB_H
#define HM_JOB_H

#include "app_profile.h"
#include "launcher.h"
#include "plan_values.h"

enum { HM_MAX_INPUTS = 16 };

/* What the caller asks for. */
struct hm_job_request {
	struct hm_placement *pl;
	const struct hm_launcher *l;
	const char *launcher_program;   /* as given or found */
	int launcher_major;             /* 0: unknown */
	char **program;                 /* PROGRAM ARGS..., or NULL: the built-in driver */
	int nprogram;
	const char *profile;            /* name, or NULL: chosen by the program's name */
	const char *inputs[HM_MAX_INPUTS];      /* "TEMPLATE[:NAME]" */
	int ninputs;
	const char *launcher_args;      /* the user's launcher options, split at blanks */
	const char *dir;                /* the launch directory (made if missing) */
	int seed;
	int column_major;               /* -1: the profile's order */
	int program_here;               /* the program must exist here (run), not only
					 * on the cluster (plan's files) */
	const char *platform_text;      /* simulators: the simulated platform (launcher.h) */
	double host_speed;              /* simulators: this machine's core, flop/s */
	int modeled_kernels;            /* simulators: the platform models the kernels */
	int times_nothing;              /* simulators: nothing is timed here, every simulated
					 * second is charged from the platform (--kernels modeled) */
	/* hetmap-probe's path: where the launcher binds by one CPU list and the
	 * hosts need different ones, each rank binds itself through it to the
	 * CPUs of HM_RANK_CPUS_FILE (NULL: the launcher chooses instead) */
	const char *binder;
	/* launchers with a batch file: its time limit in minutes (0: from the
	 * prediction, HM_BATCH_MARGIN times it and HM_BATCH_START_MINUTES) */
	int batch_minutes;
};

/* A batch job's time limit when none is given: the prediction times this,
 * plus minutes for the job to start (loading, the launcher's start-up). */
#define HM_BATCH_MARGIN 10
#define HM_BATCH_START_MINUTES 5

struct hm_job_input {
	char *name, *text;
};

struct hm_job {
	struct hm_placement *pl;
	const struct hm_launcher *l;
	const struct hm_app_profile *profile;
	const char *launcher_program;
	int launcher_major;
	char dir[4096];                 /* absolute */
	struct hm_argv program;         /* rendered */
	struct hm_argv env;             /* every rank's "NAME=VALUE" */
	struct hm_argv launcher_args;
	struct hm_job_input inputs[HM_MAX_INPUTS + 3];  /* + the profile's, a simulated platform,
							 * the ranks' CPUs */
	int ninputs;
	int made_dir;                   /* the directory was made for this job */
	double host_speed;              /* simulators */
	int modeled_kernels;            /* simulators: kernels modeled, memory shared */
	int times_nothing;              /* simulators: as the request's */
	double shared_malloc_bytes;     /* simulators: SMPI shares allocations this big; 0 none */
	double mmap_threshold;          /* simulators under modeled kernels: the allocator's, bytes */
	const char *binder;             /* each rank starts through it to bind itself, or NULL */
	struct hm_argv batch_run;       /* the batch script's command: 'hetmap run --plan', which
					 * writes the run's record */
	int batch_minutes;              /* the batch job's time limit */
	int batch_given;                /* ... as the request gave it */
};

/* Resolve the profile, render arguments and inputs, make the directory.
 * 0, or with 'err' set (nothing made is left behind) HM_JOB_BAD_REQUEST
 * or HM_JOB_NO_DIR (the directory cannot be made or used). */
enum { HM_JOB_BAD_REQUEST = -1, HM_JOB_NO_DIR = -2 };
int hm_job_prepare(struct hm_job *j, const struct hm_job_request *rq, struct hm_error *err);

/* The whole command: launcher program, its options, the user's launcher
 * options, 'probe' (hetmap-probe's path, or NULL; the binder anyway when
 * ranks bind themselves) and the program. The
 * launcher file and anything else under the job's directory are named
 * by absolute paths. */
void hm_job_command(const struct hm_job *j, const char *probe, struct hm_argv *a);

/* The variable the launcher itself needs (SLURM_HOSTFILE=...), or NULL. */
char *hm_job_launcher_variable(const struct hm_job *j);

/* Write plan.json, the launcher file, the inputs and run.sh into the
 * directory, all or none. 0, or -1 with 'err' set. */
int hm_job_write(const struct hm_job *j, struct hm_error *err);

/* Remove what hm_job_write wrote and the profile's output file (what the
 * record took from it), and the directory if it was made for this job; 0
 * when it is gone, -1 when other files (the program's) keep it. */
int hm_job_remove(const struct hm_job *j);

void hm_job_release(struct hm_job *j);

/* Path of helper program 'name' into 'buf': ../libexec/hetmap/NAME from
 * the running executable's directory when it is there (an installed
 * hetmap), else NAME in that directory (the build tree). 'buf', or NULL
 * with 'err' naming the helper and the path when it cannot be run or the
 * executable's directory is unknown (never a bare name, which a launcher
 * would look up in PATH); 'buf' then still holds the path looked for when
 * that is known. */
const char *hm_helper_program(const char *name, char *buf, size_t size, struct hm_error *err);

#endif /* HM_JOB_H */

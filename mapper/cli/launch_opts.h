/* mapper/cli/launch_opts.h - the options of a launch, shared by 'hetmap run'
 * and 'hetmap plan --launcher': one table of options, one check, one way
 * to turn them into a job request (job.h). */
#ifndef HM_LAUNCH_OPTS_H
#define HM_LAUNCH_OPTS_H

#include "cli.h"
#include "mapper/launch/job.h"
#include "mapper/launch/judge.h"
#include "mapper/launch/sim_setup.h"

struct hm_launch_opts {
	const char *launcher_name, *mpirun, *launcher_args, *profile, *grid_order;
	struct hm_opt_list inputs;
	int launcher_version;
	int batch_minutes;              /* --batch-time */
	char **program;                 /* after '--' */
	int nprogram;
};

#define HM_LAUNCH_OPTS_INIT { .launcher_name = HM_DEFAULT_LAUNCHER }

#define HM_LAUNCH_OPTIONS(lo, launcher_help) \
	{ 'L', "launcher", HM_OPT_STRING, &(lo).launcher_name, "L", (launcher_help), 0, 0 }, \
	{ 0, "mpirun", HM_OPT_STRING, &(lo).mpirun, "PATH", "the launcher program (default: the launcher's, found in PATH)", 0, 0 }, \
	{ 0, "launcher-version", HM_OPT_INT, &(lo).launcher_version, "V", "its major version (default: asked with --version; else 4)", 1, 1000 }, \
	{ 0, "launcher-args", HM_OPT_STRING, &(lo).launcher_args, "WORDS", "more launcher options, split at blanks (no shell)", 0, 0 }, \
	{ 0, "profile", HM_OPT_STRING, &(lo).profile, "NAME", "the program's profile (see 'hetmap run --help')", 0, 0 }, \
	{ 0, "input", HM_OPT_LIST, &(lo).inputs, "T[:NAME]", "render template file T into the launch directory (repeatable)", 0, HM_OPT_LIST_MAX }, \
	{ 0, "grid-order", HM_OPT_STRING, &(lo).grid_order, "O", "row or column: the program's BLACS order (default: its profile's, row)", 0, 0 }, \
	{ 0, "batch-time", HM_OPT_INT, &(lo).batch_minutes, "MINUTES", "the batch script's time limit (Slurm's sbatch.sh; default " HM_STR(HM_BATCH_MARGIN) " times the prediction and " HM_STR(HM_BATCH_START_MINUTES) " minutes to start)", 1, 1000000 }

/* HM_EXIT_OK, or HM_EXIT_USAGE after a message naming 'cmd'. */
int hm_launch_opts_check(const char *cmd, const struct hm_launch_opts *lo);

/* The request for a job of 'pl' in 'dir' with these options, hetmap-probe
 * as its binder unless 'no_probe'. HM_EXIT_OK, or HM_EXIT_NO_MPIRUN after a
 * message when hetmap-probe cannot be run (found before any launch). */
int hm_launch_request(struct hm_job_request *rq, const struct hm_launch_opts *lo,
		      struct hm_placement *pl, const struct hm_launcher *l, const char *dir,
		      int seed, int program_here, int no_probe);

/* plan --judge (mapper/launch/judge.h) */
#define HM_JUDGE_OPTIONS(jo) \
	{ 0, "judge", HM_OPT_INT, &(jo).k, "K", "simulate the model's K best configurations and GU, CU, EU (SMPI, kernels modeled) and keep the simulated best", 1, HM_TOP_K_MAX }, \
	{ 0, "judge-jobs", HM_OPT_INT, &(jo).jobs, "J", "the judge's simulations at once (default: this machine's cores)", 1, HM_JUDGE_MAX_JOBS }, \
	{ 0, "judge-dir", HM_OPT_STRING, &(jo).dir, "DIR", "keep the judge's simulations there; a candidate simulated there before is kept (default: a temporary directory, removed)", 0, 0 }, \
	{ 0, "judge-launcher", HM_OPT_STRING, &(jo).launcher, "L", "where the simulations run: local (children here) or slurm (steps of the allocation, 'srun --exclusive -N1 -n1 -c1'; default inside one)", 0, 0 }

/* a simulated launch (mapper/launch/sim_setup.h) */
#define HM_SIM_OPTIONS(so) \
	{ 0, "sim-platform", HM_OPT_STRING, &(so).platform, "FILE", "simulators: the cluster simulated, when the plan's platform is what calibration measured of it", 0, 0 }, \
	{ 0, "kernels", HM_OPT_STRING, &(so).kernels_name, "MODE", "simulators: the BLAS kernels executed (default), modeled or modeled-as-executed", 0, 0 }, \
	{ 0, "host-speed", HM_OPT_STRING, &(so).host_speed, "RATE", "simulators that time code here (--kernels executed or modeled-as-executed): this machine's dgemm rate per core, e.g. 5Gf (default: measured); modeled kernels time nothing here", 0, 0 }

#endif /* HM_LAUNCH_OPTS_H */

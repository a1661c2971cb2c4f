/* mapper/cli/launch_opts.h - the options of a launch, shared by 'hetmap run'
 * and 'hetmap plan --launcher': one table of options, one check, one way
 * to turn them into a job request (job.h). */
#ifndef HM_LAUNCH_OPTS_H
#define HM_LAUNCH_OPTS_H

#include "cli.h"
#include "mapper/launch/job.h"

struct hm_launch_opts {
	const char *launcher_name, *mpirun, *launcher_args, *profile, *grid_order;
	struct hm_opt_list inputs;
	int launcher_version;
	char **program;                 /* after '--' */
	int nprogram;
};

#define HM_LAUNCH_OPTS_INIT { HM_DEFAULT_LAUNCHER, NULL, NULL, NULL, NULL, { { 0 }, 0 }, 0, NULL, 0 }

#define HM_LAUNCH_OPTIONS(lo, launcher_help) \
	{ 'L', "launcher", HM_OPT_STRING, &(lo).launcher_name, "L", (launcher_help), 0, 0 }, \
	{ 0, "mpirun", HM_OPT_STRING, &(lo).mpirun, "PATH", "the launcher program (default: the launcher's, found in PATH)", 0, 0 }, \
	{ 0, "launcher-version", HM_OPT_INT, &(lo).launcher_version, "V", "its major version (default: asked with --version; else 4)", 1, 1000 }, \
	{ 0, "launcher-args", HM_OPT_STRING, &(lo).launcher_args, "WORDS", "more launcher options, split at blanks (no shell)", 0, 0 }, \
	{ 0, "profile", HM_OPT_STRING, &(lo).profile, "NAME", "the program's profile (see 'hetmap run --help')", 0, 0 }, \
	{ 0, "input", HM_OPT_LIST, &(lo).inputs, "T[:NAME]", "render template file T into the launch directory (repeatable)", 0, HM_OPT_LIST_MAX }, \
	{ 0, "grid-order", HM_OPT_STRING, &(lo).grid_order, "O", "row or column: the program's BLACS order (default: its profile's, row)", 0, 0 }

/* HM_EXIT_OK, or HM_EXIT_USAGE after a message naming 'cmd'. */
int hm_launch_opts_check(const char *cmd, const struct hm_launch_opts *lo);

/* The request for a job of 'pl' in 'dir' with these options, hetmap-probe
 * as its binder unless 'no_probe'. HM_EXIT_OK, or HM_EXIT_NO_MPIRUN after a
 * message when hetmap-probe cannot be run (found before any launch). */
int hm_launch_request(struct hm_job_request *rq, const struct hm_launch_opts *lo,
		      struct hm_placement *pl, const struct hm_launcher *l, const char *dir,
		      int seed, int program_here, int no_probe);

#endif /* HM_LAUNCH_OPTS_H */

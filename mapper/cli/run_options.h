/* mapper/cli/run_options.h - what 'run' and 'tune' both take to run a plan
 * (the launch, the results file, the program's time, the simulator), as
 * one table of options and one opening of a run session
 * (mapper/launch/run_plan.h): the values checked, the results file
 * opened and the launcher asked its version before any plan is made. */
#ifndef HM_RUN_OPTIONS_H
#define HM_RUN_OPTIONS_H

#include "launch_opts.h"
#include "mapper/launch/run_plan.h"
#include "mapper/launch/program_time.h"

struct hm_run_options {
	struct hm_launch_opts lo;
	const char *results;            /* NULL: the default results file */
	const char *keep_dir;           /* -o DIR */
	const char *time_regex;
	double timeout;
	int seed, no_check;
	struct hm_sim_opts sim;
};

#define HM_RUN_OPTIONS_INIT { .lo = HM_LAUNCH_OPTS_INIT, .seed = 1, .sim = HM_SIM_OPTS_INIT }

/* The option-table rows of 'ro' (the launch's, the simulator's and
 * run's own); 'dir_help' says what -o DIR holds. */
#define HM_RUN_OPTIONS(ro, dir_help) \
	{ 0, "results", HM_OPT_STRING, &(ro).results, "FILE", "append the records there (default: $HETMAP_RESULTS, the configuration's, else " HM_DEFAULT_RESULTS ")", 0, 0 }, \
	{ 'o', "output", HM_OPT_STRING, &(ro).keep_dir, "DIR", (dir_help), 0, 0 }, \
	HM_LAUNCH_OPTIONS((ro).lo, hm_help_launchers("launcher", 1)), \
	{ 0, "time-regex", HM_OPT_STRING, &(ro).time_regex, "RE", "the program's time: the first group of this extended regular expression on its output (default: its profile's reader, or a '" HM_TIME_LINE " SECONDS' line)", 0, 0 }, \
	{ 0, "timeout", HM_OPT_DOUBLE, &(ro).timeout, "S", "stop a job after S seconds (default: none)", 0, 1e7 }, \
	{ 0, "seed", HM_OPT_INT, &(ro).seed, "S", "matrix seed of the built-in driver (default 1)", 1, 2147483647 }, \
	HM_SIM_OPTIONS((ro).sim), \
	{ 0, "no-placement-check", HM_OPT_FLAG, &(ro).no_check, NULL, "do not start ranks through hetmap-probe (which also binds them where the launcher cannot name each host's cores)", 0, 0 }

/* Check 'ro' and open session 's' for command 'cmd' ("run", "tune"): the
 * launcher found and asked its version, --time-regex compiled once, the
 * results file opened (not with 'dry_run'), the probe found. From then on
 * a signal is caught (spawn.h) and recorded by the session. HM_EXIT_OK, or
 * an exit code after a message (the session then holds nothing). */
int hm_run_session_open(const char *cmd, struct hm_run_options *ro, int dry_run, struct hm_run_session *s);
void hm_run_session_close(struct hm_run_session *s);

#endif /* HM_RUN_OPTIONS_H */

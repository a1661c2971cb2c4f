/* mapper/launch/run_plan.h - one run of a plan: the sequence 'hetmap run'
 * makes once and 'hetmap tune' makes for each of its runs, in one place.
 *
 *   the launch directory (-o DIR, or a new one under $TMPDIR) with the
 *   launcher's file, the program's inputs and run.sh (job.h); what the
 *   driver, this machine, the program's MPI or the allocation would refuse
 *   only once launched, refused before; the launcher's run (spawn.h); the
 *   program's time and verdict (program_time.h, app_profile.h); where each
 *   rank ran (placement_check.h); the record appended to the results file
 *   (record.h), also when the run fails, times out or is interrupted. */
#ifndef HM_RUN_PLAN_H
#define HM_RUN_PLAN_H

#include <cJSON.h>
#include "job.h"
#include "launcher_detect.h"
#include "sim_setup.h"

/* What every run of one command shares. */
struct hm_run_session {
	const char *cmd;                /* "run", "tune": messages name it */
	/* the launch options as a request (the caller's hm_launch_request):
	 * each run sets its placement and directory in a copy */
	struct hm_job_request job;
	const char *results;            /* the results file, for messages */
	int results_fd;                 /* open on it (results.h); -1 with a dry run */
	const char *keep_dir;           /* the launch directory, kept; NULL: a new one each run */
	const char *plan_file;          /* the plan's file, recorded; or NULL */
	const char *platform;           /* the plan's platform (simulators), or NULL: the plan's own */
	struct hm_sim_opts sim;
	double host_speed;              /* simulators: this machine's core, measured once */
	const struct hm_launcher *l;
	struct hm_launcher_found lf;
	double timeout;                 /* s, 0: none */
	int no_check;                   /* no placement check (no probe) */
	const char *time_regex;         /* --time-regex, or NULL */
	int record_on_stdout;           /* the record on standard output too (run -f json) */
	int output_to_stderr;           /* the program's output on standard error */
	int quiet_success;              /* no 'predicted ..., measured ...' line (tune says its own) */
	int quiet_program;              /* the program's output and command shown only with -v
					 * (its last lines when it fails) */
};

/* What one run gave. */
struct hm_run_outcome {
	int exit_code;                  /* hetmap's, as 'run' exits with it */
	int launched;                   /* the launcher was started */
	double measured;                /* s, < 0: nothing measured */
	const char *measured_by;        /* static: "profile", "time-line", ...; "" when none */
	char job_dir[4096];             /* where it ran ("" before the directory was made) */
};

/* Run placement 'pl' once. 'extra' (may be NULL) is an object whose members
 * are added to the record (tune's "tune"). With 'dry_run' the launch
 * directory is written and its command printed on standard output, and
 * nothing runs. A signal caught (spawn.h) before the launch stops it
 * there, recorded. Returns out->exit_code. */
int hm_run_plan(struct hm_run_session *s, struct hm_placement *pl, const cJSON *extra, int dry_run,
		struct hm_run_outcome *out);

/* Record a run stopped by signal 'sig' before any job was made ('stage':
 * what it was doing), and say where. */
void hm_run_record_interrupted(const struct hm_run_session *s, const char *stage, int sig);

#endif /* HM_RUN_PLAN_H */

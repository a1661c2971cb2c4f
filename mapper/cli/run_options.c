/* mapper/cli/run_options.c - see run_options.h. */
#include "run_options.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/program_time.h"
#include "mapper/launch/results.h"
#include "mapper/launch/spawn.h"

#include <string.h>
#include <unistd.h>

/* The options checked before anything is planned or run. */
static int check_options(const char *cmd, struct hm_run_options *ro, struct hm_run_session *s)
{
	struct hm_program_time time;
	struct hm_error err;
	int ret;

	if ((ret = hm_launch_opts_check(cmd, &ro->lo)) || (ret = hm_default_results(&ro->results)))
		return ret;
	if (!(s->l = hm_runnable_launcher(cmd, ro->lo.launcher_name)))
		return HM_EXIT_USAGE;
	if ((ret = hm_sim_opts_check(cmd, &ro->sim, s->l)))
		return ret;
	hm_error_clear(&err);
	if (hm_program_time_init(&time, ro->time_regex, &err)) {
		hm_say_error("%s: %s", cmd, err.msg);
		return HM_EXIT_USAGE;
	}
	hm_program_time_release(&time);
	return HM_EXIT_OK;
}

int hm_run_session_open(const char *cmd, struct hm_run_options *ro, int dry_run, struct hm_run_session *s)
{
	struct hm_error err;
	int ret;

	memset(s, 0, sizeof(*s));
	s->cmd = cmd, s->results_fd = -1;
	if ((ret = check_options(cmd, ro, s)))
		return ret;
	s->results = ro->results, s->keep_dir = ro->keep_dir, s->time_regex = ro->time_regex;
	s->timeout = ro->timeout, s->sim = ro->sim;
	s->no_check = ro->no_check || s->l->simulated;  /* simulated hosts: nothing to check */
	hm_error_clear(&err);
	if (!dry_run && (s->results_fd = hm_results_open(ro->results, &err)) < 0) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	if (hm_launcher_detect(s->l, ro->lo.mpirun, ro->lo.launcher_version, !dry_run, &s->lf, &err)) {
		hm_say_error("%s: %s", cmd, err.msg);
		ret = s->lf.signal ? 128 + s->lf.signal : HM_EXIT_NO_MPIRUN;
		if (s->lf.signal)
			hm_run_record_interrupted(s, "launcher version check", s->lf.signal);
		hm_run_session_close(s);
		return ret;
	}
	/* no probe (--no-placement-check): the launcher binds as it can */
	if ((ret = hm_launch_request(&s->job, &ro->lo, NULL, s->l, NULL, ro->seed, 1, s->no_check))) {
		hm_run_session_close(s);
		return ret;
	}
	/* from here on a signal stops the search, or the job, and is recorded */
	hm_stop_signals_catch();
	return HM_EXIT_OK;
}

void hm_run_session_close(struct hm_run_session *s)
{
	if (s->results_fd >= 0)
		close(s->results_fd);
	s->results_fd = -1;
}

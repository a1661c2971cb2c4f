/* mapper/launch/mpirun.c - what 'run' and 'calibrate' share around mpirun: the
 * environment of the ranks, the root flag, and turning the outcome of
 * the child into a message and an exit code. */
#include "exit_code.h"
#include "models/util/nearest_name.h"
#include "models/util/say.h"
#include "mpirun.h"
#include "host_speed.h"
#include "models/platform/units.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void hm_mpirun_argv(struct hm_argv *out, const struct hm_launcher *l, struct hm_launch x,
		    const char *mpirun, char **extra, int nextra)
{
	if (!x.env)
		x.env = hm_rank_environment;
	hm_argv_add(out, mpirun);
	l->options(out, &x);
	for (int i = 0; i < nextra; i++)
		hm_argv_add(out, extra[i]);
}

int hm_mpirun_temp_dir(const char *cmd, char *dir, size_t size)
{
	const char *base = getenv("TMPDIR");

	snprintf(dir, size, "%s/hetmap-%s-XXXXXX", base && *base ? base : "/tmp", cmd);
	if (!mkdtemp(dir)) {
		hm_say_error("%s: cannot create a temporary directory: %s", cmd, strerror(errno));
		return HM_EXIT_OUTPUT;
	}
	return HM_EXIT_OK;
}

/* Message (when not a success) and exit code for how the child ended. */
static int outcome(const char *cmd, const char *what, const struct hm_spawn_result *res,
		   const struct hm_spawn_opts *opts, const char *mpirun)
{
	char how[256];

	if (res->status == HM_SPAWN_EXITED && res->exit_code == 0)
		return HM_EXIT_OK;
	hm_spawn_describe(res, opts, how, sizeof(how));
	if (res->status == HM_SPAWN_NOT_FOUND) {
		hm_say_error("%s: '%s' %s (install the launcher's package, or give --mpirun PATH)", cmd, mpirun, how);
		return HM_EXIT_NO_MPIRUN;
	}
	hm_say_error("%s: %s %s", cmd, what, how);
	switch (res->status) {
	case HM_SPAWN_TIMEOUT:
		return HM_EXIT_TIMEOUT;
	case HM_SPAWN_INTERRUPTED:
		return 128 + res->signal;
	default:        /* exited non-zero, or killed by a signal */
		return HM_EXIT_JOB_FAILED;
	}
}

const struct hm_launcher *hm_runnable_launcher(const char *cmd, const char *name)
{
	const struct hm_launcher *l = hm_launcher_find(name);
	const char *near = l ? NULL : hm_launcher_nearest(name);
	char names[128];

	if (l && l->runs)
		return l;
	hm_say_error("%s: launcher must be %s%s, not '%s'%s%s%s", cmd,
		     hm_launcher_names(HM_LAUNCHERS_RUN, ", ", names, sizeof(names)),
		     l ? " ('hetmap plan --launcher' writes the others' files)" : "", name, HM_DID_YOU_MEAN(near));
	return NULL;
}

/* hetmap stops the job on any signal it can catch; SIGKILL it cannot. */
static void announce_group(int pid)
{
	hm_say_detail("hetmap: the launcher runs as process group %d (if hetmap is killed with SIGKILL, "
		"stop the job with: kill -TERM -- -%d)\n", pid, pid);
}

int hm_mpirun_spawn(const char *cmd, const char *what, char **argv, struct hm_spawn_opts *so,
		    struct hm_spawn_result *res, const char *mpirun)
{
	so->on_start = announce_group;
	if (hm_spawn_run(argv, so, res)) {
		hm_say_error("%s: cannot start mpirun: %s", cmd, strerror(errno));
		return HM_EXIT_FAILURE;
	}
	return outcome(cmd, what, res, so, mpirun);
}

int hm_simulator_host_speed(const char *cmd, const char *given, int b, enum hm_sim_kernels kernels,
			    double *speed)
{
	struct hm_error err;
	char why[256];
	double k;

	if (given) {
		if (hm_unit_parse(given, HM_UNIT_SECONDS_PER_FLOP, &k, why, sizeof(why))) {
			hm_say_error("%s: --host-speed '%s': %s", cmd, given, why);
			return HM_EXIT_USAGE;
		}
		*speed = 1.0 / k;
		return HM_EXIT_OK;
	}
	/* modeled kernels time nothing here (smpi/simulate-computation:no):
	 * SMPI only needs a speed to start */
	if (kernels == HM_SIM_MODELED) {
		*speed = 1e9;
		return HM_EXIT_OK;
	}
	hm_error_clear(&err);
	if (!(*speed = hm_measure_host_speed(b, "k3_dgemm", &err))) {
		hm_say_error("%s: %s (give --host-speed)", cmd, err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	hm_say_note("hetmap: %s: this machine's dgemm rate, measured at b = %d: %.3f GFLOP/s "
		"(--host-speed to give it)\n", cmd, b, *speed / 1e9);
	return HM_EXIT_OK;
}

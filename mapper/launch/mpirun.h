/* mapper/launch/mpirun.h - shared by 'hetmap run' and 'hetmap calibrate'. */
#ifndef HM_MPIRUN_H
#define HM_MPIRUN_H

#include <stdlib.h>
#include "exit_code.h"
#include "launcher.h"
#include "spawn.h"
#include "models/platform/simgrid_platform.h"

/* Into 'out': launcher l's command for launch 'x' (its env, when NULL,
 * the ranks' environment), with 'mpirun' as argv[0], then the user's
 * mpirun options 'extra'. The program and its arguments follow. */
void hm_mpirun_argv(struct hm_argv *out, const struct hm_launcher *l, struct hm_launch x,
		    const char *mpirun, char **extra, int nextra);

/* A fresh directory $TMPDIR/hetmap-CMD-XXXXXX (default /tmp) into dir; an
 * exit code, with a message when it is not HM_EXIT_OK. */
int hm_mpirun_temp_dir(const char *cmd, char *dir, size_t size);

/* Run argv (mpirun ...) to its end; the exit code for how it ended, with
 * a message naming 'cmd' and the child ('what', e.g. "the job") when it is
 * not a success. HM_EXIT_FAILURE: it could not be started at all (then
 * *res says nothing). */
int hm_mpirun_spawn(const char *cmd, const char *what, char **argv, struct hm_spawn_opts *so,
		    struct hm_spawn_result *res, const char *mpirun);

/* Launcher 'name' if 'hetmap run' can drive it, else NULL after a message
 * naming 'cmd' (and the name it likely meant). */
const struct hm_launcher *hm_runnable_launcher(const char *cmd, const char *name);

/* A simulator's rate of this machine's core (flop/s) into *speed: the
 * --host-speed text 'given' (a flop rate, "50Gf"); else, where the
 * simulator times code here (kernels executed, or modeled-as-executed),
 * dgemm's rate measured at block size b (host_speed.h) and said on
 * stderr; else (kernels modeled: nothing is timed here) a nominal 1
 * GFLOP/s that no simulated time depends on. HM_EXIT_OK, or an exit code
 * after a message naming 'cmd'. */
int hm_simulator_host_speed(const char *cmd, const char *given, int b, enum hm_sim_kernels kernels,
			    double *speed);

#endif /* HM_MPIRUN_H */

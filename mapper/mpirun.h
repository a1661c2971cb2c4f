/* mapper/mpirun.h - shared by 'hetmap run' and 'hetmap calibrate'. */
#ifndef HM_MPIRUN_H
#define HM_MPIRUN_H

#include <stdlib.h>
#include "launcher.h"
#include "wrappers/spawn.h"

/* The environment every rank gets (NULL-terminated "NAME=VALUE"). */
extern const char *const hm_rank_environment[];

/* 'cmd' (a launcher's command, "mpirun ...") into 'out' with the user's
 * 'mpirun' as argv[0], plus --allow-run-as-root when running as root. */
void hm_mpirun_argv(struct hm_argv *out, const struct hm_argv *cmd, const char *mpirun);

/* Message (when not a success) and exit code for how the child ended.
 * 'what' names the child in the message, e.g. "the job". */
int hm_mpirun_outcome(const char *cmd, const char *what, const struct hm_spawn_result *res,
		      const struct hm_spawn_opts *opts, const char *mpirun);

/* Parse the options of a command that drives mpirun: operands are mpirun
 * options and only come after "--" (*extra, *nextra). Returns -1 when the
 * command goes on, else the exit code to return at once. */
int hm_mpirun_parse(const struct hm_usage *u, const struct hm_option *opts, int argc,
		    char **argv, char ***extra, int *nextra);

/* Launcher 'name' if it is one of Open MPI's, else NULL after a message
 * naming 'cmd'. */
const struct hm_launcher *hm_openmpi_launcher(const char *cmd, const char *name);

/* "exited", "signaled", "not_found", "timeout", "interrupted". */
const char *hm_spawn_status_name(enum hm_spawn_status s);

#endif /* HM_MPIRUN_H */

/* mapper/mpirun.c - what 'run' and 'calibrate' share around mpirun: the
 * environment of the ranks, the root flag, and turning the outcome of
 * the child into a message and an exit code. */
#include "cli.h"
#include "mpirun.h"

#include <string.h>
#include <unistd.h>

/* One BLAS thread per rank: the plan already decided how many ranks share
 * a core; a threaded BLAS would oversubscribe it behind our back. */
const char *const hm_rank_environment[] = { "OPENBLAS_NUM_THREADS=1", NULL };

void hm_mpirun_argv(struct hm_argv *out, const struct hm_argv *cmd, const char *mpirun)
{
	hm_argv_add(out, mpirun);
	/* Open MPI refuses root unless told; CI and containers run as root */
	if (geteuid() == 0)
		hm_argv_add(out, "--allow-run-as-root");
	for (int i = 1; i < cmd->n; i++)
		hm_argv_add(out, cmd->v[i]);
	if (cmd->failed)
		out->failed = 1;
}

int hm_mpirun_outcome(const char *cmd, const char *what, const struct hm_spawn_result *res,
		      const struct hm_spawn_opts *opts, const char *mpirun)
{
	char how[256];

	hm_spawn_describe(res, opts, how, sizeof(how));
	switch (res->status) {
	case HM_SPAWN_EXITED:
		if (res->exit_code == 0)
			return HM_EXIT_OK;
		hm_cli_error("%s: %s %s", cmd, what, how);
		return HM_EXIT_JOB_FAILED;
	case HM_SPAWN_SIGNALED:
		hm_cli_error("%s: %s %s", cmd, what, how);
		return HM_EXIT_JOB_FAILED;
	case HM_SPAWN_NOT_FOUND:
		hm_cli_error("%s: '%s' %s (install openmpi-bin, or give --mpirun PATH)", cmd, mpirun, how);
		return HM_EXIT_NO_MPIRUN;
	case HM_SPAWN_TIMEOUT:
		hm_cli_error("%s: %s %s", cmd, what, how);
		return HM_EXIT_TIMEOUT;
	case HM_SPAWN_INTERRUPTED:
		hm_cli_error("%s: %s %s", cmd, what, how);
		return 128 + res->signal;
	}
	return HM_EXIT_FAILURE;
}

int hm_mpirun_parse(const struct hm_usage *u, const struct hm_option *opts, int argc,
		    char **argv, char ***extra, int *nextra)
{
	int first = hm_options_parse(u, opts, argc, argv);

	*extra = argv + argc;
	*nextra = 0;
	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0)
		return HM_EXIT_USAGE;
	if (first < argc) {
		if (strcmp(argv[first - 1], "--")) {
			hm_cli_error("%s: unexpected argument '%s' (mpirun options go after '--')",
				     u->name, argv[first]);
			return HM_EXIT_USAGE;
		}
		*extra = argv + first;
		*nextra = argc - first;
	}
	return -1;
}

const struct hm_launcher *hm_openmpi_launcher(const char *cmd, const char *name)
{
	const struct hm_launcher *l = hm_launcher_find(name);

	if (!l || strncmp(l->name, "openmpi", 7)) {
		hm_cli_error("%s: launcher must be openmpi or openmpi-seq (hetmap drives Open MPI's mpirun)",
			     cmd);
		return NULL;
	}
	return l;
}

const char *hm_spawn_status_name(enum hm_spawn_status s)
{
	static const char *const names[] = { "exited", "signaled", "not_found", "timeout",
					     "interrupted" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

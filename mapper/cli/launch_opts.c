/* mapper/cli/launch_opts.c - see launch_opts.h. */
#include "launch_opts.h"

#include <limits.h>
#include <string.h>

int hm_launch_opts_check(const char *cmd, const struct hm_launch_opts *lo)
{
	const struct hm_launcher *l = lo->launcher_name ? hm_launcher_find(lo->launcher_name) : NULL;
	struct hm_argv words = { 0 };
	struct hm_error err;
	int fights;

	hm_error_clear(&err);
	hm_argv_split(&words, lo->launcher_args);
	fights = l && hm_launcher_args_check(l, &words, &err);
	hm_argv_free(&words);
	if (fights) {
		hm_say_error("%s: --launcher-args: %s; to run another configuration, give it by hand "
			     "(--procs LIST --grid RxC -b B, 'hetmap run --help')", cmd, err.msg);
		return HM_EXIT_USAGE;
	}
	if (lo->grid_order && strcmp(lo->grid_order, "row") && strcmp(lo->grid_order, "column")) {
		hm_say_error("%s: --grid-order must be row or column, not '%s'", cmd, lo->grid_order);
		return HM_EXIT_USAGE;
	}
	return HM_EXIT_OK;
}

int hm_launch_request(struct hm_job_request *rq, const struct hm_launch_opts *lo,
		      struct hm_placement *pl, const struct hm_launcher *l, const char *dir,
		      int seed, int program_here, int no_probe)
{
	static char probe[PATH_MAX];    /* one launch a process */
	struct hm_error err;

	memset(rq, 0, sizeof(*rq));
	rq->pl = pl, rq->l = l, rq->dir = dir, rq->seed = seed, rq->program_here = program_here;
	rq->program = lo->program, rq->nprogram = lo->nprogram;
	rq->profile = lo->profile, rq->launcher_args = lo->launcher_args;
	for (int i = 0; i < lo->inputs.n; i++)
		rq->inputs[i] = lo->inputs.v[i];
	rq->ninputs = lo->inputs.n;
	rq->column_major = lo->grid_order ? !strcmp(lo->grid_order, "column") : -1;
	rq->batch_minutes = lo->batch_minutes;
	hm_error_clear(&err);
	if (!no_probe && !(rq->binder = hm_helper_program("hetmap-probe", probe, sizeof(probe), &err))) {
		hm_say_error("%s", err.msg);
		return HM_EXIT_NO_MPIRUN;
	}
	return HM_EXIT_OK;
}

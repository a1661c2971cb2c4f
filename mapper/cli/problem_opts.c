/* mapper/cli/problem_opts.c - the options that state a problem (platform,
 * routine, n, model, depth), shared by predict, plan, compare and run. */
#include "cli.h"

#include <math.h>
#include <string.h>

void hm_problem_opts_init(struct hm_problem_opts *o)
{
	o->platform = NULL;     /* hm_default_platform */
	o->routine = "lu";
	o->n = HM_DEFAULT_N;
	o->model = NULL;
	o->depth = 0;
	o->shape = (struct hm_shape){ 0, 0 };
}

/* The default level limit: what the platform holds without sharing a
 * core (its cores), within what the searches take. */
static int platform_cores(const struct hm_platform *p)
{
	long cores = hm_platform_cores(p);

	return cores < HM_MAX_DEPTH ? (int)cores : HM_MAX_DEPTH;
}

/* -b names one of the platform's candidate block sizes, which the kernels
 * were measured at. An exit code. */
static int check_block_size(const char *cmd, const struct hm_problem *pb)
{
	const struct hm_platform *p = pb->platform;
	char list[256] = "";
	size_t len = 0;

	if (!pb->shape.b)
		return HM_EXIT_OK;
	for (int i = 0; i < p->nr_block_sizes; i++) {
		if (p->block_sizes[i] == pb->shape.b)
			return HM_EXIT_OK;
		len += (size_t)snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0, "%s%d",
					i ? ", " : "", p->block_sizes[i]);
	}
	hm_say_error("%s: -b %d is not one of %s's block sizes (%s): its kernels were measured at those",
		     cmd, pb->shape.b, p->name, list);
	return HM_EXIT_USAGE;
}

int hm_problem_open(const char *cmd, struct hm_problem_opts *o, struct hm_problem *pb,
		    struct hm_platform **platform)
{
	struct hm_error err;
	int ret;

	memset(pb, 0, sizeof(*pb));
	*platform = NULL;
	if (hm_routine_parse(o->routine, &pb->routine)) {
		hm_say_error("unknown routine '%s' (expected 'lu' or 'gemm')", o->routine);
		return HM_EXIT_USAGE;
	}
	pb->model = o->model ? hm_model_find(o->model) : hm_model_default();
	if (!pb->model) {
		hm_say_error("unknown model '%s' (%s)", o->model, hm_help_models());
		return HM_EXIT_USAGE;
	}
	if (o->n != floor(o->n)) {
		hm_say_error("matrix order n must be an integer (got %g)", o->n);
		return HM_EXIT_USAGE;
	}
	if ((ret = hm_default_platform(cmd, &o->platform)))
		return ret;
	if (hm_platform_load(o->platform, platform, &err)) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	hm_cli_warnings(*platform);
	pb->platform = *platform;
	pb->n = o->n;
	pb->depth = o->depth ? o->depth : platform_cores(*platform);
	pb->shape = o->shape;
	if ((ret = check_block_size(cmd, pb))) {
		hm_platform_free(*platform);    /* an error leaves nothing to free */
		*platform = NULL, pb->platform = NULL;
	}
	return ret;
}

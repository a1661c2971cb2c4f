/* mapper/cli/problem_opts.c - the options that state a problem (platform,
 * routine, n, model, depth), shared by predict, plan, compare and run. */
#include "cli.h"
#include "mapper/tune/learn.h"

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
	o->history.n = 0;
}

/* --history: the platform as measured, corrected by what its runs in the
 * results files teach (mapper/tune/learn.h). An exit code. */
static int load_with_history(const char *cmd, struct hm_problem_opts *o, const struct hm_model *m,
			     struct hm_platform **platform)
{
	struct hm_history h;
	struct hm_learned l;
	struct hm_error err;
	cJSON *doc = NULL;
	int ret = HM_EXIT_OK;

	hm_error_clear(&err);
	if (hm_learn_load_base(o->platform, platform, &doc, &err)) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	cJSON_Delete(doc);
	hm_history_init(&h, *platform);
	for (int i = 0; i < o->history.n && !ret; i++)
		if (hm_history_read(&h, *platform, o->history.v[i], &err)) {
			hm_say_report(&err);
			ret = HM_EXIT_INPUT;
		}
	if (!ret && hm_learn(*platform, m, &h, &l, &err)) {
		hm_say_error("%s: --history: %s (%ld records read, %ld of another platform, %ld without a "
			     "measurement)", cmd, err.msg, h.records, h.other_platform, h.not_measured);
		ret = HM_EXIT_INPUT;
	} else if (!ret) {
		hm_learned_apply(*platform, &l);
		hm_say_note("hetmap: %s: %s; MAPE on them %.1f %% -> %.1f %%%s%s\n", cmd, (*platform)->corrections_note,
			    l.mape_before, l.mape_after, l.caveat[0] ? "; " : "", l.caveat);
		hm_learned_release(&l);
	}
	hm_history_release(&h);
	if (ret) {
		hm_platform_free(*platform);
		*platform = NULL;
	}
	return ret;
}

/* The default level limit: what the platform holds without sharing a
 * core (its cores), within what the searches take. */
static int platform_cores(const struct hm_platform *p)
{
	long cores = hm_platform_cores(p);

	return cores < HM_MAX_DEPTH ? (int)cores : HM_MAX_DEPTH;
}

/* -b names one of the platform's candidate block sizes, which the kernels
 * were measured at, or one between two of them: that one becomes a
 * candidate, its kernels' costs interpolated linearly (hm_table_at), and a
 * note says how far apart the measured neighbours are (the interpolation
 * is no surer than that). Outside them it is refused: the tables would
 * only be clamped. An exit code. */
static int check_block_size(const char *cmd, struct hm_problem *pb, struct hm_platform *p)
{
	int b = pb->shape.b, lo = 0, hi = 0;
	char list[256] = "";
	size_t len = 0;
	double apart = 0;

	if (!b)
		return HM_EXIT_OK;
	for (int i = 0; i < p->nr_block_sizes; i++) {
		if (p->block_sizes[i] == b)
			return HM_EXIT_OK;
		if (p->block_sizes[i] < b)
			lo = p->block_sizes[i];
		else if (!hi)
			hi = p->block_sizes[i];
		len += (size_t)snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0, "%s%d",
					i ? ", " : "", p->block_sizes[i]);
	}
	if (!lo || !hi || p->nr_block_sizes == HM_MAX_BLOCK_SIZES) {
		hm_say_error("%s: -b %d is outside %s's block sizes (%s): its kernels were measured at those, "
			     "and between two of them a b is interpolated", cmd, b, p->name, list);
		return HM_EXIT_USAGE;
	}
	for (int t = 0; t < p->nr_types; t++) {
		double a = hm_table_at(&p->types[t].k3_dgemm, lo), c = hm_table_at(&p->types[t].k3_dgemm, hi);

		if (a > 0 && c > 0 && fabs(a / c - 1) > apart)
			apart = fabs(a / c - 1);
	}
	hm_say_note("hetmap: %s: -b %d lies between %s's measured block sizes %d and %d: its kernels' costs are "
		    "interpolated between theirs, which differ by up to %.0f %% (dgemm): trust it no further\n",
		    cmd, b, p->name, lo, hi, 100 * apart);
	memmove(p->block_sizes + 1, p->block_sizes, (size_t)p->nr_block_sizes * sizeof(int));
	p->block_sizes[0] = b;
	p->nr_block_sizes++;
	for (int i = 1; i < p->nr_block_sizes && p->block_sizes[i - 1] > p->block_sizes[i]; i++) {
		int x = p->block_sizes[i];

		p->block_sizes[i] = p->block_sizes[i - 1], p->block_sizes[i - 1] = x;
	}
	return HM_EXIT_OK;
}

int hm_problem_open(const char *cmd, struct hm_problem_opts *o, struct hm_problem *pb,
		    struct hm_platform **platform)
{
	struct hm_error err;
	int ret;

	memset(pb, 0, sizeof(*pb));
	*platform = NULL;
	if (hm_routine_parse(o->routine, &pb->routine)) {
		static const char *const routines[] = { "lu", "gemm", NULL };
		const char *near = hm_nearest_name(o->routine, routines);

		hm_say_error("unknown routine '%s'%s%s%s (expected 'lu' or 'gemm')", o->routine, HM_DID_YOU_MEAN(near));
		return HM_EXIT_USAGE;
	}
	pb->model = o->model ? hm_model_find(o->model) : hm_model_default();
	if (!pb->model) {
		const char *near = hm_model_nearest(o->model);

		hm_say_error("unknown model '%s'%s%s%s (%s)", o->model, HM_DID_YOU_MEAN(near), hm_help_models());
		return HM_EXIT_USAGE;
	}
	if (o->n != floor(o->n)) {
		hm_say_error("matrix order n must be an integer (got %g)", o->n);
		return HM_EXIT_USAGE;
	}
	if ((ret = hm_default_platform(cmd, &o->platform)))
		return ret;
	if (o->history.n) {
		if ((ret = load_with_history(cmd, o, pb->model, platform)))
			return ret;
	} else if (hm_platform_load(o->platform, platform, &err)) {
		hm_say_report(&err);
		if (hm_default_platform_source()[0])
			hm_say_error("%s: (the platform %s: give -p for another)", cmd, hm_default_platform_source());
		return HM_EXIT_INPUT;
	}
	hm_cli_warnings(*platform);
	pb->platform = *platform;
	pb->n = o->n;
	pb->depth = o->depth ? o->depth : platform_cores(*platform);
	pb->shape = o->shape;
	if ((ret = check_block_size(cmd, pb, *platform))) {
		hm_platform_free(*platform);    /* an error leaves nothing to free */
		*platform = NULL, pb->platform = NULL;
	}
	return ret;
}

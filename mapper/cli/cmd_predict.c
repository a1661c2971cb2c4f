/* mapper/cli/cmd_predict.c - 'hetmap predict': the model's time for one
 * configuration, with its parts. */
#include "cli.h"
#include "mapper/launch/plan.h"
#include "models/platform/threads.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct hm_usage usage = {
	"predict",
	"hetmap predict [-p FILE] [-r lu|gemm] [-n N] --procs LIST [--threads LIST] [--grid RxC] [-b B]",
	"Predict the execution time of one configuration with the model, and its\n"
	"computation and communication parts.",
	"LIST gives the processes on each processor in platform order, e.g.\n"
	"1,1,0,2; or by name, e.g. P17=2,P18=1 (others get 0). --threads gives each\n"
	"processor's BLAS threads per process the same way (0 or not named: 1; its\n"
	"type must have thread speed-ups). Without --grid and -b the model picks the\n"
	"best grid and block size for that distribution.\n"
	"example: hetmap predict -p builtin:torc -n 2048 --procs 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 --grid 1x19 -b 32",
};

/* Parse LIST into d[0..P-1]; 0 or -1 after a message. */
static int parse_counts(const char *list, const struct hm_platform *p, int *d, char *seen)
{
	int named = strchr(list, '=') != NULL, i = 0;
	const char *s = list;

	memset(d, 0, (size_t)p->nr_procs * sizeof(int));
	memset(seen, 0, (size_t)p->nr_procs);
	while (*s) {
		char item[300], *eq, *end;
		size_t len = strcspn(s, ",");
		long v;
		int idx = i;

		if (len == 0 || len >= sizeof(item)) {
			hm_say_error("predict: bad --procs list near '%.20s'", s);
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		eq = strchr(item, '=');
		if (named != (eq != NULL)) {
			hm_say_error("predict: --procs mixes 'NAME=COUNT' and plain counts");
			return -1;
		}
		if (eq) {
			*eq = '\0';
			idx = hm_platform_find(p, item);
			if (idx < 0) {
				hm_say_error("predict: unknown processor '%s' in --procs", item);
				return -1;
			}
			if (seen[idx]++) {
				hm_say_error("predict: processor '%s' given twice in --procs", item);
				return -1;
			}
		} else if (i >= p->nr_procs) {
			hm_say_error("predict: --procs has more than %d entries", p->nr_procs);
			return -1;
		}
		errno = 0;
		v = strtol(eq ? eq + 1 : item, &end, 10);
		if (end == (eq ? eq + 1 : item) || *end || errno || v < 0 || v > HM_MAX_DEPTH) {
			hm_say_error("predict: '%s' is not a process count (0..%d)", eq ? eq + 1 : item,
				     HM_MAX_DEPTH);
			return -1;
		}
		d[idx] = (int)v;
		i++;
		s += len;
		if (*s == ',' && *++s == '\0') {
			hm_say_error("predict: --procs ends with ','");
			return -1;
		}
	}
	if (!named && i != p->nr_procs) {
		hm_say_error("predict: --procs has %d entries, the platform has %d processors", i,
			     p->nr_procs);
		return -1;
	}
	return 0;
}

/* A decimal count 1..HM_MAX_DEPTH at *s (digits only); the end in *end. */
static int grid_side(const char *s, const char **end, int *out)
{
	long v = 0;

	*end = s;
	while (**end >= '0' && **end <= '9' && v <= HM_MAX_DEPTH)
		v = 10 * v + (*(*end)++ - '0');
	if (*end == s || v < 1 || v > HM_MAX_DEPTH)
		return -1;
	*out = (int)v;
	return 0;
}

/* "RxC" exactly: digits, one 'x' (or 'X'), digits, nothing more. */
static int parse_grid(const char *text, int *r, int *c)
{
	const char *s;

	if (grid_side(text, &s, r) || (*s != 'x' && *s != 'X') || grid_side(s + 1, &s, c) || *s) {
		hm_say_error("predict: --grid expects RxC with R and C in 1..%d, not '%s'",
			     HM_MAX_DEPTH, text);
		return -1;
	}
	return 0;
}

static void print_sp(const struct hm_problem *pb, const int *d, int b)
{
	struct hm_sp sp;

	hm_model_sp(pb->model, pb->platform, d, b, pb->routine, &sp);
	printf("  effective    k3_dgemm %.4g us/flop, k3_dtrsm %.4g us/flop, k2_dgetf2 %.4g us/flop,\n"
	       "               column step %.4g us, row interchange %.4g ns/element,\n"
	       "               t_s %.4g us, t_w %.4g us/word (heterogeneity rule, b = %d)\n",
	       sp.k3_dgemm * 1e6, sp.k3_dtrsm * 1e6, sp.k2_dgetf2 * 1e6, sp.t_step * 1e6, sp.k1_dswap * 1e9,
	       sp.t_s * 1e6, sp.t_w * 1e6, b);
}

int cmd_predict(int argc, char **argv)
{
	struct hm_problem_opts po;
	const char *procs = NULL, *grid = NULL, *format = "text", *threads_list = NULL;
	int b = 0, stop, fmt, r = 0, c = 0, ret;
	struct hm_problem pb, priced;    /* priced: on the thread view where --threads */
	struct hm_platform *p = NULL;
	struct hm_result res;
	struct hm_error err;
	int *d = NULL, *threads = NULL;
	char *seen = NULL;      /* processors named in --procs */
	struct hm_thread_view view = { 0 };

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			{ 0, "procs", HM_OPT_STRING, &procs, "LIST", "processes per processor (required)", 0, 0 },
			{ 0, "threads", HM_OPT_STRING, &threads_list, "LIST", "BLAS threads of each processor's processes (default 1)", 0, 0 },
			{ 'g', "grid", HM_OPT_STRING, &grid, "RxC", "process grid; with -b, else the best", 0, 0 },
			{ 'b', "block", HM_OPT_INT, &b, "B", "block size; with --grid, else the best", 1, HM_MAX_BLOCK },
			HM_FORMAT_OPTION(format, "text or json"),
			HM_OPT_TABLE_END,
		};

		stop = hm_options_parse_only(&usage, opts, argc, argv);
	}
	if (stop >= 0)
		return stop;
	{
		const struct hm_option_rule rules[] = {
			{ 1, procs != NULL, "--procs is required (see 'hetmap predict --help')" },
			{ grid != NULL, b != 0, "give both --grid and -b, or neither" },
			{ b != 0, grid != NULL, "give both --grid and -b, or neither" },
		};

		if (HM_OPTION_RULES_CHECK("predict", rules))
			return HM_EXIT_USAGE;
	}
	if ((fmt = hm_format_parse("predict", format, 1 | 4)) < 0 || (grid && parse_grid(grid, &r, &c)))
		return HM_EXIT_USAGE;
	ret = hm_problem_open("predict", &po, &pb, &p);
	if (ret)
		return ret;
	d = malloc((size_t)p->nr_procs * sizeof(int));
	seen = malloc((size_t)p->nr_procs);
	if (!d || !seen || parse_counts(procs, p, d, seen)) {
		ret = d && seen ? HM_EXIT_USAGE : HM_EXIT_FAILURE;
		goto cleanup;
	}
	if (threads_list) {
		if (!(threads = malloc((size_t)p->nr_procs * sizeof(int))) ||
		    parse_counts(threads_list, p, threads, seen)) {
			ret = threads ? HM_EXIT_USAGE : HM_EXIT_FAILURE;
			goto cleanup;
		}
		for (int i = 0; i < p->nr_procs; i++)
			threads[i] += !threads[i];
		if (hm_thread_ranks_fit(p, d, threads, &err) || hm_thread_view_build(&view, p, threads, &err)) {
			hm_say_error("predict: --threads: %s", err.msg);
			ret = HM_EXIT_USAGE;
			goto cleanup;
		}
	}
	priced = pb;
	if (threads)
		priced.platform = &view.view;
	ret = grid ? hm_evaluate_config(&priced, d, r, c, b, "predict", &res, &err) :
		     hm_evaluate_counts(&priced, d, "predict", &res, &err);
	if (ret) {
		hm_say_error("predict: %s", err.msg);
		ret = HM_EXIT_USAGE;
		goto cleanup;
	}
	if (threads) {
		res.threads = threads;
		threads = NULL;
	}
	if (fmt == HM_FORMAT_JSON) {
		struct hm_plan_inputs in = { po.platform, &pb, NULL };
		cJSON *json = hm_plan_json(&in, &res);
		char *text = json ? cJSON_Print(json) : NULL;

		if (text)
			printf("%s\n", text);
		ret = text ? HM_EXIT_OK : HM_EXIT_FAILURE;
		free(text);
		cJSON_Delete(json);
	} else {
		hm_print_result(stdout, &pb, &res);
		if (res.found)
			print_sp(&priced, res.d, res.b);
		ret = res.found ? HM_EXIT_OK : HM_EXIT_NO_PLAN;
	}
	hm_result_release(&res);
cleanup:
	free(d);
	free(seen);
	free(threads);
	if (view.view.types)
		hm_thread_view_release(&view);
	hm_platform_free(p);
	return ret;
}

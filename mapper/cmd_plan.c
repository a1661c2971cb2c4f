/* mapper/cmd_plan.c - 'hetmap plan': search the best configuration with
 * one method (or take a modeled user's choice) and write the plan. */
#include "cli.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct hm_usage usage = {
	"plan",
	"hetmap plan [-p FILE] [-r lu|gemm] [-n N] [-M METHOD] [-d DEPTH] [-o PLAN.json]",
	"Search the number of processes on each processor, the grid r x c and the\n"
	"block size b with the least predicted time, and print or write the plan.",
	"methods: BTM, BGRM, GRM, GCTM, GPTM (default), exhaustive; or a modeled\n"
	"user: GU, CU, EU. Budgets stop a search early: the best plan so far is\n"
	"given and hetmap exits with code 5.\n"
	"example: hetmap plan -p builtin:torc -r lu -n 2048 -M BTM -d 20 -o plan.json",
};

/* Run a method or a user by name; an exit code. */
static int run_named(const char *name, const struct hm_problem *pb,
		     const struct hm_budget *budget, struct hm_result *res)
{
	const struct hm_method *m = hm_method_find(name);
	struct hm_error err;
	int u;

	hm_error_clear(&err);
	if (m) {
		if (hm_search(m, pb, budget, res, &err)) {
			hm_cli_error("plan: %s", err.msg);
			return HM_EXIT_USAGE;
		}
		return HM_EXIT_OK;
	}
	for (u = 0; u < HM_NR_USERS; u++)
		if (!strcasecmp(name, hm_user_name((enum hm_user)u))) {
			if (hm_user_plan((enum hm_user)u, pb, res, &err)) {
				hm_cli_error("plan: %s", err.msg);
				return HM_EXIT_FAILURE;
			}
			return HM_EXIT_OK;
		}
	hm_cli_error("plan: unknown method '%s' (BTM, BGRM, GRM, GCTM, GPTM, exhaustive, GU, CU, EU)",
		     name);
	return HM_EXIT_USAGE;
}

int cmd_plan(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, 60 };
	const char *method = "GPTM", *out = NULL, *format = "text";
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_result res;
	int stop, fmt, ret;
	cJSON *json = NULL;

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			{ 'M', "method", HM_OPT_STRING, &method, "M", "search method or modeled user (default GPTM)", 0, 0 },
			{ 'd', "depth", HM_OPT_INT, &po.depth, "L", "level limit: at most L processes (default 25)", 1, HM_MAX_DEPTH },
			{ 0, "max-nodes", HM_OPT_LONG, &budget.max_nodes, "N", "stop after N evaluated nodes (default: no limit)", 0, 1e15 },
			{ 0, "max-time", HM_OPT_DOUBLE, &budget.max_seconds, "S", "stop after S seconds (default 60; 0 = no limit)", 0, 1e9 },
			{ 'o', "output", HM_OPT_STRING, &out, "FILE", "write the plan JSON there (atomically)", 0, 0 },
			{ 'f', "format", HM_OPT_STRING, &format, "F", "text or json on standard output", 0, 0 },
			HM_OPT_TABLE_END,
		};

		stop = hm_options_parse_only(&usage, opts, argc, argv);
	}
	if (stop >= 0)
		return stop;
	if ((fmt = hm_format_parse("plan", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	ret = hm_problem_open(&po, &pb, &p);
	if (ret)
		return ret;
	ret = run_named(method, &pb, &budget, &res);
	if (ret)
		goto cleanup;
	{
		struct hm_plan_inputs in = { po.platform, &pb, &budget };

		json = hm_plan_json(&in, &res);
	}
	if (!json) {
		ret = HM_EXIT_FAILURE;
		goto release;
	}
	if (fmt == HM_FORMAT_JSON) {
		char *text = cJSON_Print(json);

		if (text)
			printf("%s\n", text);
		free(text);
	} else {
		hm_print_result(stdout, &pb, &res);
	}
	if (res.stopped)
		hm_cli_error("plan: %s stopped by the %s after %ld nodes: the plan is the best found so far",
			     res.method, hm_stop_name(res.stopped), res.evaluated);
	ret = !res.found ? HM_EXIT_NO_PLAN : res.stopped ? HM_EXIT_BUDGET : HM_EXIT_OK;
	if (out && res.found) {
		struct hm_error err;

		if (hm_json_write(out, json, &err)) {
			hm_cli_report(&err);
			ret = HM_EXIT_OUTPUT;
		} else if (fmt == HM_FORMAT_TEXT) {
			printf("  plan written to %s\n", out);
		}
	}
	cJSON_Delete(json);
release:
	hm_result_release(&res);
cleanup:
	hm_platform_free(p);
	return ret;
}

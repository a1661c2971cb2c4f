/* mapper/cmd_plan.c - 'hetmap plan': search the best configuration with
 * one method (or take a modeled user's choice) and write the plan. */
#include "cli.h"
#include "plan.h"
#include "launcher.h"
#include "placement.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct hm_usage usage = {
	"plan",
	"hetmap plan [-p FILE] [-r lu|gemm] [-n N] [-M METHOD] [-d DEPTH] [-o PLAN.json]",
	"Search the number of processes on each processor, the grid r x c and the\n"
	"block size b with the least predicted time, and print or write the plan.",
	"Budgets stop a search early: the best plan so far is given and hetmap\n"
	"exits with code 5.\n"
	"example: hetmap plan -p builtin:torc -r lu -n 2048 -M BTM -d 20 -o plan.json",
};

/* The plan and its launcher file in directory 'out'. The placement reads
 * the plan document it is given, which stays the caller's. */
static int write_launch_dir(const char *out, cJSON *json, const struct hm_launcher *launcher,
			    const char *driver, struct hm_error *err)
{
	struct hm_placement pl;
	int ret;

	if (hm_placement_from_plan(&pl, json, "(plan)", err))
		return -1;
	pl.owner = json;
	ret = hm_launch_dir_write(out, &pl, launcher, driver, err);
	pl.owner = NULL;
	hm_placement_release(&pl);
	return ret;
}

int cmd_plan(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, HM_DEFAULT_MAX_TIME };
	const char *method = HM_DEFAULT_METHOD, *out = NULL, *format = "text";
	const char *launcher_name = NULL, *driver = NULL;
	const struct hm_launcher *launcher = NULL;
	char driver_buf[4096];
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_result res;
	int stop, fmt, ret;
	cJSON *json = NULL;

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_SEARCH_OPTIONS(method, po, budget),
			{ 'o', "output", HM_OPT_STRING, &out, "PATH", "write the plan JSON there (atomically); with --launcher, a directory", 0, 0 },
			{ 'L', "launcher", HM_OPT_STRING, &launcher_name, "L", hm_help_launchers("also write a launcher file and its command", 0), 0, 0 },
			{ 0, "driver", HM_OPT_STRING, &driver, "PATH", "driver path in the command (default: hetmap-driver beside hetmap)", 0, 0 },
			{ 'f', "format", HM_OPT_STRING, &format, "F", "text or json on standard output", 0, 0 },
			HM_OPT_TABLE_END,
		};

		stop = hm_options_parse_only(&usage, opts, argc, argv);
	}
	if (stop >= 0)
		return stop;
	if ((fmt = hm_format_parse("plan", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	if (launcher_name) {
		if (!(launcher = hm_launcher_find(launcher_name))) {
			hm_cli_error("plan: unknown launcher '%s' (%s)", launcher_name,
				     hm_help_launchers("known", 0));
			return HM_EXIT_USAGE;
		}
		if (!out) {
			hm_cli_error("plan: --launcher needs -o DIR, the directory for the files");
			return HM_EXIT_USAGE;
		}
	}
	if (!driver)
		driver = hm_sibling_program("hetmap-driver", driver_buf, sizeof(driver_buf));
	ret = hm_problem_open(&po, &pb, &p);
	if (ret)
		return ret;
	ret = hm_run_named(method, &pb, &budget, &res);
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
		char *text;

		hm_report_depth_limit(stderr, &pb, &res, budget.max_seconds,
				      cJSON_GetObjectItemCaseSensitive(json, "plan"));
		if ((text = cJSON_Print(json)))
			printf("%s\n", text);
		free(text);
	} else {
		hm_print_result(stdout, &pb, &res);
		hm_report_depth_limit(stdout, &pb, &res, budget.max_seconds,
				      cJSON_GetObjectItemCaseSensitive(json, "plan"));
	}
	if (res.stopped && res.found)
		hm_cli_error("plan: %s stopped by the %s after %ld nodes: the plan is the best found so far",
			     res.method, hm_stop_name(res.stopped), res.evaluated);
	/* a budget that ran out before any configuration was evaluated is a
	 * budget stop, not a problem without solution */
	ret = res.stopped ? HM_EXIT_BUDGET : !res.found ? HM_EXIT_NO_PLAN : HM_EXIT_OK;
	if (out && res.found) {
		struct hm_error err;

		hm_error_clear(&err);
		if (launcher ? write_launch_dir(out, json, launcher, driver, &err) :
			       hm_json_write(out, json, &err)) {
			hm_cli_report(&err);
			ret = HM_EXIT_OUTPUT;
		} else if (fmt == HM_FORMAT_TEXT) {
			printf("  %s written to %s%s\n", launcher ? "plan, launcher file and command" : "plan",
			       out, launcher ? "/" : "");
		}
	}
	cJSON_Delete(json);
release:
	hm_result_release(&res);
cleanup:
	hm_platform_free(p);
	return ret;
}

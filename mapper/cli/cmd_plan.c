/* mapper/cli/cmd_plan.c - 'hetmap plan': search the best configuration with
 * one method (or take a modeled user's choice) and write the plan. */
#include "cli.h"
#include "mapper/launch/plan.h"
#include "mapper/launch/launcher.h"
#include "mapper/launch/launcher_detect.h"
#include "mapper/launch/job.h"
#include "launch_opts.h"
#include "mapper/launch/judge.h"
#include "mapper/launch/sim_setup.h"
#include "models/util/clock.h"
#include "mapper/launch/placement.h"
#include "mapper/launch/placement_picture.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const struct hm_usage usage = {
	"plan",
	"hetmap plan [-p FILE] [-r lu|gemm] [-n N] [-M METHOD] [-d DEPTH] [-o PLAN.json]\n"
	"       hetmap plan [plan options] --launcher L -o DIR [-- PROGRAM [ARGS...]]",
	"Search the number of processes on each processor, the grid r x c and the\n"
	"block size b with the least predicted time, and print or write the plan.",
	"Budgets stop a search early: the best plan so far is given and hetmap\n"
	"exits with code 5.\n"
	"--judge K: SMPI simulates the model's K best configurations and the users\n"
	"GU, CU and EU at n with hetmap's driver, the kernels modeled (needs the\n"
	"SMPI flavour), --judge-jobs at a time, all within --max-time (give it: one\n"
	"simulation of n = 30000 on 1000 ranks takes minutes); the plan is the\n"
	"simulated best, and its \"judge\" lists every candidate's predicted and\n"
	"simulated time.\n"
	"examples:\n"
	"  hetmap plan -p builtin:torc -r lu -n 2048 -M BTM -d 20 -o plan.json\n"
	"  hetmap plan -p cluster.json -n 30000 --judge 4 --max-time 3600 -o plan.json",
};

/* The launch directory 'out' for the plan: plan.json (the document 'json',
 * which stays the caller's), the launcher file, the profile's input and
 * run.sh (job.h); for a simulator also the simulated platform and this
 * machine's rate (mapper/launch/sim_setup.h). An exit code, after a
 * message when it is not HM_EXIT_OK. */
static int write_launch_dir(const char *out, const struct hm_plan_inputs *in, const struct hm_result *res,
			    cJSON *json, const struct hm_launcher *launcher, const struct hm_launch_opts *lo,
			    const struct hm_sim_opts *so)
{
	struct hm_placement pl;
	struct hm_launcher_found lf;
	struct hm_job job;
	struct hm_job_request rq;
	struct hm_error err;
	char *xml = NULL;
	double speed = 0;
	int ret;

	hm_error_clear(&err);
	if (hm_placement_from_result(&pl, in, res, &err)) {
		hm_say_report(&err);
		return HM_EXIT_FAILURE;
	}
	cJSON_Delete(pl.owner);         /* plan.json is the caller's document, the judge's record in it */
	pl.owner = json;
	if (launcher->simulated && (ret = hm_sim_setup("plan", so, in->platform_path, &pl, 0, &xml, &speed)))
		goto out;
	hm_error_clear(&err);
	/* files for another machine: the launcher need not be here */
	hm_launcher_detect(launcher, lo->mpirun, lo->launcher_version, 0, &lf, &err);
	if (lf.failure[0])      /* said once, and what it means for the files */
		hm_say_error("plan: warning: %s: the launcher's version was not checked here (the files are "
			     "written for its default syntax; --launcher-version V names it)", lf.failure);
	if ((ret = hm_launch_request(&rq, lo, &pl, launcher, out, 1, 0, 0)))
		goto out;
	rq.launcher_program = lf.program, rq.launcher_major = lf.major;
	hm_sim_request(&rq, so, launcher, xml, speed);
	hm_error_clear(&err);
	if ((ret = hm_job_prepare(&job, &rq, &err))) {
		hm_say_error("plan: %s", err.msg);
		ret = ret == HM_JOB_NO_DIR ? HM_EXIT_OUTPUT : HM_EXIT_USAGE;
		goto out;
	}
	ret = HM_EXIT_OK;
	if (hm_job_write(&job, &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_OUTPUT;
		if (job.made_dir)        /* nothing was put in it */
			rmdir(job.dir);
	}
	hm_job_release(&job);
out:
	free(xml);
	pl.owner = NULL;
	hm_placement_release(&pl);
	return ret;
}

/* The plan on standard output: its document (-f json), or for a person
 * the decision, the judge's table and what the depth limit hides (which
 * goes into the document's plan as its "depth_limit" too). */
static void print_plan(int fmt, const struct hm_problem *pb, const struct hm_result *res, double max_seconds,
		       cJSON *json, const cJSON *judged)
{
	cJSON *plan = cJSON_GetObjectItemCaseSensitive(json, "plan");

	if (fmt == HM_FORMAT_JSON) {
		char *text;

		hm_report_depth_limit(stderr, pb, res, max_seconds, plan);
		if ((text = cJSON_Print(json)))
			printf("%s\n", text);
		free(text);
		return;
	}
	hm_print_result(stdout, pb, res);
	if (judged)
		hm_judge_print(stdout, judged);
	hm_report_depth_limit(stdout, pb, res, max_seconds, plan);
}

/* --picture: the plan's placement, drawn (beside a JSON plan, on standard error). */
static void draw_placement(FILE *f, const struct hm_plan_inputs *in, const struct hm_result *res)
{
	struct hm_placement pl = { 0 };
	struct hm_error err;

	hm_error_clear(&err);
	if (hm_placement_from_result(&pl, in, res, &err))
		hm_say_report(&err);
	else
		hm_placement_picture(f, &pl);
	hm_placement_release(&pl);
}

/* -o: the plan file, or with a launcher its launch directory. An exit code. */
static int write_plan(const char *out, const struct hm_plan_inputs *in, const struct hm_result *res,
		      cJSON *json, const struct hm_launcher *launcher, const struct hm_launch_opts *lo,
		      const struct hm_sim_opts *so)
{
	struct hm_error err;

	if (launcher)
		return write_launch_dir(out, in, res, json, launcher, lo, so);
	hm_error_clear(&err);
	if (!hm_json_write(out, json, &err))
		return HM_EXIT_OK;
	hm_say_report(&err);
	return HM_EXIT_OUTPUT;
}

int cmd_plan(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, HM_DEFAULT_MAX_TIME };
	const char *method = HM_DEFAULT_METHOD, *out = NULL, *format = "text";
	const struct hm_launcher *launcher = NULL;
	struct hm_launch_opts lo = HM_LAUNCH_OPTS_INIT;
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	struct hm_result res;
	struct hm_judge_opts jo = HM_JUDGE_OPTS_INIT;
	struct hm_sim_opts so = HM_SIM_OPTS_INIT;
	struct hm_judge jd = { 0 };
	struct hm_plan_inputs in = { NULL, &pb, &budget };
	int stop, fmt, ret, judge_ret = HM_EXIT_OK, picture = 0;
	cJSON *json = NULL, *judged = NULL;
	double start = hm_now();

	hm_problem_opts_init(&po);
	lo.launcher_name = NULL;        /* 'run' has a default launcher; 'plan' writes none unless asked */
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_HISTORY_OPTION(po),
			HM_SEARCH_OPTIONS(method, po, budget),
			{ 'o', "output", HM_OPT_STRING, &out, "PATH", "write the plan JSON there (atomically); with --launcher, a directory", 0, 0 },
			{ 0, "picture", HM_OPT_FLAG, &picture, NULL, "also draw where the ranks go: each processor's cores and the ranks on them", 0, 0 },
			HM_LAUNCH_OPTIONS(lo, hm_help_launchers("write the launch directory for this launcher (with -o DIR)", 0)),
			HM_FORMAT_OPTION(format, "text or json on standard output"),
			HM_JUDGE_OPTIONS(jo),
			HM_SIM_OPTIONS(so),
			HM_OPT_TABLE_END,
		};

		stop = hm_options_parse_rest(&usage, opts, argc, argv, &lo.program, &lo.nprogram);
	}
	if (stop >= 0)
		return stop;
	launcher = lo.launcher_name ? hm_launcher_find(lo.launcher_name) : NULL;
	{
		const struct hm_option_rule rules[] = {
			{ lo.nprogram || lo.inputs.n || lo.profile || lo.grid_order, lo.launcher_name != NULL,
			  "a program after '--', --input, --profile and --grid-order need --launcher L -o DIR" },
			{ lo.launcher_name != NULL, out != NULL, "--launcher needs -o DIR, the directory for the files" },
			{ jo.jobs || jo.dir || jo.launcher, jo.k, "--judge-jobs, --judge-dir and --judge-launcher go with --judge K" },
			{ so.host_speed != NULL, launcher && launcher->simulated,
			  jo.k ? "--host-speed goes with a simulator's --launcher (smpi); the judge's simulations "
				 "time nothing on this machine (kernels modeled)"
			       : "--host-speed goes with a simulator's --launcher (smpi)" },
		};

		if (lo.launcher_name && !launcher) {
			const char *near = hm_launcher_nearest(lo.launcher_name);

			hm_say_error("plan: unknown launcher '%s'%s%s%s (%s)", lo.launcher_name, HM_DID_YOU_MEAN(near),
				     hm_help_launchers("known", 0));
			return HM_EXIT_USAGE;
		}
		if (HM_OPTION_RULES_CHECK("plan", rules) || hm_launch_opts_check("plan", &lo))
			return HM_EXIT_USAGE;
	}
	if ((fmt = hm_format_parse("plan", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	if ((ret = hm_sim_opts_check("plan", &so, launcher)) || (ret = hm_method_check("plan", method)))
		return ret;
	ret = hm_problem_open("plan", &po, &pb, &p);
	if (ret)
		return ret;
	if ((ret = hm_judge_start(&jd, &jo, &pb)))
		goto cleanup;
	ret = hm_run_named(method, &pb, &budget, &res);
	pb.collect = NULL;
	if (ret)
		goto cleanup;
	in.platform_path = po.platform;
	if (jo.k && res.found)
		judge_ret = hm_judge_decide(&jd, &in, &res, budget.max_seconds > 0 ?
					    start + budget.max_seconds : 0, &judged);
	if (judge_ret > 128) {
		/* a signal: no plan is written, the judge said where its records are */
		cJSON_Delete(judged);
		ret = judge_ret;
		goto release;
	}
	if ((json = hm_plan_json(&in, &res)) && judged)
		cJSON_AddItemToObject(json, "judge", judged);
	else
		cJSON_Delete(judged);
	if (!json) {
		ret = HM_EXIT_FAILURE;
		goto release;
	}
	print_plan(fmt, &pb, &res, budget.max_seconds, json, judged);
	if (picture && res.found)
		draw_placement(fmt == HM_FORMAT_JSON ? stderr : stdout, &in, &res);
	if (res.stopped && res.found)
		hm_say_error("plan: %s stopped by the %s after %ld nodes: the plan is the best found so far",
			     res.method, hm_stop_name(res.stopped), res.evaluated);
	/* a budget that ran out before any configuration was evaluated is a
	 * budget stop, not a problem without solution */
	ret = res.stopped ? HM_EXIT_BUDGET : !res.found ? HM_EXIT_NO_PLAN : judge_ret;
	if (out && res.found) {
		int wret = write_plan(out, &in, &res, json, launcher, &lo, &so);

		if (wret)
			ret = wret;
		else if (fmt == HM_FORMAT_TEXT)
			printf("  %s written to %s%s\n", launcher ? "plan, launcher file and run.sh" : "plan",
			       out, launcher ? "/" : "");
	}
	cJSON_Delete(json);
release:
	hm_result_release(&res);
cleanup:
	hm_judge_release(&jd);
	hm_platform_free(p);
	return ret;
}

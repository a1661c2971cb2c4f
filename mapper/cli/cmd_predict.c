/* mapper/cli/cmd_predict.c - 'hetmap predict': the model's time for one
 * configuration, with its parts. */
#include "hand_config.h"
#include "mapper/launch/plan.h"

#include <math.h>
#include <stdlib.h>

static const struct hm_usage usage = {
	"predict",
	"hetmap predict [-p FILE] [-r lu|gemm] [-n N] --procs LIST [--threads LIST] [--grid RxC] [-b B]",
	"Predict the execution time of one configuration with the model, and its\n"
	"computation and communication parts.",
	HM_HAND_CONFIG_HELP
	"What --grid and -b leave out the model picks, the best for the rest; a b\n"
	"between two measured block sizes is interpolated between them.\n"
	"example: hetmap predict -p builtin:torc -n 2048 --procs 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 --grid 1x19 -b 32",
};

static void print_sp(const struct hm_problem *pb, const int *d, int b)
{
	struct hm_sp sp;

	hm_model_sp(pb->model, pb->platform, d, b, pb->routine, &sp);
	/* rates in GFLOP/s, as 'platform show' gives them */
	printf("  effective    dgemm %.4g GFLOP/s, dtrsm %.4g GFLOP/s, dgetf2 %.4g GFLOP/s,\n"
	       "               column step %.4g us, row interchange %.4g ns/element (%.4g at a 4 KiB stride),\n"
	       "               t_s %.4g us, bandwidth %.4g GB/s (heterogeneity rule, b = %d)\n",
	       1e-9 / sp.k3_dgemm, 1e-9 / sp.k3_dtrsm, 1e-9 / sp.k2_dgetf2, sp.t_step * 1e6, sp.k1_dswap * 1e9,
	       sp.k1_dswap_aliased * 1e9, sp.t_s * 1e6, sp.t_w > 0 ? 8e-9 / sp.t_w : INFINITY, b);
}

int cmd_predict(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_hand_config hc = { 0 };
	const char *format = "text";
	int stop, fmt, ret, b = 0;
	struct hm_problem pb, priced;    /* priced: on the thread view where --threads */
	struct hm_platform *p = NULL;
	struct hm_result res;

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_HISTORY_OPTION(po),
			HM_HAND_CONFIG_OPTIONS(hc, "processes per processor (required)"),
			{ 'b', "block-size", HM_OPT_INT, &b, "B", "block size (default: the best; any b: the platform's tables are interpolated between their sizes, clamped beyond)", 1, HM_MAX_BLOCK },
			HM_FORMAT_OPTION(format, "text or json"),
			HM_OPT_TABLE_END,
		};

		stop = hm_options_parse_only(&usage, opts, argc, argv);
	}
	if (stop >= 0)
		return stop;
	if (!hc.procs) {
		hm_say_error("predict: --procs is required (see 'hetmap predict --help')");
		return HM_EXIT_USAGE;
	}
	if ((fmt = hm_format_parse("predict", format, 1 | 4)) < 0 || (ret = hm_hand_config_check("predict", &hc)))
		return HM_EXIT_USAGE;
	ret = hm_problem_open("predict", &po, &pb, &p);
	if (ret)
		return ret;
	pb.shape.b = b;         /* any b prices: a plan's must be measured or between measured ones */
	if ((ret = hm_hand_config_price("predict", &hc, &pb, "predict", &res)))
		goto cleanup;
	priced = hm_hand_config_priced(&hc, &pb);
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
	hm_hand_config_release(&hc);
	hm_platform_free(p);
	return ret;
}

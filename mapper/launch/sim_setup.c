/* mapper/launch/sim_setup.c - see sim_setup.h. */
#include "sim_setup.h"
#include "models/common/progress.h"
#include "models/util/say.h"
#include "mpirun.h"
#include "models/platform/threads.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>

int hm_progress_check(const char *cmd)
{
	const char *text = getenv(HM_PROGRESS_VARIABLE);
	double period;

	if (!text || !hm_progress_parse(text, &period))
		return 0;
	hm_say_error("%s: %s='%s': give the seconds between a simulation's progress lines, a decimal number in "
		     "[0, %g] (0: none; default %g)", cmd, HM_PROGRESS_VARIABLE, text, HM_PROGRESS_MAX,
		     HM_PROGRESS_DEFAULT);
	return -1;
}

int hm_sim_opts_check(const char *cmd, struct hm_sim_opts *so, const struct hm_launcher *l)
{
	int k = hm_sim_kernels_parse(so->kernels_name);

	if (k < 0) {
		hm_say_error("%s: --kernels must be one of %s, not '%s'", cmd, hm_sim_kernels_list(),
			     so->kernels_name);
		return HM_EXIT_USAGE;
	}
	so->kernels = (enum hm_sim_kernels)k;
	if (l && l->simulated && hm_progress_check(cmd))
		return HM_EXIT_USAGE;
	if ((so->kernels != HM_SIM_EXECUTED || so->platform) && !(l && l->simulated)) {
		hm_say_error("%s: --kernels and --sim-platform need a simulator launcher (smpi): real hosts compute",
			     cmd);
		return HM_EXIT_USAGE;
	}
	return HM_EXIT_OK;
}

int hm_sim_setup(const char *cmd, const struct hm_sim_opts *so, const char *platform,
		 const struct hm_placement *pl, int unmeasured, char **xml, double *speed)
{
	const char *path = so->platform ? so->platform : platform;
	struct hm_platform *p = NULL;
	struct hm_error err;

	if (!path)
		path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(pl->owner, "inputs"), "platform"));
	hm_error_clear(&err);
	if (!path) {
		hm_say_error("%s: a simulated run needs the platform: give -p PLATFORM", cmd);
		return HM_EXIT_USAGE;
	}
	if (hm_platform_load(path, &p, &err)) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	/* the plan's processes per processor: a node's idle cores speed its busy
	 * ones up; and their threads: ranks of t threads are simulated on the
	 * thread view, whose hosts have cores / t cores t-thread fast */
	int *busy = calloc((size_t)p->nr_procs, sizeof(int));
	int *threads = calloc((size_t)p->nr_procs, sizeof(int));
	struct hm_thread_view view = { 0 };
	int threaded = 0;

	if (!busy || !threads) {
		free(threads);
		hm_say_error("%s: out of memory", cmd);
		hm_platform_free(p);
		return HM_EXIT_FAILURE;
	}
	for (int k = 0; k < pl->D; k++) {
		int i = hm_platform_find(p, pl->ranks[k].processor);

		if (i < 0) {
			hm_say_error("%s: the plan puts rank %d on processor '%s', which platform %s does not have",
				     cmd, k, pl->ranks[k].processor, path);
			hm_platform_free(p);
			free(busy);
			free(threads);
			return HM_EXIT_INPUT;
		}
		busy[i]++;
		threads[i] = pl->ranks[k].threads;
		threaded |= threads[i] > 1;
	}
	if (threaded && hm_thread_view_build(&view, p, threads, &err)) {
		hm_say_error("%s: %s: %s", cmd, path, err.msg);
		hm_platform_free(p);
		free(busy);
		free(threads);
		return HM_EXIT_INPUT;
	}
	*xml = hm_simgrid_platform(threaded ? &view.view : p, pl->b, so->kernels, busy, &err);
	if (threaded)
		hm_thread_view_release(&view);
	hm_platform_free(p);
	free(busy);
	free(threads);
	if (!*xml) {
		hm_say_error("%s: %s: %s", cmd, path, err.msg);
		return HM_EXIT_INPUT;
	}
	if (unmeasured && !so->host_speed) {
		*speed = 1e9;
		hm_say_note("hetmap: %s: host speed not measured; run.sh says 1 GFLOP/s "
			"unless --host-speed is given\n", cmd);
		return HM_EXIT_OK;
	}
	int ret = hm_simulator_host_speed(cmd, so->host_speed, pl->b, so->kernels, speed);

	if (ret) {
		free(*xml);
		*xml = NULL;
	}
	return ret;
}

void hm_sim_request(struct hm_job_request *rq, const struct hm_sim_opts *so, const struct hm_launcher *l,
		    const char *xml, double speed)
{
	if (!l->simulated)
		return;
	rq->platform_text = xml, rq->host_speed = speed;
	rq->modeled_kernels = hm_sim_kernels_modeled(so->kernels);
	rq->times_nothing = so->kernels == HM_SIM_MODELED;
}

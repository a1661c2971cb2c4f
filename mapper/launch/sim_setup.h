/* mapper/launch/sim_setup.h - the options of a simulated launch (--launcher
 * smpi), shared by 'hetmap run' and 'hetmap plan --launcher smpi -o DIR':
 * which platform is simulated, whether the kernels are executed or
 * modeled, and this machine's rate, which SMPI scales every measured burst
 * by. One table, one check, one setup. */
#ifndef HM_SIM_SETUP_H
#define HM_SIM_SETUP_H

#include "exit_code.h"
#include "job.h"
#include "launcher.h"
#include "models/platform/simgrid_platform.h"

struct hm_sim_opts {
	const char *platform;           /* --sim-platform, or NULL: the plan's */
	const char *kernels_name;       /* --kernels */
	const char *host_speed;         /* --host-speed ("5Gf"), or NULL: measured */
	enum hm_sim_kernels kernels;    /* kernels_name, once checked */
};

#define HM_SIM_OPTS_INIT { .kernels_name = "executed", .kernels = HM_SIM_EXECUTED }

/* HETMAP_PROGRESS_S, when set, a period the simulations' kernels take
 * (models/common/progress.h): 0, or -1 after a message naming 'cmd'. */
int hm_progress_check(const char *cmd);

/* --kernels read into so->kernels; simulator options refused with a
 * launcher that is not a simulator (l NULL: none). HM_EXIT_OK, or
 * HM_EXIT_USAGE after a message naming 'cmd'. */
int hm_sim_opts_check(const char *cmd, struct hm_sim_opts *so, const struct hm_launcher *l);

/* A simulated launch of 'pl': the simulated platform (--sim-platform;
 * else 'platform', the one the plan was made for; else the plan's own)
 * exported at the plan's b into *xml (malloc'd), and this machine's rate
 * into *speed (given, or measured; with 'unmeasured' 1 GFLOP/s, said on
 * stderr). HM_EXIT_OK, or an exit code after a message naming 'cmd'. */
int hm_sim_setup(const char *cmd, const struct hm_sim_opts *so, const char *platform,
		 const struct hm_placement *pl, int unmeasured, char **xml, double *speed);

/* What hm_sim_setup gave, into the job request of launcher l (nothing
 * for a launcher that does not simulate). */
void hm_sim_request(struct hm_job_request *rq, const struct hm_sim_opts *so, const struct hm_launcher *l,
		    const char *xml, double speed);

#endif /* HM_SIM_SETUP_H */

/* mapper/cli/hand_config.h - a configuration given by hand, as HPL.dat's
 * users give theirs: the processes on each processor (--procs), their BLAS
 * threads (--threads), the grid (--grid RxC) and the block size (the
 * problem's -b), priced by the model. 'predict' prices one; 'run' runs one
 * and records it like a plan. What is not given is the model's best for
 * the rest: the grid and b for the processes, the b for a grid, the grid
 * for a b. */
#ifndef HM_HAND_CONFIG_H
#define HM_HAND_CONFIG_H

#include "cli.h"
#include "models/platform/threads.h"

struct hm_hand_config {
	const char *procs, *threads, *grid;     /* as given, or NULL */
	int r, c;                               /* the grid, once checked */
	struct hm_thread_view view;             /* where --threads: the platform priced */
	int *d, *t;                             /* per processor, once priced */
};

#define HM_HAND_CONFIG_OPTIONS(hc, procs_help) \
	{ 0, "procs", HM_OPT_STRING, &(hc).procs, "LIST", (procs_help), 0, 0 }, \
	{ 0, "threads", HM_OPT_STRING, &(hc).threads, "LIST", "BLAS threads of each processor's processes, given as --procs (default 1)", 0, 0 }, \
	{ 'g', "grid", HM_OPT_STRING, &(hc).grid, "RxC", "process grid (with --procs; default: the best for them)", 0, 0 }

/* The syntax of LIST, for help texts. */
#define HM_HAND_CONFIG_HELP \
	"LIST gives the processes on each processor in platform order, e.g.\n" \
	"1,1,0,2; or by name, e.g. P17=2,P18=1 (others get 0). --threads gives each\n" \
	"processor's BLAS threads per process the same way (0 or not named: 1; its\n" \
	"type must have thread speed-ups).\n"

/* The options' checks that need no platform (before any work): --threads
 * and --grid go with --procs, the grid's syntax. An exit code, with a
 * message naming 'cmd'. */
int hm_hand_config_check(const char *cmd, struct hm_hand_config *hc);

/* Price the configuration on pb (its -b, pb->shape.b, or else the best b)
 * into res, named 'name'. An exit code, with a message naming 'cmd'. */
int hm_hand_config_price(const char *cmd, struct hm_hand_config *hc, const struct hm_problem *pb,
			 const char *name, struct hm_result *res);

/* The problem as priced: pb, on the thread view where --threads. */
struct hm_problem hm_hand_config_priced(const struct hm_hand_config *hc, const struct hm_problem *pb);

void hm_hand_config_release(struct hm_hand_config *hc);

#endif /* HM_HAND_CONFIG_H */

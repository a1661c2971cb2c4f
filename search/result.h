/* search/result.h - what one method or modeled user returns: the process
 * counts d, the grid, the block size, the model's time and how the search
 * went (nodes, time, which budget stopped it). Every method fills one
 * (search.h); the exact optimizer and the users also keep scratch ones. */
#ifndef HM_RESULT_H
#define HM_RESULT_H

#include "problem.h"

enum hm_stop { HM_STOP_COMPLETE, HM_STOP_NODES, HM_STOP_TIME, HM_STOP_SIGNAL };

/* The outcome of one method or user. */
struct hm_result {
	const char *method;     /* static name: "BTM", ..., "GU" */
	int found;              /* 0: no configuration fits (memory), or none reached */
	int *d;                 /* processes per processor; owned */
	int *threads;           /* BLAS threads of each of processor i's processes, P
				 * entries; owned; NULL: one thread everywhere */
	int P;                  /* entries of d */
	int D, r, c, b;
	double eet;             /* s, the model's time of (d, r, c, b) */
	struct hm_prediction pred;
	long evaluated;         /* nodes whose EET was computed */
	long pruned;            /* subtrees cut by LET >= MEET */
	int level_reached;      /* deepest level visited */
	double seconds;         /* wall time of the whole run */
	double seconds_to_best; /* wall time until the returned plan was found */
	enum hm_stop stopped;
	int thread_splits;      /* splits of cores into ranks x threads priced (0: one thread only) */
	int thread_splits_all;  /* 1: every split was priced (an exact method's optimum holds over them) */
};

/* An empty result for 'pb' as a method's run() receives it: d[] zeroed
 * (P entries), eet INFINITY. 0, or -1 with 'err' set (out of memory). */
int hm_result_start(struct hm_result *res, const struct hm_problem *pb, struct hm_error *err);
/* Free d[] and threads[] and empty *res (NULL: nothing). */
void hm_result_release(struct hm_result *res);

#endif /* HM_RESULT_H */

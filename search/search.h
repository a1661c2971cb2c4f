/* search/search.h - the search methods and modeled users (SPEC §3, §4):
 * given a problem, find the process counts d, the grid r x c and the block
 * size b with the least estimated time.
 *
 * Every run is bounded by a budget in evaluated nodes and wall time,
 * because tree sizes grow as C(P + L, L) and a user on a cluster front end
 * must get an answer: when a budget stops a run, the best plan found so far
 * is returned and 'stopped' says which budget ran out. */
#ifndef HM_SEARCH_H
#define HM_SEARCH_H

#include "tree.h"

struct hm_budget {
	long max_nodes;     /* EET evaluations; 0 = unlimited */
	double max_seconds; /* wall time; 0 = unlimited */
};

enum hm_stop { HM_STOP_COMPLETE, HM_STOP_NODES, HM_STOP_TIME };

/* The outcome of one method or user. */
struct hm_result {
	const char *method;     /* static name: "BTM", ..., "GU" */
	int found;              /* 0: no configuration fits (memory) */
	int *d;                 /* processes per processor; owned */
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
};

struct hm_run;   /* one search in progress, private to methods.c */

struct hm_method {
	const char *name;
	const char *summary;
	void (*run)(struct hm_run *s);
};

/* Method by name (case-insensitive: "btm", "GPTM", "exhaustive"), or NULL. */
const struct hm_method *hm_method_find(const char *name);
/* All methods, NULL-terminated, in the order of SPEC §3. */
const struct hm_method *const *hm_method_list(void);

/* Run method 'm' on 'pb' within 'budget'. 0 and *res filled (release with
 * hm_result_release()), or -1 with 'err' set (bad problem, out of memory). */
int hm_search(const struct hm_method *m, const struct hm_problem *pb,
	      const struct hm_budget *budget, struct hm_result *res,
	      struct hm_error *err);

void hm_result_release(struct hm_result *res);

/* The modeled users of SPEC §4: they fix d, the model picks b and r x c. */
enum hm_user { HM_USER_GU, HM_USER_CU, HM_USER_EU, HM_NR_USERS };

const char *hm_user_name(enum hm_user u);
/* 0 and *res filled, or -1 with 'err' set. The depth limit of 'pb' is
 * ignored: users do not search. */
int hm_user_plan(enum hm_user u, const struct hm_problem *pb,
		 struct hm_result *res, struct hm_error *err);

/* Evaluate one fixed d (sum d >= 1) like a user would: best grid and b.
 * Used by the users and by 'hetmap predict --best'. */
int hm_evaluate_counts(const struct hm_problem *pb, const int *d, const char *name,
		       struct hm_result *res, struct hm_error *err);

/* Wall clock in seconds (monotonic). */
double hm_now(void);

#endif /* HM_SEARCH_H */

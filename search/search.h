/* search/search.h - the methods and modeled users (search/README.md):
 * given a problem, find the process counts d, the grid r x c and the block
 * size b with the least estimated time.
 *
 * Every method is one entry of one registry and runs through hm_search().
 * Every run is bounded by a budget in evaluated nodes and wall time,
 * because tree sizes grow as C(P + L, L) and a user on a cluster front end
 * must get an answer: when a budget stops a run, the best plan found so far
 * is returned and 'stopped' says which budget ran out. */
#ifndef HM_SEARCH_H
#define HM_SEARCH_H

#include "result.h"

#include <signal.h>

struct hm_budget {
	long max_nodes;     /* evaluated nodes (EETs); 0 = unlimited */
	double max_seconds; /* wall time; 0 = unlimited */
};

/* Set (to a signal's number) by the caller's signal handler: every search
 * stops at its next check of the budget, as a budget stops it, with
 * stopped = HM_STOP_SIGNAL ('hetmap run' then records the job it did not
 * start and exits 128 + N). */
extern volatile sig_atomic_t hm_search_interrupt;

/* A search method searches within the depth limit; a modeled user picks
 * d by a rule and ignores the limit. */
enum hm_method_kind { HM_METHOD_SEARCH, HM_METHOD_USER };

struct hm_method {
	const char *name;
	const char *summary;
	enum hm_method_kind kind;
	/* 0 if the method can run 'pb', else -1 with the reason in 'err' */
	int (*applies)(const struct hm_problem *pb, struct hm_error *err);
	/* fill 'res' (d[] allocated, P set, eet = INFINITY) within 'budget';
	 * 'variant' tells an implementation shared by several entries which
	 * one it runs */
	int (*run)(int variant, const struct hm_problem *pb, const struct hm_budget *budget,
		   struct hm_result *res, struct hm_error *err);
	int variant;
	/* 1: it proves the model's optimum, cutting what cannot beat the best
	 * so far (problem.beat): ranks x threads then prices every split */
	int proves;
};

/* Method or user by name (case-insensitive: "btm", "GPTM", "gu"), or NULL. */
const struct hm_method *hm_method_find(const char *name);
/* The method or user a mistyped 'name' most likely meant, or NULL. */
const char *hm_method_nearest(const char *name);
/* All entries, NULL-terminated: the search methods first, then the users. */
const struct hm_method *const *hm_method_list(void);
/* The names of the entries of 'kind', comma-separated, into buf (for
 * help texts and messages). */
const char *hm_method_names(enum hm_method_kind kind, char *buf, int size);

/* Whether 'm' can run 'pb': 0, or -1 with the reason in 'err'. */
int hm_method_applies(const struct hm_method *m, const struct hm_problem *pb,
		      struct hm_error *err);

/* Run 'm' on 'pb' within 'budget'. 0 and *res filled (release with
 * hm_result_release()); or, with 'err' set and *res empty, -1 when the
 * method does not apply to the problem (hm_method_applies) and -2 when it
 * could not run (out of memory). */
int hm_search(const struct hm_method *m, const struct hm_problem *pb,
	      const struct hm_budget *budget, struct hm_result *res,
	      struct hm_error *err);

/* Evaluate one fixed d (sum d >= 1) as a user would: the model's best
 * grid and b for it. Used by the users and by 'hetmap predict' when no
 * grid or b is given. 0 and *res filled, or -1 with 'err' set. */
int hm_evaluate_counts(const struct hm_problem *pb, const int *d, const char *name,
		       struct hm_result *res, struct hm_error *err);

/* The same with grid r x c and block size b given (r * c = sum d): the
 * model's prediction as a result. 0, or -1 with 'err' set. */
int hm_evaluate_config(const struct hm_problem *pb, const int *d, int r, int c, int b,
		       const char *name, struct hm_result *res, struct hm_error *err);

#endif /* HM_SEARCH_H */

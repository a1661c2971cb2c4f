/* search/candidate_set.h - the model's close candidates: distinct
 * configurations (processes per processor, their BLAS threads, the grid
 * r x c, the block size b), each priced by the model, gathered from the
 * search methods, the modeled users, the search's next best and the
 * neighbours of the best ('hetmap tune' races them on the cluster;
 * search/README.md, "Candidates for the cluster to decide").
 *
 * A configuration is held once: the same d, threads, r, c and b from a
 * second source keeps its first source's name. */
#ifndef HM_CANDIDATE_SET_H
#define HM_CANDIDATE_SET_H

#include "search.h"

#define HM_MAX_CANDIDATES 256

struct hm_config {
	int *d;                 /* P process counts */
	int *threads;           /* P thread counts, 1 where one thread */
	int D, r, c, b;
	double eet;             /* s, the model's time */
	struct hm_prediction pred;
	char origin[32];        /* what gave it first: "GPTM", "GU", "next 3", "b 64", ... */
};

struct hm_config_set {
	const struct hm_problem *pb;    /* the problem on the platform itself (one thread) */
	int P, n;
	struct hm_config e[HM_MAX_CANDIDATES];
	int *store;             /* 2 x P x HM_MAX_CANDIDATES counts, sized once */
};

/* 0, or -1 with 'err' set (out of memory). */
int hm_config_set_init(struct hm_config_set *s, const struct hm_problem *pb, struct hm_error *err);
void hm_config_set_release(struct hm_config_set *s);

/* Price configuration (d, threads, r, c, b) (threads NULL: one thread;
 * r = 0: the model's best grid and b for d) and hold it as 'origin'. Its
 * index; -1 when it is not a configuration the problem allows (no
 * process, more than the depth, a grid or block size the shape forbids,
 * ranks of threads sharing cores, memory) or the set is full; the index
 * of the one held when it is held already. */
int hm_config_set_add(struct hm_config_set *s, const int *d, const int *threads, int r, int c, int b,
		      const char *origin);

/* Every entry at each of the platform's block sizes for n (a sweep's
 * configurations: the grids and processes the model priced, at every b).
 * Returns how many were new. */
int hm_config_set_add_blocks(struct hm_config_set *s);

/* Gather: run 'methods' (names, as hm_method_find takes them; the first
 * is the plan's) within 'budget', holding each one's result and the
 * first search's 'next' best priced configurations (top_k.h), then the
 * neighbours of the best. 0, or -1 with 'err' set (a method that does
 * not apply is skipped, said in 'err' only when none ran). */
int hm_config_set_gather(struct hm_config_set *s, const char *const *methods, int nmethods, int next,
			 const struct hm_budget *budget, struct hm_error *err);

/* Sort by the model's time, fastest first (ties: fewer processes). */
void hm_config_set_sort(struct hm_config_set *s);

/* Entry k as a result for a plan (plan.h): method 'name', its own copies
 * of d and threads. 0, or -1 with 'err' set. */
int hm_config_result(const struct hm_config_set *s, int k, const char *name, struct hm_result *res,
		     struct hm_error *err);

/* 1 when entries a and b are the same configuration. */
int hm_config_equal(const struct hm_config_set *s, int a, int b);

#endif /* HM_CANDIDATE_SET_H */

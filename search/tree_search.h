/* search/tree_search.h - the methods that walk assignment trees: BTM,
 * BGRM, GRM, GCTM, GPTM and the exhaustive search (search/README.md). */
#ifndef HM_TREE_SEARCH_H
#define HM_TREE_SEARCH_H

#include "search.h"

enum hm_walk {
	HM_WALK_BTM, HM_WALK_BGRM, HM_WALK_GRM, HM_WALK_GCTM, HM_WALK_GPTM,
	HM_WALK_EXHAUSTIVE, HM_NR_WALKS
};

/* 0 if branch and bound's tables fit (depth x processors), else -1 with
 * 'err': BTM, BGRM and GRM keep a row of children per level. */
int hm_tree_search_applies(const struct hm_problem *pb, struct hm_error *err);
/* The same for the walks that keep no such rows (GCTM, GPTM, exhaustive):
 * the problem alone. */
int hm_tree_walk_applies(const struct hm_problem *pb, struct hm_error *err);

/* Run walk 'walk' (an enum hm_walk) into 'res', whose d[] the caller
 * allocated (hm_search does): the run() of a registry entry. */
int hm_tree_search(int walk, const struct hm_problem *pb, const struct hm_budget *budget,
		   struct hm_result *res, struct hm_error *err);

#endif /* HM_TREE_SEARCH_H */

/* search/problem.h - what to plan: the question every method and modeled
 * user answers (search/README.md). */
#ifndef HM_PROBLEM_H
#define HM_PROBLEM_H

#include "models/model.h"

struct hm_top_k;

/* The largest level limit L, so the most processes of one configuration:
 * a search keeps one node of its path per level, the effective system
 * parameters at up to 16 block sizes (about 1.5 KB), and at 2^18 levels
 * that is 410 MB of the 1 GB a search may take. Twice the 131072 cores
 * of the largest cluster the studies plan for (experiments/large). */
#define HM_MAX_DEPTH 262144
#define HM_MAX_DEPTH_REASON "a search keeps 1.5 KB per level of depth"


/* The shapes a plan may take (plan -b, --rows-le-cols); zeros: any. */
struct hm_shape {
	int b;                  /* this block size only */
	int rows_le_cols;       /* grids with r <= c only */
};

static inline int hm_shape_allows(const struct hm_shape *s, int r, int c, int b)
{
	return (!s->b || b == s->b) && (!s->rows_le_cols || r <= c);
}

struct hm_problem {
	const struct hm_platform *platform;
	const struct hm_model *model;
	enum hm_routine routine;
	double n;           /* matrix order */
	int depth;          /* level limit L: at most L processes */
	/* NULL, or where every configuration a search prices is offered (the
	 * judge's candidates, top_k.h) */
	struct hm_top_k *collect;
	struct hm_shape shape;
	/* > 0: only configurations priced below this matter (a time reached
	 * elsewhere, e.g. on another split of ranks x threads): the bounded
	 * searches cut against it from the start and may then find nothing;
	 * 0: none */
	double beat;
};

/* 0 if the problem can be searched: the depth (when 'with_depth': users
 * ignore it), n at least the smallest candidate block size, the platform
 * within the searches' table sizes; else -1 with 'err' set. */
int hm_problem_check(const struct hm_problem *pb, int with_depth, struct hm_error *err);

#endif /* HM_PROBLEM_H */

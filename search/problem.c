/* search/problem.c - see problem.h. */
#include "problem.h"

/* 0 if the depth is within 1..HM_MAX_DEPTH, else -1 with 'err' set. */
static int hm_problem_check_depth(const struct hm_problem *pb, struct hm_error *err)
{
	if (pb->depth < 1 || pb->depth > HM_MAX_DEPTH)
		return hm_error_set(err, "depth %d out of range 1..%d (" HM_MAX_DEPTH_REASON ")",
				    pb->depth, HM_MAX_DEPTH);
	return 0;
}

/* The tree's per-processor, per-type tables (search/tree.c) bound it. */
#define MAX_TABLE_ENTRIES ((size_t)1 << 26)

int hm_problem_check(const struct hm_problem *pb, int with_depth, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;

	if (with_depth && hm_problem_check_depth(pb, err))
		return -1;
	if (pb->n < p->block_sizes[0])
		return hm_error_set(err, "n = %.0f is smaller than every candidate block size (the "
				    "smallest is %d): no block-cyclic distribution fits", pb->n,
				    p->block_sizes[0]);
	if (((size_t)p->nr_procs + 1) * (size_t)p->nr_types > MAX_TABLE_ENTRIES)
		return hm_error_set(err, "platform too large to search: %d processors x %d types",
				    p->nr_procs, p->nr_types);
	return 0;
}

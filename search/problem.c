/* search/problem.c - see problem.h. */
#include "problem.h"

int hm_problem_check_depth(const struct hm_problem *pb, struct hm_error *err)
{
	if (pb->depth < 1 || pb->depth > HM_MAX_DEPTH)
		return hm_error_set(err, "depth %d out of range 1..%d", pb->depth, HM_MAX_DEPTH);
	return 0;
}

/* search/result.c - see result.h. */
#include "result.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hm_result_release(struct hm_result *res)
{
	if (!res)
		return;
	free(res->d);
	free(res->threads);
	memset(res, 0, sizeof(*res));
}

int hm_result_start(struct hm_result *res, const struct hm_problem *pb, struct hm_error *err)
{
	memset(res, 0, sizeof(*res));
	res->P = pb->platform->nr_procs;
	res->eet = INFINITY;
	if (!(res->d = calloc((size_t)res->P, sizeof(int))))
		return hm_error_set(err, "out of memory");
	return 0;
}

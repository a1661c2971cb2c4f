/* search/divisors.c - see divisors.h. */
#include "divisors.h"

#include <math.h>
#include <stdlib.h>

int hm_divisors_init(struct hm_divisors *dv, int L)
{
	/* sum of the divisor counts of 1..L is L ln L + 0.16 L + O(sqrt L) */
	size_t cap = (size_t)L * (size_t)(log((double)L + 1) + 3) + 16;
	int k = 0;

	dv->start = malloc(((size_t)L + 2) * sizeof(int));
	dv->list = malloc(cap * sizeof(int));
	if (!dv->start || !dv->list) {
		hm_divisors_release(dv);
		return -1;
	}
	dv->start[0] = 0;
	for (int D = 1; D <= L; D++) {
		dv->start[D] = k;
		for (int r = 1; r <= D; r++)
			if (D % r == 0)
				dv->list[k++] = r;
	}
	dv->start[L + 1] = k;
	return 0;
}

void hm_divisors_release(struct hm_divisors *dv)
{
	free(dv->start);
	free(dv->list);
	dv->start = dv->list = NULL;
}

/* search/divisors.c - see divisors.h. */
#include "divisors.h"

#include <stdlib.h>
#include <string.h>

int hm_divisors_init(struct hm_divisors *dv, int L)
{
	size_t total = 0;
	int *fill;

	/* a sieve: r divides r, 2r, ... so counting, then filling with r
	 * ascending, costs O(L log L) and keeps each list ascending */
	dv->start = calloc((size_t)L + 2, sizeof(int));
	fill = calloc((size_t)L + 2, sizeof(int));
	if (!dv->start || !fill) {
		free(fill);
		hm_divisors_release(dv);
		return -1;
	}
	for (int r = 1; r <= L; r++)
		for (int D = r; D <= L; D += r)
			fill[D]++;
	for (int D = 1; D <= L + 1; D++) {
		dv->start[D] = (int)total;
		total += D <= L ? (size_t)fill[D] : 0;
	}
	if (!(dv->list = malloc((total + 1) * sizeof(int)))) {
		free(fill);
		hm_divisors_release(dv);
		return -1;
	}
	memcpy(fill, dv->start, ((size_t)L + 2) * sizeof(int));
	for (int r = 1; r <= L; r++)
		for (int D = r; D <= L; D += r)
			dv->list[fill[D]++] = r;
	free(fill);
	return 0;
}

void hm_divisors_release(struct hm_divisors *dv)
{
	free(dv->start);
	free(dv->list);
	dv->start = dv->list = NULL;
}

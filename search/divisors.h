/* search/divisors.h - the divisors of every D in 1..L, computed once: the
 * grids r x (D / r) a search tries for D processes. */
#ifndef HM_DIVISORS_H
#define HM_DIVISORS_H

struct hm_divisors {
	int *start;     /* divisors of D: list[start[D] .. start[D + 1]) */
	int *list;      /* ascending within each D */
};

/* 0, or -1 when out of memory. */
int hm_divisors_init(struct hm_divisors *dv, int L);
void hm_divisors_release(struct hm_divisors *dv);

static inline const int *hm_divisors_of(const struct hm_divisors *dv, int D, int *count)
{
	*count = dv->start[D + 1] - dv->start[D];
	return &dv->list[dv->start[D]];
}

#endif /* HM_DIVISORS_H */

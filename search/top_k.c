/* search/top_k.c - see top_k.h. */
#include "top_k.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int hm_top_k_init(struct hm_top_k *t, int k, int P, struct hm_error *err)
{
	memset(t, 0, sizeof(*t));
	if (k < 1 || k > HM_TOP_K_MAX)
		return hm_error_set(err, "%d candidates: between 1 and %d", k, HM_TOP_K_MAX);
	if (!(t->store = calloc((size_t)k * (size_t)P, sizeof(int))))
		return hm_error_set(err, "out of memory");
	t->k = k, t->P = P, t->worst = INFINITY;
	for (int i = 0; i < k; i++)
		t->e[i].d = t->store + (size_t)i * (size_t)P;
	return 0;
}

void hm_top_k_release(struct hm_top_k *t)
{
	free(t->store);
	memset(t, 0, sizeof(*t));
}

static int same(const struct hm_candidate *e, const int *d, int P, int D, int r, int c, int b)
{
	return e->D == D && e->r == r && e->c == c && e->b == b && !memcmp(e->d, d, (size_t)P * sizeof(int));
}

void hm_top_k_offer(struct hm_top_k *t, double eet, const int *d, int D, int r, int c, int b)
{
	int pos = t->n;
	int *slot;

	for (int i = 0; i < t->n; i++)
		if (same(&t->e[i], d, t->P, D, r, c, b))
			return;
	while (pos > 0 && t->e[pos - 1].eet > eet)
		pos--;
	if (pos >= t->k)
		return;
	/* the last entry's storage is reused for the newcomer */
	slot = t->e[t->n < t->k ? t->n : t->k - 1].d;
	if (t->n < t->k)
		t->n++;
	memmove(&t->e[pos + 1], &t->e[pos], (size_t)(t->n - 1 - pos) * sizeof(t->e[0]));
	memcpy(slot, d, (size_t)t->P * sizeof(int));
	t->e[pos] = (struct hm_candidate){ eet, D, r, c, b, slot };
	t->worst = t->n == t->k ? t->e[t->k - 1].eet : INFINITY;
}

int hm_near_twins(const struct hm_candidate *a, const struct hm_candidate *b, int P)
{
	long apart = 0, most = (a->D > b->D ? a->D : b->D) / 20;

	if (a->r != b->r || a->b != b->b)
		return 0;
	for (int i = 0; i < P && apart <= most; i++)
		apart += labs((long)a->d[i] - b->d[i]);
	return apart <= most;
}

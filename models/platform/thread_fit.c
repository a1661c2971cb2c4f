/* models/platform/thread_fit.c - see thread_fit.h. */
#include "thread_fit.h"
#include "threads.h"
#include "models/util/median.h"

#include <stdio.h>
#include <stdlib.h>

/* Group g's value of rank r's count 'key' ("1", "2", ...) at block size
 * 'b' (its key), or 0. */
static double rank_value(const cJSON *raw, int r, const char *key, const char *b, int g)
{
	const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(raw, "processors"), r);
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "threads"), key), b);
	const cJSON *v = cJSON_GetArrayItem(at, g);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ? v->valuedouble : 0;
}

/* The median over type ty's ranks of group g at count 'key' and block
 * size 'b' (*n: how many had one), or 0. */
static double type_median(const cJSON *raw, const int *type_of_rank, int nranks, int ty, const char *key,
			  const char *b, int g, double *scratch, int *n)
{
	*n = 0;
	for (int r = 0; r < nranks; r++)
		if (type_of_rank[r] == ty && rank_value(raw, r, key, b, g) > 0)
			scratch[(*n)++] = rank_value(raw, r, key, b, g);
	return *n ? hm_median(scratch, *n) : 0;
}

/* The thread counts some rank led, ascending, into t[]; how many. */
static int counts_measured(const cJSON *raw, int nranks, int *t)
{
	int n = 0;

	for (int r = 0; r < nranks; r++) {
		const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(raw, "processors"), r), *c;

		cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(e, "threads")) {
			int v = atoi(c->string), j;

			for (j = 0; j < n && t[j] != v; j++)
				;
			if (v >= 2 && j == n && n < HM_MAX_THREAD_COUNTS) {
				for (j = n++; j > 0 && t[j - 1] > v; j--)
					t[j] = t[j - 1];
				t[j] = v;
			}
		}
	}
	return n;
}

/* Type ty's speed-ups at count 'key' into e (per group, a table over the
 * raw's block sizes) and the record's entry r: 0, or -1 when a block size
 * lacks a measurement or gives a value outside the loader's range (a
 * measurement gone wrong: the count is left out). */
static int type_speedups(const cJSON *raw, const int *type_of_rank, int nranks, int ty, const char *key,
			 int t, double *scratch, cJSON *e, cJSON *r)
{
	const char *const *groups = hm_thread_kernel_names();
	const cJSON *b;
	int leaders = 0, ranks = 0;

	for (int g = 0; g < HM_NR_THREAD_KERNELS; g++) {
		cJSON *table = cJSON_AddObjectToObject(e, groups[g]);

		cJSON_ArrayForEach(b, cJSON_GetObjectItemCaseSensitive(raw, "block_sizes")) {
			char bkey[16];
			double one, many;

			snprintf(bkey, sizeof(bkey), "%d", b->valueint);
			one = type_median(raw, type_of_rank, nranks, ty, "1", bkey, g, scratch, &ranks);
			many = type_median(raw, type_of_rank, nranks, ty, key, bkey, g, scratch, &leaders);
			if (!(one > 0 && many > 0 && one / many <= 2.0 * t))
				return -1;
			cJSON_AddNumberToObject(table, bkey, one / many);
		}
	}
	cJSON_AddNumberToObject(r, "threads", t);
	cJSON_AddNumberToObject(r, "one_thread_ranks", ranks);
	cJSON_AddNumberToObject(r, "leaders", leaders);
	for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
		cJSON_AddItemToObject(r, groups[g], cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(e, groups[g]), 1));
	return 0;
}

void hm_thread_fit(const cJSON *raw, const int *type_of_rank, int nranks, cJSON *types, cJSON *record)
{
	int counts[HM_MAX_THREAD_COUNTS], ncounts = counts_measured(raw, nranks, counts), ty = 0;
	double *scratch = malloc((size_t)(nranks > 0 ? nranks : 1) * sizeof(double));
	cJSON *type, *rec = NULL;

	if (!scratch || ncounts == 0) {
		free(scratch);
		return;
	}
	cJSON_ArrayForEach(type, types) {
		cJSON *out = NULL;

		for (int c = 0; c < ncounts; c++) {
			cJSON *e = cJSON_CreateObject(), *r = cJSON_CreateObject();
			char key[16];

			snprintf(key, sizeof(key), "%d", counts[c]);
			cJSON_AddStringToObject(r, "type", type->string);
			if (type_speedups(raw, type_of_rank, nranks, ty, key, counts[c], scratch, e, r)) {
				cJSON_Delete(e), cJSON_Delete(r);
				continue;
			}
			if (!out)
				out = cJSON_AddObjectToObject(type, "threads");
			cJSON_AddItemToObject(out, key, e);
			if (!rec)
				rec = cJSON_AddArrayToObject(record, "thread_speedups");
			cJSON_AddItemToArray(rec, r);
		}
		ty++;
	}
	free(scratch);
}

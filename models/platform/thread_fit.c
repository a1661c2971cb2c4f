/* models/platform/thread_fit.c - see thread_fit.h. */
#include "thread_fit.h"
#include "threads.h"
#include "models/util/median.h"

#include <stdio.h>
#include <stdlib.h>

/* Group g's value of rank r's count 'key' ("1", "2", ...), or 0. */
static double rank_value(const cJSON *raw, int r, const char *key, int g)
{
	const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(raw, "processors"), r);
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(e, "threads"), key), g);

	return cJSON_IsNumber(v) && v->valuedouble > 0 ? v->valuedouble : 0;
}

/* The median over type ty's ranks of group g at count 'key' (*n: how
 * many had one), or 0. */
static double type_median(const cJSON *raw, const int *type_of_rank, int nranks, int ty, const char *key,
			  int g, double *scratch, int *n)
{
	*n = 0;
	for (int r = 0; r < nranks; r++)
		if (type_of_rank[r] == ty && rank_value(raw, r, key, g) > 0)
			scratch[(*n)++] = rank_value(raw, r, key, g);
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

void hm_thread_fit(const cJSON *raw, const int *type_of_rank, int nranks, cJSON *types, cJSON *record)
{
	const char *const *groups = hm_thread_kernel_names();
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
			char key[16];
			double s[HM_NR_THREAD_KERNELS];
			int leaders = 0, ranks = 0, ok = 1;

			snprintf(key, sizeof(key), "%d", counts[c]);
			for (int g = 0; g < HM_NR_THREAD_KERNELS; g++) {
				double one = type_median(raw, type_of_rank, nranks, ty, "1", g, scratch, &ranks);
				double many = type_median(raw, type_of_rank, nranks, ty, key, g, scratch, &leaders);

				s[g] = one > 0 && many > 0 ? one / many : 0;
				/* the loader's range: a wilder value is a measurement gone wrong */
				ok &= s[g] > 0 && s[g] <= 2.0 * counts[c];
			}
			if (!ok)
				continue;
			if (!out)
				out = cJSON_AddObjectToObject(type, "threads");
			cJSON *e = cJSON_AddObjectToObject(out, key);

			for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
				cJSON_AddNumberToObject(e, groups[g], s[g]);
			if (!rec)
				rec = cJSON_AddArrayToObject(record, "thread_speedups");
			cJSON *r = cJSON_CreateObject();

			cJSON_AddStringToObject(r, "type", type->string);
			cJSON_AddNumberToObject(r, "threads", counts[c]);
			cJSON_AddNumberToObject(r, "one_thread_ranks", ranks);
			cJSON_AddNumberToObject(r, "leaders", leaders);
			for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
				cJSON_AddNumberToObject(r, groups[g], s[g]);
			cJSON_AddItemToArray(rec, r);
		}
		ty++;
	}
	free(scratch);
}

/* models/platform/lu_steps_fit.c - see lu_steps_fit.h. */
#include "lu_steps_fit.h"
#include "calibration_network.h"
#include "platform.h"
#include "models/util/median.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A number of rank r's processor entry, or NAN. */
static double rank_value(const cJSON *raw, int r, const char *key)
{
	const cJSON *e = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(raw, "processors"), r);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, key);

	return cJSON_IsNumber(v) && v->valuedouble > 0 && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

/* The latency of the measured ping-pong between ranks a and b (Hockney's
 * fit of its one-way times), or NAN. */
static double pair_latency(const cJSON *raw, int a, int b)
{
	const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(raw, "bytes"), *e;
	int n = cJSON_GetArraySize(bytes);
	double x[64], y[64], t_s, t_w;

	if (n < 2 || n > 64)
		return NAN;
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(raw, "pingpong")) {
		const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(e, "ranks");
		const cJSON *secs = cJSON_GetObjectItemCaseSensitive(e, "seconds");
		int ea = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(ranks, 0));
		int eb = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(ranks, 1));

		if (!((ea == a && eb == b) || (ea == b && eb == a)) || cJSON_GetArraySize(secs) != n)
			continue;
		for (int s = 0; s < n; s++) {
			x[s] = cJSON_GetNumberValue(cJSON_GetArrayItem(bytes, s));
			y[s] = cJSON_GetNumberValue(cJSON_GetArrayItem(secs, s));
		}
		hm_hockney_fit(x, y, n, &t_s, &t_w);
		return t_s;
	}
	return NAN;
}

/* The same_node scope's fitted t_s of 'net', or NAN. */
static double same_node_latency(const cJSON *net)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(net, "same_node"), "t_s");

	return cJSON_IsNumber(t) ? t->valuedouble : NAN;
}

/* A column of 'rows' ranks' step cost from its time per column t: its
 * first rank a (and b, the second of a column of two, or -1) took t1
 * alone, and its steps are HM_STEPS_PER_COLUMN lg rows messages deep. */
static double step_cost(const cJSON *raw, int a, int b, int rows, double t, double t_s)
{
	double t1 = b < 0 ? rank_value(raw, a, "column_alone_s") :
		    0.5 * (rank_value(raw, a, "column_alone_s") + rank_value(raw, b, "column_alone_s"));
	double o = (t - t1) / (HM_STEPS_PER_COLUMN * ceil(log2(rows))) - t_s;

	return isnan(o) ? NAN : o > 0 ? o : 0;
}

/* Every measured column of two: its scope's list in the record, and each
 * end's type's values in per_type[scope][type] (count[scope][type]). */
enum { SAME, INTER, NR_STEP_SCOPES };

static void read_columns(const cJSON *raw, const int *type_of_rank, int nranks, int ntypes, int cap,
			 const cJSON *net, double **per_type, int **count, cJSON *record)
{
	static const char *const scope_names[NR_STEP_SCOPES] = { "same_node", "inter_node" };
	const cJSON *e;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(raw, "column_steps")) {
		const char *scope = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "scope"));
		const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(e, "ranks");
		const cJSON *rows_item = cJSON_GetObjectItemCaseSensitive(e, "rows");
		int a = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(ranks, 0));
		int b = cJSON_GetArraySize(ranks) > 1 ? (int)cJSON_GetNumberValue(cJSON_GetArrayItem(ranks, 1)) : -1;
		int rows = cJSON_IsNumber(rows_item) ? rows_item->valueint : 2;
		double t = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "seconds_per_column"));
		int sc = scope && !strcmp(scope, "same_node") ? SAME : INTER;
		double o;
		cJSON *entry;

		if (!scope || a < 0 || a >= nranks || b >= nranks || (rows == 2 && b < 0) || rows < 2 ||
		    rows > 4096 || !(t > 0))
			continue;
		o = step_cost(raw, a, b, rows, t, sc == SAME ? same_node_latency(net) : pair_latency(raw, a, b));
		if (isnan(o))
			continue;
		entry = cJSON_CreateObject();
		cJSON_AddItemToObject(entry, "ranks", cJSON_CreateIntArray((int[]){ a, b }, b >= 0 ? 2 : 1));
		cJSON_AddNumberToObject(entry, "rows", rows);
		cJSON_AddNumberToObject(entry, "seconds_per_column", t);
		cJSON_AddNumberToObject(entry, "column_step", o);
		cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(record, scope_names[sc]), entry);
		/* the value is the columns of two's; larger ones check the lg r growth */
		for (int end = 0; end < 2 && rows == 2; end++) {
			int ty = type_of_rank[end ? b : a];

			if (ty >= 0 && ty < ntypes && (end == 0 || type_of_rank[b] != type_of_rank[a]))
				per_type[sc][ty * cap + count[sc][ty]++] = o;
		}
	}
}

/* The row interchanges the bench timed, at a stride that aliases and one
 * that does not (wrappers/row_swap.h): the raw document's per-rank key,
 * and the type's (a bench before the aliased stride gave only the first) */
static const struct {
	const char *raw, *key;
} row_swap_stride[] = { { "row_swap_s", "k1_dswap" }, { "row_swap_aliased_s", "k1_dswap_aliased" } };
enum { NR_ROW_SWAP_STRIDES = sizeof(row_swap_stride) / sizeof(row_swap_stride[0]) };

void hm_lu_steps_fit(const cJSON *raw, const int *type_of_rank, int nranks, cJSON *types,
		     const cJSON *net, cJSON *record)
{
	int ntypes = cJSON_GetArraySize(types);
	/* a type's values: at most one per measured column */
	int cap = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(raw, "column_steps")) + 1;
	double *v = calloc((size_t)nranks + 1, sizeof(double)), *per_type[NR_STEP_SCOPES];
	int *count[NR_STEP_SCOPES];
	cJSON *rec = cJSON_CreateObject();

	per_type[SAME] = calloc((size_t)ntypes * cap, sizeof(double));
	per_type[INTER] = calloc((size_t)ntypes * cap, sizeof(double));
	count[SAME] = calloc((size_t)ntypes + 1, sizeof(int));
	count[INTER] = calloc((size_t)ntypes + 1, sizeof(int));
	if (!v || !rec || !per_type[SAME] || !per_type[INTER] || !count[SAME] || !count[INTER])
		goto out;
	cJSON_AddArrayToObject(rec, "same_node");
	cJSON_AddArrayToObject(rec, "inter_node");
	read_columns(raw, type_of_rank, nranks, ntypes, cap, net, per_type, count, rec);
	for (int t = 0; t < ntypes; t++) {
		cJSON *type = cJSON_GetArrayItem(types, t);
		int sc = count[SAME][t] ? SAME : INTER;

		for (int s = 0; s < NR_ROW_SWAP_STRIDES; s++) {
			int n = 0;

			for (int r = 0; r < nranks; r++)
				if (type_of_rank[r] == t && !isnan(rank_value(raw, r, row_swap_stride[s].raw)))
					v[n++] = rank_value(raw, r, row_swap_stride[s].raw);
			if (n)
				cJSON_AddNumberToObject(type, row_swap_stride[s].key, hm_median(v, n));
		}
		if (count[sc][t])
			cJSON_AddNumberToObject(type, "column_step", hm_median(per_type[sc] + (size_t)t * cap,
									       count[sc][t]));
	}
	cJSON_AddItemToObject(record, "column_steps", rec);
	rec = NULL;
out:
	cJSON_Delete(rec);
	free(v), free(per_type[SAME]), free(per_type[INTER]), free(count[SAME]), free(count[INTER]);
}

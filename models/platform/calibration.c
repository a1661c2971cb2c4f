/* models/platform/calibration.c - see calibration.h. */
#include "calibration.h"
#include "kernel_rounds.h"
#include "models/util/median.h"
#include "models/util/say.h"
#include "lu_steps_fit.h"
#include "thread_fit.h"
#include "calibration_network.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_DGEMM, K_DTRSM, K_GETF2, NR_KERNELS };
enum { MAX_BS = 16, MAX_REPEAT = 1000 };
static const char *const kernel_names[NR_KERNELS] = { "k3_dgemm", "k3_dtrsm", "k2_dgetf2" };

/* One kernel's samples per block size (an array of nbs arrays of positive
 * finite numbers) into its values (kernel_rounds.h); -1 if they are not. */
static int read_kernel(const cJSON *per_b, int nbs, struct hm_kernel_rounds *out)
{
	static double v[MAX_BS][MAX_REPEAT];
	const double *rows[MAX_BS];
	int n[MAX_BS];

	if (!cJSON_IsArray(per_b) || cJSON_GetArraySize(per_b) != nbs)
		return -1;
	for (int b = 0; b < nbs; b++) {
		const cJSON *arr = cJSON_GetArrayItem(per_b, b), *e;

		n[b] = 0;
		if (!cJSON_IsArray(arr))
			return -1;
		cJSON_ArrayForEach(e, arr) {
			if (n[b] == MAX_REPEAT || !cJSON_IsNumber(e) || !isfinite(e->valuedouble) ||
			    e->valuedouble <= 0)
				return -1;
			v[b][n[b]++] = e->valuedouble;
		}
		if (!n[b])
			return -1;
		rows[b] = v[b];
	}
	hm_kernel_rounds(rows, n, nbs, out);
	return 0;
}

/* Per processor and kernel and block size: the value, the spread and the
 * notch of its shape; per kernel the notch of its level (kernel_rounds.h). */
struct measured {
	double k[NR_KERNELS][MAX_BS];
	double spread[NR_KERNELS][MAX_BS];
	double notch[NR_KERNELS][MAX_BS];
	double level_notch[NR_KERNELS];
	double alone[MAX_BS];   /* dgemm with one core of the node busy (has_alone) */
	int has_alone;
	int cores;
	int type;
};

/* The optional dgemm samples with one core of the node busy. */
static int read_alone(const cJSON *per_b, int nbs, struct measured *m, struct hm_error *err)
{
	struct hm_kernel_rounds kr;

	if (!per_b)
		return 0;
	if (read_kernel(per_b, nbs, &kr))
		return hm_error_at(err, "processors", "'k3_dgemm_alone' needs one list of samples per block size");
	memcpy(m->alone, kr.k, (size_t)nbs * sizeof(double));
	m->has_alone = 1;
	return 0;
}

static int read_processors(const cJSON *raw, int nbs, int nproc, struct measured *m,
			   struct hm_error *err)
{
	const cJSON *procs = cJSON_GetObjectItemCaseSensitive(raw, "processors"), *e;
	int i = 0;

	if (cJSON_GetArraySize(procs) != nproc)
		return hm_error_at(err, "processors", "expected %d processors", nproc);
	cJSON_ArrayForEach(e, procs) {
		for (int k = 0; k < NR_KERNELS; k++) {
			struct hm_kernel_rounds kr;

			if (read_kernel(cJSON_GetObjectItemCaseSensitive(e, kernel_names[k]), nbs, &kr))
				return hm_error_at(err, "processors", "'%s' needs one list of positive samples per "
						   "block size", kernel_names[k]);
			memcpy(m[i].k[k], kr.k, (size_t)nbs * sizeof(double));
			memcpy(m[i].spread[k], kr.spread, (size_t)nbs * sizeof(double));
			memcpy(m[i].notch[k], kr.shape_notch, (size_t)nbs * sizeof(double));
			m[i].level_notch[k] = kr.level_notch;
		}
		if (read_alone(cJSON_GetObjectItemCaseSensitive(e, "k3_dgemm_alone"), nbs, &m[i], err))
			return -1;
		m[i].cores = 1;
		i++;
	}
	return 0;
}

/* One processor per node: the ranks of one host (each on a core of its
 * own, all measuring at once: every core busy, as the model's k values
 * are) merged into one processor with as many cores, k the median over
 * its ranks, spread the largest. In place; node_hosts[] and cores[] get
 * the node's host and core count. Returns the number of nodes. */
static int merge_nodes(struct measured *m, int nproc, int nbs, const char *const *hosts,
		       const char **node_hosts, int *cores)
{
	int nodes = 0;

	for (int i = 0; i < nproc; i++) {
		int n;

		for (n = 0; n < nodes && strcmp(node_hosts[n], hosts[i]); n++)
			;
		if (n < nodes)
			continue;       /* merged with the node's first rank below */
		node_hosts[nodes] = hosts[i];
		cores[nodes] = 0;
		/* the host's first rank measured alone (the bench's phase 1b) */
		m[nodes].has_alone = m[i].has_alone;
		memcpy(m[nodes].alone, m[i].alone, sizeof(m[i].alone));
		for (int k = 0; k < NR_KERNELS; k++)
			for (int b = 0; b < nbs; b++) {
				double v[4096], spread = 0, notch = 0, level = 0;
				int c = 0;

				for (int j = i; j < nproc && c < 4096; j++)
					if (!strcmp(hosts[j], hosts[i])) {
						v[c++] = m[j].k[k][b];
						spread = fmax(spread, m[j].spread[k][b]);
						notch = fmax(notch, m[j].notch[k][b]);
					}
				m[nodes].k[k][b] = hm_median(v, c);
				m[nodes].spread[k][b] = spread;
				m[nodes].notch[k][b] = notch;
				for (int j = i; j < nproc; j++)
					if (!strcmp(hosts[j], hosts[i]))
						level = fmax(level, m[j].level_notch[k]);
				m[nodes].level_notch[k] = level;
				cores[nodes] = m[nodes].cores = c;
			}
		nodes++;
	}
	return nodes;
}

/* A kernel whose block sizes the measurements cannot tell apart gets one
 * value for all: when its values over b lie within the largest notch of
 * their shapes (kernel_rounds.h), the median of those values at every b.
 * Otherwise the plan's b would follow noise. The pooled kernels go to the
 * record ("pooled_over_b"). */
static void pool_flat_kernels(struct measured *m, int nm, int nbs, const char *const *names, cJSON *record)
{
	cJSON *pooled = NULL;

	for (int i = 0; i < nm && nbs > 1; i++)
		for (int k = 0; k < NR_KERNELS; k++) {
			double lo = INFINITY, hi = 0, widest = 0, v[MAX_BS];
			char key[300];

			for (int b = 0; b < nbs; b++) {
				lo = fmin(lo, m[i].k[k][b]), hi = fmax(hi, m[i].k[k][b]);
				widest = fmax(widest, m[i].notch[k][b] * m[i].k[k][b]);
				v[b] = m[i].k[k][b];
			}
			if (hi - lo > widest)
				continue;
			double flat = hm_median(v, nbs);

			for (int b = 0; b < nbs; b++)
				m[i].k[k][b] = flat;
			if (!pooled)
				pooled = cJSON_AddArrayToObject(record, "pooled_over_b");
			snprintf(key, sizeof(key), "%s.%s", names[i], kernel_names[k]);
			cJSON_AddItemToArray(pooled, cJSON_CreateString(key));
		}
}

/* Greedy grouping: a processor joins the first type whose first member
 * has as many cores (a type's busy-cores scale is keyed by them) and is
 * within the tolerance on every value. Returns the number of types;
 * first[t] is the first member of type t. */
static int group_types(struct measured *m, int nproc, int nbs, double tol, int *first)
{
	int ntypes = 0;

	for (int i = 0; i < nproc; i++) {
		int t;

		for (t = 0; t < ntypes; t++) {
			const struct measured *ref = &m[first[t]];
			int close = ref->cores == m[i].cores;

			for (int k = 0; k < NR_KERNELS && close; k++)
				for (int b = 0; b < nbs && close; b++)
					close = fabs(m[i].k[k][b] - ref->k[k][b]) <= tol * ref->k[k][b];
			if (close)
				break;
		}
		if (t == ntypes)
			first[ntypes++] = i;
		m[i].type = t;
	}
	return ntypes;
}

/* The median over a type's members of one value. */
static double type_value(const struct measured *m, int nproc, int type, int k, int b)
{
	double v[4096];
	int n = 0;

	for (int i = 0; i < nproc && n < 4096; i++)
		if (m[i].type == type)
			v[n++] = m[i].k[k][b];
	return hm_median(v, n);
}

/* A type's busy-cores scale: the median over its members that measured
 * dgemm alone of median_b(alone / all busy). NAN when none did. */
static double alone_ratio(const struct measured *m, int nproc, int type, int nbs)
{
	double v[4096], r[MAX_BS];
	int n = 0;

	for (int i = 0; i < nproc && n < 4096; i++) {
		if (m[i].type != type || !m[i].has_alone)
			continue;
		for (int b = 0; b < nbs; b++)
			r[b] = m[i].alone[b] / m[i].k[K_DGEMM][b];
		v[n++] = hm_median(r, nbs);
	}
	return n ? hm_median(v, n) : NAN;
}

/* Below this ratio a core alone is faster than noise: three calibrations
 * of this project's 2-core machine gave 0.93, 0.96 and 1.06. */
#define ALONE_SIGNIFICANT 0.95

/* The busy-cores scale of a type of C cores whose core alone runs dgemm
 * at 'ratio' of its all-busy cost: {"1": ratio, "C": 1}. The record
 * keeps the measured ratio; the table is written only when a core alone
 * is clearly faster (below ALONE_SIGNIFICANT; above 1 the loader would
 * refuse it: a scale never decreases). */
static void busy_scale_json(cJSON *type, const char *name, double ratio, int cores,
			    cJSON *record)
{
	char key[16];
	cJSON *scale;

	if (isnan(ratio) || cores < 2)
		return;
	cJSON_AddNumberToObject(record, name, ratio);
	if (ratio >= ALONE_SIGNIFICANT)
		return;
	scale = cJSON_AddObjectToObject(type, "busy_cores_scale");
	cJSON_AddNumberToObject(scale, "1", ratio);
	snprintf(key, sizeof(key), "%d", cores);
	cJSON_AddNumberToObject(scale, key, 1);
}

static cJSON *types_json(const struct measured *m, int nproc, int ntypes, const int *first,
			 const int *bs, int nbs, cJSON *record)
{
	cJSON *types = cJSON_CreateObject(), *alone = NULL;

	for (int t = 0; t < ntypes; t++) {
		char name[32], key[16];
		cJSON *type;

		snprintf(name, sizeof(name), "T%d", t + 1);
		type = cJSON_AddObjectToObject(types, name);
		for (int k = 0; k < NR_KERNELS; k++) {
			cJSON *table = cJSON_AddObjectToObject(type, kernel_names[k]);

			for (int b = 0; b < nbs; b++) {
				snprintf(key, sizeof(key), "%d", bs[b]);
				cJSON_AddNumberToObject(table, key, type_value(m, nproc, t, k, b));
			}
		}
		double ratio = alone_ratio(m, nproc, t, nbs);

		if (!alone && !isnan(ratio))
			alone = cJSON_AddObjectToObject(record, "dgemm_alone_over_all_busy");
		busy_scale_json(type, name, ratio, m[first[t]].cores, alone);
	}
	return types;
}

/* The kernel models of type t (its "kernels"), from the shapes the bench
 * timed (raw "shapes", each processor rank's "shape_seconds"): per shape
 * the median over the type's ranks, then the fit of kernel_model.h.
 * type_of_rank[r] is rank r's type. The worst relative error of each fit
 * over its shapes goes to the record. Nothing when the bench timed no
 * shapes. */
static void kernels_json(const cJSON *raw, const int *type_of_rank, int nranks, int ntypes,
			 cJSON *types, cJSON *record)
{
	const cJSON *shapes = cJSON_GetObjectItemCaseSensitive(raw, "shapes");
	const cJSON *procs = cJSON_GetObjectItemCaseSensitive(raw, "processors");
	cJSON *fits = NULL;

	if (!cJSON_IsObject(shapes))
		return;
	for (int t = 0; t < ntypes; t++) {
		cJSON *type = cJSON_GetArrayItem(types, t), *kernels = NULL;

		for (int k = 0; k < HM_NR_KERNELS; k++) {
			const cJSON *list = cJSON_GetObjectItemCaseSensitive(shapes, hm_kernel_name((enum hm_kernel)k));
			int count = cJSON_GetArraySize(list);
			double (*shape)[3] = calloc((size_t)count + 1, sizeof(*shape));
			double *secs = calloc((size_t)count + 1, sizeof(double)), worst = 0;
			struct hm_kernel_model km;
			int used = 0;

			for (int i = 0; shape && secs && i < count; i++) {
				const cJSON *sh = cJSON_GetArrayItem(list, i);
				double v[4096];
				int nv = 0;

				for (int r = 0; r < nranks && nv < 4096; r++) {
					const cJSON *per = cJSON_GetObjectItemCaseSensitive(
						cJSON_GetArrayItem(procs, r), "shape_seconds");
					const cJSON *x = cJSON_GetArrayItem(
						cJSON_GetObjectItemCaseSensitive(per, hm_kernel_name((enum hm_kernel)k)), i);

					if (type_of_rank[r] == t && cJSON_IsNumber(x) && x->valuedouble > 0)
						v[nv++] = x->valuedouble;
				}
				if (!nv || cJSON_GetArraySize(sh) != 3)
					continue;
				for (int d = 0; d < 3; d++)
					shape[used][d] = cJSON_GetArrayItem(sh, d)->valuedouble;
				secs[used++] = hm_median(v, nv);
			}
			if (shape && secs && !hm_kernel_fit((enum hm_kernel)k, (const double (*)[3])shape, secs,
							     used, &km)) {
				const char *const *terms = hm_kernel_term_names((enum hm_kernel)k);
				cJSON *model;
				char key[64];

				if (!kernels)
					kernels = cJSON_AddObjectToObject(type, "kernels");
				model = cJSON_AddObjectToObject(kernels, hm_kernel_name((enum hm_kernel)k));
				for (int j = 0; j < km.nterms; j++)
					cJSON_AddNumberToObject(model, terms[j], km.c[j]);
				for (int i = 0; i < used; i++)
					worst = fmax(worst, fabs(hm_kernel_seconds(&km, (enum hm_kernel)k, shape[i][0],
									    shape[i][1], shape[i][2]) / secs[i] - 1));
				if (!fits)
					fits = cJSON_AddObjectToObject(record, "kernel_fit_worst_relative_error");
				snprintf(key, sizeof(key), "%s.%s", type->string, hm_kernel_name((enum hm_kernel)k));
				cJSON_AddNumberToObject(fits, key, worst);
			}
			free(shape), free(secs);
		}
	}
}

/* The facts of each type that say whether its values can be trusted
 * (calibration_trust.h judges them), into record.trust.<type>: the worst
 * notch of its kernels' medians, the worst relative error of its kernel
 * models' fits, its core alone over all busy, the share of the measured
 * time other processes held its cores, its hosts' largest load average
 * before measuring, the column-step samples dropped because other work ran
 * on the column's cores and whether its column step was measured at all. type_of_rank[r]: rank r's type; m[0..nm-1] the
 * processors (nodes) fitted. */
static void trust_facts(const cJSON *raw, const struct measured *m, int nm, const int *type_of_rank,
			int nranks, const cJSON *types, cJSON *record)
{
	const cJSON *fits = cJSON_GetObjectItemCaseSensitive(record, "kernel_fit_worst_relative_error");
	const cJSON *alone = cJSON_GetObjectItemCaseSensitive(record, "dgemm_alone_over_all_busy");
	const cJSON *procs = cJSON_GetObjectItemCaseSensitive(raw, "processors");
	const char *held = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(raw, "held_time"));
	cJSON *trust = cJSON_AddObjectToObject(record, "trust"), *ty;
	int t = 0;

	cJSON_AddStringToObject(trust, "held_time", held ? held : "wall time (bench without run_delay)");
	cJSON_ArrayForEach(ty, types) {
		cJSON *f = cJSON_AddObjectToObject(trust, ty->string), *e;
		double notch = 0, fit = 0, waited = 0, spent = 0, load = -1, dropped = 0;
		char key[64];

		for (int i = 0; i < nm; i++)
			for (int k = 0; k < NR_KERNELS && m[i].type == t; k++)
				notch = fmax(notch, m[i].level_notch[k]);
		for (int k = 0; k < HM_NR_KERNELS; k++) {
			snprintf(key, sizeof(key), "%s.%s", ty->string, hm_kernel_name((enum hm_kernel)k));
			e = cJSON_GetObjectItemCaseSensitive(fits, key);
			fit = fmax(fit, cJSON_IsNumber(e) ? e->valuedouble : 0);
		}
		for (int r = 0; r < nranks; r++) {
			const cJSON *p = cJSON_GetArrayItem(procs, r);
			double w = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "waited_s"));
			double s = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "measured_s"));
			double l = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "load_average"));
			double d = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(p, "column_disturbed"));

			if (type_of_rank[r] != t)
				continue;
			dropped += isfinite(d) && d > 0 ? d : 0;
			waited += isfinite(w) && w > 0 ? w : 0;
			spent += isfinite(s) && s > 0 ? s : 0;
			load = isfinite(l) ? fmax(load, l) : load;
		}
		cJSON_AddNumberToObject(f, "notch", notch);
		cJSON_AddNumberToObject(f, "kernel_fit", fit);
		e = cJSON_GetObjectItemCaseSensitive(alone, ty->string);
		if (cJSON_IsNumber(e))
			cJSON_AddNumberToObject(f, "alone_over_all_busy", e->valuedouble);
		cJSON_AddNumberToObject(f, "waited", spent > 0 ? waited / spent : 0);
		if (load >= 0)
			cJSON_AddNumberToObject(f, "load_average", load);
		cJSON_AddNumberToObject(f, "column_samples_dropped", dropped);
		cJSON_AddBoolToObject(f, "column_step_measured", cJSON_HasObjectItem(ty, "column_step"));
		t++;
	}
}

static cJSON *processors_json(const struct hm_calibration_opts *o, const struct measured *m,
			      int nbs, cJSON *record)
{
	cJSON *procs = cJSON_CreateArray(), *spread = cJSON_AddObjectToObject(record, "spread");

	for (int i = 0; i < o->nproc; i++) {
		cJSON *e = cJSON_CreateObject(), *sp = cJSON_AddObjectToObject(spread, o->names[i]);
		char type[32];

		snprintf(type, sizeof(type), "T%d", m[i].type + 1);
		cJSON_AddStringToObject(e, "name", o->names[i]);
		cJSON_AddStringToObject(e, "host", o->hosts[i]);
		cJSON_AddStringToObject(e, "type", type);
		cJSON_AddNumberToObject(e, "cores", o->cores ? o->cores[i] : 1);
		if (o->memory_per_proc > 0)
			cJSON_AddNumberToObject(e, "memory",
						floor(o->memory_per_proc * (o->cores ? o->cores[i] : 1)));
		cJSON_AddItemToArray(procs, e);
		/* (max - min) / median of the repeats, per kernel and b */
		for (int k = 0; k < NR_KERNELS; k++)
			cJSON_AddItemToObject(sp, kernel_names[k],
					      cJSON_CreateDoubleArray(m[i].spread[k], nbs));
		/* the medians' notches, relative */
		for (int k = 0; k < NR_KERNELS; k++) {
			char key[64];

			snprintf(key, sizeof(key), "%s_notch", kernel_names[k]);
			cJSON_AddItemToObject(sp, key, cJSON_CreateDoubleArray(m[i].notch[k], nbs));
		}
	}
	return procs;
}

cJSON *hm_calibration_platform(const cJSON *raw, const struct hm_calibration_opts *o,
			       struct hm_error *err)
{
	const cJSON *bsj = cJSON_GetObjectItemCaseSensitive(raw, "block_sizes");
	int bs[MAX_BS], nbs = cJSON_GetArraySize(bsj), ntypes, *first;
	struct measured *m;
	struct hm_calibration_opts nodes;
	const struct hm_calibration_opts *ranks_o = o;
	const char **node_hosts = NULL;
	int *node_cores = NULL;
	cJSON *plat = NULL, *record, *net;
	char desc[512];

	if (!cJSON_IsObject(raw) || !cJSON_GetObjectItemCaseSensitive(raw, "hetmap_calibration_raw")) {
		hm_error_set(err, "not the output of hetmap-calibrate-bench");
		return NULL;
	}
	if (nbs < 1 || nbs > MAX_BS) {
		hm_error_at(err, "block_sizes", "expected 1..%d block sizes", MAX_BS);
		return NULL;
	}
	for (int b = 0; b < nbs; b++)
		if ((bs[b] = cJSON_GetArrayItem(bsj, b)->valueint) < 1) {
			hm_error_at(err, "block_sizes", "block sizes must be positive integers");
			return NULL;
		}
	m = calloc((size_t)o->nproc, sizeof(*m));
	first = calloc((size_t)o->nproc, sizeof(int));
	if (!m || !first) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	if (read_processors(raw, nbs, o->nproc, m, err))
		goto out;
	if (o->per_node) {
		if (!(node_hosts = calloc((size_t)o->nproc, sizeof(char *))) ||
		    !(node_cores = calloc((size_t)o->nproc, sizeof(int)))) {
			hm_error_set(err, "out of memory");
			goto out;
		}
		nodes = *o;
		nodes.nproc = merge_nodes(m, o->nproc, nbs, o->hosts, node_hosts, node_cores);
		nodes.names = nodes.hosts = node_hosts;
		nodes.cores = node_cores;
		o = &nodes;
	}
	plat = cJSON_CreateObject();
	record = cJSON_CreateObject();
	pool_flat_kernels(m, o->nproc, nbs, o->names, record);
	ntypes = group_types(m, o->nproc, nbs, o->tolerance, first);
	cJSON_AddNumberToObject(plat, "hetmap_platform", 1);
	cJSON_AddStringToObject(plat, "name", o->name);
	snprintf(desc, sizeof(desc), "measured by hetmap calibrate on %s: %d processor%s, %d type%s "
		 "(processors within %.0f%% share a type); see 'calibration' for spreads and fits",
		 o->when, o->nproc, HM_PLURAL(o->nproc), ntypes, HM_PLURAL(ntypes), 100 * o->tolerance);
	cJSON_AddStringToObject(plat, "description", desc);
	cJSON_AddItemToObject(plat, "types", types_json(m, o->nproc, ntypes, first, bs, nbs, record));
	/* each rank's type: its node's, or its own */
	for (int r = 0; r < ranks_o->nproc; r++) {
		int n = r;

		if (o != ranks_o)
			for (n = 0; n < o->nproc && strcmp(o->hosts[n], ranks_o->hosts[r]); n++)
				;
		first[r] = n < o->nproc ? m[n].type : -1;
	}
	kernels_json(raw, first, ranks_o->nproc, ntypes, cJSON_GetObjectItemCaseSensitive(plat, "types"),
		     record);
	cJSON_AddItemToObject(plat, "processors", processors_json(o, m, nbs, record));
	/* ranks are per processor, or per core when merged into nodes */
	if (!(net = hm_calibration_network(raw, record, o->per_node ? ranks_o->hosts : o->names, ranks_o->hosts,
				 ranks_o->nproc, o->tolerance, err))) {
		cJSON_Delete(record);
		cJSON_Delete(plat);
		plat = NULL;
		goto out;
	}
	cJSON_AddItemToObject(plat, "network", net);
	hm_lu_steps_fit(raw, first, ranks_o->nproc, cJSON_GetObjectItemCaseSensitive(plat, "types"), net, record);
	hm_thread_fit(raw, first, ranks_o->nproc, cJSON_GetObjectItemCaseSensitive(plat, "types"), record);
	trust_facts(raw, m, o->nproc, first, ranks_o->nproc, cJSON_GetObjectItemCaseSensitive(plat, "types"),
		    record);
	cJSON_AddItemToObject(plat, "block_sizes", cJSON_CreateIntArray(bs, nbs));
	cJSON_AddStringToObject(record, "when", o->when);
	cJSON_AddNumberToObject(record, "rows", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(raw, "rows")));
	cJSON_AddNumberToObject(record, "repeat", cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(raw, "repeat")));
	cJSON_AddNumberToObject(record, "type_tolerance", o->tolerance);
	cJSON_AddItemToObject(plat, "calibration", record);
out:
	free(m);
	free(first);
	free(node_hosts);
	free(node_cores);
	return plat;
}

void hm_calibration_raw_line(const char *line, void *ctx)
{
	cJSON **out = ctx;

	if (!*out && !strncmp(line, "{\"hetmap_calibration_raw\"", 25))
		*out = cJSON_Parse(line);
}

/* models/platform/platform_load.c - the platform JSON loader (see platform.h).
 *
 * The loader is strict: every key is known, every number finite and in
 * range, every reference resolved; the first problem found is reported with
 * the JSON path where it is. cJSON stays inside this file: values are copied
 * into hetmap structs and the tree is freed before returning. */
#include "platform.h"
#include "models/util/strbuild.h"
#include "corrections.h"
#include "units.h"
#include "models/util/fnv1a.h"
#include "models/util/json_read.h"
#include "hostname.h"
#include "threads.h"
#include "models/util/nearest_name.h"
#include "models/util/read_file.h"

#include <cJSON.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE_BYTES HM_MAX_PLATFORM_BYTES
#define MAX_NAME HM_MAX_NAME
#define MAX_TABLE 64        /* entries of a k table over b */
#define MAX_FIXED_KEYS 64   /* keys of an object whose keys are listed */

/* Loader state: the platform being filled and where errors go. */
struct loader {
	struct hm_platform *p;
	struct hm_error *err;
};

/* ---- generic checks ------------------------------------------------- */

/* Keys of 'obj' all in 'allowed' (an empty list: any key, at most
 * 'max_keys' of them), none twice. */
static int check_keys(struct loader *ld, const cJSON *obj, const char *path,
		      const char *const *allowed, int max_keys)
{
	return hm_json_check_keys(obj, path, allowed, max_keys, ld->err);
}

static int want_object(struct loader *ld, const cJSON *it, const char *path)
{
	if (!cJSON_IsObject(it))
		return hm_error_at(ld->err, path, "expected an object");
	return 0;
}

/* 0 if 'it' is an object whose keys are all among 'keys', else -1. */
static int object_with_keys(struct loader *ld, const cJSON *it, const char *path, const char *const *keys)
{
	return want_object(ld, it, path) || check_keys(ld, it, path, keys, MAX_FIXED_KEYS) ? -1 : 0;
}

static int get_name(struct loader *ld, const cJSON *it, const char *path,
		    const char **out)
{
	return hm_json_name(it, path, out, ld->err);
}

static int check_hostname(struct loader *ld, const char *host, const char *path)
{
	return hm_check_hostname(host, path, ld->err);
}

/* A positive quantity: a JSON number (SI) or a string with a unit.
 * 'allow_zero' admits 0 (e.g. a free same-processor link). */
static int get_quantity_value(struct loader *ld, const cJSON *it, const char *path,
			enum hm_unit_kind kind, int allow_zero, double *out)
{
	char why[256];

	if (cJSON_IsNumber(it)) {
		double v = it->valuedouble;

		if (!isfinite(v))
			return hm_error_at(ld->err, path, "value is not finite");
		if (v < 0 || (v == 0 && !allow_zero))
			return hm_error_at(ld->err, path, "must be %s (got %.17g)",
					   allow_zero ? ">= 0" : "> 0", v);
		*out = v;
		return 0;
	}
	if (cJSON_IsString(it)) {
		if (allow_zero && !strcmp(it->valuestring, "0")) {
			*out = 0;
			return 0;
		}
		if (hm_unit_parse(it->valuestring, kind, out, why, sizeof(why)))
			return hm_error_at(ld->err, path, "%s", why);
		return 0;
	}
	return hm_error_at(ld->err, path, "expected a number (%s) or a string with a unit",
			   hm_unit_name(kind));
}

/* Plausible ranges: outside them a value is kept but doubted. */
#define K_MIN 1e-13         /* s/flop: 10 TFLOP/s per core */
#define K_MAX 1e-6          /* s/flop: 1 MFLOP/s per core */
#define T_W_MIN 8e-12       /* s per 8-byte word: 1 TB/s */
#define RATIO_MIN 0.01      /* busy_cores_scale: a core 100x faster or slower */
#define RATIO_MAX 100.0     /* when its neighbours are busy is a typo */

static void warn(struct loader *ld, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn(struct loader *ld, const char *path, const char *fmt, ...)
{
	struct hm_platform *p = ld->p;
	char why[200];
	va_list ap;

	char line[sizeof(p->warnings[0])];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(line, sizeof(line), "%s: %s", path, why);
	/* a value read twice ("k3" is both dgemm's and dtrsm's) warns once */
	for (int i = 0; i < p->nr_warnings && i < HM_MAX_WARNINGS; i++)
		if (!strcmp(p->warnings[i], line))
			return;
	if (p->nr_warnings < HM_MAX_WARNINGS)
		memcpy(p->warnings[p->nr_warnings], line, sizeof(line));
	p->nr_warnings++;
}

/* A value that parses but is far from any machine: most likely a rate
 * written where a time per flop or word was meant. */
static void check_plausible(struct loader *ld, const char *path, enum hm_unit_kind kind, double v)
{
	if (kind == HM_UNIT_SECONDS_PER_FLOP && v > K_MAX)
		warn(ld, path, "%g s/flop is under 1 MFLOP/s per core (a rate is written as a string "
		     "such as \"45GFLOP/s\")", v);
	else if (kind == HM_UNIT_SECONDS_PER_FLOP && v < K_MIN)
		warn(ld, path, "%g s/flop is over 10 TFLOP/s per core", v);
	else if (kind == HM_UNIT_SECONDS_PER_WORD && v > 0 && v < T_W_MIN)
		warn(ld, path, "t_w = %g s per 8-byte word is a bandwidth over 1 TB/s", v);
	else if (kind == HM_UNIT_RATIO && (v < RATIO_MIN || v > RATIO_MAX))
		warn(ld, path, "a relative cost of %g is outside %g..%g: machines measured so far "
		     "stay within 0.5..2", v, RATIO_MIN, RATIO_MAX);
}

static int get_quantity(struct loader *ld, const cJSON *it, const char *path,
			enum hm_unit_kind kind, int allow_zero, double *out)
{
	if (get_quantity_value(ld, it, path, kind, allow_zero, out))
		return -1;
	check_plausible(ld, path, kind, *out);
	return 0;
}

static int get_int(struct loader *ld, const cJSON *it, const char *path,
		   long lo, long hi, long *out)
{
	return hm_json_int(it, path, lo, hi, out, ld->err);
}

/* A block size written as an object key: decimal digits only. */
/* What the keys of a table are: block sizes, or busy cores. */
struct table_keys {
	const char *noun;   /* "block size" */
	int max;
	enum hm_unit_kind values;
};

static const struct table_keys block_keys = { "block size", HM_MAX_BLOCK, HM_UNIT_SECONDS_PER_FLOP };
static const struct table_keys busy_keys = { "number of busy cores", HM_MAX_CORES, HM_UNIT_RATIO };

/* A table key: decimal digits only. */
static int parse_table_key(struct loader *ld, const char *key, const char *path,
			   const struct table_keys *tk, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(key, &end, 10);
	if (!(key[0] >= '0' && key[0] <= '9') || *end || errno)
		return hm_error_at(ld->err, path, "key '%s' is not a %s (a positive integer)", key, tk->noun);
	if (v < 1 || v > tk->max)
		return hm_error_at(ld->err, path, "%s %ld out of range 1..%d", tk->noun, v, tk->max);
	*out = (int)v;
	return 0;
}

/* ---- types ------------------------------------------------------------ */

/* A per-flop cost: one value for all b, or an object {"16": k, "32": k}. */
static int load_table(struct loader *ld, const cJSON *it, const char *path,
		      const struct table_keys *tk, struct hm_table *t)
{
	char sub[512];
	const cJSON *e;
	int n = 0, i, j;

	if (!cJSON_IsObject(it)) {
		t->b = calloc(1, sizeof(int));
		t->k = calloc(1, sizeof(double));
		if (!t->b || !t->k)
			return hm_error_at(ld->err, path, "out of memory");
		t->n = 1;
		return get_quantity(ld, it, path, tk->values, 0, &t->k[0]);
	}
	if (check_keys(ld, it, path, (const char *const[]){ NULL }, MAX_TABLE))
		return -1;
	n = cJSON_GetArraySize(it);
	if (n == 0)
		return hm_error_at(ld->err, path, "table has no entries");

	t->b = calloc((size_t)n, sizeof(int));
	t->k = calloc((size_t)n, sizeof(double));
	if (!t->b || !t->k)
		return hm_error_at(ld->err, path, "out of memory");
	for (e = it->child, i = 0; e; e = e->next, i++) {
		int b = 0;
		double k = 0;

		snprintf(sub, sizeof(sub), "%s.%s", path, e->string);
		if (parse_table_key(ld, e->string, path, tk, &b) ||
		    get_quantity(ld, e, sub, tk->values, 0, &k))
			return -1;
		/* insertion sort: tables are tiny */
		for (j = t->n; j > 0 && t->b[j - 1] > b; j--) {
			t->b[j] = t->b[j - 1];
			t->k[j] = t->k[j - 1];
		}
		if (j > 0 && t->b[j - 1] == b)
			return hm_error_at(ld->err, sub, "%s %d given twice", tk->noun, b);
		t->b[j] = b;
		t->k[j] = k;
		t->n++;
	}
	return 0;
}

/* busy_cores_scale: {"1": 0.7, "16": 1.0}: k at that many busy cores,
 * relative. Non-decreasing: the exact searches need every effective SP
 * to grow when a process is added, and one more busy core must not make
 * the others faster. */
static int load_busy_scale(struct loader *ld, const cJSON *it, const char *path,
			   struct hm_proc_type *ty)
{
	char sub[512];

	snprintf(sub, sizeof(sub), "%s.busy_cores_scale", path);
	if (!cJSON_IsObject(it))
		return hm_error_at(ld->err, sub, "expected an object {\"BUSY CORES\": relative k, ...}");
	if (load_table(ld, it, sub, &busy_keys, &ty->busy_scale))
		return -1;
	for (int i = 1; i < ty->busy_scale.n; i++)
		if (ty->busy_scale.k[i] < ty->busy_scale.k[i - 1])
			return hm_error_at(ld->err, sub, "must not decrease as busy cores grow "
					   "(%g at %d, %g at %d)", ty->busy_scale.k[i - 1],
					   ty->busy_scale.b[i - 1], ty->busy_scale.k[i], ty->busy_scale.b[i]);
	return 0;
}

/* stacked: {"lu": 0.8, "gemm": 1.3}: a shared core's cost relative to
 * the heterogeneity rule, per routine, 1 when not given. At least 0.5:
 * two processes on a core must not cost less than one (the searches
 * need the factor to grow with the processes); at most 4. */
static int load_stacked(struct loader *ld, const cJSON *it, const char *path,
			struct hm_proc_type *ty)
{
	static const char *const routines[HM_NR_STACKED + 1] = { "lu", "gemm", NULL };
	char sub[512];

	for (int r = 0; r < HM_NR_STACKED; r++)
		ty->stacked[r] = 1;
	if (!it)
		return 0;
	snprintf(sub, sizeof(sub), "%s.stacked", path);
	if (object_with_keys(ld, it, sub, routines))
		return -1;
	for (int r = 0; r < HM_NR_STACKED; r++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, routines[r]);

		if (!v)
			continue;
		snprintf(sub, sizeof(sub), "%s.stacked.%s", path, routines[r]);
		if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0.5 && v->valuedouble <= 4))
			return hm_error_at(ld->err, sub, "expected a number in [0.5, 4]: a shared "
					   "core's cost relative to the heterogeneity rule");
		ty->stacked[r] = v->valuedouble;
	}
	return 0;
}

/* "kernels": {"dgemm": {"mnk": 2e-11, ..., "1": 3e-6}, ...}: the terms of
 * kernel_model.h, each a number of seconds per unit of its term, >= 0;
 * terms not given are 0. */
/* A kernel term's coefficient: seconds per unit; 1000 s is no kernel */
#define KERNEL_COEF_MAX 1e3

static int load_kernels(struct loader *ld, const cJSON *it, const char *path,
			struct hm_proc_type *ty)
{
	const char *const *kernels = hm_kernel_names();
	char sub[512];

	if (!it)
		return 0;
	snprintf(sub, sizeof(sub), "%s.kernels", path);
	if (object_with_keys(ld, it, sub, kernels))
		return -1;
	for (int k = 0; k < HM_NR_KERNELS; k++) {
		const cJSON *model = cJSON_GetObjectItemCaseSensitive(it, kernels[k]);
		const char *const *terms = hm_kernel_term_names((enum hm_kernel)k);
		struct hm_kernel_model *m = &ty->kernels[k];
		int positive = 0;

		if (!model)
			continue;
		snprintf(sub, sizeof(sub), "%s.kernels.%s", path, kernels[k]);
		if (object_with_keys(ld, model, sub, terms))
			return -1;
		for (m->nterms = 0; terms[m->nterms]; m->nterms++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(model, terms[m->nterms]);

			if (!v)
				continue;
			snprintf(sub, sizeof(sub), "%s.kernels.%s.%s", path, kernels[k], terms[m->nterms]);
			if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0 && v->valuedouble < KERNEL_COEF_MAX))
				return hm_error_at(ld->err, sub, "expected a number of seconds per unit of the "
						   "term, in [0, %g)", KERNEL_COEF_MAX);
			m->c[m->nterms] = v->valuedouble;
			positive |= v->valuedouble > 0;
		}
		snprintf(sub, sizeof(sub), "%s.kernels.%s", path, kernels[k]);
		if (!positive)      /* every call free: surely not what was measured */
			return hm_error_at(ld->err, sub, "a kernel model needs at least one positive coefficient");
	}
	return 0;
}

/* Above this a step's or an element's cost is surely a typo (a rate, or
 * microseconds written as seconds): kept, but doubted. */
#define STEP_DOUBTED 1e-3

/* The optional costs of LU's steps (column_step, k1_dswap, ...): seconds, 0
 * allowed (a calibration that found nothing beyond the messages). */
static int load_step_costs(struct loader *ld, const cJSON *it, const char *path, struct hm_proc_type *ty)
{
	for (int s = 0; s < HM_NR_LU_STEPS; s++) {
		const char *key = hm_lu_step_info(s)->key;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, key);
		double *out = hm_lu_step_slot(ty, s);
		char sub[512];

		if (!v)
			continue;
		snprintf(sub, sizeof(sub), "%s.%s", path, key);
		if (get_quantity_value(ld, v, sub, HM_UNIT_SECONDS, 1, out))
			return -1;
		if (*out > STEP_DOUBTED)
			warn(ld, sub, "%g s is over a millisecond per step (\"1.1us\" is written with its unit)",
			     *out);
		ty->step_from[s] = HM_STEP_GIVEN;
	}
	return 0;
}

/* "threads": {"2": {"dgemm": 1.9, "dtrsm": 1.8, "panel": 1.1}, ...}: a
 * rank of t threads against a rank of one, each kernel group's speed-up
 * (threads.h), every group given, each a number or a table over the block
 * size ({"32": 1.3, "256": 1.6}: what calibrate writes), each value in
 * (0, 2t]. */
static const struct table_keys thread_keys = { "number of threads", HM_MAX_CORES, HM_UNIT_RATIO };
static const struct table_keys speedup_keys = { "block size", HM_MAX_BLOCK, HM_UNIT_RATIO };

/* One group's speed-up of t threads: a number or a table over b. Below
 * HM_MIN_THREAD_SPEEDUP a split would price as nothing (a speed-up that
 * rounds to 0 when interpolated). */
static int load_speedup(struct loader *ld, const cJSON *v, const char *path, const char *group, int t,
			struct hm_table *s)
{
	char sub[512];

	snprintf(sub, sizeof(sub), "%s.%s", path, group);
	if (!v || !(cJSON_IsNumber(v) || cJSON_IsObject(v)))
		return hm_error_at(ld->err, path, "'%s': expected the speed-up of %d threads over one, a number in "
				   "[%g, %d] or a table of them over the block size", group, t, HM_MIN_THREAD_SPEEDUP,
				   2 * t);
	if (load_table(ld, v, sub, &speedup_keys, s))
		return -1;
	for (int i = 0; i < s->n; i++)
		if (!(s->k[i] >= HM_MIN_THREAD_SPEEDUP && s->k[i] <= 2.0 * t))
			return hm_error_at(ld->err, sub, "%g%s%.0d: the speed-up of %d threads over one must be in [%g, %d]",
					   s->k[i], s->b[i] ? " at b = " : "", s->b[i], t, HM_MIN_THREAD_SPEEDUP, 2 * t);
	return 0;
}

static int load_threads(struct loader *ld, const cJSON *it, const char *path,
			struct hm_proc_type *ty)
{
	const char *const *groups = hm_thread_kernel_names();
	const cJSON *e;
	char sub[512];

	if (!it)
		return 0;
	snprintf(sub, sizeof(sub), "%s.threads", path);
	if (!cJSON_IsObject(it))
		return hm_error_at(ld->err, sub, "expected an object {\"THREADS\": {\"dgemm\": speed-up, ...}}");
	if (cJSON_GetArraySize(it) > HM_MAX_THREAD_COUNTS)
		return hm_error_at(ld->err, sub, "at most %d thread counts", HM_MAX_THREAD_COUNTS);
	cJSON_ArrayForEach(e, it) {
		struct hm_thread_speedup sp = { 0 };
		int j;

		snprintf(sub, sizeof(sub), "%s.threads.%s", path, e->string);
		if (parse_table_key(ld, e->string, sub, &thread_keys, &sp.t))
			return -1;
		if (sp.t < 2)
			return hm_error_at(ld->err, sub, "thread counts start at 2 (one thread is the type's own k)");
		if (object_with_keys(ld, e, sub, groups))
			return -1;
		for (j = ty->nr_threads; j > 0 && ty->threads[j - 1].t > sp.t; j--)
			;
		if (j > 0 && ty->threads[j - 1].t == sp.t)
			return hm_error_at(ld->err, sub, "%d threads given twice", sp.t);
		/* in place first, so that the platform's release frees what a
		 * failing group leaves */
		memmove(&ty->threads[j + 1], &ty->threads[j], (size_t)(ty->nr_threads - j) * sizeof(sp));
		ty->threads[j] = sp;
		ty->nr_threads++;
		for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
			if (load_speedup(ld, cJSON_GetObjectItemCaseSensitive(e, groups[g]), sub, groups[g], sp.t,
					 &ty->threads[j].s[g]))
				return -1;
	}
	return 0;
}

static int load_type(struct loader *ld, const cJSON *it, const char *path,
		     struct hm_proc_type *ty)
{
	static const char *const keys[] = { "k3_dgemm", "k3_dtrsm", "k3", "k2_dgetf2", "column_step",
					    "k1_dswap", "k1_dswap_aliased", "busy_cores_scale", "stacked", "kernels",
					    "threads", "description", NULL };
	const cJSON *busy = cJSON_GetObjectItemCaseSensitive(it, "busy_cores_scale");
	const cJSON *stacked = cJSON_GetObjectItemCaseSensitive(it, "stacked");
	const cJSON *k3 = cJSON_GetObjectItemCaseSensitive(it, "k3");
	const cJSON *gemm = cJSON_GetObjectItemCaseSensitive(it, "k3_dgemm");
	const cJSON *trsm = cJSON_GetObjectItemCaseSensitive(it, "k3_dtrsm");
	const cJSON *k2 = cJSON_GetObjectItemCaseSensitive(it, "k2_dgetf2");
	char sub[512];

	if (object_with_keys(ld, it, path, keys))
		return -1;
	/* "k3" is a shorthand for equal k3_dgemm and k3_dtrsm, as in the thesis */
	if (k3 && (gemm || trsm))
		return hm_error_at(ld->err, path, "give either 'k3' or 'k3_dgemm'/'k3_dtrsm', not both");
	if (!k3 && !gemm)
		return hm_error_at(ld->err, path, "missing 'k3_dgemm'");
	if (!k3 && !trsm)
		return hm_error_at(ld->err, path, "missing 'k3_dtrsm'");
	if (!k2)
		return hm_error_at(ld->err, path, "missing 'k2_dgetf2'");
	snprintf(sub, sizeof(sub), "%s.%s", path, k3 ? "k3" : "k3_dgemm");
	if (load_table(ld, k3 ? k3 : gemm, sub, &block_keys, &ty->k3_dgemm))
		return -1;
	snprintf(sub, sizeof(sub), "%s.%s", path, k3 ? "k3" : "k3_dtrsm");
	if (load_table(ld, k3 ? k3 : trsm, sub, &block_keys, &ty->k3_dtrsm))
		return -1;
	snprintf(sub, sizeof(sub), "%s.k2_dgetf2", path);
	if (load_table(ld, k2, sub, &block_keys, &ty->k2_dgetf2))
		return -1;
	if (load_stacked(ld, stacked, path, ty) ||
	    load_kernels(ld, cJSON_GetObjectItemCaseSensitive(it, "kernels"), path, ty) ||
	    load_step_costs(ld, it, path, ty) ||
	    load_threads(ld, cJSON_GetObjectItemCaseSensitive(it, "threads"), path, ty))
		return -1;
	return busy ? load_busy_scale(ld, busy, path, ty) : 0;
}

static int load_types(struct loader *ld, const cJSON *types)
{
	struct hm_platform *p = ld->p;
	const cJSON *it;
	char path[512];
	int n;

	if (!types || want_object(ld, types, "types") ||
	    check_keys(ld, types, "types", (const char *const[]){ NULL }, HM_MAX_TYPES))
		return -1;
	n = cJSON_GetArraySize(types);
	if (n == 0)
		return hm_error_at(ld->err, "types", "no processor types");
	p->types = calloc((size_t)n, sizeof(*p->types));
	if (!p->types)
		return hm_error_at(ld->err, "types", "out of memory");
	for (it = types->child; it; it = it->next) {
		struct hm_proc_type *ty = &p->types[p->nr_types++];

		snprintf(path, sizeof(path), "types.%s", it->string);
		if (!it->string[0] || strlen(it->string) >= MAX_NAME)
			return hm_error_at(ld->err, path, "type name must have 1..%d characters", MAX_NAME - 1);
		ty->name = hm_strdup(it->string);
		if (!ty->name)
			return hm_error_at(ld->err, path, "out of memory");
		if (load_type(ld, it, path, ty))
			return -1;
	}
	return 0;
}

static int find_type(const struct hm_platform *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_types; i++)
		if (!strcmp(p->types[i].name, name))
			return i;
	return -1;
}

/* ---- processors ------------------------------------------------------- */

/* Member 'key' of object 'it' at 'path' (NULL when absent), its JSON path
 * written into sub[512]. */
static const cJSON *member(const cJSON *it, const char *path, const char *key, char *sub)
{
	snprintf(sub, 512, "%s.%s", path, key);
	return cJSON_GetObjectItemCaseSensitive(it, key);
}

static int load_processor(struct loader *ld, const cJSON *it, const char *path,
			  struct hm_processor *pr)
{
	static const char *const keys[] = { "name", "host", "type", "cores", "sockets", "memory",
					    "topology", NULL };
	const cJSON *x;
	char sub[512];
	const char *s;
	long v;

	if (object_with_keys(ld, it, path, keys))
		return -1;
	if (!(x = member(it, path, "name", sub)))
		return hm_error_at(ld->err, path, "missing 'name'");
	if (get_name(ld, x, sub, &s) || !(pr->name = hm_strdup(s)))
		return -1;
	if ((x = member(it, path, "host", sub)) && get_name(ld, x, sub, &s))
		return -1;
	if (!x)
		s = pr->name;   /* one processor per host unless said otherwise */
	if (check_hostname(ld, s, sub) || !(pr->host = hm_strdup(s)))
		return -1;
	if (!(x = member(it, path, "type", sub)))
		return hm_error_at(ld->err, path, "missing 'type'");
	if (get_name(ld, x, sub, &s))
		return -1;
	if ((pr->type = find_type(ld->p, s)) < 0)
		return hm_error_at(ld->err, sub, "unknown type '%s'", s);
	pr->cores = pr->sockets = 1;
	if ((x = member(it, path, "cores", sub))) {
		if (get_int(ld, x, sub, 1, HM_MAX_CORES, &v))
			return -1;
		pr->cores = (int)v;
	}
	if ((x = member(it, path, "sockets", sub))) {
		if (get_int(ld, x, sub, 1, HM_MAX_CORES, &v))
			return -1;
		if (pr->cores % v)
			return hm_error_at(ld->err, sub, "%ld sockets do not divide the %d cores "
					   "(each socket holds cores / sockets)", v, pr->cores);
		pr->sockets = (int)v;
	}
	if ((x = member(it, path, "memory", sub)) &&
	    get_quantity(ld, x, sub, HM_UNIT_BYTES, 0, &pr->memory))
		return -1;
	if ((x = member(it, path, "topology", sub))) {
		if (!(pr->topology = calloc(1, sizeof(*pr->topology))))
			return hm_error_at(ld->err, sub, "out of memory");
		if (hm_topology_read(x, sub, pr->cores, pr->topology, ld->err))
			return -1;
	}
	return 0;
}

/* 'node' at 'path' must be an array of at most 'max' items, which 'what'
 * names; '*items' gets room for them and one more, zeroed. The count, or
 * -1 after a message. */
static int alloc_array(struct loader *ld, const cJSON *node, const char *path, const char *what,
		       int max, size_t size, void **items)
{
	int n;

	if (!cJSON_IsArray(node))
		return hm_error_at(ld->err, path, "expected an array");
	if ((n = cJSON_GetArraySize(node)) > max)
		return hm_error_at(ld->err, path, "%d %s (at most %d)", n, what, max);
	if (!(*items = calloc((size_t)n + 1, size)))
		return hm_error_at(ld->err, path, "out of memory");
	return n;
}

struct host_cpu {
	int host, cpu, proc;
};

static int cmp_host_cpu(const void *x, const void *y)
{
	const struct host_cpu *a = x, *b = y;

	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return (a->proc > b->proc) - (a->proc < b->proc);
}

/* No CPU of a host is two processors' (each processor's own list has no
 * CPU twice: topology.c): two ranks would share it, and the launchers'
 * CPU lists would disagree. Sorted once, O(CPUs log CPUs). */
static int check_shared_cpus(struct loader *ld)
{
	const struct hm_platform *p = ld->p;
	struct host_cpu *all;
	size_t n = 0, k = 0;
	int ret = 0;

	for (int i = 0; i < p->nr_procs; i++)
		n += p->procs[i].topology ? (size_t)p->procs[i].topology->first[p->procs[i].cores] : 0;
	if (!n)
		return 0;
	if (!(all = malloc(n * sizeof(*all))))
		return hm_error_at(ld->err, "processors", "out of memory");
	for (int i = 0; i < p->nr_procs; i++) {
		const struct hm_topology *t = p->procs[i].topology;

		for (int c = 0; t && c < t->first[t->cores]; c++)
			all[k++] = (struct host_cpu){ p->procs[i].host_id, t->cpus[c], i };
	}
	qsort(all, n, sizeof(*all), cmp_host_cpu);
	for (size_t j = 1; j < n && !ret; j++)
		if (all[j].host == all[j - 1].host && all[j].cpu == all[j - 1].cpu) {
			char path[64];

			snprintf(path, sizeof(path), "processors[%d].topology", all[j].proc);
			ret = hm_error_at(ld->err, path, "CPU %d of host '%s' is processor '%s''s too: "
					  "two processors of a host share no CPU", all[j].cpu,
					  p->procs[all[j].proc].host, p->procs[all[j - 1].proc].name);
		}
	free(all);
	return ret;
}

static int load_processors(struct loader *ld, const cJSON *procs)
{
	struct hm_platform *p = ld->p;
	const cJSON *it;
	char path[64];
	int n;

	if (!procs)
		return -1;
	n = alloc_array(ld, procs, "processors", "processors", HM_MAX_PROCESSORS, sizeof(*p->procs),
			(void **)&p->procs);
	if (n == 0)
		return hm_error_at(ld->err, "processors", "empty processor list");
	if (n < 0)
		return -1;
	for (it = procs->child; it; it = it->next) {
		snprintf(path, sizeof(path), "processors[%d]", p->nr_procs);
		if (load_processor(ld, it, path, &p->procs[p->nr_procs++]))
			return -1;
	}
	{
		int later = hm_platform_index(p);

		if (later == -2)
			return hm_error_at(ld->err, "processors", "out of memory");
		if (later >= 0) {
			char path2[64];

			snprintf(path2, sizeof(path2), "processors[%d].name", later);
			return hm_error_at(ld->err, path2, "duplicate processor name '%s'",
					   p->procs[later].name);
		}
		return check_shared_cpus(ld);
	}
}

/* ---- network ---------------------------------------------------------- */

static int load_link(struct loader *ld, const cJSON *it, const char *path,
		     struct hm_link *l, const char *const *keys)
{
	const cJSON *x;
	char sub[512];

	if (object_with_keys(ld, it, path, keys))
		return -1;
	if (!cJSON_GetObjectItemCaseSensitive(it, "t_s"))
		return hm_error_at(ld->err, path, "missing 't_s'");
	if (!cJSON_GetObjectItemCaseSensitive(it, "t_w"))
		return hm_error_at(ld->err, path, "missing 't_w'");
	if (get_quantity(ld, member(it, path, "t_s", sub), sub, HM_UNIT_SECONDS, 1, &l->t_s) ||
	    get_quantity(ld, member(it, path, "t_w", sub), sub, HM_UNIT_SECONDS_PER_WORD, 1, &l->t_w))
		return -1;
	l->t_w_core = l->t_w;   /* the thesis's rule: all of t_w is the core's */
	if (!(x = member(it, path, "t_w_core", sub)))
		return 0;
	if (get_quantity(ld, x, sub, HM_UNIT_SECONDS_PER_WORD, 1, &l->t_w_core))
		return -1;
	if (l->t_w_core > l->t_w)
		return hm_error_at(ld->err, sub, "%g s per word exceeds t_w (%g): the core's part of a "
				   "word's cost cannot exceed the whole", l->t_w_core, l->t_w);
	return 0;
}

/* An entry {"between": [A, B], "t_s": ..., "t_w": ...} of 'pairs' or
 * 'links': its link and its two names ('what' says what they name). */
/* A link with its 'between': the link into *l, the two ends' items into
 * ends[] (checked by the caller: names or patterns). */
static int load_between(struct loader *ld, const cJSON *it, const char *path, const char *what,
			struct hm_link *l, const cJSON *ends[2])
{
	static const char *const keys[] = { "between", "t_s", "t_w", "t_w_core", NULL };
	const cJSON *between = cJSON_GetObjectItemCaseSensitive(it, "between");
	char sub[160];

	if (load_link(ld, it, path, l, keys))
		return -1;
	snprintf(sub, sizeof(sub), "%s.between", path);
	if (!between)
		return hm_error_at(ld->err, path, "missing 'between'");
	if (!cJSON_IsArray(between) || cJSON_GetArraySize(between) != 2)
		return hm_error_at(ld->err, sub, "expected an array of two %s", what);
	ends[0] = cJSON_GetArrayItem(between, 0), ends[1] = cJSON_GetArrayItem(between, 1);
	return 0;
}

/* A rule's end: a pattern, or a list of them (any may match). A pattern
 * is taken whole: "n[1,3]" is fnmatch's bracket, not two patterns. */
static int rule_end(struct loader *ld, const cJSON *it, const char *path, struct hm_rule_end *e)
{
	const cJSON *x;
	const char *name;
	int k = 0;

	if (!cJSON_IsArray(it)) {
		if (get_name(ld, it, path, &name))
			return -1;
		return hm_rule_end_add(e, name) ? hm_error_at(ld->err, path, "out of memory") : 0;
	}
	if (!cJSON_GetArraySize(it))
		return hm_error_at(ld->err, path, "an empty list of patterns");
	cJSON_ArrayForEach(x, it) {
		char sub[200];

		snprintf(sub, sizeof(sub), "%s[%d]", path, k++);
		if (get_name(ld, x, sub, &name))
			return -1;
		if (hm_rule_end_add(e, name))
			return hm_error_at(ld->err, path, "out of memory");
	}
	hm_rule_end_sort(e);
	return 0;
}

static int load_overrides(struct loader *ld, const cJSON *pairs)
{
	struct hm_platform *p = ld->p;
	const cJSON *it;
	char path[128], sub[160];
	int i;

	if (alloc_array(ld, pairs, "network.pairs", "pairs", INT_MAX, sizeof(*p->overrides),
			(void **)&p->overrides) < 0)
		return -1;
	for (it = pairs->child; it; it = it->next) {
		struct hm_link_override *o = &p->overrides[p->nr_overrides];
		const cJSON *items[2];
		const char *names[2];
		int ends[2], e;

		snprintf(path, sizeof(path), "network.pairs[%d]", p->nr_overrides);
		snprintf(sub, sizeof(sub), "%s.between", path);
		if (load_between(ld, it, path, "processor names", &o->link, items) ||
		    get_name(ld, items[0], sub, &names[0]) || get_name(ld, items[1], sub, &names[1]))
			return -1;
		for (e = 0; e < 2; e++)
			if ((ends[e] = hm_platform_find(p, names[e])) < 0)
				return hm_error_at(ld->err, sub, "unknown processor '%s'", names[e]);
		if (ends[0] == ends[1])
			return hm_error_at(ld->err, sub, "a pair needs two different processors");
		o->a = ends[0] < ends[1] ? ends[0] : ends[1];
		o->b = ends[0] < ends[1] ? ends[1] : ends[0];
		p->nr_overrides++;
	}
	i = hm_platform_sort_overrides(p);
	if (i >= 0)
		return hm_error_at(ld->err, "network.pairs", "pair '%s'-'%s' given twice",
				   p->procs[p->overrides[i].a].name, p->procs[p->overrides[i].b].name);
	return 0;
}

/* "links": [{"between": ["skl*", "icx*"], "t_s": ..., "t_w": ...}]: links
 * between groups of processors named by patterns, so that no file needs
 * one entry per pair; an end may list patterns (["n03", "n07"]: the hosts
 * calibration found behind one slower link). */
static int load_rules(struct loader *ld, const cJSON *rules)
{
	struct hm_platform *p = ld->p;
	const cJSON *it;
	char path[128];
	uint64_t matched;
	int ret;

	if (alloc_array(ld, rules, "network.links", "rules", HM_MAX_LINK_RULES, sizeof(*p->rules),
			(void **)&p->rules) < 0)
		return -1;
	cJSON_ArrayForEach(it, rules) {
		struct hm_link_rule *r = &p->rules[p->nr_rules];
		const cJSON *ends[2];
		char sub[160];

		snprintf(path, sizeof(path), "network.links[%d]", p->nr_rules);
		snprintf(sub, sizeof(sub), "%s.between", path);
		p->nr_rules++;
		if (load_between(ld, it, path, "patterns or lists of them (processor, host or type "
				 "names; '*', '?', '[...]')", &r->link, ends))
			return -1;
		for (int e = 0; e < 2; e++) {
			char end[200];

			snprintf(end, sizeof(end), "%s[%d]", sub, e);
			if (rule_end(ld, ends[e], end, &r->end[e]))
				return -1;
		}
	}
	ret = hm_platform_resolve_rules(p, &matched);
	if (ret == -2)
		return hm_error_at(ld->err, "network.links", "the rules split the processors into too "
				   "many groups (at most 2048 distinct ones)");
	if (ret)
		return hm_error_at(ld->err, "network.links", "out of memory");
	/* a rule end that matches nothing is most likely a typo */
	for (int b = 0; b < 2 * p->nr_rules; b++)
		if (!(matched >> b & 1)) {
			char where[64];

			snprintf(where, sizeof(where), "network.links[%d].between[%d]", b / 2, b % 2);
			warn(ld, where, "matches no processor, host or type: the rule links nothing");
		}
	return 0;
}

static int load_network(struct loader *ld, const cJSON *net)
{
	static const char *const keys[] = { "same_processor", "same_node", "inter_node",
					    "links", "pairs", "description", NULL };
	static const char *const link_keys[] = { "t_s", "t_w", "t_w_core", NULL };
	const cJSON *pairs, *rules;
	char path[64];
	int c;

	if (!net)
		return -1;
	if (object_with_keys(ld, net, "network", keys))
		return -1;
	for (c = 0; c < HM_LINK_NSCOPES; c++) {
		const cJSON *it = cJSON_GetObjectItemCaseSensitive(net, hm_link_scope_name((enum hm_link_scope)c));

		snprintf(path, sizeof(path), "network.%s", hm_link_scope_name((enum hm_link_scope)c));
		if (!it)
			return hm_error_at(ld->err, "network", "missing network class '%s'",
					   hm_link_scope_name((enum hm_link_scope)c));
		if (load_link(ld, it, path, &ld->p->links[c], link_keys))
			return -1;
	}
	rules = cJSON_GetObjectItemCaseSensitive(net, "links");
	if (rules && load_rules(ld, rules))
		return -1;
	pairs = cJSON_GetObjectItemCaseSensitive(net, "pairs");
	return pairs ? load_overrides(ld, pairs) : 0;
}

/* ---- LU's steps a type does not give ---------------------------------- */

/* A type that gives no cost for one of LU's steps (a calibration that
 * could not measure it: other work disturbed it; a description written by
 * hand) is priced, per step, from the type nearest to it in panel speed
 * that gives one, scaled by their panel speeds (k2_dgetf2) at the middle
 * candidate b: both are the panel's kind of work (level-1 calls between
 * messages; rows read a leading dimension apart), so a panel twice as slow
 * takes them twice as long. Where no type gives it: the stated default
 * (platform.c, hm_lu_step_info). A variant of a step (same_as: the row
 * interchange at an aliased stride) is the type's own cost of that step
 * instead, priced first. Plans and 'platform check' say which. */
static void price_missing_steps(struct hm_platform *p)
{
	int b = p->nr_block_sizes ? p->block_sizes[p->nr_block_sizes / 2] : 64;

	for (int s = 0; s < HM_NR_LU_STEPS; s++)
		for (int t = 0; t < p->nr_types; t++) {
			struct hm_proc_type *ty = &p->types[t];
			double k = hm_table_at(&ty->k2_dgetf2, b), best = INFINITY, k_source = 0;
			int source = -1;

			if (ty->step_from[s] == HM_STEP_GIVEN)
				continue;
			if (hm_lu_step_info(s)->same_as) {
				ty->step_from[s] = HM_STEP_OWN;
				*hm_lu_step_slot(ty, s) = hm_lu_step_cost(ty, hm_lu_step_info(s)->same_as);
				continue;
			}
			for (int o = 0; o < p->nr_types; o++) {
				double ko = hm_table_at(&p->types[o].k2_dgetf2, b), apart = fabs(log(ko / k));

				if (p->types[o].step_from[s] == HM_STEP_GIVEN && apart < best)
					best = apart, source = o, k_source = ko;
			}
			ty->step_from[s] = source >= 0 ? HM_STEP_PRICED : HM_STEP_DEFAULT;
			ty->step_source[s] = source;
			*hm_lu_step_slot(ty, s) = source >= 0 ? hm_lu_step_cost(&p->types[source], s) * k / k_source
								: hm_lu_step_info(s)->per_panel_flop * k;
		}
}

/* ---- block sizes ---------------------------------------------------- */

static int add_block_size(struct loader *ld, int b, const char *path)
{
	struct hm_platform *p = ld->p;
	int j;

	for (j = 0; j < p->nr_block_sizes; j++)
		if (p->block_sizes[j] == b)
			return 0;
	if (p->nr_block_sizes == HM_MAX_BLOCK_SIZES)
		return hm_error_at(ld->err, path, "more than %d candidate block sizes",
				   HM_MAX_BLOCK_SIZES);
	for (j = p->nr_block_sizes; j > 0 && p->block_sizes[j - 1] > b; j--)
		p->block_sizes[j] = p->block_sizes[j - 1];
	p->block_sizes[j] = b;
	p->nr_block_sizes++;
	return 0;
}

/* Candidates are 'block_sizes' if given, else every b of any k table. */
static int load_block_sizes(struct loader *ld, const cJSON *bs)
{
	struct hm_platform *p = ld->p;
	const cJSON *it;
	char path[64];
	int i, j;

	if (bs) {
		if (!cJSON_IsArray(bs) || cJSON_GetArraySize(bs) == 0)
			return hm_error_at(ld->err, "block_sizes", "expected a non-empty array of integers");
		i = 0;
		for (it = bs->child; it; it = it->next, i++) {
			long v;

			snprintf(path, sizeof(path), "block_sizes[%d]", i);
			if (get_int(ld, it, path, 1, HM_MAX_BLOCK, &v))
				return -1;
			for (j = 0; j < p->nr_block_sizes; j++)
				if (p->block_sizes[j] == v)
					return hm_error_at(ld->err, path, "block size %ld given twice", v);
			if (add_block_size(ld, (int)v, path))
				return -1;
		}
		return 0;
	}
	for (i = 0; i < p->nr_types; i++) {
		const struct hm_table *t[3] = { &p->types[i].k3_dgemm, &p->types[i].k3_dtrsm,
						&p->types[i].k2_dgetf2 };
		int k;

		for (k = 0; k < 3; k++)
			for (j = 0; j < t[k]->n; j++)
				if (t[k]->b[j] > 0 && add_block_size(ld, t[k]->b[j], "types"))
					return hm_error_at(ld->err, "types",
							   "the tables name more than %d block sizes; list the candidates in 'block_sizes'",
							   HM_MAX_BLOCK_SIZES);
	}
	if (p->nr_block_sizes == 0)
		return hm_error_at(ld->err, "", "no block size given: add 'block_sizes' or tables over b");
	return 0;
}

/* ---- top level -------------------------------------------------------- */

/* Member 'key' of the top level; NULL after "missing 'key'" (the loaders
 * below return -1 on NULL without a message of their own). */
static const cJSON *required(struct loader *ld, const cJSON *root, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(root, key);

	if (!it)
		hm_error_at(ld->err, "", "missing '%s'", key);
	return it;
}

static int load_root(struct loader *ld, const cJSON *root)
{
	static const char *const keys[] = { "name", "description", "types", "processors",
					    "network", "block_sizes", "hetmap_platform", "calibration",
					    "corrections", NULL };
	struct hm_platform *p = ld->p;
	/* how 'hetmap calibrate' measured the values: kept for people, not read */
	const cJSON *calibration = cJSON_GetObjectItemCaseSensitive(root, "calibration");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	const cJSON *desc = cJSON_GetObjectItemCaseSensitive(root, "description");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "hetmap_platform");
	const char *s = "unnamed";

	if (!cJSON_IsObject(root))
		return hm_error_at(ld->err, "", "the top level must be an object");
	if (check_keys(ld, root, "", keys, MAX_FIXED_KEYS))
		return -1;
	if (version && (!cJSON_IsNumber(version) || version->valuedouble != 1))
		return hm_error_at(ld->err, "hetmap_platform", "unsupported format version (this hetmap reads 1)");
	if (name && get_name(ld, name, "name", &s))
		return -1;
	p->name = hm_strdup(s);
	if (desc && !cJSON_IsString(desc))
		return hm_error_at(ld->err, "description", "expected a string");
	if (calibration && !cJSON_IsObject(calibration))
		return hm_error_at(ld->err, "calibration", "expected an object");
	p->description = hm_strdup(desc ? desc->valuestring : "");
	if (!p->name || !p->description)
		return hm_error_at(ld->err, "", "out of memory");
	return load_types(ld, required(ld, root, "types")) ||
	       load_processors(ld, required(ld, root, "processors")) ||
	       load_network(ld, required(ld, root, "network")) ||
	       load_block_sizes(ld, cJSON_GetObjectItemCaseSensitive(root, "block_sizes")) ||
	       (price_missing_steps(p), 0) ||
	       hm_corrections_apply(p, cJSON_GetObjectItemCaseSensitive(root, "corrections"), ld->err) ||
	       (hm_platform_set_cards(p), 0);
}

int hm_platform_load_buffer(const char *json, size_t len, const char *name,
			    struct hm_platform **out, struct hm_error *err)
{
	struct loader ld = { NULL, err };
	cJSON *root;
	int ret;

	*out = NULL;
	hm_error_clear(err);
	if (err)
		snprintf(err->file, sizeof(err->file), "%s", name);
	if (!(root = hm_json_parse(json, len, err)))
		return -1;
	ld.p = calloc(1, sizeof(*ld.p));
	if (!ld.p) {
		cJSON_Delete(root);
		return hm_error_set(err, "out of memory");
	}
	/* FNV-1a over the bytes as read: a description changed in place under
	 * the same path is another platform (the judge's earlier simulations) */
	ld.p->digest = hm_fnv1a(HM_FNV1A_START, json, len);
	ret = load_root(&ld, root);
	cJSON_Delete(root);
	if (!ret && !(ld.p->source = hm_strdup(name)))
		ret = hm_error_set(err, "out of memory");
	if (ret) {
		hm_platform_free(ld.p);
		return -1;
	}
	*out = ld.p;
	return 0;
}

int hm_platform_load(const char *path, struct hm_platform **out,
		     struct hm_error *err)
{
	enum hm_read_status status;
	const char *builtin;
	char *buf;
	size_t got;
	int ret;

	*out = NULL;
	hm_error_clear(err);
	if (!strncmp(path, "builtin:", 8)) {
		builtin = hm_platform_builtin_json(path + 8);
		if (!builtin) {
			snprintf(err->file, sizeof(err->file), "%s", path);
			return hm_error_set(err, "no builtin platform '%s' (see 'hetmap platform list')",
					    path + 8);
		}
		return hm_platform_load_buffer(builtin, strlen(builtin), path, out, err);
	}
	snprintf(err->file, sizeof(err->file), "%s", path);
	if (!(buf = hm_read_file(path, MAX_FILE_BYTES, &got, &status))) {
		char why[256];
		/* "-p torc": the file is missing and a built-in platform has that name */
		const char *near = status == HM_READ_OPEN && errno == ENOENT && !strchr(path, '/')
				   ? hm_nearest_name(path, hm_platform_builtin_names()) : NULL;

		hm_read_failure(status, MAX_FILE_BYTES, why, sizeof(why));
		if (near)
			return hm_error_set(err, "%s (the built-in platform is 'builtin:%s')", why, near);
		return hm_error_set(err, "%s", why);
	}
	ret = hm_platform_load_buffer(buf, got, path, out, err);
	free(buf);
	return ret;
}


/* models/platform/corrections.c - see corrections.h. */
#include "corrections.h"
#include "models/util/json_read.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const phase_names[HM_NR_PHASES] = { "dgemm", "dtrsm", "panel", "swaps" };

const char *hm_phase_name(enum hm_phase ph)
{
	return (unsigned)ph < HM_NR_PHASES ? phase_names[ph] : "?";
}

int hm_factors_init(struct hm_factors *f, const struct hm_platform *p)
{
	size_t n = (size_t)(p->nr_types > 0 ? p->nr_types : 1);

	f->compute = malloc(n * (HM_NR_PHASES + 1) * sizeof(double));
	f->threads = f->compute ? f->compute + n * HM_NR_PHASES : NULL;
	f->comm = 1;
	for (size_t i = 0; f->compute && i < n * (HM_NR_PHASES + 1); i++)
		f->compute[i] = 1;
	return f->compute ? 0 : -1;
}

void hm_factors_release(struct hm_factors *f)
{
	free(f->compute);
	f->compute = f->threads = NULL;
}

static void scale_table(struct hm_table *t, double f)
{
	for (int i = 0; i < t->n; i++)
		t->k[i] *= f;
}

static void scale_model(struct hm_kernel_model *m, double f)
{
	for (int i = 0; i < m->nterms; i++)
		m->c[i] *= f;
}

static void scale_link(struct hm_link *l, double f)
{
	l->t_s *= f, l->t_w *= f, l->t_w_core *= f;
}

void hm_platform_scale(struct hm_platform *p, const struct hm_factors *f, int inverse)
{
	double comm = inverse ? 1 / f->comm : f->comm;

	for (int ty = 0; ty < p->nr_types; ty++) {
		struct hm_proc_type *t = &p->types[ty];
		const double *c = f->compute + (size_t)ty * HM_NR_PHASES;
		double g[HM_NR_PHASES], th = inverse ? 1 / f->threads[ty] : f->threads[ty];

		for (int ph = 0; ph < HM_NR_PHASES; ph++)
			g[ph] = inverse ? 1 / c[ph] : c[ph];
		scale_table(&t->k3_dgemm, g[HM_PHASE_DGEMM]), scale_model(&t->kernels[HM_KERNEL_DGEMM], g[HM_PHASE_DGEMM]);
		scale_table(&t->k3_dtrsm, g[HM_PHASE_DTRSM]), scale_model(&t->kernels[HM_KERNEL_DTRSM], g[HM_PHASE_DTRSM]);
		scale_table(&t->k2_dgetf2, g[HM_PHASE_PANEL]), scale_model(&t->kernels[HM_KERNEL_DGER], g[HM_PHASE_PANEL]);
		t->column_step *= g[HM_PHASE_PANEL];
		t->k1_dswap *= g[HM_PHASE_SWAPS], t->k1_dswap_aliased *= g[HM_PHASE_SWAPS];
		for (int j = 0; j < t->nr_threads; j++)
			for (int k = 0; k < HM_NR_THREAD_KERNELS; k++)
				scale_table(&t->threads[j].s[k], th);
	}
	if (comm == 1)
		return;
	for (int s = 0; s < HM_LINK_NSCOPES; s++)
		scale_link(&p->links[s], comm);
	for (int i = 0; i < p->nr_overrides; i++)
		scale_link(&p->overrides[i].link, comm);
	for (int i = 0; i < p->nr_rules; i++)
		scale_link(&p->rules[i].link, comm);
}

const char *hm_digest_text(uint64_t digest, char *buf, size_t size)
{
	snprintf(buf, size, "fnv1a64:%016" PRIx64, digest);
	return buf;
}

const char *hm_factors_text(const struct hm_platform *p, const struct hm_factors *f, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int ty = 0; ty < p->nr_types && len < size; ty++) {
		const double *c = f->compute + (size_t)ty * HM_NR_PHASES;
		int same = 1;

		for (int ph = 1; ph < HM_NR_PHASES; ph++)
			same &= c[ph] == c[0];
		if (same && c[0] != 1)
			len += (size_t)snprintf(buf + len, size - len, "%scompute x%.3g (%s)", len ? ", " : "", c[0],
						p->types[ty].name);
		for (int ph = 0; !same && ph < HM_NR_PHASES && len < size; ph++)
			if (c[ph] != 1)
				len += (size_t)snprintf(buf + len, size - len, "%s%s x%.3g (%s)", len ? ", " : "",
							phase_names[ph], c[ph], p->types[ty].name);
		if (len < size && f->threads[ty] != 1)
			len += (size_t)snprintf(buf + len, size - len, "%sthreads x%.3g (%s)", len ? ", " : "",
						f->threads[ty], p->types[ty].name);
	}
	if (len < size && f->comm != 1)
		len += (size_t)snprintf(buf + len, size - len, "%scommunication x%.3g", len ? ", " : "", f->comm);
	if (!len)
		snprintf(buf, size, "none (every factor 1)");
	return buf;
}

static int factor(const cJSON *v, const char *path, double *out, struct hm_error *err)
{
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= HM_CORRECTION_MIN && v->valuedouble <= HM_CORRECTION_MAX))
		return hm_error_at(err, path, "expected a factor in [%g, %g]", HM_CORRECTION_MIN, HM_CORRECTION_MAX);
	*out = v->valuedouble;
	return 0;
}

/* {"TYPE": factor, ...} under 'key': each named type's factor multiplies
 * f[type * stride + first .. + count - 1]. */
static int per_type(const struct hm_platform *p, const cJSON *obj, const char *key, double *f, int stride,
		    int first, int count, struct hm_error *err)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key), *e;
	char path[300];

	if (!it)
		return 0;
	snprintf(path, sizeof(path), "corrections.%s", key);
	if (!cJSON_IsObject(it))
		return hm_error_at(err, path, "expected an object {\"TYPE\": factor, ...}");
	cJSON_ArrayForEach(e, it) {
		int ty = 0;
		double v = 1;

		snprintf(path, sizeof(path), "corrections.%s.%s", key, e->string);
		while (ty < p->nr_types && strcmp(p->types[ty].name, e->string))
			ty++;
		if (ty == p->nr_types)
			return hm_error_at(err, path, "no type of that name");
		if (factor(e, path, &v, err))
			return -1;
		for (int k = 0; k < count; k++)
			f[(size_t)ty * stride + first + k] *= v;
	}
	return 0;
}

/* The keys a "corrections" object may hold (corrections.h). */
static const char *const correction_keys[] = { "base_digest", "compute", "dgemm", "dtrsm", "panel", "swaps", "threads",
					       "communication", "learned", NULL };

/* The thread speed-ups stay within (0, 2t]. */
static int check_threads(const struct hm_platform *p, const struct hm_factors *f, struct hm_error *err)
{
	for (int ty = 0; ty < p->nr_types; ty++)
		for (int j = 0; j < p->types[ty].nr_threads; j++)
			for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
				if (hm_table_max(&p->types[ty].threads[j].s[g]) * f->threads[ty] >
				    2.0 * p->types[ty].threads[j].t)
					return hm_error_at(err, "corrections.threads", "type %s: %d threads would run more "
							   "than %d times faster than one", p->types[ty].name,
							   p->types[ty].threads[j].t, 2 * p->types[ty].threads[j].t);
	return 0;
}

int hm_corrections_apply(struct hm_platform *p, const cJSON *it, struct hm_error *err)
{
	const cJSON *base, *comm;
	unsigned long long digest;
	struct hm_factors f;
	int ret = 0;

	p->base_digest = p->digest;
	p->corrections_note[0] = '\0';
	if (!it)
		return 0;
	if (!cJSON_IsObject(it))
		return hm_error_at(err, "corrections", "expected an object");
	if (hm_json_check_keys(it, "corrections", correction_keys,
			       (int)(sizeof(correction_keys) / sizeof(correction_keys[0])) - 1, err))
		return -1;
	base = cJSON_GetObjectItemCaseSensitive(it, "base_digest");
	if (!cJSON_IsString(base) || strlen(base->valuestring) != 24 ||
	    sscanf(base->valuestring, "fnv1a64:%16llx", &digest) != 1)
		return hm_error_at(err, "corrections.base_digest", "expected \"fnv1a64:\" and 16 hex digits: the "
				   "measured platform's digest");
	if (hm_factors_init(&f, p))
		return hm_error_at(err, "corrections", "out of memory");
	ret = per_type(p, it, "compute", f.compute, HM_NR_PHASES, 0, HM_NR_PHASES, err);
	for (int ph = 0; ph < HM_NR_PHASES && !ret; ph++)
		ret = per_type(p, it, phase_names[ph], f.compute, HM_NR_PHASES, ph, 1, err);
	if (!ret)
		ret = per_type(p, it, "threads", f.threads, 1, 0, 1, err);
	if (!ret && (comm = cJSON_GetObjectItemCaseSensitive(it, "communication")))
		ret = factor(comm, "corrections.communication", &f.comm, err);
	for (int i = 0; !ret && i < p->nr_types * HM_NR_PHASES; i++)
		if (!(f.compute[i] >= HM_CORRECTION_MIN && f.compute[i] <= HM_CORRECTION_MAX))
			ret = hm_error_at(err, "corrections", "type %s: compute and a phase give a factor outside [%g, %g]",
					  p->types[i / HM_NR_PHASES].name, HM_CORRECTION_MIN, HM_CORRECTION_MAX);
	if (!ret)
		ret = check_threads(p, &f, err);
	if (!ret) {
		hm_platform_scale(p, &f, 0);
		p->base_digest = (uint64_t)digest;
		hm_factors_text(p, &f, p->corrections_note, sizeof(p->corrections_note));
	}
	hm_factors_release(&f);
	return ret;
}

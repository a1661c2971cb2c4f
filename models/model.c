/* models/model.c - the heterogeneity rule and the model registry.
 *
 * Invariant the searches rely on: every field of 'struct hm_sp' is a max
 * of non-negative terms that only grow when a process is added, so the
 * effective SPs of a node are a floor for all of its descendants. */
#include "model.h"
#include "models/util/minmax.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

extern const struct hm_model hm_model_thesis;
extern const struct hm_model hm_model_grid;
extern const struct hm_model hm_model_ring;
extern const struct hm_model hm_model_panel;

static const struct hm_model *const models[] = {
	/* the default first: the grid model predicted LU better than the
	 * reference on the emulated cluster (README, experiments/results/vcluster-*) */
	&hm_model_grid,
	&hm_model_thesis,   /* the thesis's model exactly: select with -m thesis */
	&hm_model_ring,     /* candidate (README, "Simulated clusters") */
	&hm_model_panel,    /* candidate (README, "A multi-core node") */
	NULL,
};

static const char *const routine_names[HM_NR_ROUTINES] = { "lu", "gemm" };

const char *hm_routine_name(enum hm_routine r)
{
	return (unsigned)r < HM_NR_ROUTINES ? routine_names[r] : "?";
}

int hm_routine_parse(const char *name, enum hm_routine *out)
{
	int i;

	for (i = 0; i < HM_NR_ROUTINES; i++)
		if (!strcmp(name, routine_names[i])) {
			*out = (enum hm_routine)i;
			return 0;
		}
	return -1;
}

const struct hm_model *hm_model_find(const char *name)
{
	int i;

	for (i = 0; models[i]; i++)
		if (!strcmp(models[i]->name, name))
			return models[i];
	return NULL;
}

const struct hm_model *hm_model_default(void)
{
	return models[0];
}

const struct hm_model *const *hm_model_list(void)
{
	return models;
}

void hm_model_weights(const struct hm_model *m, enum hm_routine routine, double n, int r,
		      int c, int b, double w[HM_NR_SP])
{
	for (int j = 0; j < HM_NR_SP; j++) {
		double unit[HM_NR_SP] = { 0 };
		struct hm_sp sp;

		unit[j] = 1;
		sp.k3_dgemm = unit[HM_SP_DGEMM], sp.k3_dtrsm = unit[HM_SP_DTRSM];
		sp.k2_dgetf2 = unit[HM_SP_DGETF2], sp.t_s = unit[HM_SP_TS], sp.t_w = unit[HM_SP_TW];
		w[j] = m->time(routine, n, r, c, b, &sp, NULL);
	}
}

_Static_assert(HM_NR_ROUTINES == HM_NR_STACKED, "a stacking factor per routine");

double hm_type_compute_factor(const struct hm_proc_type *ty, int cores, int d,
			      enum hm_routine routine)
{
	int f = hm_share_factor(d, cores);
	double c = f > 1 ? f * ty->stacked[routine] : f;

	return ty->busy_scale.n ? c * hm_table_at(&ty->busy_scale, d < cores ? d : cores) : c;
}

double hm_compute_factor(const struct hm_platform *p, int i, int d, enum hm_routine routine)
{
	const struct hm_processor *pr = &p->procs[i];

	return hm_type_compute_factor(&p->types[pr->type], pr->cores, d, routine);
}

void hm_sp_effective(const struct hm_platform *p, const int *d, int b, enum hm_routine routine,
		     struct hm_sp *out)
{
	int i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < p->nr_procs; i++) {
		const struct hm_proc_type *t;
		double c;

		if (d[i] <= 0)
			continue;
		t = &p->types[p->procs[i].type];
		c = hm_compute_factor(p, i, d[i], routine);
		out->k3_dgemm = hm_max(out->k3_dgemm, c * hm_table_at(&t->k3_dgemm, b));
		out->k3_dtrsm = hm_max(out->k3_dtrsm, c * hm_table_at(&t->k3_dtrsm, b));
		out->k2_dgetf2 = hm_max(out->k2_dgetf2, c * hm_table_at(&t->k2_dgetf2, b));
		/* pairs (i, j), j >= i; (i, i) exists only with two processes on i */
		for (j = i; j < p->nr_procs; j++) {
			struct hm_link l;
			int m;

			if (d[j] <= 0 || (j == i && d[i] < 2))
				continue;
			l = hm_platform_link(p, i, j);
			m = hm_share_factor(d[i], p->procs[i].cores);
			if (hm_share_factor(d[j], p->procs[j].cores) > m)
				m = hm_share_factor(d[j], p->procs[j].cores);
			out->t_s = hm_max(out->t_s, m * l.t_s);
			out->t_w = hm_max(out->t_w, hm_link_word_cost(l, m));
		}
	}
}

int hm_kernel_block(const struct hm_model *m, enum hm_routine routine, int b)
{
	return routine == HM_ROUTINE_GEMM && m->gemm_block ? m->gemm_block : b;
}

int hm_times_alone(const struct hm_model *m, enum hm_routine routine)
{
	return routine == HM_ROUTINE_GEMM && m->gemm_block;
}

double hm_alone_k3_dgemm(const struct hm_platform *p, int i, enum hm_routine routine)
{
	return hm_compute_factor(p, i, 1, routine) * hm_table_min(&p->types[p->procs[i].type].k3_dgemm);
}

void hm_sp_for(const struct hm_model *m, const struct hm_platform *p, const int *d, int b,
	       enum hm_routine routine, struct hm_sp *out)
{
	int i, used = -1, D = 0;

	hm_sp_effective(p, d, hm_kernel_block(m, routine, b), routine, out);
	if (!hm_times_alone(m, routine))
		return;
	for (i = 0; i < p->nr_procs; i++)
		if (d[i] > 0)
			used = i, D += d[i];
	if (D == 1)
		out->k3_dgemm = hm_min(out->k3_dgemm, hm_alone_k3_dgemm(p, used, routine));
}

double hm_bytes_per_process(enum hm_routine routine, double n, int D)
{
	double matrices = routine == HM_ROUTINE_GEMM ? 3.0 : 1.0;

	return 1.05 * matrices * 8.0 * n * n / D;
}

int hm_memory_fits(const struct hm_platform *p, enum hm_routine routine,
		   double n, const int *d)
{
	int i, D = 0;

	for (i = 0; i < p->nr_procs; i++)
		D += d[i];
	for (i = 0; i < p->nr_procs; i++)
		if (d[i] > 0 && p->procs[i].memory > 0 &&
		    d[i] * hm_bytes_per_process(routine, n, D) > p->procs[i].memory)
			return 0;
	return 1;
}

int hm_predict(const struct hm_model *m, const struct hm_platform *p,
	       enum hm_routine routine, double n, const int *d, int r, int c,
	       int b, struct hm_prediction *out, struct hm_error *err)
{
	struct hm_sp sp;
	long D = 0;
	int i;

	for (i = 0; i < p->nr_procs; i++) {
		if (d[i] < 0)
			return hm_error_set(err, "negative process count on '%s'", p->procs[i].name);
		D += d[i];
	}
	if (D == 0)
		return hm_error_set(err, "no process placed");
	if (r < 1 || c < 1 || (long)r * c != D)
		return hm_error_set(err, "grid %dx%d does not hold the %ld processes placed", r, c, D);
	if (b < 1 || !(n >= 1))
		return hm_error_set(err, "n and b must be positive");
	if (b > n)
		return hm_error_set(err, "block size %d exceeds the matrix order n = %g", b, n);
	hm_sp_for(m, p, d, b, routine, &sp);
	m->time(routine, n, r, c, b, &sp, out);
	return 0;
}

double hm_prediction_sum(struct hm_prediction *t, struct hm_prediction *parts)
{
	t->comp = t->comp_gemm + t->comp_trsm + t->comp_getf2;
	t->comm = t->comm_latency + t->comm_bandwidth;
	t->total = t->comp + t->comm;
	if (parts)
		*parts = *t;
	return t->total;
}

void hm_lu_computation(double n, int r, int c, int b, const struct hm_sp *sp,
		       struct hm_prediction *t)
{
	double p = (double)r * c;

	t->comp_gemm = 2.0 * n * n * n / (3.0 * p) * sp->k3_dgemm;
	t->comp_trsm = (r + c) / p * n * n * b * sp->k3_dtrsm;
	t->comp_getf2 = n * b * b / 3.0 * sp->k2_dgetf2;
}

void hm_lu_pdgetrf_computation(double n, int r, int c, int b, const struct hm_sp *sp,
			       struct hm_prediction *t)
{
	t->comp_gemm = 2.0 * n * n * n / (3.0 * r * c) * sp->k3_dgemm;
	t->comp_trsm = n * n * b / (2.0 * c) * sp->k3_dtrsm;
	t->comp_getf2 = n * n * b / (2.0 * r) * sp->k2_dgetf2;
}

double hm_gemm_summa_time(double n, int r, int c, int b, const struct hm_sp *sp,
			  struct hm_prediction *parts)
{
	struct hm_prediction t;

	memset(&t, 0, sizeof(t));
	t.comp_gemm = 2.0 * n * n * n / ((double)r * c) * sp->k3_dgemm;
	if ((double)r * c > 1) {
		t.comm_latency = 2.0 * ceil(n / b) * sp->t_s;
		t.comm_bandwidth = (n * n / r + n * n / c) * sp->t_w;
	}
	return hm_prediction_sum(&t, parts);
}

double hm_tree_steps(int x)
{
	int s = 0;

	while ((1 << s) < x)
		s++;
	return s;
}

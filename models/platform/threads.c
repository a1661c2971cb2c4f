/* models/platform/threads.c - ranks of t BLAS threads (see threads.h). */
#include "threads.h"

#include <stdlib.h>
#include <string.h>

/* a group prices the kernel model of the same index */
_Static_assert((int)HM_THREADS_DGEMM == (int)HM_KERNEL_DGEMM && (int)HM_THREADS_DTRSM == (int)HM_KERNEL_DTRSM &&
	       (int)HM_THREADS_PANEL == (int)HM_KERNEL_DGER && (int)HM_NR_THREAD_KERNELS == (int)HM_NR_KERNELS,
	       "thread groups and kernel models share their order");

const char *const *hm_thread_kernel_names(void)
{
	static const char *const names[HM_NR_THREAD_KERNELS + 1] = { "dgemm", "dtrsm", "panel", NULL };

	return names;
}

double hm_thread_speedup(const struct hm_proc_type *ty, int t, enum hm_thread_kernel g, int b)
{
	int lo_t = 1, j;
	double lo_s = 1, s;

	if (t <= 1)
		return 1;
	if (ty->nr_threads == 0)
		return 0;
	for (j = 0; j < ty->nr_threads && ty->threads[j].t < t; j++)
		lo_t = ty->threads[j].t, lo_s = hm_table_at(&ty->threads[j].s[g], b);
	if (j == ty->nr_threads)        /* beyond the largest: its efficiency */
		return lo_s * t / lo_t;
	s = hm_table_at(&ty->threads[j].s[g], b);
	return lo_s + (s - lo_s) * (t - lo_t) / (ty->threads[j].t - lo_t);
}

int hm_thread_options(const struct hm_platform *p, int i, int *t)
{
	const struct hm_processor *pr = &p->procs[i];
	const struct hm_proc_type *ty = &p->types[pr->type];
	int n = 0;

	t[n++] = 1;
	for (int j = 0; j < ty->nr_threads; j++)
		if (ty->threads[j].t <= pr->cores)
			t[n++] = ty->threads[j].t;
	return n;
}

int hm_thread_ranks_fit(const struct hm_platform *p, const int *d, const int *threads,
			struct hm_error *err)
{
	for (int i = 0; i < p->nr_procs; i++)
		if (threads[i] > 1 && (long)d[i] * threads[i] > p->procs[i].cores)
			return hm_error_set(err, "processor %s: %d processes of %d threads need %ld cores, it has %d "
					    "(ranks of threads never share cores)", p->procs[i].name, d[i],
					    threads[i], (long)d[i] * threads[i], p->procs[i].cores);
	return 0;
}

int hm_platform_has_threads(const struct hm_platform *p)
{
	int t[HM_MAX_THREAD_COUNTS + 1];

	for (int i = 0; i < p->nr_procs; i++)
		if (hm_thread_options(p, i, t) > 1)
			return 1;
	return 0;
}

/* table 'from' with every k divided by group g's speed-up at its b, into
 * *to (its own k, b shared) */
static int scaled_table(struct hm_table *to, const struct hm_table *from, const struct hm_proc_type *base,
			int t, enum hm_thread_kernel g)
{
	*to = *from;
	to->k = malloc((size_t)from->n * sizeof(double));
	if (!to->k)
		return -1;
	for (int i = 0; i < from->n; i++)
		to->k[i] = from->k[i] / hm_thread_speedup(base, t, g, from->b[i]);
	return 0;
}

/* Type 'base' for ranks of t threads, into *ty: its k tables the
 * speed-ups faster at each b, its kernel models (which the simulator
 * reads at every shape) at the speed-ups of block size 'b_mid'. No
 * busy-cores scale: the speed-ups are measured with every core busy,
 * which a partly used node prices as full (a rank of threads is never
 * priced faster than measured). Its ranks never share a view core
 * (HM_THREAD_RANKS_SHARING). */
static int threaded_type(struct hm_proc_type *ty, const struct hm_proc_type *base, int t, int b_mid)
{
	double s[HM_NR_THREAD_KERNELS];

	for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
		s[g] = hm_thread_speedup(base, t, (enum hm_thread_kernel)g, b_mid);
	*ty = *base;
	ty->nr_threads = 0;
	memset(&ty->busy_scale, 0, sizeof(ty->busy_scale));
	for (int r = 0; r < HM_NR_STACKED; r++)
		ty->stacked[r] = HM_THREAD_RANKS_SHARING;
	ty->k3_dgemm.k = ty->k3_dtrsm.k = ty->k2_dgetf2.k = NULL;
	for (int k = 0; k < HM_NR_KERNELS; k++)
		for (int c = 0; c < ty->kernels[k].nterms; c++)
			ty->kernels[k].c[c] /= s[k];
	return scaled_table(&ty->k3_dgemm, &base->k3_dgemm, base, t, HM_THREADS_DGEMM) ||
	       scaled_table(&ty->k3_dtrsm, &base->k3_dtrsm, base, t, HM_THREADS_DTRSM) ||
	       scaled_table(&ty->k2_dgetf2, &base->k2_dgetf2, base, t, HM_THREADS_PANEL) ? -1 : 0;
}

void hm_thread_view_release(struct hm_thread_view *v)
{
	for (int i = v->nr_base_types; i < v->view.nr_types; i++) {
		free(v->view.types[i].k3_dgemm.k);
		free(v->view.types[i].k3_dtrsm.k);
		free(v->view.types[i].k2_dgetf2.k);
	}
	free(v->view.types);
	free(v->view.procs);
	memset(v, 0, sizeof(*v));
}

/* The view's type for base type 'type' at t threads, added when new
 * ((type, t) pairs are few: a linear look). -1 when out of memory. */
static int view_type(struct hm_thread_view *v, const struct hm_platform *base, int cap, long *pair,
		     int type, int t)
{
	struct hm_platform *w = &v->view;
	long key = (long)type * (HM_MAX_CORES + 1) + t;

	for (int i = v->nr_base_types; i < w->nr_types; i++)
		if (pair[i] == key)
			return i;
	if (w->nr_types == cap)
		return -1;
	if (threaded_type(&w->types[w->nr_types], &base->types[type], t,
			  base->nr_block_sizes ? base->block_sizes[base->nr_block_sizes / 2] : 0)) {
		w->nr_types++;          /* released with the others */
		return -1;
	}
	pair[w->nr_types] = key;
	return w->nr_types++;
}

int hm_thread_view_build(struct hm_thread_view *v, const struct hm_platform *base,
			 const int *threads, struct hm_error *err)
{
	struct hm_platform *w = &v->view;
	int cap = base->nr_types + HM_MAX_TYPES;   /* (type, t) pairs: HU's t may vary by processor */
	long *pair_t;

	memset(v, 0, sizeof(*v));
	*w = *base;
	v->nr_base_types = base->nr_types;
	w->types = calloc((size_t)cap, sizeof(*w->types));
	w->procs = malloc((size_t)base->nr_procs * sizeof(*w->procs));
	pair_t = calloc((size_t)cap, sizeof(long));
	if (!w->types || !w->procs || !pair_t)
		goto oom;
	memcpy(w->types, base->types, (size_t)base->nr_types * sizeof(*w->types));
	memcpy(w->procs, base->procs, (size_t)base->nr_procs * sizeof(*w->procs));
	for (int i = 0; threads && i < base->nr_procs; i++) {
		struct hm_processor *pr = &w->procs[i];
		int t = threads[i], per_socket = pr->cores / pr->sockets;

		if (t <= 1)
			continue;
		if (t > pr->cores || !hm_thread_speedup(&base->types[pr->type], t, HM_THREADS_DGEMM, 0)) {
			hm_error_set(err, "processor %s: no ranks of %d threads (%d cores, %s)", pr->name, t,
				     pr->cores, t > pr->cores ? "too few" : "its type has no thread speed-ups");
			free(pair_t);
			hm_thread_view_release(v);
			return -1;
		}
		if ((pr->type = view_type(v, base, cap, pair_t, base->procs[i].type, t)) < 0)
			goto oom;
		pr->cores /= t;
		pr->sockets = per_socket % t ? 1 : pr->sockets;
		pr->topology = NULL;    /* a view's core is t cores: placement.c maps them */
	}
	free(pair_t);
	return 0;
oom:
	free(pair_t);
	hm_thread_view_release(v);
	return hm_error_set(err, "out of memory (thread view of %d processors)", base->nr_procs);
}

int hm_threads_used(const int *d, const int *threads, int P)
{
	for (int i = 0; i < P; i++)
		if (d[i] && threads[i] > 1)
			return 1;
	return 0;
}

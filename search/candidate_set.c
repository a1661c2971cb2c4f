/* search/candidate_set.c - see candidate_set.h.
 *
 * Pricing a configuration with threads builds its thread view (threads.h)
 * each time: a set holds a few dozen configurations, and a view is a copy
 * of the types, so this is not a hot path (the searches have their own). */
#include "candidate_set.h"
#include "top_k.h"
#include "models/platform/threads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hm_config_set_init(struct hm_config_set *s, const struct hm_problem *pb, struct hm_error *err)
{
	int P = pb->platform->nr_procs;

	memset(s, 0, sizeof(*s));
	s->pb = pb, s->P = P;
	if (!(s->store = calloc((size_t)2 * HM_MAX_CANDIDATES * (size_t)P, sizeof(int))))
		return hm_error_set(err, "out of memory");
	for (int k = 0; k < HM_MAX_CANDIDATES; k++) {
		s->e[k].d = s->store + (size_t)2 * k * (size_t)P;
		s->e[k].threads = s->e[k].d + P;
	}
	return 0;
}

void hm_config_set_release(struct hm_config_set *s)
{
	free(s->store);
	memset(s, 0, sizeof(*s));
}

static int same(const struct hm_config *e, const int *d, const int *threads, int P, int r, int c, int b)
{
	if (e->r != r || e->c != c || e->b != b || memcmp(e->d, d, (size_t)P * sizeof(int)))
		return 0;
	for (int i = 0; i < P; i++)
		if (d[i] && e->threads[i] != threads[i])   /* a processor without ranks has no threads */
			return 0;
	return 1;
}

int hm_config_equal(const struct hm_config_set *s, int a, int b)
{
	const struct hm_config *x = &s->e[b];

	return same(&s->e[a], x->d, x->threads, s->P, x->r, x->c, x->b);
}

/* The model's time of (d, threads, r, c, b) on pb, into *res (r = 0: the
 * best grid and b for d). 0, or -1 when it is no configuration. */
static int price(const struct hm_problem *pb, const int *d, const int *threads, int r, int c, int b,
		 struct hm_result *res)
{
	struct hm_problem one = *pb;
	struct hm_thread_view v = { 0 };
	struct hm_error err;
	int threaded = hm_threads_used(d, threads, pb->platform->nr_procs), ret;

	hm_error_clear(&err);
	if (threaded && (hm_thread_ranks_fit(pb->platform, d, threads, &err) ||
			 hm_thread_view_build(&v, pb->platform, threads, &err)))
		return -1;
	if (threaded)
		one.platform = &v.view;
	one.collect = NULL, one.beat = 0;
	ret = r ? hm_evaluate_config(&one, d, r, c, b, "candidate", res, &err)
		: hm_evaluate_counts(&one, d, "candidate", res, &err);
	if (threaded)
		hm_thread_view_release(&v);
	if (!ret && (!res->found || !isfinite(res->eet) ||
		     !hm_memory_fits(pb->platform, pb->routine, pb->n, d))) {
		hm_result_release(res);
		ret = -1;
	}
	return ret;
}

int hm_config_set_add(struct hm_config_set *s, const int *d, const int *threads, int r, int c, int b,
		      const char *origin)
{
	const struct hm_problem *pb = s->pb;
	int *t = s->e[s->n < HM_MAX_CANDIDATES ? s->n : 0].threads, D = 0;
	struct hm_result res;
	struct hm_config *e;

	for (int i = 0; i < s->P; i++) {
		if (d[i] < 0)
			return -1;
		D += d[i];
	}
	if (D < 1 || D > pb->depth || s->n == HM_MAX_CANDIDATES)
		return -1;
	/* the threads into the next free entry's storage: priced from there */
	for (int i = 0; i < s->P; i++)
		t[i] = threads && d[i] ? threads[i] : 1;
	if (r && (!hm_shape_allows(&pb->shape, r, c, b) || (long)r * c != D || b > pb->n))
		return -1;
	for (int k = 0; r && k < s->n; k++)
		if (same(&s->e[k], d, t, s->P, r, c, b))
			return k;
	if (price(pb, d, t, r, c, b, &res))
		return -1;
	if (!hm_shape_allows(&pb->shape, res.r, res.c, res.b)) {
		hm_result_release(&res);
		return -1;
	}
	for (int k = 0; k < s->n; k++)
		if (same(&s->e[k], d, t, s->P, res.r, res.c, res.b)) {
			hm_result_release(&res);
			return k;
		}
	e = &s->e[s->n];
	memcpy(e->d, d, (size_t)s->P * sizeof(int));
	e->D = D, e->r = res.r, e->c = res.c, e->b = res.b;
	e->eet = res.eet, e->pred = res.pred;
	snprintf(e->origin, sizeof(e->origin), "%s", origin);
	hm_result_release(&res);
	return s->n++;
}

/* A method's or a user's result, as hm_config_set_add. */
static int add_result(struct hm_config_set *s, const struct hm_result *res, const char *origin)
{
	if (!res->found)
		return -1;
	return hm_config_set_add(s, res->d, res->threads, res->r, res->c, res->b, origin);
}

/* The platform's candidate block sizes next to b (below and above). */
static void next_blocks(const struct hm_problem *pb, int b, int *below, int *above)
{
	const struct hm_platform *p = pb->platform;
	int k = hm_platform_block_count(p, pb->n);

	*below = *above = 0;
	for (int i = 0; i < k; i++) {
		if (p->block_sizes[i] < b)
			*below = p->block_sizes[i];
		if (p->block_sizes[i] > b && !*above)
			*above = p->block_sizes[i];
	}
}

/* The divisors of D next to r (below and above), 0 where none. */
static void next_rows(int D, int r, int *below, int *above)
{
	*below = *above = 0;
	for (int q = r - 1; q >= 1 && !*below; q--)
		if (D % q == 0)
			*below = q;
	for (int q = r + 1; q <= D && !*above; q++)
		if (D % q == 0)
			*above = q;
}

/* Entry k's shape neighbours: block sizes and grids, with its d. */
static int shape_neighbours(struct hm_config_set *s, int k)
{
	int before = s->n, below, above, D = s->e[k].D;
	char name[32];

	next_blocks(s->pb, s->e[k].b, &below, &above);
	for (int j = 0; j < 2; j++) {
		int b = j ? above : below;

		snprintf(name, sizeof(name), "b %d", b);
		if (b)
			hm_config_set_add(s, s->e[k].d, s->e[k].threads, s->e[k].r, s->e[k].c, b, name);
	}
	if (s->e[k].r != s->e[k].c)
		hm_config_set_add(s, s->e[k].d, s->e[k].threads, s->e[k].c, s->e[k].r, s->e[k].b, "transposed");
	next_rows(D, s->e[k].r, &below, &above);
	for (int j = 0; j < 2; j++) {
		int r = j ? above : below;

		snprintf(name, sizeof(name), "grid %dx%d", r, r ? D / r : 0);
		if (r)
			hm_config_set_add(s, s->e[k].d, s->e[k].threads, r, D / r, s->e[k].b, name);
	}
	return s->n - before;
}

/* Entry k with one process more (step 1) or fewer (-1) on every processor
 * of type 'ty' that holds some (more: that could hold some). */
static int type_step(struct hm_config_set *s, int k, int ty, int step, int *d)
{
	const struct hm_platform *p = s->pb->platform;
	int changed = 0;
	char name[32];

	memcpy(d, s->e[k].d, (size_t)s->P * sizeof(int));
	for (int i = 0; i < s->P; i++) {
		if (p->procs[i].type != ty)
			continue;
		if (step < 0 && d[i] > 0)
			d[i]--, changed = 1;
		else if (step > 0)
			d[i]++, changed = 1;
	}
	snprintf(name, sizeof(name), "%s %s", step > 0 ? "+1" : "-1", p->types[ty].name);
	return changed ? hm_config_set_add(s, d, s->e[k].threads, 0, 0, 0, name) : -1;
}

/* Entry k with type ty's ranks of threads t0 as ranks of t over the same cores. */
static int thread_step(struct hm_config_set *s, int k, int ty, int t, int *d, int *threads)
{
	const struct hm_platform *p = s->pb->platform;
	int changed = 0;
	char name[32];

	memcpy(d, s->e[k].d, (size_t)s->P * sizeof(int));
	memcpy(threads, s->e[k].threads, (size_t)s->P * sizeof(int));
	for (int i = 0; i < s->P; i++) {
		int cores = d[i] * threads[i];

		if (p->procs[i].type != ty || !d[i] || threads[i] == t)
			continue;
		d[i] = cores / t > 0 ? cores / t : 1;
		threads[i] = t;
		changed = 1;
	}
	snprintf(name, sizeof(name), "%s x%dt", p->types[ty].name, t);
	return changed ? hm_config_set_add(s, d, threads, 0, 0, 0, name) : -1;
}

/* The neighbours of entry k: the next block sizes, the transposed grid and
 * the next grids of D, one process more and one fewer on every processor
 * of one type (best grid and b), the next thread count of one type over
 * the same cores. Returns how many were new. */
static int add_neighbours(struct hm_config_set *s, int k)
{
	const struct hm_platform *p = s->pb->platform;
	int before = s->n, *d = malloc((size_t)s->P * 2 * sizeof(int)), *threads;

	if (!d)
		return 0;
	threads = d + s->P;
	shape_neighbours(s, k);
	for (int ty = 0; ty < p->nr_types; ty++) {
		int opt[HM_MAX_THREAD_COUNTS + 1], nopt = 0, now = 1, first = -1;

		type_step(s, k, ty, 1, d);
		type_step(s, k, ty, -1, d);
		for (int i = 0; i < s->P; i++)
			if (p->procs[i].type == ty && first < 0)
				first = i;
		if (first < 0)
			continue;
		nopt = hm_thread_options(p, first, opt);
		for (int i = 0; i < s->P; i++)
			if (p->procs[i].type == ty && s->e[k].d[i])
				now = s->e[k].threads[i];
		/* the next count below and above the type's present one */
		for (int j = 0; j < nopt; j++)
			if (opt[j] == now) {
				if (j > 0)
					thread_step(s, k, ty, opt[j - 1], d, threads);
				if (j + 1 < nopt)
					thread_step(s, k, ty, opt[j + 1], d, threads);
			}
	}
	free(d);
	return s->n - before;
}

int hm_config_set_add_blocks(struct hm_config_set *s)
{
	const struct hm_platform *p = s->pb->platform;
	int before = s->n, held = s->n, nb = hm_platform_block_count(p, s->pb->n);

	for (int k = 0; k < held; k++)
		for (int i = 0; i < nb; i++) {
			char name[32];

			snprintf(name, sizeof(name), "b %d", p->block_sizes[i]);
			hm_config_set_add(s, s->e[k].d, s->e[k].threads, s->e[k].r, s->e[k].c, p->block_sizes[i], name);
		}
	return s->n - before;
}

/* Entry k when it is priced below entry 'best' (or best is none), else best. */
static int cheaper(const struct hm_config_set *s, int k, int best)
{
	return k >= 0 && (best < 0 || s->e[k].eet < s->e[best].eet) ? k : best;
}

int hm_config_set_gather(struct hm_config_set *s, const char *const *methods, int nmethods, int next,
			 const struct hm_budget *budget, struct hm_error *err)
{
	struct hm_problem pb = *s->pb;
	struct hm_top_k top = { 0 };
	int ran = 0, best = -1;

	if (next > 0 && hm_top_k_init(&top, next > HM_TOP_K_MAX ? HM_TOP_K_MAX : next, s->P, err))
		return -1;
	for (int m = 0; m < nmethods; m++) {
		const struct hm_method *method = hm_method_find(methods[m]);
		struct hm_result res;
		struct hm_error why;

		hm_error_clear(&why);
		if (!method) {
			hm_top_k_release(&top);
			return hm_error_set(err, "unknown method '%s'", methods[m]);
		}
		pb.collect = m == 0 && next > 0 ? &top : NULL;
		if (hm_search(method, &pb, budget, &res, &why)) {
			if (!m)
				snprintf(err->msg, sizeof(err->msg), "%s: %s", method->name, why.msg);
			continue;
		}
		ran++;
		best = cheaper(s, add_result(s, &res, method->name), best);
		hm_result_release(&res);
	}
	for (int i = 0; i < top.n; i++) {
		char name[32];

		snprintf(name, sizeof(name), "next %d", i + 1);
		best = cheaper(s, hm_config_set_add(s, top.e[i].d, NULL, top.e[i].r, top.e[i].c, top.e[i].b, name), best);
	}
	hm_top_k_release(&top);
	if (!ran)
		return err->msg[0] ? -1 : hm_error_set(err, "no method ran");
	if (best >= 0)
		add_neighbours(s, best);
	return 0;
}

/* Sorting swaps whole entries, storage included: each keeps its own d. */
static int by_time(const void *a, const void *b)
{
	const struct hm_config *x = a, *y = b;

	if (x->eet != y->eet)
		return x->eet < y->eet ? -1 : 1;
	return (x->D > y->D) - (x->D < y->D);
}

void hm_config_set_sort(struct hm_config_set *s)
{
	qsort(s->e, (size_t)s->n, sizeof(s->e[0]), by_time);
}

int hm_config_result(const struct hm_config_set *s, int k, const char *name, struct hm_result *res,
		     struct hm_error *err)
{
	const struct hm_config *e = &s->e[k];
	int threaded = hm_threads_used(e->d, e->threads, s->P);

	memset(res, 0, sizeof(*res));
	res->P = s->P;
	if (!(res->d = malloc((size_t)s->P * sizeof(int))) ||
	    (threaded && !(res->threads = malloc((size_t)s->P * sizeof(int))))) {
		hm_result_release(res);
		return hm_error_set(err, "out of memory");
	}
	memcpy(res->d, e->d, (size_t)s->P * sizeof(int));
	if (threaded)
		memcpy(res->threads, e->threads, (size_t)s->P * sizeof(int));
	res->method = name, res->found = 1;
	res->D = e->D, res->r = e->r, res->c = e->c, res->b = e->b;
	res->eet = e->eet, res->pred = e->pred;
	res->evaluated = 1, res->level_reached = e->D;
	return 0;
}

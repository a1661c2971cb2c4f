/* search/thread_search.c - threads as a dimension of the searches (see
 * thread_search.h).
 *
 * Why by type: processors of one type are interchangeable up to their
 * links, and a split is a property of the node's kernels (what calibrate
 * measured), so one count per type keeps the splits few (the product of
 * the types' options) while letting every node type have its own. Each
 * split is a platform of its own (the thread view), on which the method
 * runs unchanged: its bounds stay valid there, so an exact method's
 * optimum over all splits is the least of its per-split optima. */
#include "thread_search.h"
#include "models/platform/threads.h"
#include "models/util/clock.h"
#include "models/platform/platform.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct split_state {
	const struct hm_method *m;
	const struct hm_problem *pb;
	const struct hm_budget *budget;
	double start;
	int nr_types;
	int *nopt;              /* per type: its options (t[0] = 1 always) */
	int (*opt)[HM_MAX_THREAD_COUNTS + 1];
	int *choice;            /* per type: the option tried */
	int *threads;           /* per processor, from choice */
	struct hm_result best;
	int tried;
	enum hm_stop stopped;
};

/* Per type, the counts every processor of that type can take. */
static void type_options(struct split_state *s)
{
	const struct hm_platform *p = s->pb->platform;

	for (int ty = 0; ty < p->nr_types; ty++) {
		s->opt[ty][0] = 1;
		s->nopt[ty] = 1;
	}
	for (int ty = 0; ty < p->nr_types; ty++) {
		int least = 0;

		for (int i = 0; i < p->nr_procs; i++)
			if (p->procs[i].type == ty && (!least || p->procs[i].cores < least))
				least = p->procs[i].cores;
		for (int j = 0; j < p->types[ty].nr_threads; j++)
			if (least && p->types[ty].threads[j].t <= least)
				s->opt[ty][s->nopt[ty]++] = p->types[ty].threads[j].t;
	}
}

/* The rest of the budget, for one split's run. */
static struct hm_budget budget_left(const struct split_state *s)
{
	struct hm_budget b = *s->budget;
	double used = hm_now() - s->start;

	if (b.max_seconds > 0)
		b.max_seconds = b.max_seconds > used ? b.max_seconds - used : 1e-9;
	return b;
}

/* Price the current choice: 0 (best kept if better), -1 on error. */
static int try_split(struct split_state *s, struct hm_error *err)
{
	const struct hm_platform *p = s->pb->platform;
	struct hm_problem one = *s->pb;
	struct hm_thread_view v;
	struct hm_budget b = budget_left(s);
	struct hm_result r;
	int all_one = 1;

	for (int i = 0; i < p->nr_procs; i++) {
		s->threads[i] = s->opt[p->procs[i].type][s->choice[p->procs[i].type]];
		all_one &= s->threads[i] == 1;
	}
	if (hm_thread_view_build(&v, p, s->threads, err))
		return -1;
	one.platform = &v.view;
	/* only a split that beats the best so far matters: the bounded
	 * methods cut against it from their start */
	if (s->best.found)
		one.beat = s->best.eet;
	/* the judge's candidates carry no threads: they come from one thread only;
	 * ranks of threads never share cores (the view prices it as forbidden,
	 * HM_THREAD_RANKS_SHARING), so a split's walk ends at its cores */
	if (!all_one) {
		long cores = hm_platform_cores(&v.view);

		one.collect = NULL;
		one.depth = cores < one.depth ? (int)cores : one.depth;
	}
	if (hm_result_start(&r, &one, err) || s->m->run(s->m->variant, &one, &b, &r, err)) {
		hm_result_release(&r);
		hm_thread_view_release(&v);
		return -1;
	}
	hm_thread_view_release(&v);
	s->tried++;
	s->stopped = r.stopped != HM_STOP_COMPLETE ? r.stopped : s->stopped;
	r.evaluated += s->best.evaluated;
	r.pruned += s->best.pruned;
	if (!s->best.d || (r.found && (!s->best.found || r.eet < s->best.eet))) {
		r.seconds_to_best = hm_now() - s->start;
		if (!all_one && !(r.threads = malloc((size_t)p->nr_procs * sizeof(int)))) {
			hm_result_release(&r);
			return hm_error_set(err, "out of memory");
		}
		if (r.threads)
			memcpy(r.threads, s->threads, (size_t)p->nr_procs * sizeof(int));
		hm_result_release(&s->best);
		s->best = r;
	} else {
		s->best.evaluated = r.evaluated;
		s->best.pruned = r.pruned;
		s->best.level_reached = r.level_reached > s->best.level_reached ? r.level_reached
						: s->best.level_reached;
		hm_result_release(&r);
	}
	return 0;
}

static int out_of_budget(const struct split_state *s)
{
	return s->stopped != HM_STOP_COMPLETE || hm_search_interrupt;
}

/* The largest of its options up to a common count u. */
static int uniform_option(const struct split_state *s, int ty, long u)
{
	int o = 0;

	while (o + 1 < s->nopt[ty] && s->opt[ty][o + 1] <= u)
		o++;
	return o;
}

/* The largest common count worth trying: the most threads any type takes. */
static long uniform_most(const struct split_state *s)
{
	int most = 1;

	for (int ty = 0; ty < s->nr_types; ty++)
		most = s->opt[ty][s->nopt[ty] - 1] > most ? s->opt[ty][s->nopt[ty] - 1] : most;
	return most;
}

/* Whether choice[] is a uniform split (already priced by uniform_splits). */
static int is_uniform(const struct split_state *s)
{
	for (long u = 1; u <= uniform_most(s); u *= 2) {
		int ty = 0;

		while (ty < s->nr_types && s->choice[ty] == uniform_option(s, ty, u))
			ty++;
		if (ty == s->nr_types)
			return 1;
	}
	return 0;
}

/* Every type at the largest of its options up to a common count (1, 2,
 * 4, ...: the uniform splits), the best kept in choice[]. */
static int uniform_splits(struct split_state *s, struct hm_error *err)
{
	int *best = malloc((size_t)s->nr_types * sizeof(int));
	double best_eet = INFINITY;

	if (!best)
		return hm_error_set(err, "out of memory");
	for (long u = 1; u <= uniform_most(s) && !out_of_budget(s); u *= 2) {
		for (int ty = 0; ty < s->nr_types; ty++)
			s->choice[ty] = uniform_option(s, ty, u);
		if (try_split(s, err)) {
			free(best);
			return -1;
		}
		if (s->best.eet < best_eet) {
			best_eet = s->best.eet;
			memcpy(best, s->choice, (size_t)s->nr_types * sizeof(int));
		}
	}
	if (best_eet < INFINITY)
		memcpy(s->choice, best, (size_t)s->nr_types * sizeof(int));
	free(best);
	return 0;
}

/* Every split, in odometer order over the types' options ('but_uniform':
 * those uniform_splits priced already left out). */
static int every_split(struct split_state *s, int but_uniform, struct hm_error *err)
{
	memset(s->choice, 0, (size_t)s->nr_types * sizeof(int));
	for (;;) {
		int ty;

		if (!(but_uniform && is_uniform(s)) && try_split(s, err))
			return -1;
		if (out_of_budget(s))
			return 0;
		for (ty = 0; ty < s->nr_types && ++s->choice[ty] == s->nopt[ty]; ty++)
			s->choice[ty] = 0;
		if (ty == s->nr_types)
			return 0;
	}
}

/* From the best uniform split, each type's neighbouring counts (one
 * option down, one up) with the others held, round after round until no
 * type changes: a descent, not every split. */
static int split_by_type(struct split_state *s, struct hm_error *err)
{
	int changed = 1;

	if (uniform_splits(s, err))
		return -1;
	while (changed && !out_of_budget(s)) {
		changed = 0;
		for (int ty = 0; ty < s->nr_types && !out_of_budget(s); ty++) {
			int held = s->choice[ty], best = held;
			double best_eet = s->best.eet;

			for (int o = held - 1; o <= held + 1 && !out_of_budget(s); o += 2) {
				if (o < 0 || o >= s->nopt[ty])
					continue;
				s->choice[ty] = o;
				if (try_split(s, err))
					return -1;
				if (s->best.eet < best_eet)
					best = o, best_eet = s->best.eet;
			}
			s->choice[ty] = best;
			changed |= best != held;
		}
	}
	return 0;
}

int hm_thread_search(const struct hm_method *m, const struct hm_problem *pb,
		     const struct hm_budget *budget, struct hm_result *res, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	struct split_state s = { .m = m, .pb = pb, .budget = budget, .start = hm_now(),
				 .nr_types = p->nr_types };
	double splits = 1;
	int ret, all;

	s.nopt = calloc((size_t)p->nr_types, sizeof(int));
	s.opt = calloc((size_t)p->nr_types, sizeof(*s.opt));
	s.choice = calloc((size_t)p->nr_types, sizeof(int));
	s.threads = calloc((size_t)p->nr_procs, sizeof(int));
	if (!s.nopt || !s.opt || !s.choice || !s.threads) {
		ret = hm_error_set(err, "out of memory");
		goto done;
	}
	type_options(&s);
	for (int ty = 0; ty < p->nr_types; ty++)
		splits *= s.nopt[ty];
	memset(&s.best, 0, sizeof(s.best));
	s.best.eet = INFINITY;
	all = splits <= (m->proves ? HM_MAX_PROVEN_SPLITS : HM_MAX_THREAD_SPLITS);
	/* a proving method starts from the best uniform split: a good time
	 * to cut the others against */
	ret = !all ? split_by_type(&s, err)
	      : m->proves && splits > 1 ? (uniform_splits(&s, err) || every_split(&s, 1, err) ? -1 : 0)
	      : every_split(&s, 0, err);
	if (!ret) {
		s.best.stopped = s.stopped;
		s.best.thread_splits = s.tried;
		s.best.thread_splits_all = all && s.stopped == HM_STOP_COMPLETE;
		hm_result_release(res);
		*res = s.best;
		memset(&s.best, 0, sizeof(s.best));
	}
done:
	hm_result_release(&s.best);
	free(s.nopt), free(s.opt), free(s.choice), free(s.threads);
	return ret;
}

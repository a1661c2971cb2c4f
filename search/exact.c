/* search/exact.c - the exact optimizer (see exact.h): which search
 * proves the optimum, over which classes (search/README.md).
 *
 * The enumeration over classes of interchangeable processors
 * (class_enumeration.h) is exact for any classes; BTM is exact too. */
#include "exact.h"
#include "class_enumeration.h"
#include "classes.h"
#include "models/util/clock.h"
#include "tree_search.h"
#include "weight_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The processors an enumeration turn runs over, and their classes.
 * Usually one view: the platform's classes. On a two-level network (no
 * link rules or overrides; the inter-host link at least as dear as the
 * same-host and same-processor ones, in t_s and in t_w) where hosts split
 * the classes, the hosts are left out of the classes instead:
 *  - the coarse view: all processors, in classes by type, cores and
 *    memory, with every link between two distinct processors taken as
 *    the inter-host one. A placement spanning two or more hosts costs
 *    exactly that (each used processor then has a partner on another
 *    host, over the dearest link, at its own share factor); one on a
 *    single host costs at most that;
 *  - one view per host of two or more processors: its own classes and
 *    links, for the placements on that host alone.
 * The optimum is the least of the views' optima. 1000 processors of 20
 * types, 8 per host, are about 900 classes but 20 coarse ones. */
struct views {
	int P;
	int *all;               /* 0..P-1 */
	int *fine, C_fine;      /* the platform's classes */
	int split;              /* the two-level views below are used */
	int *coarse, C_coarse;
	struct hm_link inter;
	int *host_start, *by_host;      /* processors host by host */
	int *host_class, *renumber;     /* one host's classes, dense; -1 elsewhere */
};

static void views_release(struct views *v)
{
	free(v->all), free(v->fine), free(v->coarse);
	free(v->host_start), free(v->by_host), free(v->host_class), free(v->renumber);
	memset(v, 0, sizeof(*v));
}

static int two_level(const struct hm_platform *p)
{
	const struct hm_link *inter = &p->links[HM_LINK_INTER_HOST];

	return !p->nr_rules && !p->nr_overrides && p->nr_hosts > 1 &&
	       hm_link_at_most(p->links[HM_LINK_SAME_HOST], *inter) &&
	       hm_link_at_most(p->links[HM_LINK_SAME_PROCESSOR], *inter);
}

/* Classes by type, cores and memory: the fine classes merged. */
static int coarse_classes(const struct hm_platform *p, struct views *v)
{
	int *rep = malloc((size_t)v->C_fine * sizeof(int));    /* a processor per coarse class */

	if (!rep || !(v->coarse = malloc((size_t)v->P * sizeof(int)))) {
		free(rep);
		return -1;
	}
	int *of_fine = malloc((size_t)v->C_fine * sizeof(int));

	if (!of_fine) {
		free(rep);
		return -1;
	}
	for (int c = 0; c < v->C_fine; c++)
		of_fine[c] = -1;
	v->C_coarse = 0;
	for (int i = 0; i < v->P; i++) {
		const struct hm_processor *a = &p->procs[i];
		int *k = &of_fine[v->fine[i]];

		for (int c = 0; *k < 0 && c < v->C_coarse; c++) {
			const struct hm_processor *b = &p->procs[rep[c]];

			if (a->type == b->type && a->cores == b->cores && a->memory == b->memory)
				*k = c;
		}
		if (*k < 0)
			rep[*k = v->C_coarse++] = i;
		v->coarse[i] = *k;
	}
	free(rep), free(of_fine);
	return 0;
}

/* The processors sorted by host (a counting sort). */
static int group_by_host(const struct hm_platform *p, struct views *v)
{
	int H = p->nr_hosts;

	v->host_start = calloc((size_t)H + 1, sizeof(int));
	v->by_host = malloc((size_t)v->P * sizeof(int));
	v->host_class = malloc((size_t)v->P * sizeof(int));
	v->renumber = malloc((size_t)v->C_fine * sizeof(int));
	if (!v->host_start || !v->by_host || !v->host_class || !v->renumber)
		return -1;
	for (int i = 0; i < v->P; i++)
		v->host_start[p->procs[i].host_id + 1]++;
	for (int h = 0; h < H; h++)
		v->host_start[h + 1] += v->host_start[h];
	int *fill = malloc((size_t)H * sizeof(int));

	if (!fill)
		return -1;
	memcpy(fill, v->host_start, (size_t)H * sizeof(int));
	for (int i = 0; i < v->P; i++)
		v->by_host[fill[p->procs[i].host_id]++] = i;
	free(fill);
	for (int c = 0; c < v->C_fine; c++)
		v->renumber[c] = -1;
	return 0;
}

/* The views of 'p'. 0, or -1 when out of memory. */
static int views_init(const struct hm_platform *p, struct views *v)
{
	memset(v, 0, sizeof(*v));
	v->P = p->nr_procs;
	v->all = malloc((size_t)v->P * sizeof(int));
	v->fine = malloc((size_t)v->P * sizeof(int));
	if (!v->all || !v->fine || (v->C_fine = hm_processor_classes(p, v->fine)) < 0)
		return -1;
	for (int i = 0; i < v->P; i++)
		v->all[i] = i;
	if (!two_level(p))
		return 0;
	if (coarse_classes(p, v))
		return -1;
	if (v->C_coarse == v->C_fine)
		return 0;       /* the hosts split no class: one view is as good */
	v->split = 1;
	v->inter = p->links[HM_LINK_INTER_HOST];
	return group_by_host(p, v);
}

/* The class-pair link table is C x C: bounded so that it stays small. */
#define MAX_CLASSES 2048
/* The weights of every D up to the depth, grid and b, and their least by
 * band (weight_tree.h): at depth 128000 and 3 block sizes 466 MB, at 5
 * block sizes 776 MB (refused), at depth 262144 and 3 block sizes 1 GB. */
#define MAX_WEIGHT_BYTES ((size_t)768 << 20)

int hm_exact_applies(const struct hm_problem *pb, struct hm_error *err)
{
	struct views v;
	size_t bytes;
	int C, nb;

	if (hm_problem_check(pb, 1, err))
		return -1;
	if (pb->shape.b || pb->shape.rows_le_cols)
		return hm_error_set(err, "it proves the optimum over every grid and block size: -b and "
				    "--rows-le-cols are for the tree searches and the users");
	nb = hm_platform_block_count(pb->platform, pb->n);
	if ((bytes = hm_weight_tree_bytes(pb->depth, nb)) > MAX_WEIGHT_BYTES)
		return hm_error_set(err, "its weight tables for depth %d and %d block sizes would take "
				    "%zu MB (at most %zu): lower -d, or use GPTM", pb->depth, nb,
				    bytes >> 20, MAX_WEIGHT_BYTES >> 20);
	if (pb->platform->nr_procs <= MAX_CLASSES)
		return 0;       /* there cannot be more classes than processors */
	if (views_init(pb->platform, &v)) {
		views_release(&v);
		return hm_error_set(err, "out of memory");
	}
	C = v.split ? v.C_coarse : v.C_fine;    /* a host's view has fewer */
	views_release(&v);
	if (C > MAX_CLASSES)
		return hm_error_set(err, "%d classes of interchangeable processors (at most %d): "
				    "use BTM (exact too) or GPTM", C, MAX_CLASSES);
	return 0;
}

/* What is left of 'budget' since 'start': > 0, or 0 when none is left
 * (no time limit: HUGE_VAL). */
static double seconds_left(const struct hm_budget *budget, double start)
{
	double left;

	if (budget->max_seconds <= 0)
		return HUGE_VAL;
	left = budget->max_seconds - (hm_now() - start);
	return left > 0 ? left : 0;
}

/* A greedy answer to start from: GPTM, within a second and within what
 * is left of 'budget' (its nodes count: the caller deducts them). */
static void greedy_seed(const struct hm_problem *pb, const struct hm_budget *budget, double start,
			struct hm_result *seed)
{
	struct hm_budget quick = { budget->max_nodes, fmin(1, seconds_left(budget, start)) };
	struct hm_error err;

	if (quick.max_seconds <= 0)
		return;
	if (!hm_result_start(seed, pb, &err))
		hm_tree_search(HM_WALK_GPTM, pb, &quick, seed, &err);
}

/* Move 'from' into 'to' (releasing what 'to' held). */
static void take(struct hm_result *to, struct hm_result *from)
{
	hm_result_release(to);
	*to = *from;
	memset(from, 0, sizeof(*from));
}

/* Which proves the optimum sooner depends on the platform: the class
 * enumeration when classes are few and the depth deep (a 1024-core
 * cluster of three classes: 24000 enumeration nodes, 0.04 s, where BTM
 * proves nothing in 60 s), BTM where it proves the optimum at once (1000
 * processors at depth 30: 69 BTM nodes, 0.7 ms, where the GPTM answer the
 * enumeration starts from alone takes 10 ms). So the two take turns
 * from scratch, each round 4x the last: BTM for BTM_WORK x scale / L
 * nodes (a BTM node costs about L: its bound scans the depth), then the
 * enumeration for ENUM_NODES x scale, seeded with the best answer so
 * far. The first to finish within its turn has proved the optimum. The
 * turns grow geometrically, so the losing turns cost a bounded multiple
 * of the winning one. Node counts, not times, keep the answer the same
 * on every machine. With --max-nodes the enumeration alone runs, within it. */
#define BTM_WORK 300000L
#define ENUM_NODES 200000L

/* One BTM turn of 'nodes' into 'out'; 0, or -1 with 'err' set. */
static int btm_turn(const struct hm_problem *pb, long nodes, double seconds,
		    struct hm_result *out, struct hm_error *err)
{
	struct hm_budget turn = { nodes, seconds == HUGE_VAL ? 0 : seconds };

	hm_result_release(out);
	if (hm_result_start(out, pb, err))
		return -1;
	return hm_tree_search(HM_WALK_BTM, pb, &turn, out, err);
}

/* Count turn's work into 'work' and keep the better of 'best' and
 * 'turn' in 'best': moved when 'keep' is 0, copied when the turn's
 * result must stay where it is. 0, or -1 when out of memory. */
static int keep_better(struct hm_result *best, struct hm_result *turn, int keep,
		       struct hm_result *work)
{
	work->evaluated += turn->evaluated;
	work->pruned += turn->pruned;
	if (turn->level_reached > work->level_reached)
		work->level_reached = turn->level_reached;
	if (!turn->found || (best->found && turn->eet >= best->eet))
		return 0;
	if (!keep) {
		take(best, turn);
		return 0;
	}
	int *d = best->d ? best->d : malloc((size_t)turn->P * sizeof(int));

	if (!d)
		return -1;
	*best = *turn;
	best->d = memcpy(d, turn->d, (size_t)turn->P * sizeof(int));
	return 0;
}

/* Where the model times one process alone by a rule of its own
 * (hm_model_sp_single), the enumeration bounds and times it by the
 * heterogeneity rule, an overestimate that keeps its cuts valid; the best
 * single process, the fastest alone among those whose memory holds the
 * matrices, is timed here instead (by the tree, which asks the model the
 * same way). 0, or -1 with 'err' set. */
static int single_process(const struct hm_problem *pb, struct hm_result *best,
			  struct hm_result *work, struct hm_error *err)
{
	const struct hm_platform *p = pb->platform;
	double bytes = hm_bytes_per_process(pb->routine, pb->n, 1), least = INFINITY;
	int nb = hm_platform_block_count(p, pb->n);
	struct hm_result one = { 0 };
	struct hm_sp sp;
	int fastest = -1, *d, ret;

	if (!hm_model_sp_single(pb->model, p, 0, p->block_sizes[0], pb->routine, &sp))
		return 0;
	for (int i = 0; i < p->nr_procs; i++) {
		if (p->procs[i].memory > 0 && bytes > p->procs[i].memory)
			continue;
		for (int bi = 0; bi < nb; bi++) {
			double t;

			hm_model_sp_single(pb->model, p, i, p->block_sizes[bi], pb->routine, &sp);
			t = pb->model->time(pb->routine, pb->n, 1, 1, p->block_sizes[bi], &sp, NULL);
			if (t < least)
				least = t, fastest = i;
		}
	}
	if (fastest < 0)
		return 0;
	if (!(d = calloc((size_t)p->nr_procs, sizeof(int))))
		return hm_error_set(err, "out of memory");
	d[fastest] = 1;
	ret = hm_evaluate_counts(pb, d, "exact", &one, err);
	free(d);
	if (!ret)
		keep_better(best, &one, 0, work);
	hm_result_release(&one);
	return ret;
}

/* View h (as in enumeration_turn) as processors, their number, their
 * classes and the number of classes; 0 for a host that needs no view. */
static int view(struct views *v, int h, const int **procs, int *n, const int **class_of, int *C)
{
	if (h < 0) {
		*procs = v->all, *n = v->P;
		*class_of = h == -1 ? v->coarse : v->fine;
		*C = h == -1 ? v->C_coarse : v->C_fine;
		return 1;
	}
	*procs = &v->by_host[v->host_start[h]];
	*n = v->host_start[h + 1] - v->host_start[h];
	if (*n < 2)
		return 0;       /* one processor alone: the coarse view costs it exactly */
	*C = 0;         /* the host's classes, numbered from 0 */
	for (int u = 0; u < *n; u++) {
		int *k = &v->renumber[v->fine[(*procs)[u]]];

		if (*k < 0)
			*k = (*C)++;
		v->host_class[(*procs)[u]] = *k;
	}
	for (int u = 0; u < *n; u++)
		v->renumber[v->fine[(*procs)[u]]] = -1;
	*class_of = v->host_class;
	return 1;
}

/* One enumeration turn over the views within 'budget' (counted from
 * 'start'), seeded with and keeping its answer in 'best'; 'scratch' holds
 * each view's answer. The turn's stop reason, or -1 with 'err' set. */
static int enumeration_turn(const struct hm_problem *pb, const struct hm_weight_tree *weights,
			    struct views *v, const struct hm_budget *budget, double start,
			    struct hm_result *best, struct hm_result *scratch,
			    struct hm_result *work, struct hm_error *err)
{
	long used = 0;
	/* view -2: the platform's classes; or -1: the coarse one, then host h >= 0 */
	int first = v->split ? -1 : -2, last = v->split ? pb->platform->nr_hosts - 1 : -2;

	for (int h = first; h <= last; h++) {
		struct hm_budget left = *budget;
		const int *procs, *class_of;
		int n, C, ret;

		if (!view(v, h, &procs, &n, &class_of, &C))
			continue;
		if (budget->max_nodes && (left.max_nodes -= used) <= 0)
			return HM_STOP_NODES;
		ret = hm_class_enumeration(pb, weights, procs, n, class_of, C,
					   h == -1 ? &v->inter : NULL, &left, start, best, scratch, err);
		if (ret)
			return -1;
		used += scratch->evaluated;
		if (keep_better(best, scratch, 1, work)) {
			hm_error_set(err, "out of memory");
			return -1;
		}
		if (scratch->stopped)
			return scratch->stopped;
	}
	return HM_STOP_COMPLETE;
}

int hm_exact_search(int variant, const struct hm_problem *pb, const struct hm_budget *budget,
		    struct hm_result *res, struct hm_error *err)
{
	struct hm_result best = { 0 }, btm = { 0 }, work = { 0 }, scratch = { 0 };
	struct hm_weight_tree weights = { 0 };
	struct views v = { 0 };
	double start = hm_now();
	int with_btm = !budget->max_nodes && !hm_tree_search_applies(pb, err), stopped = -1;
	int ready = 0;

	(void)variant;
	hm_error_clear(err);
	for (long scale = 1;; scale *= scale < (1L << 40) ? 4 : 1) {
		struct hm_budget turn = { budget->max_nodes ? budget->max_nodes : ENUM_NODES * scale,
					  budget->max_seconds };

		if (with_btm) {
			if (btm_turn(pb, BTM_WORK * scale / pb->depth + 1, seconds_left(budget, start),
				     &btm, err))
				goto out;
			stopped = btm.stopped;
			keep_better(&best, &btm, 0, &work);
			if (stopped != HM_STOP_NODES)
				break;  /* proved, or out of time */
		}
		if (!ready) {   /* the first enumeration turn: its tables, and GPTM's answer */
			struct hm_result gptm = { 0 };

			if (views_init(pb->platform, &v) ||
			    hm_weight_tree_init(&weights, pb->model, pb->routine, pb->n,
						pb->platform->block_sizes,
						hm_platform_block_count(pb->platform, pb->n), pb->depth) ||
			    hm_result_start(&scratch, pb, err)) {
				hm_error_set(err, "out of memory");
				goto out;
			}
			ready = 1;
			greedy_seed(pb, budget, start, &gptm);
			keep_better(&best, &gptm, 0, &work);
			hm_result_release(&gptm);
			if (budget->max_nodes && (turn.max_nodes -= work.evaluated) <= 0) {
				stopped = HM_STOP_NODES;
				break;
			}
		}
		stopped = enumeration_turn(pb, &weights, &v, &turn, start, &best, &scratch, &work, err);
		if (stopped < 0)
			goto out;
		if (stopped != HM_STOP_NODES || budget->max_nodes)
			break;  /* proved, or out of budget */
	}
	if (single_process(pb, &best, &work, err))
		goto out;
	take(res, &best);
	res->stopped = (enum hm_stop)stopped;
	res->evaluated = work.evaluated;
	res->pruned = work.pruned;
	res->level_reached = work.level_reached;
out:
	views_release(&v);
	hm_weight_tree_release(&weights);
	hm_result_release(&best);
	hm_result_release(&btm);
	hm_result_release(&scratch);
	return stopped < 0 ? -1 : 0;
}

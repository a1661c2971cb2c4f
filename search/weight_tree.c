/* search/weight_tree.c - see weight_tree.h. */
#include "weight_tree.h"
#include "divisors.h"
#include "models/util/minmax.h"

#include <math.h>
#include <stdlib.h>

/* 1 if a is at or above b in every weight. */
static int dominated_by(const double *a, const double *b)
{
	for (int j = 0; j < HM_NR_SP; j++)
		if (a[j] < b[j])
			return 0;
	return 1;
}

/* Keep, of the n grids in g, those no earlier kept grid dominates and no
 * later grid dominates strictly (so of equal grids the first, smallest r,
 * stays: the order the scans have always preferred). Returns the count. */
static int keep_undominated(struct hm_weighted_grid *g, int n)
{
	int kept = 0;

	for (int i = 0; i < n; i++) {
		int drop = 0;

		for (int k = 0; k < kept && !drop; k++)
			drop = dominated_by(g[i].w, g[k].w);
		for (int j = i + 1; j < n && !drop; j++)
			drop = dominated_by(g[i].w, g[j].w) && !dominated_by(g[j].w, g[i].w);
		if (!drop)
			g[kept++] = g[i];
	}
	return kept;
}

static double *least_at(const struct hm_weight_tree *t, int node, int bi)
{
	return &t->least[((size_t)node * t->nb + bi) * HM_NR_SP];
}

/* Leaves: the least weights of each D's kept grids; above, the least of
 * the two children. Leaves past L stay infinite (walks never enter them). */
static void fill_least(struct hm_weight_tree *t)
{
	for (size_t i = 0; i < (size_t)2 * t->leaves * t->nb * HM_NR_SP; i++)
		t->least[i] = INFINITY;
	for (int D = 1; D <= t->L; D++)
		for (int bi = 0; bi < t->nb; bi++) {
			double *least = least_at(t, t->leaves + D - 1, bi);
			int k = (D - 1) * t->nb + bi;

			for (int g = t->start[k]; g < t->start[k + 1]; g++)
				for (int j = 0; j < HM_NR_SP; j++)
					least[j] = hm_min(least[j], t->grid[g].w[j]);
		}
	for (int node = t->leaves - 1; node >= 1; node--)
		for (int bi = 0; bi < t->nb; bi++)
			for (int j = 0; j < HM_NR_SP; j++)
				least_at(t, node, bi)[j] = hm_min(least_at(t, 2 * node, bi)[j],
								least_at(t, 2 * node + 1, bi)[j]);
}

int hm_weight_tree_init(struct hm_weight_tree *t, const struct hm_model *model,
			enum hm_routine routine, double n, const int *block, int nb, int L)
{
	struct hm_divisors div;
	size_t k = 0;

	t->L = L, t->nb = nb;
	for (t->leaves = 1; t->leaves < L; t->leaves *= 2)
		;
	t->start = NULL, t->grid = NULL, t->least = NULL;
	if (hm_divisors_init(&div, L))
		return -1;
	t->start = malloc(((size_t)L * nb + 1) * sizeof(int));
	t->grid = malloc((size_t)div.start[L + 1] * nb * sizeof(*t->grid));
	t->least = malloc((size_t)2 * t->leaves * nb * HM_NR_SP * sizeof(double));
	if (!t->start || !t->grid || !t->least) {
		hm_divisors_release(&div);
		hm_weight_tree_release(t);
		return -1;
	}
	for (int D = 1; D <= L; D++)
		for (int bi = 0; bi < nb; bi++) {
			struct hm_weighted_grid *g = &t->grid[k];
			int count;
			const int *r = hm_divisors_of(&div, D, &count);

			t->start[(D - 1) * nb + bi] = (int)k;
			for (int q = 0; q < count; q++) {
				g[q].r = r[q];
				hm_model_weights(model, routine, n, r[q], D / r[q], block[bi], g[q].w);
			}
			k += (size_t)keep_undominated(g, count);
		}
	t->start[(size_t)L * nb] = (int)k;
	hm_divisors_release(&div);
	fill_least(t);
	return 0;
}

size_t hm_weight_tree_bytes(int L, int nb)
{
	size_t grids = 0, leaves = 1;

	for (int r = 1; r <= L; r++)
		grids += (size_t)(L / r);      /* the D <= L that r divides */
	while (leaves < (size_t)L)
		leaves *= 2;
	return ((size_t)L * nb + 1) * sizeof(int) + grids * nb * sizeof(struct hm_weighted_grid) +
	       2 * leaves * nb * HM_NR_SP * sizeof(double);
}

void hm_weight_tree_release(struct hm_weight_tree *t)
{
	free(t->start), free(t->grid), free(t->least);
	t->start = NULL, t->grid = NULL, t->least = NULL;
}

/* The least time any D under 'node' can reach at sp. */
static double bound(const struct hm_weight_tree *t, int node, const hm_sp_vector *sp)
{
	double best = INFINITY;

	for (int bi = 0; bi < t->nb; bi++)
		best = hm_min(best, hm_weighted_time(least_at(t, node, bi), sp[bi]));
	return best;
}

struct walk {
	const struct hm_weight_tree *t;
	const hm_sp_vector *sp;
	int lo, hi;
	double *limit;
	hm_weight_visit visit;
	void *ctx;
};

static int visit_leaf(const struct walk *w, int D)
{
	const struct hm_weight_tree *t = w->t;

	for (int bi = 0; bi < t->nb; bi++) {
		int k = (D - 1) * t->nb + bi;

		for (int g = t->start[k]; g < t->start[k + 1]; g++) {
			double time = hm_weighted_time(t->grid[g].w, w->sp[bi]);
			int stop;

			if (time < *w->limit && (stop = w->visit(w->ctx, D, t->grid[g].r, bi, time, w->limit)))
				return stop;
		}
	}
	return 0;
}

/* Node 'node' covers D in [first, last] and is bounded by 'b'. */
static int walk(const struct walk *w, int node, int first, int last, double b)
{
	int mid = (first + last) / 2, stop;
	double bl, br;

	if (b >= *w->limit)
		return 0;
	if (first == last)
		return visit_leaf(w, first);
	/* a child outside [lo, hi] is skipped, and a partly covered one is
	 * bounded by all its D: still below every D it holds in the range */
	bl = w->lo <= mid ? bound(w->t, 2 * node, w->sp) : INFINITY;
	br = w->hi > mid ? bound(w->t, 2 * node + 1, w->sp) : INFINITY;
	if (br < bl) {
		if ((stop = walk(w, 2 * node + 1, mid + 1, last, br)))
			return stop;
		return bl < INFINITY ? walk(w, 2 * node, first, mid, bl) : 0;
	}
	if (bl < INFINITY && (stop = walk(w, 2 * node, first, mid, bl)))
		return stop;
	return br < INFINITY ? walk(w, 2 * node + 1, mid + 1, last, br) : 0;
}

int hm_weight_tree_below(const struct hm_weight_tree *t, const hm_sp_vector *sp, int lo, int hi,
			 double *limit, hm_weight_visit visit, void *ctx)
{
	struct walk w = { t, sp, lo < 1 ? 1 : lo, hi > t->L ? t->L : hi, limit, visit, ctx };

	if (w.lo > w.hi)
		return 0;
	return walk(&w, 1, 1, t->leaves, bound(t, 1, sp));
}

/* search/weight_tree.c - see weight_tree.h. */
#include "weight_tree.h"
#include "divisors.h"
#include "models/util/minmax.h"

#include <float.h>
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

/* The least weights of (node, bi): HM_NR_SP arrays of 'bands' floats, one
 * per kind of weight (so a bound's dot products over the bands vectorize) */
static float *least_at(const struct hm_weight_tree *t, int node, int bi)
{
	return &t->least[((size_t)node * t->nb + bi) * HM_NR_SP * t->bands];
}

static int floor_lg(int x)
{
	return 31 - __builtin_clz((unsigned)x);
}

/* The band of r: floor(2 lg r), half an octave each */
static int band_of(int r)
{
	int lg = floor_lg(r);

	return 2 * lg + ((long)r * r >= 2L << (2 * lg));
}

/* x as a float no larger than x (weights are >= 0: a bound stays one). */
static float float_below(double x)
{
	float f = (float)x;

	return (double)f > x ? nextafterf(f, 0.0f) : f;
}

/* The inner nodes above the leaves: the least weights of each of their
 * D's kept grids, by band; above, the least of the two children. Bands
 * with no grid, and D past L, hold FLT_MAX: finite, so that a bound's dot
 * product needs no test (times a positive SP it is far above any time). */
static void fill_least(struct hm_weight_tree *t)
{
	size_t per_node = (size_t)t->nb * HM_NR_SP * t->bands;

	for (size_t i = 0; i < (size_t)t->leaves * per_node; i++)
		t->least[i] = FLT_MAX;
	for (int D = 1; D <= t->L; D++)
		for (int bi = 0; bi < t->nb; bi++) {
			int k = (D - 1) * t->nb + bi;
			float *least = least_at(t, (t->leaves + D - 1) / 2, bi);

			for (int g = t->start[k]; g < t->start[k + 1]; g++) {
				int band = band_of(t->grid[g].r);

				for (int j = 0; j < HM_NR_SP; j++)
					least[j * t->bands + band] = fminf(least[j * t->bands + band],
									   float_below(t->grid[g].w[j]));
			}
		}
	for (int node = t->leaves / 2 - 1; node >= 1; node--) {
		float *n = least_at(t, node, 0), *a = least_at(t, 2 * node, 0), *b = least_at(t, 2 * node + 1, 0);

		for (size_t i = 0; i < per_node; i++)
			n[i] = fminf(a[i], b[i]);
	}
}

int hm_weight_tree_init(struct hm_weight_tree *t, const struct hm_model *model,
			enum hm_routine routine, double n, const int *block, int nb, int L)
{
	struct hm_divisors div;
	size_t k = 0;

	t->L = L, t->nb = nb;
	t->bands = band_of(L) + 1;
	for (t->leaves = 1; t->leaves < L; t->leaves *= 2)
		;
	t->start = NULL, t->grid = NULL, t->least = NULL;
	if (hm_divisors_init(&div, L))
		return -1;
	t->start = malloc(((size_t)L * nb + 1) * sizeof(int));
	t->grid = malloc((size_t)div.start[L + 1] * nb * sizeof(*t->grid));
	t->least = malloc((size_t)t->leaves * nb * t->bands * HM_NR_SP * sizeof(float));
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
	       leaves * nb * (size_t)(band_of(L) + 1) * HM_NR_SP * sizeof(float);
}

void hm_weight_tree_release(struct hm_weight_tree *t)
{
	free(t->start), free(t->grid), free(t->least);
	t->start = NULL, t->grid = NULL, t->least = NULL;
}

/* The least time any D under 'node' can reach at sp: a leaf's own (its
 * grids), an inner node's bound by band. */
static double bound(const struct hm_weight_tree *t, int node, const hm_sp_vector *sp)
{
	double best = INFINITY, by_band[64];
	const int B = t->bands;

	if (node >= t->leaves) {
		int D = node - t->leaves + 1;

		for (int bi = 0; D <= t->L && bi < t->nb; bi++) {
			int k = (D - 1) * t->nb + bi;

			for (int g = t->start[k]; g < t->start[k + 1]; g++)
				best = hm_min(best, hm_weighted_time(t->grid[g].w, sp[bi]));
		}
		return best;
	}
	for (int bi = 0; bi < t->nb; bi++) {
		const float *l = least_at(t, node, bi);
		const double *v = sp[bi];

		for (int band = 0; band < B; band++)
			by_band[band] = 0;
		for (int j = 0; j < HM_NR_SP; j++)
			for (int band = 0; band < B; band++)
				by_band[band] += l[j * B + band] * v[j];
		for (int band = 0; band < B; band++)
			best = hm_min(best, by_band[band]);
	}
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

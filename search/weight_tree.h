/* search/weight_tree.h - a model's weights (models/model.h: time =
 * w . SPs) for every process count D in 1..L, grid r x (D / r) and
 * candidate block size, computed once, and over ranges of D the least
 * weight of each kind. One dot product per block size and band of grid
 * shapes then bounds the time of a whole range of D, its grids and b, at
 * given SPs from below, so the exact optimizer proves most ranges useless
 * without visiting their members (a branch and bound over D).
 *
 * The least weights are kept per band of r, half an octave each (floor of
 * 2 lg r): taken over every grid at once, LU's panel weight (n^2 b / 2r)
 * would come from the tallest grid and its row solves' (n^2 b / 2c) from
 * the widest, so a range's bound lost the panel altogether and at 1000
 * nodes exact walked to almost every leaf: proving LU took 230 s at
 * n = 200000 and 154 s at 500000, and takes 10 s and 3 s by half-octave
 * bands (13.8 s and 2.6 s by octaves, 30 s and 3 s by two octaves).
 *
 * Of the grids of one D and b only those no other grid matches or beats
 * in every weight are kept: a dominated grid is never the faster one. */
#ifndef HM_WEIGHT_TREE_H
#define HM_WEIGHT_TREE_H

#include "models/model.h"

struct hm_weighted_grid {
	double w[HM_NR_SP];
	int r;                  /* the grid is r x (D / r) */
};

struct hm_weight_tree {
	int L, nb;
	int bands;              /* bands of r: floor(2 lg r) in 0 .. bands - 1 */
	int leaves;             /* a power of two >= L; node 1 is the root, node leaves + D - 1 is D */
	int *start;             /* grids of (D, bi): grid[start[k] .. start[k + 1]), k = (D - 1) nb + bi */
	struct hm_weighted_grid *grid;
	/* [((node nb + bi) HM_NR_SP + kind) bands + band], inner nodes
	 * 1 .. leaves - 1: the least weight of each kind over the node's D of
	 * the grids in the band, as floats rounded down (a bound stays a
	 * bound; half the memory), FLT_MAX where the band has none; a leaf is
	 * bounded by its own grids */
	float *least;
};

/* SPs as a vector, one per candidate block size. */
typedef double hm_sp_vector[HM_NR_SP];

/* The weights of 'model' for 'routine' at order n, D in 1..L and the nb
 * block sizes 'block'. 0, or -1 when out of memory. */
int hm_weight_tree_init(struct hm_weight_tree *t, const struct hm_model *model,
			enum hm_routine routine, double n, const int *block, int nb, int L);
void hm_weight_tree_release(struct hm_weight_tree *t);

/* The most bytes hm_weight_tree_init() takes for L and nb (every grid
 * kept), in O(L). */
size_t hm_weight_tree_bytes(int L, int nb);

/* Called for a configuration whose time (from the weights) is below
 * *limit; it may lower *limit. A non-zero return ends the walk. */
typedef int (*hm_weight_visit)(void *ctx, int D, int r, int bi, double time, double *limit);

/* Visit every (D, grid, b) with lo <= D <= hi whose time at sp[bi] is
 * below *limit, the ranges with the smaller bound first. Returns what
 * the visitor returned to end the walk, else 0. */
int hm_weight_tree_below(const struct hm_weight_tree *t, const hm_sp_vector *sp, int lo, int hi,
			 double *limit, hm_weight_visit visit, void *ctx);

/* w . sp, every SP (the links' too: a bound without them lost
 * communication altogether) */
static inline double hm_weighted_time(const double *w, const double *sp)
{
	double t = 0;

	for (int j = 0; j < HM_NR_SP; j++)
		t += w[j] * sp[j];
	return t;
}

#endif /* HM_WEIGHT_TREE_H */

/* wrappers/lu_kernels.c - see lu_kernels.h. */
#include "lu_kernels.h"
#include "scalapack.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(double *v, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = (double)(seed >> 8) / 16777216.0 - 0.5;
	}
}

/* The panel factorisation of ScaLAPACK's pdgetf2, on one process: for
 * each column, find the pivot, swap rows, scale, rank-1 update. */
static void panel_lu(double *p, int m, int b)
{
	static const int one = 1;

	for (int j = 0; j < b && j < m; j++) {
		int len = m - j, piv, rest = b - j - 1, below = m - j - 1;
		double *col = p + (size_t)j * m;

		piv = j + idamax_(&len, col + j, &one) - 1;
		if (piv != j)
			dswap_(&b, p + j, &m, p + piv, &m);
		if (col[j] != 0.0 && below > 0) {
			double inv = 1.0 / col[j];

			dscal_(&below, &inv, col + j + 1, &one);
		}
		if (rest > 0 && below > 0) {
			static const double minus_one = -1.0;

			dger_(&below, &rest, &minus_one, col + j + 1, &one, p + j + (size_t)(j + 1) * m,
			      &m, p + j + 1 + (size_t)(j + 1) * m, &m);
		}
	}
}

/* Buffers of one block size's kernels (C, the update's target, shared). */
struct kernel_data {
	int m, b;
	double *A, *B, *C, *L, *X, *X0, *P, *P0;
	double flops[LU_NR_KERNELS];
};

static int kernel_data_init(struct kernel_data *d, int m, int b, double *C)
{
	size_t mb = (size_t)m * b;

	*d = (struct kernel_data){ m, b, malloc(mb * sizeof(double)), malloc(mb * sizeof(double)), C,
				   malloc((size_t)b * b * sizeof(double)), malloc(mb * sizeof(double)),
				   malloc(mb * sizeof(double)), malloc(mb * sizeof(double)),
				   malloc(mb * sizeof(double)),
				   { 2.0 * m * m * b, (double)b * b * m, (double)m * b * b - (double)b * b * b / 3.0 } };
	if (!d->A || !d->B || !d->L || !d->X || !d->X0 || !d->P || !d->P0)
		return -1;
	fill(d->A, mb, 1), fill(d->B, mb, 2), fill(d->X0, mb, 4);
	fill(d->P0, mb, 5), fill(d->L, (size_t)b * b, 6);
	for (int i = 0; i < b; i++)
		d->L[(size_t)i * b + i] = 1.0;
	return 0;
}

static void kernel_data_free(struct kernel_data *d)
{
	free(d->A), free(d->B), free(d->L), free(d->X), free(d->X0), free(d->P), free(d->P0);
}

/* One call of kernel k, the time it held its core; its input is restored
 * first (outside the time). */
static double time_kernel(struct kernel_data *d, int k, struct hm_held_clock *clock)
{
	static const double one_d = 1.0, minus_one = -1.0;
	size_t mb = (size_t)d->m * d->b;
	struct hm_held_mark mark;

	if (k == LU_DTRSM)      /* repeated solves would drift to inf/NaN */
		memcpy(d->X, d->X0, mb * sizeof(double));
	if (k == LU_PANEL)
		memcpy(d->P, d->P0, mb * sizeof(double));
	mark = hm_held_start(clock, MPI_Wtime);
	if (k == LU_DGEMM)
		dgemm_("N", "N", &d->m, &d->m, &d->b, &minus_one, d->A, &d->m, d->B, &d->b, &one_d,
		       d->C, &d->m, 1, 1);
	else if (k == LU_DTRSM)
		dtrsm_("L", "L", "N", "U", &d->b, &d->m, &one_d, d->L, &d->b, d->X, &d->b, 1, 1, 1, 1);
	else
		panel_lu(d->P, d->m, d->b);
	return hm_held_stop(clock, mark, MPI_Wtime, NULL);
}

/* One sample: kernel k repeated for at least min_time, seconds per flop. */
static double sample(struct kernel_data *d, int k, double min_time, struct hm_held_clock *clock)
{
	double start = MPI_Wtime(), busy = 0;
	long calls = 0;

	do {
		busy += time_kernel(d, k, clock);
		calls++;
	} while (MPI_Wtime() - start < min_time);
	return busy / calls / d->flops[k];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* 1 if the median of v[0..n-1] is settled (reorders v). */
static int hm_lu_kernel_settled(double *v, int n)
{
	double median, iqr;

	if (n < 2)
		return 0;
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
	iqr = v[(3 * n) / 4] - v[n / 4];
	return 1.58 * iqr / sqrt(n) <= LU_KERNELS_SETTLED * median;
}

/* 1 while some (block size, kernel) of the rounds taken is not settled. */
static int unsettled(const double *samples, int cells, int max_rounds, int rounds)
{
	double v[1024];

	for (int c = 0; c < cells; c++) {
		memcpy(v, samples + (size_t)c * max_rounds, (size_t)rounds * sizeof(double));
		if (!hm_lu_kernel_settled(v, rounds))
			return 1;
	}
	return 0;
}

int hm_time_lu_kernels(int rows, const int *bs, int nbs, int nk, int repeat, double min_time,
		       struct hm_held_clock *clock, double *samples)
{
	int max_rounds = hm_lu_kernel_rounds_max(repeat), rounds;
	struct kernel_data *d = calloc((size_t)nbs, sizeof(*d));
	double *C = malloc((size_t)rows * rows * sizeof(double));

	if (!d || !C || max_rounds > 1024) {
		fprintf(stderr, "hetmap-calibrate-bench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	fill(C, (size_t)rows * rows, 3);
	for (int bi = 0; bi < nbs; bi++)
		if (kernel_data_init(&d[bi], rows, bs[bi], C)) {
			fprintf(stderr, "hetmap-calibrate-bench: out of memory\n");
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	/* a round of warm-up (page faults, the clock's ramp), then the rounds */
	for (rounds = -1; rounds < repeat ||
			  (rounds < max_rounds && unsettled(samples, nbs * nk, max_rounds, rounds)); rounds++)
		for (int bi = 0; bi < nbs; bi++)
			for (int k = 0; k < nk; k++) {
				double s = sample(&d[bi], k, rounds < 0 ? 0 : min_time, clock);

				if (rounds >= 0)
					samples[((size_t)bi * nk + k) * max_rounds + rounds] = s;
			}
	for (int bi = 0; bi < nbs; bi++)
		kernel_data_free(&d[bi]);
	free(d), free(C);
	return rounds;
}

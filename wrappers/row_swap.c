/* wrappers/row_swap.c - see row_swap.h. */
#include "row_swap.h"
#include "scalapack.h"

#include <stdio.h>
#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double hm_time_row_swap(int rows, int lld, int width, int b, int samples, struct hm_held_clock *clock)
{
	static const int one = 1, zero = 0;
	int sys, ctx, nprow, npcol, myrow, mycol, info, desc[9];
	size_t words = (size_t)lld * width;
	double *a = malloc(words * sizeof(double)), *t = malloc((size_t)samples * sizeof(double)), result;
	int *ipiv = malloc((size_t)b * sizeof(int));
	unsigned seed = 12345;

	ctx = sys = Csys2blacs_handle(MPI_COMM_SELF);
	Cblacs_gridinit(&ctx, "R", 1, 1);
	Cblacs_gridinfo(ctx, &nprow, &npcol, &myrow, &mycol);
	descinit_(desc, &rows, &width, &b, &b, &zero, &zero, &ctx, &lld, &info);
	if (!a || !t || !ipiv || info) {
		fprintf(stderr, "hetmap-calibrate-bench: row swap: %s\n", info ? "bad descriptor" : "out of memory");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (size_t i = 0; i < words; i++)
		a[i] = (double)(i % 1000) - 500.0;
	for (int s = -1; s < samples; s++) {
		struct hm_held_mark mark;
		double held;

		/* a pivot is a row at or below its own, as partial pivoting's are */
		for (int i = 0; i < b; i++) {
			seed = seed * 1103515245u + 12345u;
			ipiv[i] = i + 1 + (int)((seed >> 8) % (unsigned)(rows - i));
		}
		mark = hm_held_start(clock, MPI_Wtime);
		pdlaswp_("F", "R", &width, a, &one, &one, desc, &one, &b, ipiv, 1, 1);
		held = hm_held_stop(clock, mark, MPI_Wtime, NULL);
		if (s >= 0)
			t[s] = held / ((double)b * width);
	}
	qsort(t, (size_t)samples, sizeof(double), cmp_double);
	result = t[samples / 2];
	free(a), free(t), free(ipiv);
	Cblacs_gridexit(ctx);
	Cfree_blacs_system_handle(sys);
	return result;
}

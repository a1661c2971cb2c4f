/* wrappers/column_step.c - see column_step.h. */
#include "column_step.h"
#include "scalapack.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A sample is disturbed when a rank waited for its core longer than this
 * share of the sample: other work ran on it. At most MAX_TRIES x samples
 * are taken to find the undisturbed ones. */
#define DISTURBED_SHARE 0.02
#define MAX_TRIES 10

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One PDGETF2 of the panel from a fresh copy: its seconds (the slowest
 * rank's) and whether a rank was kept waiting for its core. */
static double one_sample(MPI_Comm column, const int *desc, double *a, const double *a0, size_t words,
			 int *ipiv, struct hm_held_clock *clock, int *disturbed)
{
	static const int one = 1;
	int info, flag, any;
	struct hm_held_mark mark;
	double t, held, slowest;

	memcpy(a, a0, words * sizeof(double));
	MPI_Barrier(column);
	mark = hm_held_start(clock, MPI_Wtime);
	pdgetf2_(&desc[2], &desc[3], a, &one, &one, desc, ipiv, &info);
	held = hm_held_stop(clock, mark, MPI_Wtime, &t);
	flag = t - held > DISTURBED_SHARE * t;
	MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, column);
	MPI_Allreduce(&flag, &any, 1, MPI_INT, MPI_MAX, column);
	*disturbed = any;
	return slowest;
}

double hm_time_column_step(MPI_Comm column, int b, int samples, struct hm_held_clock *clock,
			   int *disturbed)
{
	static const int zero = 0;
	int r, me, sys, ctx, nprow, npcol, myrow, mycol, info, desc[9], m, kept = 0, tries = 0;
	double *a, *a0, *t, result;

	MPI_Comm_size(column, &r);
	MPI_Comm_rank(column, &me);
	ctx = sys = Csys2blacs_handle(column);
	Cblacs_gridinit(&ctx, "R", r, 1);
	Cblacs_gridinfo(ctx, &nprow, &npcol, &myrow, &mycol);
	m = r * b;
	descinit_(desc, &m, &b, &b, &b, &zero, &zero, &ctx, &b, &info);
	a = malloc((size_t)b * b * sizeof(double));
	a0 = malloc((size_t)b * b * sizeof(double));
	t = malloc((size_t)samples * sizeof(double));
	int *ipiv = malloc((size_t)(2 * b) * sizeof(int));

	if (!a || !a0 || !t || !ipiv || info) {
		fprintf(stderr, "hetmap-calibrate-bench: column step: %s\n", info ? "bad descriptor" : "out of memory");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (size_t i = 0, seed = 1 + (size_t)me; i < (size_t)b * b; i++) {
		seed = seed * 1103515245u + 12345u;
		a0[i] = (double)((seed >> 8) & 0xffffff) / 16777216.0 - 0.5;
	}
	*disturbed = 0;
	for (int w = 0; w < 2; w++)
		one_sample(column, desc, a, a0, (size_t)b * b, ipiv, clock, &(int){ 0 });
	/* a disturbed sample is never kept: a rank that lost its core holds up
	 * the others, who then count the wait as the column's */
	while (kept < samples && tries < MAX_TRIES * samples) {
		int bad;
		double s = one_sample(column, desc, a, a0, (size_t)b * b, ipiv, clock, &bad);

		tries++;
		if (bad) {
			(*disturbed)++;
			continue;
		}
		t[kept++] = s / b;
	}
	qsort(t, (size_t)kept, sizeof(double), cmp_double);
	result = kept >= samples / 2 && kept > 0 ? t[kept / 2] : NAN;
	free(a), free(a0), free(t), free(ipiv);
	Cblacs_gridexit(ctx);
	Cfree_blacs_system_handle(sys);
	return result;
}

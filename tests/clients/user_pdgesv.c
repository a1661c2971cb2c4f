/* tests/clients/user_pdgesv.c - a user's own ScaLAPACK program, as one
 * writes it: solve A x = b with pdgesv on a p x q grid, block size nb.
 * It knows nothing of hetmap; the tests run it through 'hetmap run' with
 * the plan's values in its arguments, under each launcher.
 *
 *   user_pdgesv N NB P Q [--print-time]
 *
 * With --print-time rank 0 prints "hetmap-time: SECONDS" (pdgesv's time),
 * the documented line; without, it prints its own "solve took S s" line
 * (read with --time-regex), and hetmap falls back to the MPI span. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void Cblacs_pinfo(int *me, int *np);
void Cblacs_get(int ctxt, int what, int *val);
void Cblacs_gridinit(int *ctxt, const char *order, int r, int c);
void Cblacs_gridinfo(int ctxt, int *r, int *c, int *myr, int *myc);
void Cblacs_gridexit(int ctxt);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrc, const int *np);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *irsrc,
	       const int *icsrc, const int *ctxt, const int *lld, int *info);
void pdgesv_(const int *n, const int *nrhs, double *a, const int *ia, const int *ja, const int *desca,
	     int *ipiv, double *b, const int *ib, const int *jb, const int *descb, int *info);

int main(int argc, char **argv)
{
	int n, nb, p, q, me, np, ctxt, myr, myc, zero = 0, one = 1, info, mp, nq, lld, desca[9], descb[9];
	double *a, *b, t;
	int *ipiv;

	MPI_Init(&argc, &argv);
	if (argc < 5) {
		fprintf(stderr, "usage: user_pdgesv N NB P Q [--print-time]\n");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	n = atoi(argv[1]), nb = atoi(argv[2]), p = atoi(argv[3]), q = atoi(argv[4]);
	Cblacs_pinfo(&me, &np);
	Cblacs_get(0, 0, &ctxt);
	Cblacs_gridinit(&ctxt, "Row-major", p, q);
	Cblacs_gridinfo(ctxt, &p, &q, &myr, &myc);
	if (myr < 0) {                  /* a process outside the grid */
		MPI_Finalize();
		return 0;
	}
	mp = numroc_(&n, &nb, &myr, &zero, &p);
	nq = numroc_(&n, &nb, &myc, &zero, &q);
	lld = mp > 1 ? mp : 1;
	descinit_(desca, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
	descinit_(descb, &n, &one, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
	a = malloc(sizeof(double) * (size_t)lld * (size_t)(nq > 0 ? nq : 1));
	b = malloc(sizeof(double) * (size_t)lld);
	ipiv = malloc(sizeof(int) * (size_t)(mp + nb));
	srand(1 + me);
	for (long i = 0; i < (long)lld * nq; i++)
		a[i] = rand() / (double)RAND_MAX - 0.5;
	for (int i = 0; i < lld; i++)
		b[i] = 1;
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime();
	pdgesv_(&n, &one, a, &one, &one, desca, ipiv, b, &one, &one, descb, &info);
	MPI_Barrier(MPI_COMM_WORLD);
	t = MPI_Wtime() - t;
	if (me == 0) {
		if (argc > 5 && !strcmp(argv[5], "--print-time"))
			printf("hetmap-time: %.6f\n", t);
		else
			printf("pdgesv n=%d info=%d: solve took %.4f s\n", n, info, t);
	}
	free(a), free(b), free(ipiv);
	Cblacs_gridexit(ctxt);
	MPI_Finalize();
	return info != 0;
}

/* tests/slowblas_check.c - the emulated cluster's slower cores stretch
 * the Fortran and the C BLAS interface alike (tests/vcluster.sh). Run
 * with libhetmap-slowblas.so preloaded and HETMAP_SLOWDOWN=F: times a
 * loop of 128 x 128 dgemm through dgemm_ (ScaLAPACK's way) and through
 * cblas_dgemm (HPL's) and prints each loop's wall time over its CPU time,
 * about F, since the stretch is a sleep; about 1 where a call escapes. */
#include <cblas.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

#define N 128
#define CALLS 400

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
	    const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
	    const int *ldc, size_t la, size_t lb);

static double a[N * N], b[N * N], c[N * N];

static double now(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void fortran_call(void)
{
	const int n = N;
	const double one = 1, zero = 0;

	dgemm_("N", "N", &n, &n, &n, &one, a, &n, b, &n, &zero, c, &n, 1, 1);
}

static void c_call(void)
{
	cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1, a, N, b, N, 0, c, N);
}

static void stretch(const char *name, void (*call)(void))
{
	double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);

	for (int i = 0; i < CALLS; i++)
		call();
	printf("%s %.2f\n", name, (now(CLOCK_MONOTONIC) - w0) / (now(CLOCK_PROCESS_CPUTIME_ID) - c0));
}

int main(void)
{
	for (int i = 0; i < N * N; i++)
		a[i] = b[i] = 1.0 / (1 + i % 7);
	stretch("dgemm_", fortran_call);
	stretch("cblas_dgemm", c_call);
	return 0;
}

/* libhetmap-slowblas.so: a slower core, emulated at the BLAS level.
 *
 * Preloaded into every rank of a virtual node (LD_PRELOAD, set by the
 * vcluster agent), it stands in front of the BLAS routines ScaLAPACK's LU
 * and GEMM spend their time in, calls the real ones, and then lets each
 * call take HETMAP_SLOWDOWN times the CPU time it used: as if this node's
 * core were that much slower. The stretch is a sleep, so a rank that
 * waits for a message (in MPI, not in BLAS) costs nothing extra and lends
 * its core to its neighbours: unlike a CPU quota, which a waiting rank
 * that polls spends while it waits (experiments/vcluster/README.md,
 * "Two emulations").
 *
 * The CPU time of a call is the thread's (CLOCK_THREAD_CPUTIME_ID), so
 * time lost to a neighbour sharing the core is not stretched again. Short
 * calls are not slept one by one (a sleep costs ~60 us): the time owed is
 * kept per thread and slept once it passes 1 ms, and what the sleep
 * overshot is credited, so the average stretch is the one asked.
 *
 * Routines: dgemm dtrsm dtrmm dsyrk dgemv dtrsv dger dscal dswap idamax
 * dcopy daxpy (Fortran symbols, as ScaLAPACK and LAPACK call them; the
 * hidden string lengths gfortran passes are forwarded). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdlib.h>
#include <time.h>

typedef int F_INT;
typedef size_t F_LEN;

static double slowdown = -1;            /* HETMAP_SLOWDOWN, read once */
static __thread double owed;            /* seconds still to sleep */

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double wall_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double factor(void)
{
	if (slowdown < 0) {
		const char *s = getenv("HETMAP_SLOWDOWN");
		double f = s ? strtod(s, NULL) : 1;

		slowdown = f >= 1 && f <= 1000 ? f : 1;
	}
	return slowdown;
}

/* After a call that used 'cpu' seconds of CPU: owe (factor - 1) x cpu. */
static void stretch(double cpu)
{
	double f = factor();

	if (f <= 1)
		return;
	owed += (f - 1) * cpu;
	if (owed >= 1e-3) {
		double start = wall_now();
		struct timespec t = { (time_t)owed, (long)((owed - (time_t)owed) * 1e9) };

		nanosleep(&t, NULL);
		owed -= wall_now() - start;     /* an overshoot is credited */
	}
}

/* The real routine, found once behind this library. */
#define REAL(name) \
	static __typeof__(name) *real; \
	if (!real) \
		real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

#define TIMED(call) do { double c0 = cpu_now(); call; stretch(cpu_now() - c0); } while (0)

void dgemm_(const char *ta, const char *tb, const F_INT *m, const F_INT *n, const F_INT *k,
	    const double *alpha, const double *a, const F_INT *lda, const double *b, const F_INT *ldb,
	    const double *beta, double *c, const F_INT *ldc, F_LEN la, F_LEN lb)
{
	REAL(dgemm_);
	TIMED(real(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, la, lb));
}

void dtrsm_(const char *side, const char *uplo, const char *ta, const char *diag, const F_INT *m,
	    const F_INT *n, const double *alpha, const double *a, const F_INT *lda, double *b,
	    const F_INT *ldb, F_LEN l1, F_LEN l2, F_LEN l3, F_LEN l4)
{
	REAL(dtrsm_);
	TIMED(real(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, l1, l2, l3, l4));
}

void dtrmm_(const char *side, const char *uplo, const char *ta, const char *diag, const F_INT *m,
	    const F_INT *n, const double *alpha, const double *a, const F_INT *lda, double *b,
	    const F_INT *ldb, F_LEN l1, F_LEN l2, F_LEN l3, F_LEN l4)
{
	REAL(dtrmm_);
	TIMED(real(side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb, l1, l2, l3, l4));
}

void dsyrk_(const char *uplo, const char *trans, const F_INT *n, const F_INT *k, const double *alpha,
	    const double *a, const F_INT *lda, const double *beta, double *c, const F_INT *ldc,
	    F_LEN l1, F_LEN l2)
{
	REAL(dsyrk_);
	TIMED(real(uplo, trans, n, k, alpha, a, lda, beta, c, ldc, l1, l2));
}

void dgemv_(const char *trans, const F_INT *m, const F_INT *n, const double *alpha, const double *a,
	    const F_INT *lda, const double *x, const F_INT *incx, const double *beta, double *y,
	    const F_INT *incy, F_LEN l1)
{
	REAL(dgemv_);
	TIMED(real(trans, m, n, alpha, a, lda, x, incx, beta, y, incy, l1));
}

void dtrsv_(const char *uplo, const char *trans, const char *diag, const F_INT *n, const double *a,
	    const F_INT *lda, double *x, const F_INT *incx, F_LEN l1, F_LEN l2, F_LEN l3)
{
	REAL(dtrsv_);
	TIMED(real(uplo, trans, diag, n, a, lda, x, incx, l1, l2, l3));
}

void dger_(const F_INT *m, const F_INT *n, const double *alpha, const double *x, const F_INT *incx,
	   const double *y, const F_INT *incy, double *a, const F_INT *lda)
{
	REAL(dger_);
	TIMED(real(m, n, alpha, x, incx, y, incy, a, lda));
}

void dscal_(const F_INT *n, const double *alpha, double *x, const F_INT *incx)
{
	REAL(dscal_);
	TIMED(real(n, alpha, x, incx));
}

void dswap_(const F_INT *n, double *x, const F_INT *incx, double *y, const F_INT *incy)
{
	REAL(dswap_);
	TIMED(real(n, x, incx, y, incy));
}

void dcopy_(const F_INT *n, const double *x, const F_INT *incx, double *y, const F_INT *incy)
{
	REAL(dcopy_);
	TIMED(real(n, x, incx, y, incy));
}

void daxpy_(const F_INT *n, const double *alpha, const double *x, const F_INT *incx, double *y,
	    const F_INT *incy)
{
	REAL(daxpy_);
	TIMED(real(n, alpha, x, incx, y, incy));
}

F_INT idamax_(const F_INT *n, const double *x, const F_INT *incx)
{
	F_INT r;

	REAL(idamax_);
	TIMED(r = real(n, x, incx));
	return r;
}

/* libhetmap-slowblas.so: a slower core, emulated at the BLAS level.
 *
 * Preloaded into every rank of a virtual node (LD_PRELOAD, set by the
 * vcluster agent), it stands in front of the BLAS routines ScaLAPACK's LU
 * and GEMM spend their time in, calls the real ones, and then lets each
 * call take HETMAP_SLOWDOWN times the CPU time it used: as if this node's
 * core were that much slower. The stretch is a sleep, so a rank that
 * waits for a message (in MPI, not in BLAS) costs nothing extra and lends
 * its core to its neighbours: unlike a CPU quota, which a waiting rank
 * that polls spends while it waits (wrappers/vcluster/README.md,
 * "Two emulations").
 *
 * A call's time is its wall time (CLOCK_MONOTONIC, 22 ns here) scaled by
 * the fraction of the core the thread got since the last sleep, read
 * from its CPU clock only then (CLOCK_THREAD_CPUTIME_ID costs a system
 * call, 540 ns here: read on every call it doubled the time of stacked
 * pdgemm ranks), so time lost to a neighbour sharing the core is not
 * stretched again. Short calls are not slept one by one (a sleep costs
 * ~60 us): the debt is slept once it passes 1 ms, and what the sleep
 * overshot is credited, so the average stretch is the one asked. A
 * factor of 1 costs nothing: the calls go straight through.
 *
 * Routines: dgemm dtrsm dtrmm dsyrk dgemv dtrsv dger dscal dswap idamax
 * dcopy daxpy (Fortran symbols, as ScaLAPACK and LAPACK call them; the
 * hidden string lengths gfortran passes are forwarded), and the CBLAS
 * ones HPL calls (cblas_dgemm dtrsm dgemv dtrsv dger dscal dcopy daxpy
 * idamax). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "core_locks.h"

typedef int F_INT;
typedef size_t F_LEN;

static double slowdown = -1;            /* HETMAP_SLOWDOWN, read once */
static __thread double blas_wall;       /* BLAS wall time since the last settlement */
static __thread double mark_wall = -1, mark_cpu;  /* clocks at the last settlement */
static __thread double credit;          /* an earlier sleep's shortfall (+) or overshoot (-) */
static __thread double lock_wait;       /* time blocked for a core since the last settlement */

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

static struct hm_core_locks *locks;      /* the node's cores, or NULL */
static int locks_tried;

static void map_locks(void)
{
	const char *path = getenv("HETMAP_CORE_LOCKS");
	int fd;
	void *p;

	locks_tried = 1;
	if (!path || (fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		return;
	p = mmap(NULL, sizeof(*locks), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED && ((struct hm_core_locks *)p)->n >= 1 &&
	    ((struct hm_core_locks *)p)->n <= HM_MAX_CORE_LOCKS)
		locks = p;
}

static void take(pthread_mutex_t *m)
{
	if (pthread_mutex_lock(m) == EOWNERDEAD)
		pthread_mutex_consistent(m);    /* its holder died: the core is free */
}

/* A free core of the node, or wait for one; its index, or -1 (no locks). */
static int take_core(void)
{
	int r;

	if (!locks_tried)
		map_locks();
	if (!locks)
		return -1;
	for (int k = 0; k < locks->n; k++)
		if ((r = pthread_mutex_trylock(&locks->core[k])) == 0 || r == EOWNERDEAD) {
			if (r == EOWNERDEAD)
				pthread_mutex_consistent(&locks->core[k]);
			return k;
		}
	r = (int)(getpid() % locks->n);
	{
		double w0 = wall_now();

		take(&locks->core[r]);
		lock_wait += wall_now() - w0;
	}
	return r;
}

static void give_core(int k)
{
	if (k >= 0)
		pthread_mutex_unlock(&locks->core[k]);
}

/* After a call that took 'wall' seconds: owe (factor - 1) x its time on
 * the core; settle (sleep) once 1 ms is owed. */
static void stretch(double wall)
{
	double f = factor(), now_w, now_c, share = 1, owed;

	blas_wall += wall;
	if ((f - 1) * blas_wall + credit < 1e-3)
		return;
	now_w = wall_now();
	now_c = cpu_now();
	/* the core's share this thread got while it could run: time blocked
	 * on the node's core lock is not a neighbour's doing */
	if (mark_wall >= 0 && now_w - mark_wall - lock_wait > 0) {
		share = (now_c - mark_cpu) / (now_w - mark_wall - lock_wait);
		share = share < 0 ? 0 : share > 1 ? 1 : share;
	}
	lock_wait = 0;
	owed = (f - 1) * blas_wall * share + credit;
	blas_wall = 0;
	if (owed > 0) {
		struct timespec t = { (time_t)owed, (long)((owed - (time_t)owed) * 1e9) };

		nanosleep(&t, NULL);
	}
	mark_wall = wall_now();
	credit = owed - (mark_wall - now_w);    /* an overshoot is credited */
	mark_cpu = now_c;                       /* sleeping used no CPU */
}

/* The real routine, found once behind this library. */
#define REAL(name) \
	static __typeof__(name) *real; \
	if (!real) \
		real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

#define TIMED(call) do { \
		if (factor() <= 1) { \
			call; \
		} else { \
			int core = take_core(); \
			double w0 = wall_now(); \
			call; \
			stretch(wall_now() - w0); \
			give_core(core); \
		} \
	} while (0)

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

/* The C interface (CBLAS), which HPL inside hpcc calls instead of the
 * Fortran symbols: without these its ranks ran at the real core's speed
 * on every virtual node. CBLAS's enumerations are passed as int, its
 * index type is size_t (OpenBLAS's and the reference's CBLAS_INDEX). */
typedef int C_ENUM;

void cblas_dgemm(C_ENUM order, C_ENUM ta, C_ENUM tb, int m, int n, int k, double alpha, const double *a,
		 int lda, const double *b, int ldb, double beta, double *c, int ldc)
{
	REAL(cblas_dgemm);
	TIMED(real(order, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc));
}

void cblas_dtrsm(C_ENUM order, C_ENUM side, C_ENUM uplo, C_ENUM ta, C_ENUM diag, int m, int n, double alpha,
		 const double *a, int lda, double *b, int ldb)
{
	REAL(cblas_dtrsm);
	TIMED(real(order, side, uplo, ta, diag, m, n, alpha, a, lda, b, ldb));
}

void cblas_dgemv(C_ENUM order, C_ENUM trans, int m, int n, double alpha, const double *a, int lda,
		 const double *x, int incx, double beta, double *y, int incy)
{
	REAL(cblas_dgemv);
	TIMED(real(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy));
}

void cblas_dtrsv(C_ENUM order, C_ENUM uplo, C_ENUM trans, C_ENUM diag, int n, const double *a, int lda,
		 double *x, int incx)
{
	REAL(cblas_dtrsv);
	TIMED(real(order, uplo, trans, diag, n, a, lda, x, incx));
}

void cblas_dger(C_ENUM order, int m, int n, double alpha, const double *x, int incx, const double *y, int incy,
		double *a, int lda)
{
	REAL(cblas_dger);
	TIMED(real(order, m, n, alpha, x, incx, y, incy, a, lda));
}

void cblas_dscal(int n, double alpha, double *x, int incx)
{
	REAL(cblas_dscal);
	TIMED(real(n, alpha, x, incx));
}

void cblas_dcopy(int n, const double *x, int incx, double *y, int incy)
{
	REAL(cblas_dcopy);
	TIMED(real(n, x, incx, y, incy));
}

void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y, int incy)
{
	REAL(cblas_daxpy);
	TIMED(real(n, alpha, x, incx, y, incy));
}

size_t cblas_idamax(int n, const double *x, int incx)
{
	size_t r;

	REAL(cblas_idamax);
	TIMED(r = real(n, x, incx));
	return r;
}

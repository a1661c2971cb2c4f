/* wrappers/smpi/kernels.c - modeled kernels for programs simulated by SMPI
 * (wrappers/README.md, "Modeled kernels").
 *
 * Linked into an SMPI program ahead of the BLAS, it stands in front of the
 * kernels ScaLAPACK's LU and GEMM spend their time in: dgemm_ and dtrsm_
 * (level 3) and dger_ (the panel's rank-1 updates). On a simulated host
 * whose platform gives a model of the kernel (host properties hm_dgemm,
 * hm_dtrsm, hm_dger, written by 'hetmap export simgrid --kernels modeled'),
 * a call spends the simulated time the model gives for its shape instead of
 * computing: level 3 is not executed at all (the matrices are shared, their
 * contents meaningless); dger is executed, so that the panel's pivots come
 * from data, and charged at the model's time. On a host without a model the
 * call goes to the BLAS, as if this file were not linked.
 *
 * A model is either a table of seconds per flop over the call's block
 * dimension ("table 32:1.1e-11 64:1e-11 ...", the platform's k tables:
 * time = flops x k there, interpolated linearly and clamped), or the
 * coefficients of the kernel's terms fitted by 'hetmap calibrate' from
 * timed shapes ("poly c1 c2 ...": time = sum c_i term_i; the terms are
 * models/common/kernel_terms.h's).
 *
 * With --kernels modeled the simulator times nothing on this machine
 * (smpi/simulate-computation:no): every simulated second is charged here
 * from the platform, so the same job simulates to the same time however
 * busy this machine is. The host then also carries (hm_level1):
 *  - hm_level1, seconds per element of the panel's other level-1 calls
 *    (idamax, dscal, dcopy: its k2_dgetf2, one flop an element);
 *  - hm_dswap, seconds per element of a row interchange (k1_dswap), and
 *    hm_dswap_aliased where the rows' stride aliases (k1_dswap_aliased,
 *    models/common/stride_alias.h);
 *  - hm_column_step, what each of PDGETF2's column steps costs a process
 *    beyond its messages (column_step, times the 3 steps of a column of
 *    two; charged once a column, at its idamax).
 * and the calls compute nothing: dger, dswap and dscal are charged only,
 * and idamax picks the pivot a random matrix would have (a row of the
 * column drawn at random, its value set nonzero there), so that the run
 * pivots like a real one, swaps where a random matrix has them, and never
 * meets a zero pivot. Without hm_level1 (--kernels modeled-as-executed)
 * those calls execute and SMPI times them. */
#include <mpi.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "models/common/kernel_terms.h"
#include "models/common/progress.h"
#include "models/common/stride_alias.h"

static const char *const property[HM_NR_KERNELS] = { "hm_dgemm", "hm_dtrsm", "hm_dger" };

#define MAX_POINTS 32
struct kernel_model {
	int kind;               /* 0 none, 1 table, 2 poly */
	int n;                  /* table points */
	double at[MAX_POINTS], k[MAX_POINTS];   /* block dimension, s/flop */
	double c[HM_KERNEL_MAX_TERMS];          /* poly: the terms' coefficients */
};

struct host_models {
	struct kernel_model kernel[HM_NR_KERNELS];
	int charges_all;        /* hm_level1 given: nothing is timed here */
	double level1, dswap, dswap_aliased, column_step;       /* s per element, per column */
};

static void parse(const char *text, struct kernel_model *m)
{
	const char *s = text;
	int used;

	memset(m, 0, sizeof(*m));
	if (!text)
		return;
	if (!strncmp(s, "poly", 4)) {
		for (s += 4; m->n < HM_KERNEL_MAX_TERMS && sscanf(s, " %lf%n", &m->c[m->n], &used) == 1; s += used)
			m->n++;
		m->kind = m->n > 0 ? 2 : 0;
		return;
	}
	if (strncmp(s, "table", 5))
		return;
	for (s += 5; m->n < MAX_POINTS && sscanf(s, " %lf:%lf%n", &m->at[m->n], &m->k[m->n], &used) == 2;
	     s += used)
		m->n++;
	m->kind = m->n > 0;
}

/* The models of the host this rank runs on, parsed once per host. The
 * first host with a model says so on standard output, once: 'hetmap run'
 * reads that line to know the program's kernels were modeled (its
 * residual means nothing) and warns when a modeled run never prints it. */
static void announce(void)
{
	/* each rank has its own copy of this file's variables (SMPI privatizes
	 * them); the environment is the one process's */
	if (getenv("HETMAP_KERNELS_ANNOUNCED"))
		return;
	setenv("HETMAP_KERNELS_ANNOUNCED", "1", 1);    /* SMPI runs one rank at a time */
	printf("%s\n", HM_KERNELS_MARK);
	fflush(stdout);
}

/* Progress for whoever waits on a long simulation ('plan --judge' reads
 * it from each candidate's log): the simulated clock on standard output,
 * as common/progress.h says, every period of this machine's time (read
 * once per rank: the variable does not change). This machine's clock is
 * read by the system call itself (SMPI's headers turn clock_gettime into
 * the simulated clock), the simulated one without injecting time
 * (simgrid_get_clock, not MPI_Wtime). SMPI runs one rank at a time and
 * the environment is the one process's: it holds when the last line went. */
static void progress(void)
{
	static double every = -1;
	const char *last_text;
	struct timespec now;
	double wall;
	char text[32];

	if (every < 0)
		every = hm_progress_period();
	if (every <= 0 || syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now))
		return;
	last_text = getenv("HETMAP_PROGRESS_LAST");
	wall = (double)now.tv_sec + now.tv_nsec * 1e-9;
	if (last_text && wall - atof(last_text) < every)
		return;
	snprintf(text, sizeof(text), "%.3f", wall);
	setenv("HETMAP_PROGRESS_LAST", text, 1);
	if (last_text) {        /* the first call only starts the count */
		printf(HM_PROGRESS_MARK "%.6g\n", simgrid_get_clock());
		fflush(stdout);
	}
}

/* A host property holding seconds: 1 and *out set when given. */
static int seconds_of(sg_host_t host, const char *name, double *out)
{
	const char *text = sg_host_get_property_value(host, name);

	*out = 0;
	return text && sscanf(text, "%lf", out) == 1 && *out >= 0;
}

static const struct host_models *models_here(void)
{
	sg_host_t host = sg_host_self();
	struct host_models *hm = sg_host_get_data(host);

	if (!hm) {
		if (!(hm = calloc(1, sizeof(*hm)))) {
			fputs("hetmap kernels: out of memory\n", stderr);
			abort();
		}
		for (int i = 0; i < HM_NR_KERNELS; i++) {
			parse(sg_host_get_property_value(host, property[i]), &hm->kernel[i]);
			if (hm->kernel[i].kind)
				announce();
		}
		hm->charges_all = seconds_of(host, "hm_level1", &hm->level1);
		seconds_of(host, "hm_dswap", &hm->dswap);
		if (!seconds_of(host, "hm_dswap_aliased", &hm->dswap_aliased))
			hm->dswap_aliased = hm->dswap;
		seconds_of(host, "hm_column_step", &hm->column_step);
		sg_host_set_data(host, hm);
	}
	return hm;
}

/* s/flop of a table at inner dimension x */
static double table_at(const struct kernel_model *m, double x)
{
	if (x <= m->at[0])
		return m->k[0];
	for (int i = 1; i < m->n; i++)
		if (x <= m->at[i])
			return m->k[i - 1] + (m->k[i] - m->k[i - 1]) * (x - m->at[i - 1]) / (m->at[i] - m->at[i - 1]);
	return m->k[m->n - 1];
}

/* Seconds of a call of shape (x, y, z) (kernel_terms.h); -1 when the host
 * has no model of this kernel. */
static double modeled_seconds(enum hm_kernel kernel, double x, double y, double z)
{
	const struct kernel_model *km = &models_here()->kernel[kernel];
	double term[HM_KERNEL_MAX_TERMS], t = 0;
	int nt;

	if (km->kind == 1)
		return hm_kernel_flops(kernel, x, y, z) * table_at(km, hm_kernel_block(kernel, x, y, z));
	if (km->kind != 2)
		return -1;
	nt = hm_kernel_terms(kernel, x, y, z, term);
	for (int i = 0; i < nt && i < km->n; i++)
		t += km->c[i] * term[i];
	return t > 0 ? t : 0;
}

/* The BLAS's own function, found once. */
static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		fprintf(stderr, "hetmap kernels: no BLAS '%s' after this library (%s)\n", name, dlerror());
		abort();
	}
	return f;
}

typedef void dgemm_fn(const char *, const char *, const int *, const int *, const int *, const double *,
		      const double *, const int *, const double *, const int *, const double *, double *,
		      const int *);
typedef void dtrsm_fn(const char *, const char *, const char *, const char *, const int *, const int *,
		      const double *, const double *, const int *, double *, const int *);
typedef void dger_fn(const int *, const int *, const double *, const double *, const int *, const double *,
		     const int *, double *, const int *);

void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k, const double *alpha,
	    const double *a, const int *lda, const double *b, const int *ldb, const double *beta, double *c,
	    const int *ldc)
{
	static dgemm_fn *blas;
	double t = modeled_seconds(HM_KERNEL_DGEMM, *m, *n, *k);

	if (t >= 0) {
		smpi_execute_benched(t);
		progress();     /* dgemm: every rank calls it all along LU and GEMM */
		return;
	}
	if (!blas)
		blas = (dgemm_fn *)real("dgemm_");
	blas(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* A triangle of order t solved for r right-hand sides: t^2 r flops; a
 * table is read at the triangle's order (the platform's k3_dtrsm(b)). */
void dtrsm_(const char *side, const char *uplo, const char *transa, const char *diag, const int *m,
	    const int *n, const double *alpha, const double *a, const int *lda, double *b, const int *ldb)
{
	static dtrsm_fn *blas;
	int left = *side == 'L' || *side == 'l';
	double t = modeled_seconds(HM_KERNEL_DTRSM, left ? *m : *n, left ? *n : *m, 0);

	if (t >= 0) {
		smpi_execute_benched(t);
		return;
	}
	if (!blas)
		blas = (dtrsm_fn *)real("dtrsm_");
	blas(side, uplo, transa, diag, m, n, alpha, a, lda, b, ldb);
}

/* Executed (the panel's pivots come from the data) and charged at the
 * model; charged only when the host charges all. */
void dger_(const int *m, const int *n, const double *alpha, const double *x, const int *incx, const double *y,
	   const int *incy, double *a, const int *lda)
{
	static dger_fn *blas;
	double t = modeled_seconds(HM_KERNEL_DGER, *m, *n, 0);

	if (!blas)
		blas = (dger_fn *)real("dger_");
	if (t < 0) {
		blas(m, n, alpha, x, incx, y, incy, a, lda);
		return;
	}
	if (models_here()->charges_all) {
		smpi_execute_benched(t);
		return;
	}
	smpi_bench_end();
	blas(m, n, alpha, x, incx, y, incy, a, lda);
	smpi_execute_flops(t * sg_host_get_speed(sg_host_self()));
	smpi_bench_begin();
}

/* ---- the panel's level-1 calls, where the host charges all ---------------- */

typedef int idamax_fn(const int *, const double *, const int *);
typedef void dswap_fn(const int *, double *, const int *, double *, const int *);
typedef void dscal_fn(const int *, const double *, double *, const int *);
typedef void dcopy_fn(const int *, const double *, const int *, double *, const int *);

/* The pivots of a random matrix: a row drawn uniformly from the column's
 * rows here (the combine over the process column then takes the largest,
 * a process row drawn at random too), its value between 0.5 and 1. A
 * deterministic sequence: the same job simulates the same pivots. */
static unsigned long long pivot_state = 0x9e3779b97f4a7c15ull;

static unsigned long long next_pivot_draw(void)
{
	pivot_state ^= pivot_state << 13, pivot_state ^= pivot_state >> 7, pivot_state ^= pivot_state << 17;
	return pivot_state;
}

int idamax_(const int *n, const double *x, const int *incx)
{
	static idamax_fn *blas;
	const struct host_models *hm = models_here();
	unsigned long long draw;
	int at;

	if (!hm->charges_all) {
		if (!blas)
			blas = (idamax_fn *)real("idamax_");
		return blas(n, x, incx);
	}
	if (*n < 1)
		return 0;
	smpi_execute_benched(*n * hm->level1 + hm->column_step);
	draw = next_pivot_draw();
	at = (int)(draw % (unsigned long long)*n);
	((double *)x)[(long)at * (*incx > 0 ? *incx : 1)] = 0.5 + (double)(draw >> 11) / 9007199254740992.0 / 2;
	return at + 1;
}

void dswap_(const int *n, double *x, const int *incx, double *y, const int *incy)
{
	static dswap_fn *blas;
	const struct host_models *hm = models_here();

	if (hm->charges_all) {
		double per = hm_stride_aliased(*incx) || hm_stride_aliased(*incy) ? hm->dswap_aliased : hm->dswap;

		smpi_execute_benched(*n > 0 ? *n * per : 0);
		return;
	}
	if (!blas)
		blas = (dswap_fn *)real("dswap_");
	blas(n, x, incx, y, incy);
}

void dscal_(const int *n, const double *alpha, double *x, const int *incx)
{
	static dscal_fn *blas;
	const struct host_models *hm = models_here();

	if (hm->charges_all) {
		smpi_execute_benched(*n > 0 ? *n * hm->level1 : 0);
		return;
	}
	if (!blas)
		blas = (dscal_fn *)real("dscal_");
	blas(n, alpha, x, incx);
}

/* Executed either way (BLACS and PBLAS copy with it; cheap), charged. */
void dcopy_(const int *n, const double *x, const int *incx, double *y, const int *incy)
{
	static dcopy_fn *blas;
	const struct host_models *hm = models_here();

	if (!blas)
		blas = (dcopy_fn *)real("dcopy_");
	blas(n, x, incx, y, incy);
	if (hm->charges_all && *n > 0)
		smpi_execute_benched(*n * hm->level1);
}

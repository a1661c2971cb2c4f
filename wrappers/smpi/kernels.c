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
 * wrappers/kernel_terms.h's). */
#include <mpi.h>
#include <simgrid/host.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_terms.h"

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

/* Executed (the panel's pivots come from the data), charged at the model. */
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
	smpi_bench_end();
	blas(m, n, alpha, x, incx, y, incy, a, lda);
	smpi_execute_flops(t * sg_host_get_speed(sg_host_self()));
	smpi_bench_begin();
}

/* hetmap-driver: run one unmodified ScaLAPACK routine (pdgetrf or pdgemm)
 * on an r x c BLACS grid, time only the routine, check the result, and
 * print one JSON line on rank 0.
 *
 *   mpirun -np 4 hetmap-driver --routine lu -n 2000 -b 64 -r 2 -c 2
 *
 * Exit codes: 0 checked and passed, 2 bad arguments, 3 check failed,
 * 4 ScaLAPACK reported an error, 1 out of memory or MPI failure. */
#ifndef _GNU_SOURCE    /* the SMPI build defines it for every source */
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#endif
#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalapack.h"
#include "models/common/driver_limits.h"
#include "cpu_list.h"
#ifdef SMPI_SHARED_MALLOC
#include "wrappers/smpi/payloads.h"
#else   /* no SMPI: nothing to leave uncopied (--modeled is refused) */
static long hm_payloads_skip(void) { return 0; }
static void hm_payloads_copy(void) {}
#endif

enum { EXIT_BAD_ARGS = 2, EXIT_CHECK_FAILED = 3, EXIT_SCALAPACK = 4 };

/* HPL's bound for a scaled residual: a correct solver stays far below. */
#define CHECK_THRESHOLD 16.0

struct args {
	int lu;                 /* 1 pdgetrf, 0 pdgemm */
	int n, b, r, c;
	unsigned long seed;
	int check;
	int perturb;            /* spoil the result on purpose: tests the check */
	int modeled;            /* SMPI with modeled kernels: shared matrices, no check */
};

/* A distributed matrix: descriptor and this rank's local block. */
struct dmatrix {
	int desc[9];
	int rows, cols, lld;    /* local extent */
	int shared;             /* SMPI_SHARED_MALLOC'd (modeled kernels) */
	double *v;
};

struct grid {
	int context, rows, cols, row, col, rank, size;
};

static const char usage_text[] =
	"usage: hetmap-driver --routine lu|gemm -n N -b B -r R -c C [--seed S] [--no-check]\n"
	"                     [--perturb] [--modeled]\n"
	"Run pdgetrf (LU) or pdgemm (C = A B) of order N, block size B, on an R x C\n"
	"grid (R*C must equal the number of MPI processes; rank k sits at row k / C,\n"
	"column k mod C). Prints one JSON line: time of the routine alone (max over\n"
	"ranks), GFLOP/s, the check (scaled residual, must be < 16) and where each\n"
	"rank ran. --perturb spoils one entry of the result after the timing, to\n"
	"show that the check catches it (exit code 3). --modeled (built for SMPI only):\n"
	"the simulated hosts' kernels are modeled (wrappers/smpi/kernels.c), so the\n"
	"matrices are shared between ranks (SMPI_SHARED_MALLOC), their contents\n"
	"meaningless and nothing is checked; only the time counts.\n";

/* Only rank 0 reports argument errors; every rank reaches the same verdict. */
static int quiet;

static void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void complain(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	fputs("hetmap-driver: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* Parse an integer in [1, max]; 0 on success. */
static int parse_int(const char *text, const char *what, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < 1 || v > max) {
		complain("%s must be an integer in [1, %ld], not '%s'", what, max, text);
		return -1;
	}
	*out = (int)v;
	return 0;
}

static int parse_routine(const char *text, int *lu)
{
	if (strcmp(text, "lu") && strcmp(text, "gemm")) {
		complain("--routine must be lu or gemm, not '%s'", text);
		return -1;
	}
	*lu = !strcmp(text, "lu");
	return 0;
}

/* Returns 0, -1 after --help, or EXIT_BAD_ARGS. */
static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "routine", required_argument, NULL, 'R' },
		{ "size", required_argument, NULL, 'n' },
		{ "block", required_argument, NULL, 'b' },
		{ "rows", required_argument, NULL, 'r' },
		{ "cols", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "no-check", no_argument, NULL, 'N' },
		{ "perturb", no_argument, NULL, 'P' },
		{ "modeled", no_argument, NULL, 'M' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, seed = 1, bad = 0;

	memset(a, 0, sizeof(*a));
	a->lu = -1;
	a->check = 1;
	opterr = !quiet;
	while (!bad && (opt = getopt_long(argc, argv, "n:b:r:c:s:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'R': bad = parse_routine(optarg, &a->lu); break;
		case 'n': bad = parse_int(optarg, "-n", HM_DRIVER_MAX_N, &a->n); break;
		case 'b': bad = parse_int(optarg, "-b", HM_DRIVER_MAX_B, &a->b); break;
		case 'r': bad = parse_int(optarg, "-r", HM_DRIVER_MAX_GRID_SIDE, &a->r); break;
		case 'c': bad = parse_int(optarg, "-c", HM_DRIVER_MAX_GRID_SIDE, &a->c); break;
		case 's': bad = parse_int(optarg, "--seed", 2147483647, &seed); break;
		case 'N': a->check = 0; break;
		case 'P': a->perturb = 1; break;
		case 'M': a->modeled = 1, a->check = 0; break;
		case 'h':
			if (!quiet)
				fputs(usage_text, stdout);
			return -1;
		default: bad = 1;
		}
	}
	if (bad)
		return EXIT_BAD_ARGS;
	a->seed = (unsigned long)seed;
#ifndef SMPI_SHARED_MALLOC
	if (a->modeled) {
		complain("--modeled: modeled kernels exist only under SMPI (hetmap-driver-smpi)");
		return EXIT_BAD_ARGS;
	}
#endif
	if (optind < argc || a->lu < 0 || !a->n || !a->b || !a->r || !a->c) {
		complain("%s", optind < argc ? "unexpected argument" :
			 "--routine, -n, -b, -r and -c are required (see --help)");
		return EXIT_BAD_ARGS;
	}
	return 0;
}

/* Matrix entries depend only on (seed, matrix, i, j), never on the grid, so
 * every distribution factors the same matrix. splitmix64 is enough. */
static double entry(unsigned long seed, int which, long i, long j, long n)
{
	uint64_t z = (uint64_t)seed * 0x9E3779B97F4A7C15ull +
		     (uint64_t)which * 0xD1B54A32D192ED03ull + (uint64_t)(i * n + j);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}

/* Global index of local index 'l' in a block-cyclic dimension. */
static long global_index(int l, int nb, int p, int nprocs)
{
	return ((long)(l / nb) * nprocs + p) * nb + l % nb;
}

/* Under modeled kernels the big matrices are one shared block mapped
 * again and again (SMPI_SHARED_MALLOC): memory that does not grow with n.
 * Their first block is filled, so that the pivots still come from data. */
#define SHARED_FILL ((size_t)1 << 17)          /* doubles: SMPI's 1 MiB block */

static int dmatrix_init(struct dmatrix *m, const struct grid *g, int rows, int cols, int nb,
			int shared)
{
	static const int zero = 0;
	size_t len;
	int info;

	m->rows = numroc_(&rows, &nb, &g->row, &zero, &g->rows);
	m->cols = numroc_(&cols, &nb, &g->col, &zero, &g->cols);
	m->lld = m->rows > 1 ? m->rows : 1;
	m->shared = shared;
	descinit_(m->desc, &rows, &cols, &nb, &nb, &zero, &zero, &g->context, &m->lld, &info);
	len = ((size_t)m->lld * (size_t)(m->cols > 0 ? m->cols : 1)) * sizeof(double);
#ifdef SMPI_SHARED_MALLOC
	m->v = shared ? SMPI_SHARED_MALLOC(len) : malloc(len);
#else
	m->v = malloc(len);
#endif
	return info == 0 && m->v ? 0 : -1;
}

static void dmatrix_free(struct dmatrix *m)
{
#ifdef SMPI_SHARED_MALLOC
	if (m->shared) {
		SMPI_SHARED_FREE(m->v);
		return;
	}
#endif
	free(m->v);
}

static void dmatrix_fill(struct dmatrix *m, const struct grid *g, int nb, long n,
			 unsigned long seed, int which)
{
	size_t filled = 0, most = m->shared ? SHARED_FILL : (size_t)-1;

	for (int lj = 0; lj < m->cols && filled < most; lj++) {
		long gj = global_index(lj, nb, g->col, g->cols);

		for (int li = 0; li < m->rows && filled < most; li++, filled++)
			m->v[(size_t)lj * m->lld + li] =
				entry(seed, which, global_index(li, nb, g->row, g->rows), gj, n);
	}
}

static double norm_inf(const struct dmatrix *m, int rows, int cols)
{
	static const int one = 1;
	double *work = malloc(((size_t)m->rows + 1) * sizeof(double));
	double v = work ? pdlange_("I", &rows, &cols, m->v, &one, &one, m->desc, work, 1) : NAN;

	free(work);
	return v;
}

/* y = alpha * A x + beta * y for distributed A (n x n) and vectors (n x 1). */
static void gemv(const struct dmatrix *A, const struct dmatrix *x, double beta,
		 struct dmatrix *y, int n)
{
	static const int one = 1;
	static const double alpha = 1.0;

	pdgemv_("N", &n, &n, &alpha, A->v, &one, &one, A->desc, x->v, &one, &one,
		x->desc, &one, &beta, y->v, &one, &one, y->desc, &one);
}

/* Under modeled kernels, the least payload the routine left uncopied, in
 * bytes (0: every payload copied); the report says it. */
static long uncopied_from;

/* The timed routine begins: under modeled kernels its large messages'
 * payloads go uncopied (wrappers/smpi/payloads.c). */
static double routine_begins(const struct args *a)
{
	MPI_Barrier(MPI_COMM_WORLD);
	if (a->modeled)
		uncopied_from = hm_payloads_skip();
	return MPI_Wtime();
}

/* The routine's seconds since t0. Under modeled kernels every payload is
 * copied again once every rank has left the routine (the barrier), so
 * that the messages after it (the report) carry their data. */
static double routine_ends(const struct args *a, double t0)
{
	double seconds = MPI_Wtime() - t0;

	if (a->modeled) {
		MPI_Barrier(MPI_COMM_WORLD);
		hm_payloads_copy();
	}
	return seconds;
}

/* LU: factor A, then solve A x = rhs with the factors and return
 * ||A x - rhs|| / (||A|| ||x|| n eps), A regenerated from the seed. */
static int run_lu(const struct args *a, const struct grid *g, double *seconds, double *resid,
		  int *info)
{
	static const int one = 1;
	struct dmatrix A = { 0 }, x = { 0 }, rhs = { 0 };
	int *ipiv = NULL, ret = -1;
	double t0;

	if (dmatrix_init(&A, g, a->n, a->n, a->b, a->modeled) || dmatrix_init(&x, g, a->n, 1, a->b, 0) ||
	    dmatrix_init(&rhs, g, a->n, 1, a->b, 0) ||
	    !(ipiv = malloc(((size_t)A.rows + a->b) * sizeof(int))))
		goto out;
	dmatrix_fill(&A, g, a->b, a->n, a->seed, 0);
	t0 = routine_begins(a);
	pdgetrf_(&a->n, &a->n, A.v, &one, &one, A.desc, ipiv, info);
	*seconds = routine_ends(a, t0);
	*resid = NAN;
	if (a->perturb && A.rows > 0 && A.cols > 0)
		A.v[0] += 1.0;
	if (*info == 0 && a->check) {
		int sinfo;

		dmatrix_fill(&x, g, a->b, a->n, a->seed, 1);
		dmatrix_fill(&rhs, g, a->b, a->n, a->seed, 1);
		pdgetrs_("N", &a->n, &one, A.v, &one, &one, A.desc, ipiv, x.v, &one, &one,
			 x.desc, &sinfo, 1);
		dmatrix_fill(&A, g, a->b, a->n, a->seed, 0);
		gemv(&A, &x, -1.0, &rhs, a->n);         /* rhs := A x - rhs */
		*resid = norm_inf(&rhs, a->n, 1) /
			 (norm_inf(&A, a->n, a->n) * norm_inf(&x, a->n, 1) * a->n * DBL_EPSILON);
		if (sinfo)
			*info = sinfo;
	}
	ret = 0;
out:
	dmatrix_free(&A), dmatrix_free(&x), dmatrix_free(&rhs), free(ipiv);
	return ret;
}

/* GEMM: C = A B, checked as ||C x - A (B x)|| / (||A|| ||B|| ||x|| n eps). */
static int run_gemm(const struct args *a, const struct grid *g, double *seconds, double *resid,
		    int *info)
{
	static const int one = 1;
	static const double alpha = 1.0, beta = 0.0;
	struct dmatrix A = { 0 }, B = { 0 }, C = { 0 }, x = { 0 }, y = { 0 }, z = { 0 };
	int ret = -1;
	double t0;

	*info = 0;
	if (dmatrix_init(&A, g, a->n, a->n, a->b, a->modeled) ||
	    dmatrix_init(&B, g, a->n, a->n, a->b, a->modeled) ||
	    dmatrix_init(&C, g, a->n, a->n, a->b, a->modeled) || dmatrix_init(&x, g, a->n, 1, a->b, 0) ||
	    dmatrix_init(&y, g, a->n, 1, a->b, 0) || dmatrix_init(&z, g, a->n, 1, a->b, 0))
		goto out;
	dmatrix_fill(&A, g, a->b, a->n, a->seed, 0);
	dmatrix_fill(&B, g, a->b, a->n, a->seed, 2);
	t0 = routine_begins(a);
	pdgemm_("N", "N", &a->n, &a->n, &a->n, &alpha, A.v, &one, &one, A.desc, B.v, &one,
		&one, B.desc, &beta, C.v, &one, &one, C.desc);
	*seconds = routine_ends(a, t0);
	*resid = NAN;
	if (a->perturb && C.rows > 0 && C.cols > 0)
		C.v[0] += 1.0;
	if (a->check) {
		dmatrix_fill(&x, g, a->b, a->n, a->seed, 1);
		gemv(&B, &x, 0.0, &y, a->n);            /* y = B x */
		gemv(&A, &y, 0.0, &z, a->n);            /* z = A B x */
		gemv(&C, &x, -1.0, &z, a->n);           /* z = C x - A B x */
		*resid = norm_inf(&z, a->n, 1) /
			 (norm_inf(&A, a->n, a->n) * norm_inf(&B, a->n, a->n) *
			  norm_inf(&x, a->n, 1) * a->n * DBL_EPSILON);
	}
	ret = 0;
out:
	dmatrix_free(&A), dmatrix_free(&B), dmatrix_free(&C);
	dmatrix_free(&x), dmatrix_free(&y), dmatrix_free(&z);
	return ret;
}

/* "0-1" style list of the CPUs this rank may run on. */
enum { PLACE_LEN = 320 };

/* Rank 0 prints the one result line; 'places' holds every rank's
 * "host\0cpus\0row col". */
static void print_result(const struct args *a, const struct grid *g, double seconds,
			 double resid, int info, const char *places)
{
	cJSON *o = cJSON_CreateObject(), *check, *ranks;
	double flops = a->lu ? 2.0 / 3.0 * pow(a->n, 3) : 2.0 * pow(a->n, 3);
	char *text;

	cJSON_AddNumberToObject(o, "hetmap_driver", 1);
	cJSON_AddStringToObject(o, "routine", a->lu ? "lu" : "gemm");
	cJSON_AddNumberToObject(o, "n", a->n);
	cJSON_AddNumberToObject(o, "b", a->b);
	cJSON_AddNumberToObject(o, "r", a->r);
	cJSON_AddNumberToObject(o, "c", a->c);
	cJSON_AddNumberToObject(o, "processes", g->size);
	cJSON_AddNumberToObject(o, "seed", (double)a->seed);
	cJSON_AddNumberToObject(o, "seconds", seconds);
	cJSON_AddNumberToObject(o, "gflops", seconds > 0 ? flops / seconds * 1e-9 : 0);
	cJSON_AddNumberToObject(o, "info", info);
	cJSON_AddStringToObject(o, "kernels", a->modeled ? "modeled" : "executed");
	if (a->modeled)
		cJSON_AddNumberToObject(o, "payloads_uncopied_from_bytes", (double)uncopied_from);
	check = cJSON_AddObjectToObject(o, "check");
	cJSON_AddStringToObject(check, "kind", a->modeled ? "none: modeled kernels compute nothing" :
				!a->check ? "none" : a->lu ? "lu_solve_scaled_residual" : "gemm_scaled_residual");
	if (a->check) {
		cJSON_AddNumberToObject(check, "residual", isfinite(resid) ? resid : -1);
		cJSON_AddNumberToObject(check, "threshold", CHECK_THRESHOLD);
	}
	if (a->modeled)     /* no verdict: there is no result to judge */
		cJSON_AddNullToObject(check, "passed");
	else
		cJSON_AddBoolToObject(check, "passed", !a->check || (info == 0 && resid < CHECK_THRESHOLD));
	ranks = cJSON_AddArrayToObject(o, "ranks");
	for (int k = 0; k < g->size; k++) {
		const char *host = places + (size_t)k * PLACE_LEN;
		const char *cpus = host + strlen(host) + 1;
		int row, col;
		cJSON *rk = cJSON_CreateObject();

		sscanf(cpus + strlen(cpus) + 1, "%d %d", &row, &col);
		cJSON_AddNumberToObject(rk, "rank", k);
		cJSON_AddStringToObject(rk, "host", host);
		cJSON_AddStringToObject(rk, "cpus", cpus);
		cJSON_AddNumberToObject(rk, "row", row);
		cJSON_AddNumberToObject(rk, "col", col);
		cJSON_AddItemToArray(ranks, rk);
	}
	text = cJSON_PrintUnformatted(o);
	if (text) {
		printf("%s\n", text);
		fflush(stdout);
	}
	cJSON_free(text);
	cJSON_Delete(o);
}

static int grid_open(struct grid *g, const struct args *a)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &g->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g->size);
	if (a->r * a->c != g->size) {
		complain("grid %d x %d needs %d processes, but %d were started",
			 a->r, a->c, a->r * a->c, g->size);
		return EXIT_BAD_ARGS;
	}
	if (a->b > a->n) {
		complain("block size %d exceeds n = %d", a->b, a->n);
		return EXIT_BAD_ARGS;
	}
	/* "Row" order: rank k -> (k / c, k mod c), the placement plans assume */
	Cblacs_get(-1, 0, &g->context);
	Cblacs_gridinit(&g->context, "Row", a->r, a->c);
	Cblacs_gridinfo(g->context, &g->rows, &g->cols, &g->row, &g->col);
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	struct grid g = { 0 };
	char place[PLACE_LEN] = { 0 }, *places = NULL;
	double seconds = 0, max_seconds = 0, resid = NAN;
	int ret, info = 0, max_info = 0, failed = 0, any_failed = 0, len;


	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
	quiet = g.rank != 0;
	ret = parse_args(argc, argv, &a);
	if (ret == 0)
		ret = grid_open(&g, &a);
	if (ret) {
		MPI_Finalize();
		return ret < 0 ? 0 : ret;
	}

	failed = (a.lu ? run_lu : run_gemm)(&a, &g, &seconds, &resid, &info) != 0;
	MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any_failed) {
		if (g.rank == 0)
			fprintf(stderr, "hetmap-driver: out of memory for n = %d on %d processes\n",
				a.n, g.size);
		Cblacs_gridexit(g.context);
		MPI_Finalize();
		return 1;
	}
	MPI_Reduce(&seconds, &max_seconds, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	/* info is global in ScaLAPACK; the max keeps any rank's complaint */
	MPI_Allreduce(&info, &max_info, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

	/* where each rank ran: host, allowed CPUs, grid position */
	{
		char host[MPI_MAX_PROCESSOR_NAME + 1];

		MPI_Get_processor_name(host, &len);
		len = snprintf(place, 200, "%s", host) + 1;
		if (len > 200)
			len = 200;
	}
	hm_cpu_list(place + len, 64);
	len += (int)strlen(place + len) + 1;
	snprintf(place + len, (size_t)(PLACE_LEN - len), "%d %d", g.row, g.col);
	if (g.rank == 0 && !(places = malloc((size_t)g.size * PLACE_LEN)))
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Gather(place, PLACE_LEN, MPI_CHAR, places, PLACE_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);

	ret = 0;
	if (g.rank == 0) {
		print_result(&a, &g, max_seconds, resid, max_info, places);
		if (max_info && !a.modeled)     /* modeled: the factors are meaningless */
			ret = EXIT_SCALAPACK;
		else if (a.check && !(resid < CHECK_THRESHOLD))
			ret = EXIT_CHECK_FAILED;
	}
	free(places);
	Cblacs_gridexit(g.context);
	MPI_Bcast(&ret, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return ret;
}

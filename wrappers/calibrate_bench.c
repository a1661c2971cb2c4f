/* hetmap-calibrate-bench: the install phase's measurements (models/README.md),
 * one MPI rank per processor, all in one run. Started by 'hetmap
 * calibrate', which fits the raw samples printed here into a platform.
 *
 * Ranks 0..P-1 are the processors; with --shadow, rank P is a second
 * process on processor 0, used only for the same-processor ping-pong.
 *
 *  1. compute, all processors at once (as in a real run, they share the
 *     node's memory): per block size b, the LU kernels with LU's shapes:
 *     dgemm of an m x b by b x m update, dtrsm of a b x b unit triangle
 *     with m right-hand sides, and the panel factorisation of an m x b
 *     panel done column by column (idamax, swap, scal, ger) the way
 *     ScaLAPACK's pdgetf2 does it, not with LAPACK's dgetf2;
 *  1b. with --alone, one core busy per host: the first rank of each host
 *     that holds two or more measures dgemm again while the others sleep
 *     (the busy-cores scale of models/README.md: how much faster a core
 *     runs when its node is otherwise idle);
 *  1c. with --shapes, all processors at once again: dgemm, dtrsm and dger
 *     on a set of shapes around LU's (the rows and block sizes), for the
 *     simulator's kernel models (models/platform/kernel_model.h);
 *  2. ping-pong: the same-processor and same-node scopes one pair at a
 *     time (up to 3 pairs each); between hosts, one rank per host, in
 *     rounds of disjoint pairs measured at once, scheduled by
 *     host_links.h so that every host's own link is
 *     known (--link-rounds: the round-robin rounds before settling).
 * Ranks that wait sleep between polls, so they do not steal the core of
 * the rank being measured. Rank 0 prints one JSON line. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host_links.h"
#include "scalapack.h"
#include "smpi/kernel_terms.h"

enum { MAX_BS = 16, MAX_PAIRS_PER_SCOPE = 3, NR_SIZES = 20 };
enum kernel { K_DGEMM, K_DTRSM, K_GETF2, NR_KERNELS };
static const char *const kernel_names[NR_KERNELS] = { "k3_dgemm", "k3_dtrsm", "k2_dgetf2" };

struct bench_args {
	int bs[MAX_BS], nbs;
	int rows, repeat, shadow, alone, shapes, link_rounds;
	double min_time;        /* seconds each sample runs at least */
	char **hosts;           /* host of each processor rank */
	int nhosts;
};

static void die(int rank, const char *msg)
{
	if (rank == 0)
		fprintf(stderr, "hetmap-calibrate-bench: %s\n", msg);
	MPI_Finalize();
	exit(2);
}

/* A barrier that sleeps while it waits. */
static void idle_barrier(void)
{
	/* named, not a compound literal: SMPI makes nanosleep a macro, whose
	 * arguments a brace initialiser's comma would split */
	const struct timespec pause = { 0, 200000 };
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	while (MPI_Test(&req, &done, MPI_STATUS_IGNORE), !done)
		nanosleep(&pause, NULL);
}

static int split_list(char *text, char **items, int max)
{
	int n = 0;

	for (char *tok = strtok(text, ","); tok; tok = strtok(NULL, ","))
		if (n < max)
			items[n++] = tok;
		else
			return -1;
	return n;
}

static void parse(int argc, char **argv, struct bench_args *a, int rank, int size)
{
	static const struct option longopts[] = {
		{ "block-sizes", required_argument, NULL, 'b' },
		{ "rows", required_argument, NULL, 'm' },
		{ "repeat", required_argument, NULL, 'R' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "shadow", no_argument, NULL, 's' },
		{ "alone", no_argument, NULL, 'a' },
		{ "shapes", no_argument, NULL, 'S' },
		{ "min-time", required_argument, NULL, 't' },
		{ "link-rounds", required_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	char *bs_text = NULL, *hosts_text = NULL, *items[MAX_BS + 1];
	int opt;

	memset(a, 0, sizeof(*a));
	a->rows = 1024;
	a->repeat = 5;
	a->min_time = 0.2;
	a->link_rounds = 0;     /* host_links.h's default */
	opterr = rank == 0;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'b': bs_text = optarg; break;
		case 'm': a->rows = atoi(optarg); break;
		case 'R': a->repeat = atoi(optarg); break;
		case 'H': hosts_text = optarg; break;
		case 's': a->shadow = 1; break;
		case 'a': a->alone = 1; break;
		case 'S': a->shapes = 1; break;
		case 't': a->min_time = atof(optarg); break;
		case 'L': a->link_rounds = atoi(optarg); break;
		default: die(rank, "bad option");
		}
	}
	if (!bs_text || !hosts_text)
		die(rank, "--block-sizes and --hosts are required");
	if (a->rows < 16 || a->rows > 16384 || a->repeat < 1 || a->repeat > 1000 ||
	    !(a->min_time >= 0 && a->min_time <= 60) || a->link_rounds < 0 || a->link_rounds > 100000)
		die(rank, "--rows must be in [16, 16384], --repeat in [1, 1000], --min-time in [0, 60], "
			  "--link-rounds in [0, 100000]");
	a->nbs = split_list(bs_text, items, MAX_BS);
	if (a->nbs < 1)
		die(rank, "bad --block-sizes");
	for (int i = 0; i < a->nbs; i++)
		if ((a->bs[i] = atoi(items[i])) < 1 || a->bs[i] > a->rows)
			die(rank, "block sizes must be in [1, rows]");
	a->hosts = calloc((size_t)size, sizeof(char *));
	if (!a->hosts)
		die(rank, "out of memory");
	a->nhosts = split_list(hosts_text, a->hosts, size);
	if (a->nhosts != size - a->shadow)
		die(rank, "--hosts must name one host per processor rank");
}

static double now(void)
{
	return MPI_Wtime();
}

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

/* Buffers of one block size's kernels. */
struct kernel_data {
	int m, b;
	double *A, *B, *C, *L, *X, *X0, *P, *P0;
};

/* One call of kernel k; its input is restored first (outside the time). */
static double time_kernel(struct kernel_data *d, int k)
{
	static const double one_d = 1.0, minus_one = -1.0;
	size_t mb = (size_t)d->m * d->b;
	double t;

	if (k == K_DTRSM)       /* repeated solves would drift to inf/NaN */
		memcpy(d->X, d->X0, mb * sizeof(double));
	if (k == K_GETF2)
		memcpy(d->P, d->P0, mb * sizeof(double));
	t = now();
	if (k == K_DGEMM)
		dgemm_("N", "N", &d->m, &d->m, &d->b, &minus_one, d->A, &d->m, d->B, &d->b, &one_d,
		       d->C, &d->m, 1, 1);
	else if (k == K_DTRSM)
		dtrsm_("L", "L", "N", "U", &d->b, &d->m, &one_d, d->L, &d->b, d->X, &d->b, 1, 1, 1, 1);
	else
		panel_lu(d->P, d->m, d->b);
	return now() - t;
}

/* Seconds per flop of the first nk kernels at block size b, 'repeat'
 * samples each after one warm-up, into out[kernel][rep]. A sample
 * repeats the kernel for at least 'min_time' seconds: a CPU quota (an
 * emulated slow node) lets a call shorter than its period run at full
 * speed, so only a span of many periods shows the share. */
static void measure_kernels(int m, int b, int repeat, double min_time, int nk,
			    double *out[NR_KERNELS])
{
	size_t mb = (size_t)m * b;
	struct kernel_data d = { m, b, malloc(mb * sizeof(double)), malloc(mb * sizeof(double)),
				 malloc((size_t)m * m * sizeof(double)), malloc((size_t)b * b * sizeof(double)),
				 malloc(mb * sizeof(double)), malloc(mb * sizeof(double)),
				 malloc(mb * sizeof(double)), malloc(mb * sizeof(double)) };
	double flops[NR_KERNELS] = { 2.0 * m * m * b, (double)b * b * m,
				     (double)m * b * b - (double)b * b * b / 3.0 };

	if (!d.A || !d.B || !d.C || !d.L || !d.X || !d.X0 || !d.P || !d.P0) {
		fprintf(stderr, "hetmap-calibrate-bench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	fill(d.A, mb, 1), fill(d.B, mb, 2), fill(d.C, (size_t)m * m, 3), fill(d.X0, mb, 4);
	fill(d.P0, mb, 5), fill(d.L, (size_t)b * b, 6);
	for (int i = 0; i < b; i++)
		d.L[(size_t)i * b + i] = 1.0;
	for (int rep = -1; rep < repeat; rep++)
		for (int k = 0; k < nk; k++) {
			double start = now(), busy = 0;
			long calls = 0;

			do {
				busy += time_kernel(&d, k);
				calls++;
			} while (rep >= 0 && now() - start < min_time);
			if (rep >= 0)
				out[k][rep] = busy / calls / flops[k];
		}
	free(d.A), free(d.B), free(d.C), free(d.L), free(d.X), free(d.X0), free(d.P), free(d.P0);
}

/* 1c: the shapes each kernel is timed at, shape[kernel][i] = {x, y, z}
 * (smpi/kernel_terms.h): dgemm m, n in {rows/8, rows/2, rows} by every
 * block size k; dtrsm every block size as the triangle's order by those
 * right-hand sides; dger those rows by one column and by every block size. */
enum { MAX_SHAPES = 3 * 3 * MAX_BS };
struct shapes {
	int count[HM_NR_KERNELS];
	double shape[HM_NR_KERNELS][MAX_SHAPES][3];
};

static void make_shapes(const struct bench_args *a, struct shapes *sh)
{
	int side[3] = { a->rows / 8 > 1 ? a->rows / 8 : 1, a->rows / 2, a->rows };

	memset(sh, 0, sizeof(*sh));
	for (int i = 0; i < 3; i++)
		for (int b = 0; b < a->nbs; b++) {
			double *t = sh->shape[HM_KERNEL_DTRSM][sh->count[HM_KERNEL_DTRSM]++];

			t[0] = a->bs[b], t[1] = side[i];
			for (int j = 0; j < 3; j++) {
				double *g = sh->shape[HM_KERNEL_DGEMM][sh->count[HM_KERNEL_DGEMM]++];

				g[0] = side[i], g[1] = side[j], g[2] = a->bs[b];
			}
		}
	for (int i = 0; i < 3; i++)
		for (int b = -1; b < a->nbs; b++) {
			double *g = sh->shape[HM_KERNEL_DGER][sh->count[HM_KERNEL_DGER]++];

			g[0] = side[i], g[1] = b < 0 ? 1 : a->bs[b];
		}
}

/* The pool the matrix dgemm and dtrsm update is taken from, in turn: 64
 * MiB per rank (at least two of the largest operand), several times a
 * core's share of a last-level cache when every core times at once, so
 * that each call finds it cold, as LU's trailing update and row block find
 * the local matrix at the user's scale (and an SMPI rank after the others
 * ran); their inputs (panel, triangle) stay in buf[], warm, as the panel
 * just factored is. dger updates the panel itself, warm: buf[2]. */
#define COLD_POOL_WORDS ((size_t)8 << 20)

struct cold_pool {
	double *w;
	size_t len, cursor;
};

/* The next 'words' words of the pool. */
static double *cold_operand(struct cold_pool *pool, size_t words)
{
	if (pool->cursor + words > pool->len)
		pool->cursor = 0;
	pool->cursor += words;
	return pool->w + pool->cursor - words;
}

/* Seconds of one call of 'kernel' at shape s (the median of 'repeat'
 * samples, each repeating the call for at least min_time / 10), what it
 * updates cold or warm as LU finds it (cold_operand). */
static double time_shape(enum hm_kernel kernel, const double *s, int repeat, double min_time,
			 double *buf[3], struct cold_pool *pool)
{
	static const double one_d = 1.0, minus_one = -1.0;
	static const int one = 1;
	int x = (int)s[0], y = (int)s[1], z = (int)s[2];
	size_t words = (size_t)x * (size_t)y;
	double samples[64];

	repeat = repeat < 1 ? 1 : repeat > 64 ? 64 : repeat;
	for (int rep = -1; rep < repeat; rep++) {
		double start = now();
		long calls = 0;

		do {
			double *out = kernel == HM_KERNEL_DGER ? buf[2] : cold_operand(pool, words);

			if (kernel == HM_KERNEL_DGEMM)
				dgemm_("N", "N", &x, &y, &z, &minus_one, buf[0], &x, buf[1], &z, &one_d,
				       out, &x, 1, 1);
			else if (kernel == HM_KERNEL_DTRSM)
				dtrsm_("L", "L", "N", "U", &x, &y, &one_d, buf[0], &x, out, &x, 1, 1, 1, 1);
			else
				dger_(&x, &y, &minus_one, buf[0], &one, buf[1], &one, out, &x);
			calls++;
		} while (now() - start < min_time / 10);
		if (rep >= 0)
			samples[rep] = (now() - start) / calls;
	}
	for (int i = 1; i < repeat; i++)
		for (int j = i; j > 0 && samples[j - 1] > samples[j]; j--) {
			double t = samples[j];

			samples[j] = samples[j - 1], samples[j - 1] = t;
		}
	return samples[repeat / 2];
}

/* 1c, every processor rank at once: out[kernel][i] seconds of shape i. */
static void measure_shapes(const struct bench_args *a, const struct shapes *sh,
			   double out[HM_NR_KERNELS][MAX_SHAPES])
{
	size_t len = (size_t)a->rows * a->rows;
	double *buf[3] = { malloc(len * sizeof(double)), malloc(len * sizeof(double)),
			   malloc(len * sizeof(double)) };
	struct cold_pool pool = { NULL, len * 2 > COLD_POOL_WORDS ? len * 2 : COLD_POOL_WORDS, 0 };

	pool.w = malloc(pool.len * sizeof(double));
	if (!buf[0] || !buf[1] || !buf[2] || !pool.w) {
		fprintf(stderr, "hetmap-calibrate-bench: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	for (int i = 0; i < 3; i++)
		fill(buf[i], len, 7 + (unsigned)i);
	fill(pool.w, pool.len, 11);
	for (size_t i = 0; i < (size_t)a->rows; i++)     /* a unit triangle: dtrsm stays finite */
		buf[0][i * a->rows + i] = 1.0;
	for (int k = 0; k < HM_NR_KERNELS; k++)
		for (int i = 0; i < sh->count[k]; i++)
			out[k][i] = time_shape((enum hm_kernel)k, sh->shape[k][i], a->repeat, a->min_time,
					       buf, &pool);
	free(buf[0]), free(buf[1]), free(buf[2]), free(pool.w);
}

/* One-way time per message size between ranks a and b (median of the
 * round trips / 2), measured by rank a; others must not call. */
static void pingpong(int me, int a, int b, const long *sizes, double *out, char *buf)
{
	for (int s = 0; s < NR_SIZES; s++) {
		int reps = sizes[s] <= 65536 ? 100 : sizes[s] <= (1 << 20) ? 20 : 8;
		double times[100];

		for (int r = -2; r < reps; r++) {
			double t0 = now();

			if (me == a) {
				MPI_Send(buf, (int)sizes[s], MPI_BYTE, b, 0, MPI_COMM_WORLD);
				MPI_Recv(buf, (int)sizes[s], MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, (int)sizes[s], MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				MPI_Send(buf, (int)sizes[s], MPI_BYTE, a, 0, MPI_COMM_WORLD);
			}
			if (r >= 0)
				times[r] = (now() - t0) / 2;
		}
		if (me == a) {
			/* median by insertion sort: at most 100 values */
			for (int i = 1; i < reps; i++)
				for (int j = i; j > 0 && times[j - 1] > times[j]; j--) {
					double t = times[j];

					times[j] = times[j - 1], times[j - 1] = t;
				}
			out[s] = times[reps / 2];
		}
	}
}

struct pair { int a, b; const char *scope; };

/* The shadow pair and up to 3 same-node pairs, from the hosts of the
 * ranks; pairs between hosts are link_rounds()'s. */
static int choose_pairs(const struct bench_args *a, int nproc, struct pair *pairs)
{
	int n = 0, same = 0, last_same = -1;

	if (a->shadow)
		pairs[n++] = (struct pair){ 0, nproc, "same_processor" };
	for (int i = 0; i < nproc; i++)
		for (int j = i + 1; j < nproc && same < MAX_PAIRS_PER_SCOPE; j++)
			/* a different first processor for each pair */
			if (!strcmp(a->hosts[i], a->hosts[j]) && last_same != i) {
				pairs[n++] = (struct pair){ i, j, "same_node" };
				same++, last_same = i;
			}
	return n;
}

/* The first rank of each host, host_rank[0 .. H-1]; returns H. */
static int host_ranks(const struct bench_args *a, int nproc, int *host_rank)
{
	int H = 0;

	for (int r = 0; r < nproc; r++) {
		int h;

		for (h = 0; h < H && strcmp(a->hosts[host_rank[h]], a->hosts[r]); h++)
			;
		if (h == H)
			host_rank[H++] = r;
	}
	return H;
}

static void add_pingpong(cJSON *pp, const char *scope, int a, int b, const double *oneway, int round)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "scope", scope);
	cJSON_AddItemToObject(e, "ranks", cJSON_CreateIntArray((int[]){ a, b }, 2));
	cJSON_AddItemToObject(e, "seconds", cJSON_CreateDoubleArray(oneway, NR_SIZES));
	if (round >= 0)
		cJSON_AddNumberToObject(e, "round", round);
	cJSON_AddItemToArray(pp, e);
}

/* Between hosts: rank 0 schedules each round (host_links.h) and
 * broadcasts it; the pairs of a round measure at once (disjoint pairs do
 * not share a host's link); every pair's one-way times reach rank 0, whose
 * largest message's time is the schedule's measure. Progress and an
 * estimate of the time left go to standard error. */
static void link_rounds(const struct bench_args *a, int rank, int nproc, const long *sizes, char *buf,
			cJSON *pp)
{
	int *host_rank = malloc(((size_t)nproc + 1) * sizeof(int)), H, k, round = 0;
	struct hm_host_pair *todo;
	struct hm_link_schedule sched;
	double *all = NULL, mine[NR_SIZES], started = now();

	if (!host_rank)
		die(rank, "out of memory");
	H = host_ranks(a, nproc, host_rank);
	todo = malloc(((size_t)H / 2 + 1) * sizeof(*todo));
	if (!todo || (rank == 0 && (hm_link_schedule_init(&sched, H, a->link_rounds, 0.2) ||
				    !(all = malloc((size_t)(nproc + a->shadow) * NR_SIZES * sizeof(double))))))
		die(rank, "out of memory");
	for (;;) {
		int first = -1, second = -1;   /* this rank's pair, as ranks */

		if (rank == 0) {
			k = hm_link_schedule_next(&sched, todo);
			if (k) {
				int left = hm_link_schedule_rounds_left(&sched);
				double so_far = now() - started;

				fprintf(stderr, "calibrate: links between hosts, round %d of about %d (%d pairs of %d "
					"hosts), %.0f s so far, about %.0f s left\n", round + 1, round + 1 + left, k, H,
					so_far, round ? so_far / round * (1 + left) : 0);
			}
		}
		MPI_Bcast(&k, 1, MPI_INT, 0, MPI_COMM_WORLD);
		if (!k)
			break;
		MPI_Bcast(todo, k * (int)sizeof(*todo), MPI_BYTE, 0, MPI_COMM_WORLD);
		for (int i = 0; i < k; i++)
			if (rank == host_rank[todo[i].a] || rank == host_rank[todo[i].b])
				first = host_rank[todo[i].a], second = host_rank[todo[i].b];
		memset(mine, 0, sizeof(mine));
		idle_barrier();
		if (first >= 0)
			pingpong(rank, first, second, sizes, mine, buf);
		idle_barrier();
		MPI_Gather(mine, NR_SIZES, MPI_DOUBLE, all, NR_SIZES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank == 0)
			for (int i = 0; i < k; i++) {
				const double *t = all + (size_t)host_rank[todo[i].a] * NR_SIZES;

				hm_link_schedule_record(&sched, todo[i].a, todo[i].b, t[NR_SIZES - 1]);
				add_pingpong(pp, "inter_node", host_rank[todo[i].a], host_rank[todo[i].b], t, round);
			}
		round++;
	}
	if (rank == 0) {
		if (round)
			fprintf(stderr, "calibrate: links between hosts: %d pairs in %d rounds, %.0f s\n", sched.n,
				round, now() - started);
		hm_link_schedule_release(&sched);
	}
	free(all), free(todo), free(host_rank);
}

/* 1 if rank r is the first of its host and the host holds another. */
static int first_of_host(const struct bench_args *a, int r, int nproc)
{
	int others = 0;

	for (int j = 0; j < nproc; j++) {
		if (j < r && !strcmp(a->hosts[j], a->hosts[r]))
			return 0;
		others += j != r && !strcmp(a->hosts[j], a->hosts[r]);
	}
	return others > 0;
}

/* 1b: the first rank of each multi-rank host measures dgemm alone per
 * block size into mine[b * repeat + rep]; rank 0 gathers them into all[]. */
static void measure_alone(const struct bench_args *a, int rank, int nproc, double *mine,
			  double *all)
{
	if (rank == 0)
		fprintf(stderr, "calibrate: dgemm with one core busy per node, b in");
	idle_barrier();
	if (rank < nproc && first_of_host(a, rank, nproc))
		for (int i = 0; i < a->nbs; i++) {
			double *out[NR_KERNELS] = { mine + (size_t)i * a->repeat };

			measure_kernels(a->rows, a->bs[i], a->repeat, a->min_time, 1, out);
			if (rank == 0)
				fprintf(stderr, " %d", a->bs[i]);
		}
	if (rank == 0)
		fprintf(stderr, "\n");
	idle_barrier();
	MPI_Gather(mine, a->nbs * a->repeat, MPI_DOUBLE, all, a->nbs * a->repeat, MPI_DOUBLE, 0,
		   MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
	struct bench_args a;
	struct pair pairs[1 + 2 * MAX_PAIRS_PER_SCOPE];
	long sizes[NR_SIZES];
	int rank, size, nproc, npairs, nsamples;
	double *samples, *all = NULL, *alone, *all_alone = NULL, *all_shapes = NULL;
	static double shape_s[HM_NR_KERNELS][MAX_SHAPES];
	struct shapes sh;
	char *buf;
	cJSON *root = NULL, *procs = NULL, *pp = NULL;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	parse(argc, argv, &a, rank, size);
	nproc = size - a.shadow;
	nsamples = a.nbs * NR_KERNELS * a.repeat;
	samples = calloc((size_t)nsamples + 1, sizeof(double));
	alone = calloc((size_t)a.nbs * a.repeat + 1, sizeof(double));
	make_shapes(&a, &sh);
	if (rank == 0) {
		all = calloc((size_t)nsamples * size + 1, sizeof(double));
		all_alone = calloc((size_t)a.nbs * a.repeat * size + 1, sizeof(double));
		all_shapes = calloc((size_t)HM_NR_KERNELS * MAX_SHAPES * size, sizeof(double));
	}
	if (!samples || !alone || (rank == 0 && (!all || !all_alone || !all_shapes)))
		die(rank, "out of memory");

	/* 1. compute kernels, all processors at once */
	if (rank == 0)
		fprintf(stderr, "calibrate: kernels on %d processors, b in", nproc);
	idle_barrier();
	if (rank < nproc) {
		/* warm up (page faults, clock ramp-up) so the first b is not penalised */
		double scratch[NR_KERNELS][1], *w[NR_KERNELS] = { scratch[0], scratch[1], scratch[2] };

		for (int i = 0; i < a.nbs; i++)
			measure_kernels(a.rows, a.bs[i], 1, 0, NR_KERNELS, w);
	}
	idle_barrier();
	if (rank < nproc)
		for (int i = 0; i < a.nbs; i++) {
			double *out[NR_KERNELS];

			for (int k = 0; k < NR_KERNELS; k++)
				out[k] = samples + ((size_t)i * NR_KERNELS + k) * a.repeat;
			measure_kernels(a.rows, a.bs[i], a.repeat, a.min_time, NR_KERNELS, out);
			if (rank == 0)
				fprintf(stderr, " %d", a.bs[i]);
		}
	if (rank == 0)
		fprintf(stderr, "\n");
	idle_barrier();
	MPI_Gather(samples, nsamples, MPI_DOUBLE, all, nsamples, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (a.alone)
		measure_alone(&a, rank, nproc, alone, all_alone);
	if (a.shapes) {
		if (rank == 0)
			fprintf(stderr, "calibrate: dgemm, dtrsm and dger at %d shapes on %d processors\n",
				sh.count[0] + sh.count[1] + sh.count[2], nproc);
		idle_barrier();
		if (rank < nproc)
			measure_shapes(&a, &sh, shape_s);
		idle_barrier();
		MPI_Gather(shape_s, HM_NR_KERNELS * MAX_SHAPES, MPI_DOUBLE, all_shapes,
			   HM_NR_KERNELS * MAX_SHAPES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	}

	/* 2. ping-pong, one pair at a time within a host, rounds between hosts */
	for (int s = 0; s < NR_SIZES; s++)
		sizes[s] = 8L << s;
	if (!(buf = calloc((size_t)sizes[NR_SIZES - 1], 1)))
		die(rank, "out of memory");
	npairs = choose_pairs(&a, nproc, pairs);
	if (rank == 0) {
		root = cJSON_CreateObject();
		cJSON_AddNumberToObject(root, "hetmap_calibration_raw", 1);
		cJSON_AddNumberToObject(root, "rows", a.rows);
		cJSON_AddNumberToObject(root, "repeat", a.repeat);
		cJSON_AddItemToObject(root, "block_sizes", cJSON_CreateIntArray(a.bs, a.nbs));
		{
			cJSON *bytes = cJSON_AddArrayToObject(root, "bytes");

			for (int s = 0; s < NR_SIZES; s++)
				cJSON_AddItemToArray(bytes, cJSON_CreateNumber((double)sizes[s]));
		}
		if (a.shapes) {
			cJSON *shapes = cJSON_AddObjectToObject(root, "shapes");

			for (int k = 0; k < HM_NR_KERNELS; k++) {
				cJSON *list = cJSON_AddArrayToObject(shapes, hm_kernel_names()[k]);

				for (int i = 0; i < sh.count[k]; i++)
					cJSON_AddItemToArray(list, cJSON_CreateDoubleArray(sh.shape[k][i], 3));
			}
		}
		procs = cJSON_AddArrayToObject(root, "processors");
		pp = cJSON_AddArrayToObject(root, "pingpong");
	}
	for (int p = 0; p < npairs; p++) {
		double oneway[NR_SIZES] = { 0 };

		if (rank == 0)
			fprintf(stderr, "calibrate: ping-pong %s (ranks %d-%d)\n", pairs[p].scope,
				pairs[p].a, pairs[p].b);
		idle_barrier();
		if (rank == pairs[p].a || rank == pairs[p].b)
			pingpong(rank, pairs[p].a, pairs[p].b, sizes, oneway, buf);
		if (pairs[p].a != 0) {
			if (rank == pairs[p].a)
				MPI_Send(oneway, NR_SIZES, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
			if (rank == 0)
				MPI_Recv(oneway, NR_SIZES, MPI_DOUBLE, pairs[p].a, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
		}
		if (rank == 0)
			add_pingpong(pp, pairs[p].scope, pairs[p].a, pairs[p].b, oneway, -1);
	}
	link_rounds(&a, rank, nproc, sizes, buf, pp);

	if (rank == 0) {
		long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

		for (int r = 0; r < nproc; r++) {
			cJSON *e = cJSON_CreateObject();

			cJSON_AddNumberToObject(e, "rank", r);
			cJSON_AddStringToObject(e, "host", a.hosts[r]);
			for (int k = 0; k < NR_KERNELS; k++) {
				cJSON *per_b = cJSON_AddArrayToObject(e, kernel_names[k]);

				for (int i = 0; i < a.nbs; i++)
					cJSON_AddItemToArray(per_b, cJSON_CreateDoubleArray(
						all + (size_t)r * nsamples + ((size_t)i * NR_KERNELS + k) * a.repeat,
						a.repeat));
			}
			if (a.shapes) {
				cJSON *per = cJSON_AddObjectToObject(e, "shape_seconds");

				for (int k = 0; k < HM_NR_KERNELS; k++)
					cJSON_AddItemToObject(per, hm_kernel_names()[k], cJSON_CreateDoubleArray(
						all_shapes + ((size_t)r * HM_NR_KERNELS + k) * MAX_SHAPES,
						sh.count[k]));
			}
			if (a.alone && first_of_host(&a, r, nproc)) {
				cJSON *per_b = cJSON_AddArrayToObject(e, "k3_dgemm_alone");

				for (int i = 0; i < a.nbs; i++)
					cJSON_AddItemToArray(per_b, cJSON_CreateDoubleArray(
						all_alone + ((size_t)r * a.nbs + i) * a.repeat, a.repeat));
			}
			cJSON_AddItemToArray(procs, e);
		}
		/* memory is per physical machine; hetmap shares it among processors */
		cJSON_AddNumberToObject(root, "memory_bytes_rank0_host",
					pages > 0 && page > 0 ? (double)pages * (double)page : 0);
		{
			char *text = cJSON_PrintUnformatted(root);

			if (text)
				printf("%s\n", text);
			fflush(stdout);
			cJSON_free(text);
		}
		cJSON_Delete(root);
	}
	free(buf), free(samples), free(all), free(alone), free(all_alone), free(all_shapes), free(a.hosts);
	MPI_Finalize();
	return 0;
}

/* hetmap-calibrate-bench: the install phase's measurements (models/README.md),
 * one MPI rank per processor, all in one run. Started by 'hetmap
 * calibrate', which fits the raw samples printed here into a platform.
 *
 * Ranks 0..P-1 are the processors; with --shadow, rank P is a second
 * process on processor 0, used only for the same-processor ping-pong.
 *
 *  1. compute, all processors at once (as in a real run, they share the
 *     node's memory): the LU kernels with LU's shapes at every block size
 *     (lu_kernels.h), in rounds until their medians settle, each call
 *     timed by the time it held its core (held_time.h);
 *  1b. with --alone, one core busy per host: the first rank of each host
 *     that holds two or more measures dgemm again while the others sleep
 *     (the busy-cores scale of models/README.md: how much faster a core
 *     runs when its node is otherwise idle);
 *  1c. with --shapes, all processors at once again: dgemm, dtrsm and dger
 *     on a set of shapes around LU's (the rows and block sizes), for the
 *     simulator's kernel models (models/platform/kernel_model.h);
 *  1c'. with --threads, ranks of t threads (thread_team.h): LU's kernels
 *      at every block size with one thread and with each t, all teams at
 *      once, on taller blocks than 1a's (--thread-rows, default 4 x rows:
 *      a run's local blocks and panels; threads pay for their start on
 *      every call, which a short column does not earn back), for the
 *      types' thread speed-ups by block size;
 *  1d. LU's steps beside its kernels with ScaLAPACK itself: the row
 *     interchanges (row_swap.h) and PDGETF2's column step (column_step.h)
 *     alone and on columns of 2, 4, ... ranks of each host;
 *  2. ping-pong: the same-processor and same-node scopes one pair at a
 *     time (up to 3 pairs each); between hosts, one rank per host, in
 *     rounds of disjoint pairs measured at once, scheduled by
 *     host_links.h so that every host's own link is
 *     known (--link-rounds: the round-robin rounds before settling), each
 *     pair then a column of two for the column step across hosts.
 * Ranks that wait sleep between polls, so they do not steal the core of
 * the rank being measured. Rank 0 prints one JSON line. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "column_step.h"
#include "held_time.h"
#include "idle_barrier.h"
#include "models/common/host_links.h"
#include "lu_kernels.h"
#include "row_swap.h"
#include "thread_team.h"
#include "scalapack.h"
#include "models/common/kernel_terms.h"
#include "models/common/stride_alias.h"

enum { MAX_BS = 16, MAX_PAIRS_PER_SCOPE = 3, NR_SIZES = 20, MAX_REPEAT = 1000, MAX_THREAD_COUNTS = 8,
       MAX_CARD_PAIRS = 8 };
/* LU's steps (1d): the panel's columns (its flops stay negligible), the
 * samples of a column step, a row interchange's local width */
#define STEP_BLOCK 32
#define STEP_SAMPLES 21
#define SWAP_WIDTH 4096
enum { NR_KERNELS = LU_NR_KERNELS };
static const char *const kernel_names[NR_KERNELS] = { "k3_dgemm", "k3_dtrsm", "k2_dgetf2" };

struct bench_args {
	int bs[MAX_BS], nbs;
	int rows, repeat, shadow, alone, shapes, link_rounds;
	int thread_rows;        /* 1c': the rows of the kernels timed with threads */
	int threads[MAX_THREAD_COUNTS], nthreads;      /* 1c': ranks of t threads (--threads) */
	double min_time;        /* seconds each sample runs at least */
	char **hosts;           /* host of each processor rank */
	int nhosts;
};

/* How long measured code held its core (held_time.h): every kernel's time. */
static struct hm_held_clock held;

/* The host's load average over the last minute before measuring (what
 * else ran there), -1 where /proc/loadavg does not say. */
static double load_average(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double load = -1;

	if (f) {
		if (fscanf(f, "%lf", &load) != 1)
			load = -1;
		fclose(f);
	}
	return load;
}

static void die(int rank, const char *msg)
{
	if (rank == 0)
		fprintf(stderr, "hetmap-calibrate-bench: %s\n", msg);
	MPI_Finalize();
	exit(2);
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

/* --quiet (hetmap calibrate -q): no progress lines */
static int quiet;

static void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void progress(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
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
		{ "threads", required_argument, NULL, 'T' },
		{ "thread-rows", required_argument, NULL, 'W' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	char *bs_text = NULL, *hosts_text = NULL, *threads_text = NULL, *items[MAX_BS + 1];
	int opt;

	memset(a, 0, sizeof(*a));
	a->rows = 1024;
	a->repeat = 5;
	a->min_time = 0.2;
	a->link_rounds = 0;     /* common/host_links.h's default */
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
		case 'T': threads_text = optarg; break;
		case 'W': a->thread_rows = atoi(optarg); break;
		case 'q': quiet = 1; break;
		default: die(rank, "bad option");
		}
	}
	if (!bs_text || !hosts_text)
		die(rank, "--block-sizes and --hosts are required");
	if (a->rows < 16 || a->rows > 16384 || a->repeat < 1 || a->repeat > MAX_REPEAT ||
	    !(a->min_time >= 0 && a->min_time <= 60) || a->link_rounds < 0 || a->link_rounds > 100000)
		die(rank, "--rows must be in [16, 16384], --repeat in [1, 1000], --min-time in [0, 60], "
			  "--link-rounds in [0, 100000]");
	if (!a->thread_rows)
		a->thread_rows = 4 * a->rows < 16384 ? 4 * a->rows : 16384;
	if (a->thread_rows < a->rows || a->thread_rows > 16384)
		die(rank, "--thread-rows must be in [rows, 16384]");
	a->nbs = split_list(bs_text, items, MAX_BS);
	if (a->nbs < 1)
		die(rank, "bad --block-sizes");
	for (int i = 0; i < a->nbs; i++)
		if ((a->bs[i] = atoi(items[i])) < 1 || a->bs[i] > a->rows)
			die(rank, "block sizes must be in [1, rows]");
	if (threads_text) {
		a->nthreads = split_list(threads_text, items, MAX_THREAD_COUNTS);
		for (int i = 0; i < a->nthreads; i++)
			if ((a->threads[i] = atoi(items[i])) < 2 || a->threads[i] > 4096)
				a->nthreads = -1;
		if (a->nthreads < 1)
			die(rank, "--threads must list 1..8 thread counts in [2, 4096]");
	}
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

/* 1c: the shapes each kernel is timed at, shape[kernel][i] = {x, y, z}
 * (common/kernel_terms.h): dgemm m, n in {rows/8, rows/2, rows} by every
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
		struct hm_held_mark mark = hm_held_start(&held, now);
		double start = mark.wall;
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
			samples[rep] = hm_held_stop(&held, mark, now, NULL) / calls;
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

/* Which round trip stands for a message size: on a real network the
 * median (its wander is the link's own); under SMPI the network is
 * deterministic and the only wander is this machine's CPU time between
 * the MPI calls, injected as computation (smpi/host-speed), which only
 * adds: on a loaded machine it raised the median's t_s of a 50 us link by
 * up to 10 % here and past 20 % in CI, so the simulator's link is the
 * fastest round trip. */
#ifdef SMPI_H
#define PINGPONG_RANK(reps) 0
#else
#define PINGPONG_RANK(reps) ((reps) / 2)
#endif

/* v[0 .. n-1] ascending, by insertion: at most 100 times. */
static void sort_times(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1], v[j - 1] = t;
		}
}

/* One-way seconds of 'bytes' between ranks a and b (PINGPONG_RANK's round
 * trip / 2), on rank a; rank b gets 0, others must not call. */
static double pingpong_size(int me, int a, int b, long bytes, char *buf)
{
	int reps = bytes <= 65536 ? 100 : bytes <= (1 << 20) ? 20 : 8;
	double times[100];

	for (int r = -2; r < reps; r++) {
		double t0 = now();

		if (me == a) {
			MPI_Send(buf, (int)bytes, MPI_BYTE, b, 0, MPI_COMM_WORLD);
			MPI_Recv(buf, (int)bytes, MPI_BYTE, b, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, (int)bytes, MPI_BYTE, a, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, (int)bytes, MPI_BYTE, a, 0, MPI_COMM_WORLD);
		}
		if (r >= 0)
			times[r] = (now() - t0) / 2;
	}
	if (me != a)
		return 0;
	sort_times(times, reps);
	return times[PINGPONG_RANK(reps)];
}

/* One-way time per message size between ranks a and b, on rank a. */
static void pingpong(int me, int a, int b, const long *sizes, double *out, char *buf)
{
	for (int s = 0; s < NR_SIZES; s++)
		out[s] = pingpong_size(me, a, b, sizes[s], buf);
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

/* A process column of two ranks on two hosts: the pair (first, second) of
 * this round times PDGETF2's column step across them (column_step.h);
 * every rank calls (the split is collective), those outside a pair get 0. */
static double pair_column_step(int rank, int first, int second)
{
	MPI_Comm column;
	int disturbed;
	double t = 0;

	MPI_Comm_split(MPI_COMM_WORLD, first >= 0 ? first : MPI_UNDEFINED, rank == second, &column);
	if (first >= 0) {
		t = hm_time_column_step(column, STEP_BLOCK, STEP_SAMPLES, &held, &disturbed);
		MPI_Comm_free(&column);
	}
	return t;
}

/* A column's time per column: 'rows' processes from rank a (its host's
 * first) on; for a column of two, b the second (else -1). */
static void add_column_step(cJSON *steps, const char *scope, int a, int b, int rows, double seconds, int round)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "scope", scope);
	cJSON_AddItemToObject(e, "ranks", cJSON_CreateIntArray((int[]){ a, b }, b >= 0 ? 2 : 1));
	cJSON_AddNumberToObject(e, "rows", rows);
	cJSON_AddNumberToObject(e, "seconds_per_column", seconds);
	if (round >= 0)
		cJSON_AddNumberToObject(e, "round", round);
	cJSON_AddItemToArray(steps, e);
}

/* Between hosts: rank 0 schedules each round (host_links.h) and
 * broadcasts it; the pairs of a round measure at once (disjoint pairs do
 * not share a host's link); every pair's one-way times reach rank 0, whose
 * largest message's time is the schedule's measure. Progress and an
 * estimate of the time left go to standard error. */
static void link_rounds(const struct bench_args *a, int rank, int nproc, const long *sizes, char *buf,
			cJSON *pp, cJSON *steps)
{
	int *host_rank = malloc(((size_t)nproc + 1) * sizeof(int)), H, k, round = 0;
	struct hm_host_pair *todo;
	struct hm_link_schedule sched;
	double *all = NULL, mine[NR_SIZES + 1], started = now();

	if (!host_rank)
		die(rank, "out of memory");
	H = host_ranks(a, nproc, host_rank);
	todo = malloc(((size_t)H / 2 + 1) * sizeof(*todo));
	if (!todo || (rank == 0 && (hm_link_schedule_init(&sched, H, a->link_rounds, 0.2) ||
				    !(all = malloc((size_t)(nproc + a->shadow) * (NR_SIZES + 1) * sizeof(double))))))
		die(rank, "out of memory");
	for (;;) {
		int first = -1, second = -1;   /* this rank's pair, as ranks */

		if (rank == 0) {
			k = hm_link_schedule_next(&sched, todo);
			if (k) {
				int left = hm_link_schedule_rounds_left(&sched);
				double so_far = now() - started;

				progress("calibrate: links between hosts, round %d of about %d (%d pairs of %d "
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
		hm_idle_barrier();
		if (first >= 0)
			pingpong(rank, first, second, sizes, mine, buf);
		mine[NR_SIZES] = pair_column_step(rank, first, second);
		hm_idle_barrier();
		MPI_Gather(mine, NR_SIZES + 1, MPI_DOUBLE, all, NR_SIZES + 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (rank == 0)
			for (int i = 0; i < k; i++) {
				const double *t = all + (size_t)host_rank[todo[i].a] * (NR_SIZES + 1);

				hm_link_schedule_record(&sched, todo[i].a, todo[i].b, t[NR_SIZES - 1]);
				add_pingpong(pp, "inter_node", host_rank[todo[i].a], host_rank[todo[i].b], t, round);
				add_column_step(steps, "inter_node", host_rank[todo[i].a], host_rank[todo[i].b], 2,
						t[NR_SIZES], round);
			}
		round++;
	}
	if (rank == 0) {
		if (round)
			progress("calibrate: links between hosts: %d pairs in %d rounds, %.0f s\n", sched.n,
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

/* The second rank of r's host when r is its first, else -1. */
static int second_rank_of_host(const struct bench_args *a, int r, int nproc)
{
	for (int j = r + 1; j < nproc && first_of_host(a, r, nproc); j++)
		if (!strcmp(a->hosts[j], a->hosts[r]))
			return j;
	return -1;
}

/* The doubles of one rank's kernel samples: the rounds taken, then
 * hm_time_lu_kernels's samples of nk kernels. */
static int kernel_samples_count(const struct bench_args *a, int nk)
{
	return 1 + a->nbs * nk * hm_lu_kernel_rounds_max(a->repeat);
}

/* Kernel k's samples per block size from one rank's kernel samples 'v' (nk
 * kernels): an array of arrays. */
static cJSON *kernel_samples_json(const struct bench_args *a, const double *v, int nk, int k)
{
	cJSON *per_b = cJSON_CreateArray();
	int rounds = (int)v[0], max_rounds = hm_lu_kernel_rounds_max(a->repeat);

	for (int i = 0; i < a->nbs; i++)
		cJSON_AddItemToArray(per_b, cJSON_CreateDoubleArray(v + 1 + ((size_t)i * nk + k) * max_rounds,
								     rounds));
	return per_b;
}

/* 1b: the first rank of each multi-rank host measures dgemm alone into
 * mine[] (kernel_samples' layout, one kernel); rank 0 gathers them into
 * all[]. */
static void measure_alone(const struct bench_args *a, int rank, int nproc, double *mine,
			  double *all)
{
	int count = kernel_samples_count(a, 1);

	if (rank == 0)
		progress("calibrate: dgemm with one core busy per node\n");
	hm_idle_barrier();
	if (rank < nproc && first_of_host(a, rank, nproc))
		mine[0] = hm_time_lu_kernels(a->rows, a->bs, a->nbs, 1, a->repeat, a->min_time, &held, mine + 1);
	hm_idle_barrier();
	MPI_Gather(mine, count, MPI_DOUBLE, all, count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* 1d. LU's steps beside its kernels, timed with ScaLAPACK itself: every
 * processor rank's row interchanges (row_swap.h) and its column step alone
 * (r = 1), all at once as the kernels; then on each host its first 2, 4,
 * 8 ... ranks as one process column (every host at once: they share
 * nothing; the models take r = 2, the larger ones check how a step grows
 * with lg r). mine[STEP_*] gets this rank's; a column's, its host's
 * first rank. */
/* columns of 2, 4, .. 2^MAX_COLUMN_LOG ranks of one host */
enum { MAX_COLUMN_LOG = 7 };
enum { STEP_ROW_SWAP, STEP_ROW_SWAP_ALIASED, STEP_ALONE, STEP_DISTURBED, STEP_WAITED, STEP_HELD, STEP_LOAD, STEP_COLUMNS,
       NR_STEP_VALUES = STEP_COLUMNS + MAX_COLUMN_LOG };

/* The column step of a column of the host's first 2^k ranks, every host
 * at once (collective: every rank calls it); NAN where too many samples
 * were disturbed, 0 for a rank in no such column. */
static double column_of(int k, int rank, int nproc, int host, int place, int on_host, int *disturbed)
{
	int in = rank < nproc && place < (1 << k) && on_host >= (1 << k), more = 0;
	MPI_Comm column;
	double t;

	hm_idle_barrier();
	MPI_Comm_split(MPI_COMM_WORLD, in ? host : MPI_UNDEFINED, rank, &column);
	if (!in)
		return 0;
	t = hm_time_column_step(column, STEP_BLOCK, STEP_SAMPLES, &held, &more);
	*disturbed += more;
	MPI_Comm_free(&column);
	return t;
}

/* Columns of two that other work disturbed too often give no step: measure
 * them again, at a later (perhaps quieter) moment, at most this often. The
 * models read the column of two; a type without it is charged nothing. */
enum { COLUMN_RETRIES = 2 };

static int column_missed(const double mine[NR_STEP_VALUES])
{
	int missed = isnan(mine[STEP_COLUMNS]), any = 0;

	MPI_Allreduce(&missed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	return any;
}

static void measure_lu_steps(const struct bench_args *a, int rank, int nproc, double load_before,
			     double mine[NR_STEP_VALUES])
{
	int disturbed = 0, host = 0, place = 0, on_host = 0;

	/* this rank's host (by its first rank), place among its ranks, and their number */
	for (int j = 0; rank < nproc && j < nproc; j++)
		if (!strcmp(a->hosts[j], a->hosts[rank])) {
			if (!on_host++)
				host = j;
			place += j < rank;
		}
	memset(mine, 0, NR_STEP_VALUES * sizeof(double));
	if (rank == 0)
		progress("calibrate: row interchanges and column steps of LU with ScaLAPACK\n");
	hm_idle_barrier();
	if (rank < nproc) {
		/* the same rows, their stride aliased and 64 bytes past it */
		int aliased = (int)hm_aliased_lld(a->rows);

		mine[STEP_ROW_SWAP_ALIASED] = hm_time_row_swap(a->rows, aliased, SWAP_WIDTH, STEP_BLOCK, a->repeat,
							       &held);
		mine[STEP_ROW_SWAP] = hm_time_row_swap(a->rows, aliased + 8, SWAP_WIDTH, STEP_BLOCK, a->repeat, &held);
		mine[STEP_ALONE] = hm_time_column_step(MPI_COMM_SELF, STEP_BLOCK, STEP_SAMPLES, &held, &disturbed);
	}
	/* a column of the host's first 2^k ranks, every host at once */
	for (int k = 1; k <= MAX_COLUMN_LOG; k++)
		mine[STEP_COLUMNS + k - 1] = column_of(k, rank, nproc, host, place, on_host, &disturbed);
	for (int again = 1; again <= COLUMN_RETRIES && column_missed(mine); again++) {
		if (rank == 0)
			progress("calibrate: column steps disturbed by other work: measured again (%d of %d)\n", again,
				 COLUMN_RETRIES);
		sleep(1);
		mine[STEP_COLUMNS] = column_of(1, rank, nproc, host, place, on_host, &disturbed);
	}
	mine[STEP_DISTURBED] = disturbed;
	mine[STEP_LOAD] = load_before;
	mine[STEP_WAITED] = held.waited;
	mine[STEP_HELD] = held.spent;
	hm_idle_barrier();
}

/* Rank r's values of 1d into its processor entry 'e'; its host's column of
 * two (r and 'second', its host's second rank, or -1) into 'steps'. */
static void add_lu_steps(cJSON *e, cJSON *steps, const double *v, int r, int second)
{
	cJSON_AddNumberToObject(e, "row_swap_s", v[STEP_ROW_SWAP]);
	cJSON_AddNumberToObject(e, "row_swap_aliased_s", v[STEP_ROW_SWAP_ALIASED]);
	cJSON_AddNumberToObject(e, "column_alone_s", v[STEP_ALONE]);
	cJSON_AddNumberToObject(e, "column_disturbed", v[STEP_DISTURBED]);
	cJSON_AddNumberToObject(e, "waited_s", v[STEP_WAITED]);
	cJSON_AddNumberToObject(e, "measured_s", v[STEP_HELD]);
	cJSON_AddNumberToObject(e, "load_average", v[STEP_LOAD]);
	for (int k = 1; k <= MAX_COLUMN_LOG && second >= 0; k++)
		if (v[STEP_COLUMNS + k - 1] > 0)
			add_column_step(steps, "same_node", r, k == 1 ? second : -1, 1 << k, v[STEP_COLUMNS + k - 1], -1);
}

/* One benchmark run: its arguments and what every phase measured; rank 0
 * gathers every rank's values and assembles the JSON at the end. */
struct bench {
	struct bench_args a;
	int rank, size, nproc;          /* nproc: the ranks measured (the shadow is not) */
	int nsamples;                   /* kernel samples per rank */
	double *samples, *alone;        /* this rank's */
	double *all, *all_alone, *all_shapes, *steps_all;      /* rank 0: every rank's */
	double *all_threads;            /* rank 0: [(count * size + rank) * LU_NR_KERNELS + kernel],
					 * count 0 one thread, then --threads's */
	double load_before;             /* the load average at start */
	struct shapes sh;
	long sizes[NR_SIZES];           /* ping-pong message sizes, bytes */
	char *buf;
	cJSON *root, *procs, *pp, *steps;       /* rank 0 */
};

static void bench_start(struct bench *b, int argc, char **argv)
{
	MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &b->size);
	parse(argc, argv, &b->a, b->rank, b->size);
	hm_held_clock_init(&held);
	b->load_before = load_average();
	b->nproc = b->size - b->a.shadow;
	b->nsamples = kernel_samples_count(&b->a, NR_KERNELS);
	b->samples = calloc((size_t)b->nsamples, sizeof(double));
	b->alone = calloc((size_t)kernel_samples_count(&b->a, 1), sizeof(double));
	make_shapes(&b->a, &b->sh);
	if (b->rank == 0) {
		b->all = calloc((size_t)b->nsamples * b->size + 1, sizeof(double));
		b->all_alone = calloc((size_t)kernel_samples_count(&b->a, 1) * b->size, sizeof(double));
		b->all_shapes = calloc((size_t)HM_NR_KERNELS * MAX_SHAPES * b->size, sizeof(double));
		b->steps_all = calloc((size_t)NR_STEP_VALUES * b->size, sizeof(double));
	}
	for (int s = 0; s < NR_SIZES; s++)
		b->sizes[s] = 8L << s;
	b->buf = calloc((size_t)b->sizes[NR_SIZES - 1], 1);
	if (!b->samples || !b->alone || !b->buf ||
	    (b->rank == 0 && (!b->all || !b->all_alone || !b->all_shapes || !b->steps_all)))
		die(b->rank, "out of memory");
}

/* Phase 1: the kernels, every processor at once, in rounds of every b. */
static void phase_kernels(struct bench *b)
{
	if (b->rank == 0) {
		progress("calibrate: kernels on %d processors, b in", b->nproc);
		for (int i = 0; i < b->a.nbs; i++)
			progress(" %d", b->a.bs[i]);
		progress(", in rounds of every b\n");
	}
	hm_idle_barrier();
	if (b->rank < b->nproc)
		b->samples[0] = hm_time_lu_kernels(b->a.rows, b->a.bs, b->a.nbs, NR_KERNELS, b->a.repeat,
						   b->a.min_time, &held, b->samples + 1);
	hm_idle_barrier();
	MPI_Gather(b->samples, b->nsamples, MPI_DOUBLE, b->all, b->nsamples, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* Phase 3: dgemm, dtrsm and dger at the kernel models' shapes. */
static void phase_shapes(struct bench *b)
{
	static double shape_s[HM_NR_KERNELS][MAX_SHAPES];

	if (b->rank == 0)
		progress("calibrate: dgemm, dtrsm and dger at %d shapes on %d processors\n",
			b->sh.count[0] + b->sh.count[1] + b->sh.count[2], b->nproc);
	hm_idle_barrier();
	if (b->rank < b->nproc)
		measure_shapes(&b->a, &b->sh, shape_s);
	hm_idle_barrier();
	MPI_Gather(shape_s, HM_NR_KERNELS * MAX_SHAPES, MPI_DOUBLE, b->all_shapes,
		   HM_NR_KERNELS * MAX_SHAPES, MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

/* Phase 3': ranks of one thread, then of each t, at every b. */
static void phase_threads(struct bench *b)
{
	size_t per_rank = (size_t)b->a.nbs * LU_NR_KERNELS;
	double *median = malloc(per_rank * sizeof(double));

	b->all_threads = b->rank == 0 ? calloc((size_t)(b->a.nthreads + 1) * b->size * per_rank,
					       sizeof(double)) : NULL;
	if ((b->rank == 0 && !b->all_threads) || !median)
		die(b->rank, "out of memory");
	for (int i = 0; i <= b->a.nthreads; i++) {
		int t = i ? b->a.threads[i - 1] : 1;

		if (b->rank == 0)
			progress("calibrate: ranks of %d thread%s, %d rows\n", t, t > 1 ? "s" : "", b->a.thread_rows);
		hm_time_thread_team(t, b->a.hosts, b->nproc, b->rank, b->a.thread_rows, b->a.bs, b->a.nbs,
				    b->a.repeat, b->a.min_time, median);
		MPI_Gather(median, (int)per_rank, MPI_DOUBLE,
			   b->rank == 0 ? b->all_threads + (size_t)i * b->size * per_rank : NULL,
			   (int)per_rank, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	}
	free(median);
}

/* Rank 0: rank r's "threads" ({"1": {"B": [k3_dgemm, k3_dtrsm, k2_dgetf2]
 * s/flop, ...}, "T": ...} for the counts it led a team of), or nothing. */
static void add_thread_medians(const struct bench *b, cJSON *e, int r)
{
	size_t per_rank = (size_t)b->a.nbs * LU_NR_KERNELS;
	cJSON *per = NULL;

	for (int i = 0; b->all_threads && i <= b->a.nthreads; i++) {
		const double *v = b->all_threads + ((size_t)i * b->size + r) * per_rank;
		cJSON *by_b;
		char key[16];

		if (!(v[0] > 0))
			continue;
		if (!per)
			per = cJSON_AddObjectToObject(e, "threads");
		snprintf(key, sizeof(key), "%d", i ? b->a.threads[i - 1] : 1);
		by_b = cJSON_AddObjectToObject(per, key);
		for (int bi = 0; bi < b->a.nbs; bi++) {
			snprintf(key, sizeof(key), "%d", b->a.bs[bi]);
			cJSON_AddItemToObject(by_b, key, cJSON_CreateDoubleArray(v + bi * LU_NR_KERNELS, LU_NR_KERNELS));
		}
	}
}

/* Phase 4: LU's steps (row interchanges, column steps). */
static void phase_lu_steps(struct bench *b)
{
	double mine[NR_STEP_VALUES];

	measure_lu_steps(&b->a, b->rank, b->nproc, b->load_before, mine);
	MPI_Gather(mine, NR_STEP_VALUES, MPI_DOUBLE, b->steps_all, NR_STEP_VALUES, MPI_DOUBLE, 0,
		   MPI_COMM_WORLD);
}

/* Rank 0: the output's header, what every measurement was made with, and
 * the arrays the next phases fill. */
static void raw_header(struct bench *b)
{
	cJSON *root = b->root = cJSON_CreateObject(), *bytes;

	cJSON_AddNumberToObject(root, "hetmap_calibration_raw", 1);
	cJSON_AddNumberToObject(root, "rows", b->a.rows);
	cJSON_AddNumberToObject(root, "repeat", b->a.repeat);
	cJSON_AddItemToObject(root, "block_sizes", cJSON_CreateIntArray(b->a.bs, b->a.nbs));
	bytes = cJSON_AddArrayToObject(root, "bytes");
	for (int s = 0; s < NR_SIZES; s++)
		cJSON_AddItemToArray(bytes, cJSON_CreateNumber((double)b->sizes[s]));
	if (b->a.shapes) {
		cJSON *shapes = cJSON_AddObjectToObject(root, "shapes");

		for (int k = 0; k < HM_NR_KERNELS; k++) {
			cJSON *list = cJSON_AddArrayToObject(shapes, hm_kernel_names()[k]);

			for (int i = 0; i < b->sh.count[k]; i++)
				cJSON_AddItemToArray(list, cJSON_CreateDoubleArray(b->sh.shape[k][i], 3));
		}
	}
	b->procs = cJSON_AddArrayToObject(root, "processors");
	b->pp = cJSON_AddArrayToObject(root, "pingpong");
	b->steps = cJSON_AddArrayToObject(root, "column_steps");
	cJSON_AddStringToObject(root, "held_time", held.corrects ? "wall time less run_delay" : held.why_not);
	cJSON_AddNumberToObject(root, "step_block", STEP_BLOCK);
	if (b->a.nthreads > 0)
		cJSON_AddNumberToObject(root, "thread_rows", b->a.thread_rows);
}

/* Phase 5: ping-pongs, one pair at a time within a host. */
static void phase_pingpongs(struct bench *b)
{
	struct pair pairs[1 + 2 * MAX_PAIRS_PER_SCOPE];
	int npairs = choose_pairs(&b->a, b->nproc, pairs), rank = b->rank;

	for (int p = 0; p < npairs; p++) {
		double oneway[NR_SIZES] = { 0 };

		if (rank == 0)
			progress("calibrate: ping-pong %s (ranks %d-%d)\n", pairs[p].scope,
				pairs[p].a, pairs[p].b);
		hm_idle_barrier();
		if (rank == pairs[p].a || rank == pairs[p].b)
			pingpong(rank, pairs[p].a, pairs[p].b, b->sizes, oneway, b->buf);
		if (pairs[p].a != 0) {
			if (rank == pairs[p].a)
				MPI_Send(oneway, NR_SIZES, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
			if (rank == 0)
				MPI_Recv(oneway, NR_SIZES, MPI_DOUBLE, pairs[p].a, 1, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
		}
		if (rank == 0)
			add_pingpong(b->pp, pairs[p].scope, pairs[p].a, pairs[p].b, oneway, -1);
	}
}

/* The card's pairs: the first MAX_CARD_PAIRS ranks of the first host that
 * holds two or more, into on[], each with a partner off it, into off[]:
 * every other host's first rank, then its second, and so on, so that the
 * partners share no card while there are hosts. Returns the pairs (0 or 1:
 * nothing to share). */
static int card_pairs(const struct bench_args *a, int nproc, int *on, int *off)
{
	int host = -1, m = 0, n = 0;

	for (int r = 0; r < nproc && host < 0; r++)
		if (second_rank_of_host(a, r, nproc) >= 0)
			host = r;
	for (int r = host; host >= 0 && r < nproc && m < MAX_CARD_PAIRS; r++)
		if (!strcmp(a->hosts[r], a->hosts[host]))
			on[m++] = r;
	for (int depth = 0; n < m && depth < nproc; depth++)        /* the depth-th rank of each host */
		for (int r = 0; r < nproc && n < m; r++) {
			int before = 0;

			if (!strcmp(a->hosts[r], a->hosts[host]))
				continue;
			for (int q = 0; q < r; q++)
				before += !strcmp(a->hosts[q], a->hosts[r]);
			if (before == depth)
				off[n++] = r;
		}
	return n < m ? n : m;
}

/* Seconds a message of 'bytes' takes in one stream from rank a to rank b:
 * CARD_STREAM messages one way, then b's one-byte answer, over
 * CARD_STREAM, on rank a; rank b gets 0. One way, so that pairs streaming
 * at once contend in one direction of a duplex card, as a broadcast's
 * senders do (ping-pongs at once contend as much as their phases happen to
 * meet: 1.2-1.6x for two on the emulated cluster, where streams gave about
 * 2). */
#define CARD_STREAM 2
#define CARD_REPS 6
static double stream_once(int me, int a, int b, long bytes, char *buf)
{
	double t0 = now();
	char ack = 0;

	for (int m = 0; m < CARD_STREAM; m++)
		if (me == a)
			MPI_Send(buf, (int)bytes, MPI_BYTE, b, 2, MPI_COMM_WORLD);
		else
			MPI_Recv(buf, (int)bytes, MPI_BYTE, a, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (me == a)
		MPI_Recv(&ack, 1, MPI_BYTE, b, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	else
		MPI_Send(&ack, 1, MPI_BYTE, a, 3, MPI_COMM_WORLD);
	return me == a ? (now() - t0) / CARD_STREAM : 0;
}

/* This rank's PINGPONG_RANK'th of CARD_REPS streams (after one unmeasured)
 * when it is the first of one of the k pairs (on[i], off[i]), else 0;
 * every rank calls. Each stream starts at a barrier, so that the pairs
 * stream at once (left to themselves they drifted apart in one of three
 * calibrations at 1 Gbit/s: 1.08x for two). */
static double card_streams(int rank, int k, const int *on, const int *off, long bytes, char *buf)
{
	double times[CARD_REPS] = { 0 };
	int first = 0;

	for (int r = -1; r < CARD_REPS; r++) {
		double t = 0;

		hm_idle_barrier();
		for (int i = 0; i < k; i++)
			if (rank == on[i] || rank == off[i])
				t = stream_once(rank, on[i], off[i], bytes, buf), first = rank == on[i];
		if (r >= 0)
			times[r] = t;
	}
	if (!first)
		return 0;
	sort_times(times, CARD_REPS);
	return times[PINGPONG_RANK(CARD_REPS)];
}

/* Phase 7: one host's card shared. k = 1 .. m of its ranks stream the
 * largest message off it at once, each to a partner on another host
 * (card_pairs): each pair's seconds a message against k. A card every
 * pair had to itself keeps k = 1's time; one the pairs share stretches it
 * k-fold, as SimGrid's export assumes (models/platform/simgrid_platform.c:
 * a card a host, shared max-min; models/platform/README.md, "A node's
 * card"). */
static void phase_card(struct bench *b)
{
	int on[MAX_CARD_PAIRS], off[MAX_CARD_PAIRS], m = card_pairs(&b->a, b->nproc, on, off);
	long bytes = b->sizes[NR_SIZES - 1];
	double *all = NULL;
	cJSON *card = NULL, *seconds = NULL;

	if (m < 2)
		return;
	if (b->rank == 0) {
		if (!(all = malloc((size_t)b->size * sizeof(double))))
			die(0, "out of memory");
		card = cJSON_AddObjectToObject(b->root, "card");
		cJSON_AddStringToObject(card, "host", b->a.hosts[on[0]]);
		cJSON_AddNumberToObject(card, "bytes", (double)bytes);
		cJSON_AddItemToObject(card, "ranks", cJSON_CreateIntArray(on, m));
		cJSON_AddItemToObject(card, "partners", cJSON_CreateIntArray(off, m));
		seconds = cJSON_AddArrayToObject(card, "seconds");
		progress("calibrate: %s's card, 1 to %d of its ranks sending off it at once\n", b->a.hosts[on[0]], m);
	}
	for (int k = 1; k <= m; k++) {
		double mine = card_streams(b->rank, k, on, off, bytes, b->buf), t[MAX_CARD_PAIRS];

		MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
		if (b->rank == 0) {
			for (int i = 0; i < k; i++)
				t[i] = all[on[i]];
			cJSON_AddItemToArray(seconds, cJSON_CreateDoubleArray(t, k));
		}
	}
	free(all);
}

/* Rank 0: rank r's entry of "processors", from what was gathered. */
static cJSON *processor_json(const struct bench *b, int r)
{
	cJSON *e = cJSON_CreateObject();

	cJSON_AddNumberToObject(e, "rank", r);
	cJSON_AddStringToObject(e, "host", b->a.hosts[r]);
	for (int k = 0; k < NR_KERNELS; k++)
		cJSON_AddItemToObject(e, kernel_names[k],
				      kernel_samples_json(&b->a, b->all + (size_t)r * b->nsamples, NR_KERNELS, k));
	if (b->a.shapes) {
		cJSON *per = cJSON_AddObjectToObject(e, "shape_seconds");

		for (int k = 0; k < HM_NR_KERNELS; k++)
			cJSON_AddItemToObject(per, hm_kernel_names()[k], cJSON_CreateDoubleArray(
				b->all_shapes + ((size_t)r * HM_NR_KERNELS + k) * MAX_SHAPES, b->sh.count[k]));
	}
	add_thread_medians(b, e, r);
	add_lu_steps(e, b->steps, b->steps_all + (size_t)r * NR_STEP_VALUES, r,
		     second_rank_of_host(&b->a, r, b->nproc));
	if (b->a.alone && first_of_host(&b->a, r, b->nproc))
		cJSON_AddItemToObject(e, "k3_dgemm_alone", kernel_samples_json(
			&b->a, b->all_alone + (size_t)r * kernel_samples_count(&b->a, 1), 1, 0));
	return e;
}

/* Rank 0: every processor's entry, the first host's memory, and the whole
 * document on one line of standard output. */
static void raw_finish(struct bench *b)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	char *text;

	for (int r = 0; r < b->nproc; r++)
		cJSON_AddItemToArray(b->procs, processor_json(b, r));
	/* memory is per physical machine; hetmap shares it among processors */
	cJSON_AddNumberToObject(b->root, "memory_bytes_rank0_host",
				pages > 0 && page > 0 ? (double)pages * (double)page : 0);
	if ((text = cJSON_PrintUnformatted(b->root)))
		printf("%s\n", text);
	fflush(stdout);
	cJSON_free(text);
}

/* The phases in order (hetmap calibrate's "measure" stage). */
int main(int argc, char **argv)
{
	struct bench b = { 0 };

	MPI_Init(&argc, &argv);
	bench_start(&b, argc, argv);
	phase_kernels(&b);                              /* 1. the kernels */
	if (b.a.alone)                                  /* 2. a core alone */
		measure_alone(&b.a, b.rank, b.nproc, b.alone, b.all_alone);
	if (b.a.shapes)                                 /* 3. the kernel shapes */
		phase_shapes(&b);
	if (b.a.nthreads > 0)                           /* 3'. ranks of t threads */
		phase_threads(&b);
	phase_lu_steps(&b);                             /* 4. LU's steps */
	if (b.rank == 0)
		raw_header(&b);
	phase_pingpongs(&b);                            /* 5. ping-pongs within hosts */
	link_rounds(&b.a, b.rank, b.nproc, b.sizes, b.buf, b.pp, b.steps);  /* 6. between hosts */
	phase_card(&b);                                 /* 7. a host's card shared */
	if (b.rank == 0)
		raw_finish(&b);
	cJSON_Delete(b.root);
	free(b.buf), free(b.samples), free(b.all), free(b.alone), free(b.all_alone), free(b.all_shapes);
	free(b.steps_all), free(b.all_threads), free(b.a.hosts);
	MPI_Finalize();
	return 0;
}

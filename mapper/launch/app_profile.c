/* mapper/launch/app_profile.c - the application profiles (see app_profile.h).
 *
 * Input files are those of the programs' own distributions, with the
 * plan's values in place: LU.dat of ScaLAPACK's LU tester (xdlu),
 * HPL.dat of HPL 2.x and hpccinf.txt of HPC Challenge (HPL.dat plus the
 * PTRANS lines). HPL and HPCC read PMAP 0: BLACS row-major order, the
 * order the plan's rank list assumes; so do ScaLAPACK's testers, which
 * call BLACS_GRIDINIT with 'Row-major'. */
#include "app_profile.h"
#include "models/util/decimal.h"
#include "models/util/rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* HPL.dat from its fifth line: one N, one NB, one P x Q, row-major, and
 * HPL's own sample choices for the algorithm (they are not planned). */
#define HPL_DAT_REST \
	"1            # of problems sizes (N)\n" \
	"{n}          Ns\n" \
	"1            # of NBs\n" \
	"{b}          NBs\n" \
	"0            PMAP process mapping (0=Row-,1=Column-major)\n" \
	"1            # of process grids (P x Q)\n" \
	"{r}          Ps\n" \
	"{c}          Qs\n" \
	"16.0         threshold\n" \
	"1            # of panel fact\n" \
	"2            PFACTs (0=left, 1=Crout, 2=Right)\n" \
	"1            # of recursive stopping criterium\n" \
	"4            NBMINs (>= 1)\n" \
	"1            # of panels in recursion\n" \
	"2            NDIVs\n" \
	"1            # of recursive panel fact.\n" \
	"1            RFACTs (0=left, 1=Crout, 2=Right)\n" \
	"1            # of broadcast\n" \
	"1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)\n" \
	"1            # of lookahead depth\n" \
	"1            DEPTHs (>=0)\n" \
	"2            SWAP (0=bin-exch,1=long,2=mix)\n" \
	"64           swapping threshold\n" \
	"0            L1 in (0=transposed,1=no-transposed) form\n" \
	"0            U  in (0=transposed,1=no-transposed) form\n" \
	"1            Equilibration (0=no,1=yes)\n" \
	"8            memory alignment in double (> 0)\n"

static const char hpl_dat[] =
	"HPLinpack benchmark input file\n"
	"hetmap plan: n = {n}, b = {b}, grid {r} x {c} ({D} processes)\n"
	"HPL.out      output file name (if any)\n"
	"6            device out (6=stdout,7=stderr,file)\n"
	HPL_DAT_REST;

static const char hpcc_inf[] =
	"HPLinpack benchmark input file\n"
	"hetmap plan: n = {n}, b = {b}, grid {r} x {c} ({D} processes)\n"
	"HPL.out      output file name (if any)\n"
	"8            device out (6=stdout,7=stderr,file)\n"
	HPL_DAT_REST
	"##### This line (no. 32) is ignored (it serves as a separator). ######\n"
	"0                      \t\tNumber of additional problem sizes for PTRANS\n"
	"1200 10000 30000        \tvalues of N\n"
	"0                       \tnumber of additional blocking sizes for PTRANS\n"
	"40 9 8 13 13 20 16 32 64       \tvalues of NB\n";

static const char lu_dat[] =
	"'ScaLAPACK, LU factorization input file'\n"
	"'hetmap plan: n = {n}, b = {b}, grid {r} x {c}'\n"
	"'LU.out'                output file name (if any)\n"
	"6                       device out\n"
	"1                       number of problems sizes\n"
	"{n}                     values of M\n"
	"{n}                     values of N\n"
	"1                       number of NB's\n"
	"{b}                     values of NB\n"
	"1                       number of NRHS's\n"
	"1                       values of NRHS\n"
	"1                       Number of NBRHS's\n"
	"1                       values of NBRHS\n"
	"1                       number of process grids (ordered pairs of P & Q)\n"
	"{r}                     values of P\n"
	"{c}                     values of Q\n"
	"1.0                     threshold\n"
	"F                       (T or F) Test Cond. Est. and Iter. Ref. Routines\n";

/* The first 'size'-1 characters of 'line' that tell why a program gave up. */
static void keep_note(struct hm_app_result *r, const char *line)
{
	while (*line == ' ')
		line++;
	if (!r->note[0])
		snprintf(r->note, sizeof(r->note), "%s", line);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	return n >= m && !strncmp(s + n - m, suffix, m);
}

/* A time printed as 'text': its value and tick into r; 0, or -1 when
 * 'text' is no number. */
static int take_time(struct hm_app_result *r, const char *text)
{
	char *end;

	if (!strncasecmp(text, "inf", 3)) {     /* a time too large or a rate of 0 s */
		double t = strtod(text, &end);

		if (end[strspn(end, " \t\r")])
			return -1;
		r->seconds = t, r->tick = 0;
		return 0;
	}
	return hm_decimal_time(text, &r->seconds, &r->tick);
}

/* hetmap-driver: its one JSON line. */
static void read_driver(struct hm_app_result *r, const char *line)
{
	cJSON *doc, *check;
	const cJSON *s, *g;
	const char *kernels;

	if (strncmp(line, "{\"hetmap_driver\"", 16) || r->raw)
		return;
	if (!cJSON_IsObject(doc = cJSON_Parse(line))) {
		cJSON_Delete(doc);
		return;
	}
	r->raw = doc;
	r->found = 1;
	s = cJSON_GetObjectItemCaseSensitive(doc, "seconds");
	g = cJSON_GetObjectItemCaseSensitive(doc, "gflops");
	check = cJSON_GetObjectItemCaseSensitive(doc, "check");
	r->seconds = cJSON_IsNumber(s) ? s->valuedouble : -1;
	r->gflops = cJSON_IsNumber(g) ? g->valuedouble : -1;
	kernels = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(doc, "kernels"));
	if (kernels && !strcmp(kernels, "modeled"))
		r->verdict = HM_VERDICT_MODELED;
	else
		r->verdict = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(check, "passed")) ?
			     HM_VERDICT_PASSED : HM_VERDICT_FAILED;
}

/* HPL 2.x (also inside HPCC's output): the row after the "T/V" header,
 * "WR11C2R4  N  NB  P  Q  Time  Gflops", then the residual line ending
 * in PASSED or FAILED. HPCC's summary "HPL_time=" is more precise. */
static void read_hpl(struct hm_app_result *r, const char *line)
{
	char tv[64], time[64];
	long n;
	int nb, p, q;
	double g;

	if (!strncmp(line, "T/V", 3)) {
		r->in_table = 1;
	} else if (r->in_table && line[0] == 'W' &&
		   sscanf(line, "%63s %ld %d %d %d %63s %lf", tv, &n, &nb, &p, &q, time, &g) == 7 &&
		   !take_time(r, time)) {
		r->found = 1, r->gflops = g;
		r->in_table = 0;
	} else if (strstr(line, "||Ax-b||") && (ends_with(line, "PASSED") || ends_with(line, "FAILED"))) {
		if (r->verdict != HM_VERDICT_FAILED)
			r->verdict = ends_with(line, "PASSED") ? HM_VERDICT_PASSED : HM_VERDICT_FAILED;
	} else if (!strncmp(line, "HPL_time=", 9)) {
		take_time(r, line + 9);
	} else if (sscanf(line, "HPL_Tflops=%lf", &g) == 1) {
		r->gflops = g * 1e3;
	} else if (!strncmp(line, "HPL ERROR", 9) || strstr(line, "Illegal input") ||
		   strstr(line, "Memory allocation failed")) {
		keep_note(r, line);
	}
}

/* ScaLAPACK's LU tester: "WALL M N NB NRHS NBRHS P Q LU-time Sol-time
 * MFLOPS CHECK" per test; why a test was skipped on the lines before.
 * Its times have two decimals: a factorization under 5 ms prints 0.00
 * (run records no measurement) and its MFLOPS, divided by that zero,
 * "********" (Fortran's overflow: the rate is unknown); the check counts. */
static void read_scalapack_test(struct hm_app_result *r, const char *line)
{
	char check[16], mflops[32], t_lu[32];
	long m, n;
	int nb, nrhs, nbrhs, p, q, skipped;
	double t_sol, rate;

	if (sscanf(line, "WALL %ld %ld %d %d %d %d %d %31s %lf %31s %15s", &m, &n, &nb, &nrhs,
		   &nbrhs, &p, &q, t_lu, &t_sol, mflops, check) == 11 && !take_time(r, t_lu)) {
		r->found = 1;
		if (sscanf(mflops, "%lf", &rate) == 1)
			r->gflops = rate * 1e-3;
		if (r->verdict != HM_VERDICT_FAILED)
			r->verdict = !strcmp(check, "PASSED") ? HM_VERDICT_PASSED : HM_VERDICT_FAILED;
	} else if (sscanf(line, " %d tests skipped", &skipped) == 1 && skipped > 0) {
		r->found = 1;
		if (r->verdict == HM_VERDICT_UNKNOWN)
			r->verdict = HM_VERDICT_SKIPPED;
	} else if (strstr(line, "Unable to perform") || strstr(line, "ILLEGAL") ||
		   strstr(line, "Bad ") == line) {
		keep_note(r, line);
	}
}

/* xdlu's need in its work array (TOTMEM = 4000000 bytes in ScaLAPACK
 * 2.2.1's pdludriver.f): at least the local matrix, LLD x NQ, and the
 * panel workspace MP x NB, in doubles. It asks a little more (pivots,
 * padding): plans near the limit may still be skipped at run time. */
static double xdlu_bytes(const struct hm_placement *pl)
{
	double blocks = ceil((double)pl->n / pl->b);
	double mp = ceil(blocks / pl->r) * pl->b, nq = ceil(blocks / pl->c) * pl->b;

	mp = mp < pl->n ? mp : (double)pl->n;
	nq = nq < pl->n ? nq : (double)pl->n;
	return 8 * (mp * nq + mp * pl->b);
}

static const struct hm_app_profile profiles[] = {
	{ "driver", "hetmap's ScaLAPACK driver (pdgetrf/pdgemm, residual check, JSON result line)",
	  "hetmap-driver", NULL, NULL, NULL,
	  "--routine {routine} -n {n} -b {b} -r {r} -c {c} --seed {seed}", 0, 0, NULL, read_driver, NULL },
	{ "hpl", "HPL 2.x (xhpl): HPL.dat; time, Gflops and residual verdict from its output",
	  "xhpl", "HPL.dat", hpl_dat, NULL, NULL, 0, 0, NULL, read_hpl, NULL },
	{ "hpcc", "HPC Challenge (hpcc): hpccinf.txt; HPL's time, Gflops and verdict from hpccoutf.txt",
	  "hpcc", "hpccinf.txt", hpcc_inf, "hpccoutf.txt", NULL, 0, 0, NULL, read_hpl,
	  "HPC Challenge runs its other tests too (STREAM, RandomAccess, FFT, PTRANS, ...), sized from "
	  "HPL's n, which no input file turns off: the job lasts far longer than HPL, whose own time "
	  "is the one compared" },
	{ "scalapack-test", "ScaLAPACK's LU tester (xdlu): LU.dat; LU time, MFLOPS and PASSED/FAILED",
	  "xdlu", "LU.dat", lu_dat, NULL, NULL, 0, 4e6, xdlu_bytes, read_scalapack_test, NULL },
	{ "none", "any other program: its 'hetmap-time:' line, --time-regex or the MPI span; exit status",
	  "", NULL, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL },
};
#define NR_PROFILES (int)(sizeof(profiles) / sizeof(profiles[0]))
_Static_assert(offsetof(struct hm_app_profile, name) == 0, "a row starts with its name (rows.h)");

const struct hm_app_profile *hm_app_profile_find(const char *name)
{
	return hm_row_named(profiles, NR_PROFILES, sizeof(profiles[0]), name);
}

const struct hm_app_profile *hm_app_profile_for(const char *program)
{
	const char *base = strrchr(program, '/');
	size_t len;

	base = base ? base + 1 : program;
	len = strlen(base);
	for (int i = 0; i < NR_PROFILES; i++) {
		const char *p = profiles[i].programs;

		while (*p) {
			size_t w = strcspn(p, " ");

			if (w == len && !strncmp(p, base, w))
				return &profiles[i];
			p += w + (p[w] == ' ');
		}
	}
	return hm_app_profile_find("none");
}

static int profile_name(const void *ctx, int i, char *out, size_t room)
{
	return snprintf(out, room, "%s", profiles[i].name);
}

static int profile_help_line(const void *ctx, int i, char *out, size_t room)
{
	return snprintf(out, room, "  %-15s %s\n", profiles[i].name, profiles[i].summary);
}

const char *hm_app_profile_names(char *buf, int size)
{
	return hm_join(buf, (size_t)size, NR_PROFILES, ", ", profile_name, NULL);
}

const char *hm_help_app_profiles(void)
{
	static char text[2048];

	return text[0] ? text : hm_join(text, sizeof(text), NR_PROFILES, "", profile_help_line, NULL);
}

void hm_app_result_init(struct hm_app_result *r)
{
	memset(r, 0, sizeof(*r));
	r->seconds = r->gflops = -1;
	r->measured_by = "";
}

void hm_app_result_release(struct hm_app_result *r)
{
	cJSON_Delete(r->raw);
	r->raw = NULL;
}

const char *hm_verdict_name(enum hm_verdict v)
{
	static const char *const names[] = { "unknown", "passed", "failed", "skipped", "modeled" };

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : "?";
}

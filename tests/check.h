/* tests/check.h - the smallest test harness that reports well: each
 * CHECK prints file:line and the failed expression, main() ends with
 * check_summary(), which prints "N passed, N failed" and returns the
 * exit status; check_main() runs a suite's table of cases, all of them or
 * those named on the command line. */
#ifndef HM_CHECK_H
#define HM_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond) check_report(!!(cond), __FILE__, __LINE__, #cond, 0, 0)
/* Relative tolerance check for doubles. */
#define CHECK_NEAR(got, want, rel) \
	check_report(check_near((got), (want), (rel)), __FILE__, __LINE__, \
		     #got " ~ " #want, (got), (want))

static inline int check_near(double got, double want, double rel)
{
	double scale = fabs(want) > 1e-300 ? fabs(want) : 1.0;

	return fabs(got - want) <= rel * scale;
}

static inline int check_report(int ok, const char *file, int line, const char *what,
			       double got, double want)
{
	if (ok) {
		check_passed++;
		return 1;
	}
	check_failed++;
	if (got != 0 || want != 0)
		fprintf(stderr, "%s:%d: FAILED %s (got %.17g, want %.17g)\n", file, line, what,
			got, want);
	else
		fprintf(stderr, "%s:%d: FAILED %s\n", file, line, what);
	return 0;
}

static inline int check_summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
	return check_failed ? 1 : 0;
}

/* A suite is a table of cases, each a function named as a sentence. */
struct check_case {
	const char *name;
	void (*run)(void);
};
#define CHECK_CASE(fn) { #fn, fn }

/* Run every case, or only those named on the command line (an unknown
 * name fails, listing the known ones), then the summary. */
static inline int check_main(const char *suite, const struct check_case *cases, int n,
			     int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		int found = 0;

		for (int i = 0; i < n; i++)
			found |= !strcmp(argv[a], cases[i].name);
		if (!found) {
			fprintf(stderr, "%s: no case '%s'; the cases are:\n", suite, argv[a]);
			for (int i = 0; i < n; i++)
				fprintf(stderr, "  %s\n", cases[i].name);
			return 2;
		}
	}
	for (int i = 0; i < n; i++) {
		int wanted = argc < 2;

		for (int a = 1; a < argc; a++)
			wanted |= !strcmp(argv[a], cases[i].name);
		if (wanted)
			cases[i].run();
	}
	return check_summary(suite);
}

/* main() of a suite whose cases need nothing set up: 'cases' is its table. */
#define CHECK_MAIN(suite)                                                                  \
	int main(int argc, char **argv)                                                    \
	{                                                                                  \
		return check_main(suite, cases, (int)(sizeof(cases) / sizeof(cases[0])), argc, argv); \
	}

#endif /* HM_CHECK_H */

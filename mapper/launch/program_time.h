/* mapper/launch/program_time.h - the time 'run' compares with the prediction,
 * from what any program prints (mapper/README.md, "A program's time"):
 *
 *  1. the first group of --time-regex on any line, when it matched
 *     (what the user asked for by name);
 *  2. else a line
 *        hetmap-time: SECONDS
 *     that any program may print (rank 0, or every rank: the largest
 *     counts);
 *  3. else its profile's reader (the driver, HPL, HPCC, xdlu);
 *  4. else the span hetmap-probe's preload (libhetmap-mpi-span) prints
 *     for each rank, MPI_Init's return to MPI_Finalize's call, the largest;
 *  5. else nothing: the launcher's wall time is recorded apart (wall_s).
 * One order, whatever the values: which source a record names never flips
 * with the numbers.
 *
 * A printed time's tick is its last printed digit ("0.21": 0.01 s); a
 * time under ten ticks is kept but gives no ratio. */
#ifndef HM_PROGRAM_TIME_H
#define HM_PROGRAM_TIME_H

#include <regex.h>
#include "app_profile.h"
#include "models/util/error.h"

#define HM_TIME_LINE "hetmap-time:"
#define HM_SPAN_LINE "hetmap-mpi-span:"
#define HM_SPAN_LIBRARY "libhetmap-mpi-span.so"
#define HM_MIN_TICKS 10         /* a time shorter than this many ticks gives no ratio */
#define HM_TIME_REGEX_MAX 1000  /* --time-regex: characters */
#define HM_TIME_REGEX_GROUPS 100 /* and '(' (glibc's regcomp recurses a group deep) */

struct hm_program_time {
	regex_t regex;
	int have_regex;
	double line_s, line_tick;       /* the largest hetmap-time time; < 0 none */
	double regex_s, regex_tick;     /* the largest --time-regex time; < 0 none */
	double span_s;                  /* the largest MPI span; < 0 none */
};

/* With 'regex' NULL or an extended regular expression whose first group
 * holds the seconds. 0, or -1 with err set (a bad expression). */
int hm_program_time_init(struct hm_program_time *pt, const char *regex, struct hm_error *err);
void hm_program_time_release(struct hm_program_time *pt);
/* Read one output line; 1 when it was the span library's (not the program's). */
int hm_program_time_line(struct hm_program_time *pt, const char *line);
/* 1 when r's time is under HM_MIN_TICKS ticks of the timer it was printed
 * with: kept, but no ratio to the prediction. */
static inline int hm_time_under_ticks(const struct hm_app_result *r)
{
	return r->seconds < HM_MIN_TICKS * r->tick;
}

/* Settle r->seconds, r->tick and r->measured_by ("time-regex",
 * "time-line", "profile", "mpi-span"; "" when nothing measured) in the
 * order above from the lines seen and the profile's reading. */
void hm_program_time_settle(const struct hm_program_time *pt, struct hm_app_result *r);

#endif /* HM_PROGRAM_TIME_H */

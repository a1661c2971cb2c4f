/* mapper/tune/history.h - a platform's measured runs, read back from results
 * files: what 'learn' fits and 'tune' takes its error band from.
 *
 * A record counts when it is a measurement (record.h: the run exited 0,
 * was not simulated, has a plan and a time with a ratio) on this platform:
 * its inputs' base digest (the measured platform under any learned
 * corrections) is this platform's, and every processor its plan names is
 * one of it. Never from simulated runs. */
#ifndef HM_HISTORY_H
#define HM_HISTORY_H

#include "models/routine.h"
#include "models/platform/platform.h"
#include "models/util/error.h"

/* One measured run: its configuration and times. */
struct hm_observation {
	int *d, *threads;               /* P entries each (the history's storage) */
	int D, r, c, b;
	enum hm_routine routine;
	double n;
	double measured;                /* s */
	char program[64];               /* the program's base name: a group of comparable runs */
};

struct hm_history {
	int P, n, cap;
	struct hm_observation *o;
	/* records read and left out, by why */
	long records, other_platform, not_measured, unreadable;
};

/* An empty history of platform p's runs. */
void hm_history_init(struct hm_history *h, const struct hm_platform *p);
void hm_history_release(struct hm_history *h);

/* Add the measurements of results file 'path' on platform p. 0, or -1
 * with 'err' set (the file cannot be read; out of memory). A line that is
 * not JSON is counted as unreadable, not fatal: a results file a crash
 * cut is still evidence. */
int hm_history_read(struct hm_history *h, const struct hm_platform *p, const char *path,
		    struct hm_error *err);

/* The model's time of observation o on p (on its thread view where it ran
 * ranks of threads); 0 when it cannot be priced. */
struct hm_model;
double hm_observation_price(const struct hm_platform *p, const struct hm_model *m,
			    const struct hm_observation *o);

#endif /* HM_HISTORY_H */

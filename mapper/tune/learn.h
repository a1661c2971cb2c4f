/* mapper/tune/learn.h - corrections learned from a platform's measured runs
 * ('hetmap learn', and --history on plan, predict, compare and tune;
 * models/README.md, "Learned corrections").
 *
 * The model prices a configuration from the platform's measured terms.
 * Real runs err from it in ways a few factors describe: every computation
 * of a type slower or faster than calibrate's kernels said (the programs'
 * shapes are not the benchmark's), its ranks of threads gaining more or
 * less than measured, the links slower or faster. Each term set below is
 * fitted by least squares on the logs of measured over predicted time (a
 * run's error is multiplicative) with the model itself re-pricing every
 * run under the factors (Levenberg-Marquardt, numerical derivatives); the
 * set kept is the one of least AICc (Akaike's criterion corrected for
 * small samples, as D. Rodriguez Martinez's TIA framework chooses among
 * candidate sets of terms fitted to measured runs, USC 2011):
 *
 *   none                 the model as calibrated
 *   compute              one factor on every computation cost
 *   compute, comm        and one on every link
 *   compute per type     one factor per type the runs used (two types or more)
 *   compute per type, comm
 *   compute, threads     and one on the thread speed-ups (threaded runs)
 *   compute, comm, threads
 *   compute per type, comm, threads per type
 *   phases, comm         one factor per phase of LU (dgemm, dtrsm, panel, swaps)
 *   phases, comm, threads
 *
 * A set is tried only where the runs can tell its terms apart (a link
 * factor needs runs of two processes or more, a thread factor runs of
 * threads, a per-type factor runs that used that type, the phases LU runs
 * at two n or more: at one n each phase's share of a configuration is
 * fixed by its grid and b, and factors fitted there describe that n only)
 * and where there are more runs than parameters plus two. Never from simulated runs
 * (history.h). */
#ifndef HM_LEARN_H
#define HM_LEARN_H

#include <cJSON.h>
#include "history.h"
#include "models/model.h"
#include "models/platform/corrections.h"

#define HM_LEARN_MAX_SETS 10

struct hm_learned {
	struct hm_factors f;            /* 1 where not learned */
	struct hm_factors se;           /* standard errors of their logs (0: not learned) */
	char terms[64];                 /* the set kept, in words */
	char caveat[160];               /* how far to trust them beyond the runs ("" none said) */
	int runs;                       /* measurements it rests on */
	int configurations;
	double mape_before, mape_after; /* percent, over configurations (median run each) */
	double spearman_before, spearman_after; /* mean over groups of 3 configurations or more; NAN: none */
	int nr_sets;
	struct {
		char terms[64];
		int parameters;
		double aicc;            /* INFINITY: not tried */
		double rss;
	} sets[HM_LEARN_MAX_SETS];
};

/* Fit on history h, pricing with model m on platform p (scaled while
 * fitting, back as it was after). 0 and *out filled (release it), or -1
 * with 'err' set (fewer than 3 measurements; out of memory). */
int hm_learn(struct hm_platform *p, const struct hm_model *m, const struct hm_history *h,
	     struct hm_learned *out, struct hm_error *err);
void hm_learned_release(struct hm_learned *l);

/* MAPE (percent) and mean Spearman of model m on p against history h,
 * with the corrections 'l' applied (NULL: none). -1 when h is empty. */
int hm_learn_score(struct hm_platform *p, const struct hm_model *m, const struct hm_history *h,
		   const struct hm_learned *l, double *mape, double *spearman);

/* Apply 'l' to p for good, and say so in p->corrections_note. */
void hm_learned_apply(struct hm_platform *p, const struct hm_learned *l);

/* The platform file 'path' without its corrections, as measured: *p
 * (base_digest the measured file's), and its document *doc for writing a
 * corrected one. 0, or -1 with 'err' set. */
int hm_learn_load_base(const char *path, struct hm_platform **p, cJSON **doc, struct hm_error *err);

/* The term sets' names in the order tried, 'sep' between them, into buf
 * (for help texts). */
const char *hm_learn_term_sets(const char *sep, char *buf, size_t size);

/* Scores before and after into object o: mape_before_percent,
 * mape_after_percent, and spearman_before and _after where defined. */
void hm_learn_scores_json(cJSON *o, double mape_before, double mape_after, double rho_before, double rho_after);

/* The "corrections" object of 'l' for platform p ('sources': the results
 * files, for the record). NULL: out of memory. */
cJSON *hm_learned_json(const struct hm_platform *p, const struct hm_learned *l, const char *model,
		       const char *const *sources, int nsources);

#endif /* HM_LEARN_H */

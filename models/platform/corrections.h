/* models/platform/corrections.h - what a platform's own runs taught it:
 * factors on its measured terms, learned from measured runs by 'hetmap
 * learn' (models/README.md, "Learned corrections") and kept in the
 * platform file beside the values they correct:
 *
 *   "corrections": {
 *     "base_digest": "fnv1a64:...",       the measured platform they rest on
 *     "compute": {"TYPE": 1.08, ...},     every computation cost of the type
 *     "dgemm": {"TYPE": 0.9}, "dtrsm": {...}, "panel": {...}, "swaps": {...},
 *                                         one phase's costs (on top of compute)
 *     "threads": {"TYPE": 1.3, ...},      the type's thread speed-ups times this
 *     "communication": 0.9,               every link's t_s, t_w, t_w_core times this
 *     "learned": {...}                    how: runs, terms, errors (kept for people)
 *   }
 *
 * The phases: dgemm (k3_dgemm and its kernel model: the trailing update),
 * dtrsm (k3_dtrsm and its model), panel (k2_dgetf2, the dger model and the
 * column step: PDGETF2), swaps (k1_dswap: the row interchanges). The loader
 * applies them once: every model, search, bound and export then runs on
 * the corrected values unchanged. A factor is in [0.05, 20]. */
#ifndef HM_CORRECTIONS_H
#define HM_CORRECTIONS_H

#include <cJSON.h>
#include "platform.h"

#define HM_CORRECTION_MIN 0.05
#define HM_CORRECTION_MAX 20.0

enum hm_phase { HM_PHASE_DGEMM, HM_PHASE_DTRSM, HM_PHASE_PANEL, HM_PHASE_SWAPS, HM_NR_PHASES };

/* "dgemm", "dtrsm", "panel", "swaps" */
const char *hm_phase_name(enum hm_phase ph);

/* Factors by type: compute[ty * HM_NR_PHASES + phase], threads[ty]. */
struct hm_factors {
	double *compute;        /* nr_types x HM_NR_PHASES */
	double *threads;        /* nr_types */
	double comm;
};

/* All ones for p's types; 0, or -1 out of memory. */
int hm_factors_init(struct hm_factors *f, const struct hm_platform *p);
void hm_factors_release(struct hm_factors *f);

/* Multiply p's costs by f (scaling by f and then by its inverse gives the
 * values back, to rounding); with 'inverse', by 1/f. */
void hm_platform_scale(struct hm_platform *p, const struct hm_factors *f, int inverse);

/* "compute x1.08 (T1), panel x1.3 (T1), communication x0.9" into buf. */
const char *hm_factors_text(const struct hm_platform *p, const struct hm_factors *f, char *buf, size_t size);

/* Read the "corrections" object 'it' (may be NULL: none) of platform p,
 * whose types are loaded, and apply it; set p->base_digest (p->digest
 * when none) and p->corrections_note. 0, or -1 with 'err' at its path. */
int hm_corrections_apply(struct hm_platform *p, const cJSON *it, struct hm_error *err);

/* "fnv1a64:%016llx" of a digest, into buf. */
const char *hm_digest_text(uint64_t digest, char *buf, size_t size);

#endif /* HM_CORRECTIONS_H */

/* models/platform/kernel_model.h - a processor type's kernel models: the time
 * of one dgemm, dtrsm or dger call as a function of its shape, for the
 * simulator's modeled kernels (wrappers/smpi/kernels.c). 'hetmap calibrate'
 * times a set of shapes and fits each model; a platform keeps them in its
 * type's "kernels" (models/platform/README.md). The terms a model combines
 * are models/common/kernel_terms.h's. */
#ifndef HM_KERNEL_MODEL_H
#define HM_KERNEL_MODEL_H

#include "models/common/kernel_terms.h"

/* Seconds = sum c[i] term_i(shape), every c[i] >= 0; nterms 0: no model. */
struct hm_kernel_model {
	int nterms;
	double c[HM_KERNEL_MAX_TERMS];
};

/* "dgemm", "dtrsm", "dger" */
const char *hm_kernel_name(enum hm_kernel k);
/* The names of kernel k's terms ("mnk", "mn", ..., "1"), NULL-terminated:
 * the keys of its model in a platform file. */
const char *const *hm_kernel_term_names(enum hm_kernel k);

/* The model's seconds for a call of shape (x, y, z) (kernel_terms.h). */
double hm_kernel_seconds(const struct hm_kernel_model *m, enum hm_kernel k, double x, double y, double z);

/* The least-squares fit of kernel k's terms to 'count' timed shapes
 * (shape[i] = {x, y, z}, seconds[i] > 0), every coefficient non-negative,
 * each shape weighted by 1 / seconds (relative errors count alike). 0, or
 * -1 when there are fewer shapes than terms. */
int hm_kernel_fit(enum hm_kernel k, const double (*shape)[3], const double *seconds, int count,
		  struct hm_kernel_model *out);

#endif /* HM_KERNEL_MODEL_H */

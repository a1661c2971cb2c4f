/* models/model_thesis.c - the reference model of the thesis, reproduced
 * exactly: LU eq. 5.3/5.4 and SUMMA pdgemm (models/README.md).
 *
 * Every term is a non-negative multiple of one SP, so the time never
 * decreases when an SP grows: the contract of 'struct hm_model'. */
#include "model.h"

static double thesis_time(enum hm_routine routine, double n, int r, int c, int b,
			  const struct hm_sp *sp, struct hm_prediction *parts)
{
	double p = (double)r * c, g = r > c ? r : c;
	/* eq. 5.4: its words in one term, no card (the thesis's rule) */
	struct hm_lu_comm comm = { 2.0 * n * g / b, 2.0 * n * n * g / p, 0, 0, 0 };

	if (routine != HM_ROUTINE_LU)
		return hm_gemm_summa_time(n, r, c, b, sp, 0, parts);
	return hm_lu_time(hm_lu_computation, n, r, c, b, sp, &comm, parts);
}

const struct hm_model hm_model_thesis = {
	.name = "thesis",
	.status = HM_MODEL_REFERENCE,
	.summary = "the thesis's model exactly (eq. 5.3/5.4, SUMMA), max-over-processors rule",
	.evidence = "symmetric in r and c, it misses that r x 1 grids ran 2-3.5x slower than 1 x r: "
		    "the worst ranking on every study (mean Spearman 0.16-0.80)",
	.time = thesis_time,
};

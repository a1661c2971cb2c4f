/* models/model_thesis.c - the reference model of the thesis (SPEC §2.1,
 * §2.2), reproduced exactly: LU eq. 5.3/5.4 and SUMMA pdgemm.
 *
 * Every term is a non-negative multiple of one SP, so the time never
 * decreases when an SP grows: the contract of 'struct hm_model'. */
#include "model.h"

#include <math.h>
#include <string.h>

static double thesis_time(enum hm_routine routine, double n, int r, int c, int b,
			  const struct hm_sp *sp, struct hm_prediction *parts)
{
	struct hm_prediction t;
	double p = (double)r * c, g = r > c ? r : c;

	memset(&t, 0, sizeof(t));
	if (routine == HM_ROUTINE_LU) {
		t.comp_gemm = 2.0 * n * n * n / (3.0 * p) * sp->k3_dgemm;
		t.comp_trsm = (r + c) / p * n * n * b * sp->k3_dtrsm;
		t.comp_getf2 = n * b * b / 3.0 * sp->k2_dgetf2;
		if (p > 1) {
			t.comm_latency = 2.0 * n * g / b * sp->t_s;
			t.comm_bandwidth = 2.0 * n * n * g / p * sp->t_w;
		}
	} else {
		t.comp_gemm = 2.0 * n * n * n / p * sp->k3_dgemm;
		if (p > 1) {
			t.comm_latency = 2.0 * ceil(n / b) * sp->t_s;
			t.comm_bandwidth = (n * n / r + n * n / c) * sp->t_w;
		}
	}
	return hm_prediction_sum(&t, parts);
}

const struct hm_model hm_model_thesis = {
	"thesis",
	"reference model of the thesis (eq. 5.3/5.4, SUMMA), max-over-processors rule",
	thesis_time,
};

/* models/heterogeneity_rule.h - the heterogeneity rule (models/README.md):
 * how the processes a processor holds raise its costs, the effective system
 * parameters (SPs) of a configuration at one block size, and what fits in
 * memory. Step 1 of a prediction (model.h); the models are step 2.
 *
 * Invariant the searches rely on: every field of 'struct hm_sp' is a max
 * of non-negative terms that only grow when a process is added, so the
 * effective SPs of a node are a floor for all of its descendants. */
#ifndef HM_HETEROGENEITY_RULE_H
#define HM_HETEROGENEITY_RULE_H

#include "models/platform/platform.h"
#include "routine.h"

/* Effective system parameters of a configuration at one block size. */
struct hm_sp {
	double k3_dgemm;    /* s/flop: max over used processors of c_i(d_i) * k_i(b),
			     * c the computation factor (hm_compute_factor) */
	double k3_dtrsm;    /* s/flop, same rule */
	double k2_dgetf2;   /* s/flop, same rule */
	double t_s;         /* s: max over existing pairs of max(f_i, f_j) * t_s(i,j),
			     * f the share factor (hm_share_factor) */
	double t_w;         /* s/word: same rule; both 0 when D = 1 */
	double t_step;      /* s per synchronisation step of the panel's column
			     * loop beyond its message: max of c_i * column_step_i */
	double k1_dswap;    /* s per element of a row interchange: max of c_i * k1_dswap_i */
	double k1_dswap_aliased;    /* the same at an aliased stride (hm_stride_aliased) */
	/* A host's network card, which its ranks share when they send to other
	 * hosts at once (models/README.md, "A host's card"). Not SPs of the
	 * linear contract: hm_sp_from_vector leaves both 0, the card unpriced,
	 * and a model's time without the card is a floor of its time with it
	 * (the searches' bounds leave them 0). */
	double card_t_w;    /* s/word: max over the ends of used pairs on different
			     * hosts of their card_t_w; 0 while one host is used */
	double node_ranks;  /* the most processes on one used processor */
	double node_senders;    /* the most of them that can send at once: max of
				 * min(d_i, C_i), a rank sends from its core (counts,
				 * kept doubles so that the struct has no padding) */
};

/* The SPs as a vector, in this order (the models' weights use it too). */
enum {
	/* the computation SPs: per processor a cost times its computation factor */
	HM_SP_DGEMM, HM_SP_DTRSM, HM_SP_DGETF2, HM_SP_STEP, HM_SP_SWAP, HM_SP_SWAP_ALIASED, HM_NR_COMP_SP,
	/* the links' */
	HM_SP_TS = HM_NR_COMP_SP, HM_SP_TW, HM_NR_SP
};

/* An SP vector as the struct, and back. */
void hm_sp_from_vector(const double v[HM_NR_SP], struct hm_sp *sp);
void hm_sp_to_vector(const struct hm_sp *sp, double v[HM_NR_SP]);
/* The computation SPs of one process of type 'ty' at kernel block kb,
 * before its computation factor: k[HM_NR_COMP_SP]. */
void hm_type_comp_costs(const struct hm_proc_type *ty, int kb, double k[HM_NR_COMP_SP]);

/* The heterogeneity rule for one processor i holding d >= 1 processes on
 * its C cores (models/README.md): each process has a core to itself up to
 * C processes, beyond that ceil(d / C) share a core. The share factor
 * multiplies its communication costs; its computation costs are
 * multiplied by the share factor, by the type's busy-cores scale at
 * min(d, C) busy cores and, once a core is shared, by the type's
 * stacking factor for the routine. With C = 1 and no stacking factor
 * both are d: the thesis's rule. Both never decrease with d (the exact
 * searches rely on it; the loader keeps stacking factors >= 0.5). */
static inline int hm_share_factor(int d, int cores)
{
	return (d + cores - 1) / cores;
}

double hm_compute_factor(const struct hm_platform *p, int i, int d, enum hm_routine routine);
/* The same for any processor of type 'ty' with 'cores' cores. */
double hm_type_compute_factor(const struct hm_proc_type *ty, int cores, int d,
			      enum hm_routine routine);

/* Step 1 from scratch: effective SPs of d[0..nr_procs-1] at block size b.
 * O(U^2) in the number U of used processors; searches do it incrementally. */
void hm_sp_effective(const struct hm_platform *p, const int *d, int b, enum hm_routine routine,
		     struct hm_sp *out);

/* Bytes one process needs for the matrices of 'routine' at order n on D
 * processes (LU: A; GEMM: A, B, C; plus 5% workspace). */
double hm_bytes_per_process(enum hm_routine routine, double n, int D);

/* 1 if every processor with a memory size holds its d_i processes. */
int hm_memory_fits(const struct hm_platform *p, enum hm_routine routine,
		   double n, const int *d);

#endif /* HM_HETEROGENEITY_RULE_H */

/* models/model.h - execution-time models of ScaLAPACK LU (pdgetrf) and
 * matrix product (pdgemm) on a heterogeneous platform (models/README.md
 * has the equations).
 *
 * A prediction is made in two steps:
 *  1. the heterogeneity rule turns the process counts d[] into
 *     effective system parameters 'struct hm_sp' at one block size b;
 *  2. a model turns (n, r, c, b, effective SPs) into a time.
 * The searches run step 1 incrementally along tree paths and call step 2
 * through 'struct hm_model', so models are interchangeable by name. */
#ifndef HM_MODEL_H
#define HM_MODEL_H

#include "models/platform/platform.h"

enum hm_routine { HM_ROUTINE_LU, HM_ROUTINE_GEMM, HM_NR_ROUTINES };

/* "lu" / "gemm"; parse returns 0, or -1 for an unknown name. */
const char *hm_routine_name(enum hm_routine r);
int hm_routine_parse(const char *name, enum hm_routine *out);

/* Effective system parameters of a configuration at one block size. */
struct hm_sp {
	double k3_dgemm;    /* s/flop: max over used processors of c_i(d_i) * k_i(b),
			     * c the computation factor (hm_compute_factor) */
	double k3_dtrsm;    /* s/flop, same rule */
	double k2_dgetf2;   /* s/flop, same rule */
	double t_s;         /* s: max over existing pairs of max(f_i, f_j) * t_s(i,j),
			     * f the share factor (hm_share_factor) */
	double t_w;         /* s/word: same rule; both 0 when D = 1 */
};

/* A predicted time and its parts (all in seconds). */
struct hm_prediction {
	double total;           /* comp + comm */
	double comp;            /* arithmetic: sum of the three terms below */
	double comp_gemm;       /* dgemm term (the only one for pdgemm) */
	double comp_trsm;       /* dtrsm term (LU) */
	double comp_getf2;      /* panel factorisation term (LU) */
	double comm;            /* communication: latency + bandwidth */
	double comm_latency;    /* t_s term */
	double comm_bandwidth;  /* t_w term */
};

/* Fill comp, comm and total of 't' from its terms, copy it to 'parts'
 * (may be NULL) and return the total: the last step of every model. */
double hm_prediction_sum(struct hm_prediction *t, struct hm_prediction *parts);

struct hm_model {
	const char *name;
	const char *summary;
	/* Time on an r x c grid with block size b. 'parts' may be NULL.
	 * Contract the exact searches rely on: the time never decreases when
	 * any field of 'sp' grows (search/tree.c bounds a subtree by calling
	 * it with lower bounds of the SPs; tests/test_model.c checks it). */
	double (*time)(enum hm_routine routine, double n, int r, int c, int b,
		       const struct hm_sp *sp, struct hm_prediction *parts);
	/* The rank of pdgemm's local updates. 0: the block size b (the
	 * thesis's eq. 3.20). Else PBLAS's logical block (HM_PBLAS_BLOCK):
	 * PB_CpgemmAB runs pdgemm's K loop in steps of PILAENV, 32, whatever
	 * the distribution's b, so k3_dgemm is read at that block for two
	 * processes or more (hm_kernel_block), and one process, whose A and B
	 * span no other process, does one local dgemm of rank n: the least k3_dgemm
	 * of its table (hm_sp_for). */
	int gemm_block;
};

/* PBLAS's logical block size in double precision (PILAENV, pilaenv.f). */
#define HM_PBLAS_BLOCK 32

/* A second contract, which implies the first: the time is linear in the
 * SPs, sum_j w_j sp_j, with weights w_j >= 0 that depend only on
 * (routine, n, r, c, b) (every term of every model is a non-negative
 * multiple of one SP). The exact optimizer bounds many grids and process
 * counts at once through the weights (search/weight_tree.h);
 * tests/test_model.c checks linearity for every registered model. */
enum { HM_SP_DGEMM, HM_SP_DTRSM, HM_SP_DGETF2, HM_SP_TS, HM_SP_TW, HM_NR_SP };

/* The weights w[HM_NR_SP] of model 'm', read off by timing one unit SP
 * at a time. */
void hm_model_weights(const struct hm_model *m, enum hm_routine routine, double n, int r,
		      int c, int b, double w[HM_NR_SP]);

/* Terms every model shares. LU's arithmetic (eq. 5.3): comp_gemm,
 * comp_trsm and comp_getf2 of 't' (the other fields are left alone). */
void hm_lu_computation(double n, int r, int c, int b, const struct hm_sp *sp,
		       struct hm_prediction *t);
/* LU's arithmetic as ScaLAPACK 2.2.1's PDGETRF does it: the trailing
 * update as eq. 5.3; each n x b panel factored by PDGETF2 on the r
 * processes of one column (n^2 b / (2 r) flops at k2_dgetf2, per process),
 * each b x n block row solved by PDTRSM on the c processes of one row
 * (n^2 b / (2 c) flops at k3_dtrsm). */
void hm_lu_pdgetrf_computation(double n, int r, int c, int b, const struct hm_sp *sp,
			       struct hm_prediction *t);
/* LU's arithmetic terms of 't' (hm_lu_computation, hm_lu_pdgetrf_computation). */
typedef void hm_lu_arithmetic(double n, int r, int c, int b, const struct hm_sp *sp,
			      struct hm_prediction *t);
/* The grid model (model_grid.c) with LU's arithmetic taken from 'lu':
 * LU's communication by grid direction, pdgemm by SUMMA in steps of
 * min(gemm_step, b) columns (gemm_step 0: of b). */
double hm_grid_model_time(hm_lu_arithmetic *lu, int gemm_step, enum hm_routine routine, double n,
			  int r, int c, int b, const struct hm_sp *sp, struct hm_prediction *parts);
/* pdgemm by SUMMA: the whole prediction, its total returned. */
double hm_gemm_summa_time(double n, int r, int c, int b, const struct hm_sp *sp,
			  struct hm_prediction *parts);

/* Model 'name', or NULL. The first one is the default. */
const struct hm_model *hm_model_find(const char *name);
const struct hm_model *hm_model_default(void);
/* All models, NULL-terminated. */
const struct hm_model *const *hm_model_list(void);

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

/* The block size at which the kernels' k are read for a configuration of
 * two processes or more at block size b: b, or the model's gemm_block for
 * pdgemm. */
int hm_kernel_block(const struct hm_model *m, enum hm_routine routine, int b);

/* Step 1 for model 'm': hm_sp_effective at hm_kernel_block, and for one
 * process under a gemm_block model, k3_dgemm the least of its table times
 * its computation factor (never above the value at the kernel block). The
 * tree search does the same for one process (search/tree.h,
 * alone_k3_dgemm); the class enumeration does not, and the exact
 * optimizer times the best single process itself. */
void hm_sp_for(const struct hm_model *m, const struct hm_platform *p, const int *d, int b,
	       enum hm_routine routine, struct hm_sp *out);
/* 1 if model 'm' times one process of 'routine' otherwise than the kernels
 * at the kernel block (pdgemm under a gemm_block model: one local dgemm). */
int hm_times_alone(const struct hm_model *m, enum hm_routine routine);
/* Then processor i's k3_dgemm as one process alone: the least of its table
 * times its computation factor at one process. hm_sp_for, the tree search
 * and the exact optimizer read it here. */
double hm_alone_k3_dgemm(const struct hm_platform *p, int i, enum hm_routine routine);

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

/* Both steps: predict 'routine' for d on an r x c grid (r*c must equal
 * sum d) with block size b. 0, or -1 with a reason in 'err'. */
int hm_predict(const struct hm_model *m, const struct hm_platform *p,
	       enum hm_routine routine, double n, const int *d, int r, int c,
	       int b, struct hm_prediction *out, struct hm_error *err);

/* ceil(log2(x)) for x >= 1: the steps of a binomial tree over x processes. */
double hm_tree_steps(int x);

#endif /* HM_MODEL_H */

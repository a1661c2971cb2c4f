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

#include "heterogeneity_rule.h"

/* A predicted time and its parts (all in seconds). */
struct hm_prediction {
	double total;           /* comp + comm */
	double comp;            /* computation: the sum of the five terms below */
	double comp_gemm;       /* dgemm term (the only one for pdgemm) */
	double comp_trsm;       /* dtrsm term (LU) */
	double comp_getf2;      /* panel factorisation term (LU) */
	double comp_steps;      /* the panel's column steps beyond their messages (LU, t_step) */
	double comp_swaps;      /* row interchanges (LU, k1_dswap) */
	double comm;            /* communication: latency + bandwidth + card */
	double comm_latency;    /* t_s term */
	double comm_bandwidth;  /* t_w term */
	double comm_card;       /* the hosts' cards beyond the t_w term: their ranks
				 * sending to other hosts at once (hm_card_word_cost) */
};

/* Fill comp, comm and total of 't' from its terms, copy it to 'parts'
 * (may be NULL) and return the total: the last step of every model. */
double hm_prediction_sum(struct hm_prediction *t, struct hm_prediction *parts);

/* Where a model stands, from measurements (models/README.md, "Status"):
 * the default plans unless -m says otherwise; the reference is the thesis's
 * model, kept to compare with; a candidate is offered with -m and scored
 * on every study until it is made the default or deleted. */
enum hm_model_status { HM_MODEL_DEFAULT, HM_MODEL_REFERENCE, HM_MODEL_CANDIDATE };

struct hm_model {
	const char *name;
	enum hm_model_status status;
	const char *summary;    /* what it models, one line */
	const char *evidence;   /* why it has its status: measurements, one line */
	/* Time on an r x c grid with block size b. 'parts' may be NULL.
	 * Contract the exact searches rely on: the time never decreases when
	 * any field of 'sp' grows (search/tree.c bounds a subtree by calling
	 * it with lower bounds of the SPs; tests/test_model.c checks it). */
	double (*time)(enum hm_routine routine, double n, int r, int c, int b,
		       const struct hm_sp *sp, struct hm_prediction *parts);
	/* Optional (NULL: b itself). The block size at which the kernels' k
	 * are read for 'routine' at distribution block size b, two processes
	 * or more. */
	int (*kernel_block)(enum hm_routine routine, int b);
	/* Optional (NULL: none). One process alone timed by a rule of the
	 * model's own for 'routine': 'sp' holds the rule's SPs of one process
	 * on processor i at the kernel block; return 1 after lowering what the
	 * model times otherwise, or 0 when it has no such rule for 'routine'.
	 * Never above the rule's: the class enumeration times a single
	 * process by the rule, an upper bound, and the exact optimizer times
	 * the best single process itself (search/exact.c). */
	int (*single_process)(const struct hm_platform *p, int i, enum hm_routine routine,
			      struct hm_sp *sp);
	/* 1 when 'time' reads the hosts' cards (card_t_w, node_ranks and
	 * node_senders of hm_sp); 0: they never change it, so SPs that
	 * differ only there give the same time (search/tree.c takes a
	 * child's times from its parent's floors then). */
	int shares_cards;
};


/* A second contract, which implies the first: the time is linear in the
 * SPs, sum_j w_j sp_j, with weights w_j >= 0 that depend only on
 * (routine, n, r, c, b) (every term of every model is a non-negative
 * multiple of one SP). The exact optimizer bounds many grids and process
 * counts at once through the weights (search/weight_tree.h);
 * tests/test_model.c checks linearity for every registered model. */
/* The weights w[HM_NR_SP] of model 'm', read off by timing one unit SP
 * at a time. */
void hm_model_weights(const struct hm_model *m, enum hm_routine routine, double n, int r,
		      int c, int b, double w[HM_NR_SP]);

/* Terms every model shares. LU's arithmetic (eq. 5.3): comp_gemm,
 * comp_trsm and comp_getf2 of 't' (the other fields are left alone). */
void hm_lu_computation(double n, int r, int c, int b, const struct hm_sp *sp,
		       struct hm_prediction *t);
/* LU's work as ScaLAPACK 2.2.1's PDGETRF does it: the trailing update as
 * eq. 5.3; each n x b panel factored by PDGETF2 on the r processes of one
 * column (n^2 b / (2 r) flops at k2_dgetf2, per process), each b x n block
 * row solved by PDTRSM on the c processes of one row (n^2 b / (2 c) flops
 * at k3_dtrsm), and the row interchanges (hm_lu_row_swaps). */
void hm_lu_pdgetrf_computation(double n, int r, int c, int b, const struct hm_sp *sp,
			       struct hm_prediction *t);
/* LU's arithmetic terms of 't' (hm_lu_computation, hm_lu_pdgetrf_computation). */
typedef void hm_lu_arithmetic(double n, int r, int c, int b, const struct hm_sp *sp,
			      struct hm_prediction *t);
/* What LU sends on two processes or more, as each model counts it on the
 * critical path: messages (x t_s), words broadcast along process rows
 * (the panels) and down process columns (U's block rows), each x t_w,
 * and column steps (x t_step: the work of the panel's column steps beyond
 * their messages, PBLAS's and BLACS's handling of pdamax, pdswap and
 * pdscal, measured by calibrate; models/README.md, "LU's steps"). With
 * 'card' the words pay the hosts' cards too (hm_card_word_cost). */
struct hm_lu_comm {
	double messages, words_row, words_col, sync_steps;
	int card;
};
/* LU's whole prediction, its total returned: the arithmetic of 'lu' and,
 * on two processes or more, the communication 'comm'. */
double hm_lu_time(hm_lu_arithmetic *lu, double n, int r, int c, int b, const struct hm_sp *sp,
		  const struct hm_lu_comm *comm, struct hm_prediction *parts);
/* The t_w a word pays on an r x c grid when, of each host, at most 'most'
 * ranks send to other hosts at once through its card (models/README.md,
 * "A host's card"): k = min(most, node_senders, r c - node_ranks) streams
 * share the card, each at k card_t_w, never below the pair's t_w. Along
 * process rows most = min(2, r) (a host's ranks are consecutive: only the
 * rows at its two ends leave it), down process columns most = c. */
double hm_card_word_cost(const struct hm_sp *sp, int r, int c, int most);
/* words_row and words_col at t_w into t->comm_bandwidth and what the cards
 * add into t->comm_card (0 without 'card'). */
void hm_comm_words(double words_row, double words_col, int r, int c, const struct hm_sp *sp,
		   int card, struct hm_prediction *t);
/* The row interchanges of LU on an r x c grid: the diagonal block's
 * process row applies every pivot to its n / c local columns, n^2 / c
 * elements on the critical path (into comp_swaps), at k1_dswap_aliased
 * for the share of the panels whose process row's local matrix has an
 * aliased leading dimension (hm_aliased_share), at k1_dswap for the rest. */
void hm_lu_row_swaps(double n, int r, int c, int b, const struct hm_sp *sp, struct hm_prediction *t);
/* The share of an n x n matrix's rows, distributed in blocks of b over r
 * process rows, that lie on process rows whose local leading dimension
 * (ScaLAPACK's numroc) is aliased (hm_stride_aliased): the share of LU's
 * panels whose interchanges run at that stride. */
double hm_aliased_share(double n, int r, int b);
/* The grid model (model_grid.c) with LU's arithmetic taken from 'lu':
 * LU's communication by grid direction, pdgemm by SUMMA in steps of
 * min(gemm_step, b) columns (gemm_step 0: of b); with 'card' the words
 * pay the hosts' cards (hm_card_word_cost). */
double hm_grid_model_time(hm_lu_arithmetic *lu, int gemm_step, int card, enum hm_routine routine,
			  double n, int r, int c, int b, const struct hm_sp *sp,
			  struct hm_prediction *parts);
/* The default model's hooks (model_panel.c), which its card variant shares. */
int hm_panel_kernel_block(enum hm_routine routine, int b);
int hm_panel_single_process(const struct hm_platform *p, int i, enum hm_routine routine,
			    struct hm_sp *sp);
/* PBLAS's logical block size in double precision (PILAENV, pilaenv.f):
 * pdgemm's steps. */
#define HM_PBLAS_BLOCK 32
/* pdgemm by SUMMA: the whole prediction, its total returned; with 'card'
 * the broadcasts of A along rows and B down columns pay the hosts' cards. */
double hm_gemm_summa_time(double n, int r, int c, int b, const struct hm_sp *sp, int card,
			  struct hm_prediction *parts);

/* Model 'name', or NULL; the one of status default. */
const struct hm_model *hm_model_find(const char *name);
/* The model a mistyped 'name' most likely meant, or NULL. */
const char *hm_model_nearest(const char *name);
const struct hm_model *hm_model_default(void);
/* All models, NULL-terminated: the default first, then the reference,
 * then the candidates (the order 'hetmap models' and the help list them). */
const struct hm_model *const *hm_model_list(void);


/* What the searches ask a model (search/ knows no model's special case):
 * the block size at which it reads the kernels for two processes or more
 * at block size b ('kernel_block'), ... */
int hm_model_kernel_block(const struct hm_model *m, enum hm_routine routine, int b);
/* ... the effective SPs of one process alone on processor i at block size
 * b, returning 1 when the model times one process by its own rule for
 * 'routine' ('single_process'), 0 when by the rule (filled either way), ... */
int hm_model_sp_single(const struct hm_model *m, const struct hm_platform *p, int i, int b,
		       enum hm_routine routine, struct hm_sp *out);
/* ... and step 1 for any d: the rule at the kernel block, and for one
 * process the model's own SPs. */
void hm_model_sp(const struct hm_model *m, const struct hm_platform *p, const int *d, int b,
		 enum hm_routine routine, struct hm_sp *out);

/* "default", "reference" or "candidate". */
const char *hm_model_status_name(enum hm_model_status s);


/* Both steps: predict 'routine' for d on an r x c grid (r*c must equal
 * sum d) with block size b. 0, or -1 with a reason in 'err'. */
int hm_predict(const struct hm_model *m, const struct hm_platform *p,
	       enum hm_routine routine, double n, const int *d, int r, int c,
	       int b, struct hm_prediction *out, struct hm_error *err);

/* ceil(log2(x)) for x >= 1: the steps of a binomial tree over x processes. */
double hm_tree_steps(int x);

#endif /* HM_MODEL_H */

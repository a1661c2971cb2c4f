/* search/tree.h - assignment trees of processes to processors
 * (search/README.md).
 *
 * A node at level l places l processes: d[i] on processor i. A walker
 * holds one root-to-node path: the process counts d[] of its top node, the
 * list of used processors, and per level the effective system parameters
 * at every candidate block size. Adding a process (push) costs O(nb), plus
 * O(1) or O(used classes) when it creates or makes pairs dearer
 * (search/README.md), and allocates nothing; pop undoes it. */
#ifndef HM_TREE_H
#define HM_TREE_H

#include "problem.h"
#include "divisors.h"

/* The two hosts whose used processors have the largest share factors:
 * the largest f on any host other than a given one, in O(1). */
struct hm_top_hosts {
	int host, f;        /* the host of the largest f (-1: none used) */
	int second_f;       /* the largest f on the other hosts (0: none) */
};

/* The state of one node on the path. */
struct hm_node {
	int level;          /* processes placed */
	int last;           /* processor added last (combinatorial tree), 0 at the root */
	int maxd;           /* max d_i */
	int maxf;           /* max share factor ceil(d_i / cores_i) */
	int left_last;      /* 1 if this push moved past the parent's 'last' */
	int class_maxd_before; /* the class of 'last': its largest d_i before this push */
	int host_maxf_before;  /* its host's largest share factor, and the */
	struct hm_top_hosts top_before; /* two hosts' before this push */
	double mem_ratio;   /* max over used processors of d_i / memory_i (1/bytes) */
	int same_sp;        /* 1 when every SP at every b is its parent's: the push
			     * raised none (most pushes of a large D, on a processor
			     * that sets no maximum) */
	/* the estimate, filled by hm_tree_eet() */
	double eet;         /* s; INFINITY when the matrices do not fit in memory */
	struct hm_prediction pred;
	int r, c, b;
	/* effective SPs per candidate b: nb of them (the node's size is the
	 * tree's node_size, so that a deep walk touches only the b it prices:
	 * at 128000 levels and 3 candidates, a third of the memory a fixed
	 * HM_MAX_BLOCK_SIZES took, and as few page faults) */
	struct hm_sp sp[];
};

struct hm_tree {
	struct hm_problem pb;
	int P;              /* processors */
	int nb;             /* candidate block sizes */
	const int *block;   /* nb candidates, ascending */
	double *k3_dgemm;   /* [i * nb + bi]: processor i's k at block[bi] */
	double *k3_dtrsm;
	double *k2_dgetf2;
	double *column_step; /* [i]: processor i's per-step and per-element costs */
	double *k1_dswap;
	double *k1_dswap_aliased;
	/* kinds: processors of one type and one number of cores, which add
	 * the same computation cost for the same number of processes */
	int K;
	int *kind_of;       /* [i]: the kind of processor i */
	int *kind_type;     /* [kd]: its type */
	int *kind_cores;    /* [kd]: its cores */
	int max_cores;      /* over all processors */
	double *kind_k3_dgemm; /* [bi * K + kd]: k of kind kd at block[bi] */
	double *kind_k3_dtrsm;
	int *kind_suffix;   /* [i * K + kd]: processors j >= i of kind kd; row P is 0 */
	int *kind_used_before_last; /* [kd]: used processors below the top node's 'last' */
	struct hm_link link_same_min; /* a same-processor pair's link */
	struct hm_link link_diff_min; /* componentwise least link between different processors */
	double *inv_memory; /* 1/memory_i, 0 when not given */
	/* [bi]: the componentwise least SPs of one process alone, where the
	 * model times it by a rule of its own (hm_model_sp_single); NULL where
	 * it does not. */
	struct hm_sp *single_min;
	/* scratch of hm_tree_let(), sized once so that it never allocates */
	double *kth_dgemm;  /* [p], p = 1..depth */
	double *kth_dtrsm;
	double *kth_next;   /* [kd] */
	int *kth_mult;      /* [kd] */
	int *usable_count;  /* [kd] */
	/* classes of interchangeable processors (classes.h): a processor links
	 * alike to every other processor of a class, so a push prices one
	 * pair per used class instead of one per used processor */
	int C;
	int *class_of;      /* [i]: the class of processor i */
	int *class_start;   /* [c]..[c+1]: class c's processors in class_members */
	int *class_members; /* ascending within a class */
	int *class_prev;    /* previous processor interchangeable with i, or -1 */
	/* kept on the path when !by_host, for pricing pairs by class: */
	int *class_used;    /* [c]: used processors of class c on the path */
	int *class_maxd;    /* [c]: the largest d_i in class c on the path */
	int *used_classes;  /* classes with a used processor, in order of first use */
	int nr_used_classes;
	int *children;      /* scratch of hm_tree_canonical_children() */
	/* Without link rules or overrides a pair's link is the same-host or the
	 * inter-host one: a push prices two pairs, with the dearest processors
	 * on its host and off it (O(1), whatever splits the classes) */
	int by_host;
	/* kept on the path when by_host: */
	int *host_used;     /* [h]: used processors on host h on the path */
	int *host_maxf;     /* [h]: their largest share factor */
	struct hm_top_hosts top_hosts;
	struct hm_divisors div; /* grids of 1..depth processes */
	/* hm_tree_child_floors(): for the top node's children, the model at
	 * its SPs, [bi * max_divisors + k] for b = block[bi] and the k-th grid
	 * of one more process; floors_level is that node's level (-1: none) */
	double *floors;
	int max_divisors;
	int floors_level;
	int floors_least;   /* the least floor of a grid the shape allows (-1: none) */
	int floors_exact;   /* 1 when the floors are the model at the node's SPs
			     * (no card left out): a child with the same SPs
			     * (same_sp) takes them as its times, unpriced */
	/* the path */
	int *d;             /* process counts of the top node */
	int *used;          /* processors with d > 0, in order of first use */
	int nr_used;
	struct hm_node *stack; /* depth + 1 nodes of node_size bytes; the root first */
	size_t node_size;
	int top;
	long evaluated;     /* EET computations so far */
};

/* 0, or -1 with 'err' set (bad depth, out of memory). The walker starts at
 * the root. Release with hm_tree_release(). */
int hm_tree_init(struct hm_tree *t, const struct hm_problem *pb, struct hm_error *err);
void hm_tree_release(struct hm_tree *t);

/* Back to the root with d = 0. */
void hm_tree_reset(struct hm_tree *t);

/* The node at level i of the path (0: the root). */
static inline struct hm_node *hm_tree_node(const struct hm_tree *t, int i)
{
	return (struct hm_node *)((char *)t->stack + (size_t)i * t->node_size);
}

static inline struct hm_node *hm_tree_top(struct hm_tree *t)
{
	return hm_tree_node(t, t->top);
}

/* Add one process on processor j (the caller keeps level < depth). */
void hm_tree_push(struct hm_tree *t, int j);
void hm_tree_pop(struct hm_tree *t);

/* EET of the top node: min of the model over grids r x c = level and
 * candidate b (ties: smaller b, then smaller r). Counts one evaluation. */
double hm_tree_eet(struct hm_tree *t);

/* Floors of the top node's children, one per b and grid: the model at the
 * top node's SPs, which a child's only raise (the cards left out, whose
 * time never falls below the time without them). For a greedy step that
 * prices several children and keeps the least. */
void hm_tree_child_floors(struct hm_tree *t);
/* hm_tree_eet() of a child of the node whose floors were taken, pricing
 * only the grids and b whose floor is at most 'limit' and the best so far:
 * the EET when it is at most 'limit', else a value above 'limit' (INFINITY
 * when no grid is priced). Floors not taken for its parent: hm_tree_eet(). */
double hm_tree_eet_below(struct hm_tree *t, double limit);

/* The EET of a child of the node whose floors were taken, when its SPs
 * are that node's and its matrices fit: then its times are the floors,
 * and its EET their least. Else INFINITY. Not counted as an evaluation. */
double hm_tree_floor_eet(struct hm_tree *t);

/* Arithmetic-only estimate of the top node (communication SPs set to 0):
 * the quantity GRM's greedy LET follows. */
double hm_tree_arith(struct hm_tree *t);
/* The top node's least model time as if its matrices fitted in memory
 * (the greedy descents' way towards a configuration that does). */
double hm_tree_eet_any_memory(struct hm_tree *t);

/* LET of the top node of a combinatorial path: a true lower bound of the
 * EET of every descendant within the depth limit, the node included.
 * Returns as soon as it knows the bound is below 'meet' (then the value is
 * some number < meet); pass INFINITY for the exact bound. */
double hm_tree_let(struct hm_tree *t, double meet);

/* Whether processor j may be added to the top node of a combinatorial
 * path while keeping only one representative of processors that are
 * interchangeable (search/classes.h). */
int hm_tree_canonical_child(const struct hm_tree *t, int j);

/* The children hm_tree_canonical_child() accepts, class by class (not in
 * index order), into t->children; returns how many. In O(C + R log P) for
 * C classes and R children, where scanning the P processors costs O(P):
 * it relies on what a path of canonical children keeps, d_i non-increasing
 * in index order within a class, so a class's children are where its
 * d_i drops, found by bisection. For permutational paths (GPTM). */
int hm_tree_canonical_children(struct hm_tree *t);

/* Relative speed of each processor (k of the slowest / k_i, averaged over
 * the candidate b) into s[0..P-1]. */
void hm_tree_speeds(const struct hm_tree *t, double *s);

#endif /* HM_TREE_H */

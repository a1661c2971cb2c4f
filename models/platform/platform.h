/* models/platform/platform.h - a heterogeneous cluster and its measured system
 * parameters (models/README.md), read from a platform JSON file.
 *
 * Words: a processor is what a process is placed on; a host is a machine
 * with a name in launcher files, holding one or more processors. (A
 * "node" is a node of a search tree, in search/, never a host.)
 *
 * A platform owns all its arrays and strings; pointers into it stay valid
 * until hm_platform_free(). All values are SI: seconds, seconds per flop,
 * seconds per 8-byte word, bytes. */
#ifndef HM_PLATFORM_H
#define HM_PLATFORM_H

#include <stdint.h>
#include <stddef.h>
#include "models/util/error.h"
#include "topology.h"
#include "kernel_model.h"

#define HM_MAX_PROCESSORS 100000   /* keeps per-pair work and memory bounded */
#define HM_MAX_PLATFORM_BYTES ((size_t)16 << 20) /* a 100000-processor file is ~10 MB */
#define HM_MAX_TYPES 1000
#define HM_MAX_BLOCK_SIZES 16      /* candidate b values the searches try */
#define HM_MAX_BLOCK 4096          /* largest accepted block size */
#define HM_MAX_CORES 4096          /* most cores of one processor */
#define HM_MAX_WARNINGS 8
#define HM_NR_STACKED 2            /* routines a stacking factor is given for: lu, gemm */
#define HM_MAX_THREAD_COUNTS 8     /* measured thread counts of one type */
#define HM_MIN_THREAD_SPEEDUP 0.01 /* a rank of t threads at most 100x slower than one thread */
/* LU's steps beside its kernels (models/README.md, "LU's steps"), and
 * where a type's cost of each came from. */
enum hm_lu_step { HM_LU_COLUMN_STEP, HM_LU_ROW_SWAP, HM_LU_ROW_SWAP_ALIASED, HM_NR_LU_STEPS };
enum hm_step_origin {
	HM_STEP_GIVEN = 1,      /* in the platform (calibrate measures it) */
	HM_STEP_PRICED,         /* from the type nearest in panel speed that gives it */
	HM_STEP_DEFAULT,        /* no type gives it: the stated default */
	HM_STEP_OWN,            /* the type's own cost of another step (hm_lu_step_info's
				 * 'same_as'): a variant of it that was not measured */
};
/* PDGETF2's synchronisations of a process column per column of the panel:
 * pdamax's combine, pdswap's exchange, pdger's broadcast of the pivot row,
 * each lg r messages deep on r process rows (models/README.md). */
#define HM_STEPS_PER_COLUMN 3.0

/* A per-flop cost as a function of the block size b: 'n' points sorted by
 * b, linearly interpolated between them and clamped outside. */
struct hm_table {
	int n;
	int *b;             /* block sizes, ascending, > 0 */
	double *k;          /* s/flop at b[i], finite and > 0 */
};

/* What a rank of t BLAS threads gains over a one-thread rank, each on
 * its own cores and all the node's cores busy: the speed-up of each
 * kernel group (threads.h names them; models/README.md, "Ranks of t
 * threads"), measured by calibrate. */
enum hm_thread_kernel {
	HM_THREADS_DGEMM,       /* k3_dgemm and the dgemm kernel model */
	HM_THREADS_DTRSM,       /* k3_dtrsm and the dtrsm kernel model */
	HM_THREADS_PANEL,       /* k2_dgetf2 and the dger kernel model */
	HM_NR_THREAD_KERNELS
};

struct hm_thread_speedup {
	int t;                  /* threads, >= 2 */
	/* per group, over the block size (one entry: at every b), each in
	 * (0, 2t]: calibrate measures them at each b, where the panel gains
	 * from threads only at the larger b and the dgemm more than at the
	 * smaller */
	struct hm_table s[HM_NR_THREAD_KERNELS];
};

/* A type's k values are per core with all cores of its processor busy
 * (what calibration measures). 'busy_scale' (optional, n = 0 when not
 * given) says how k changes with the number of busy cores: k(busy) =
 * k * scale(busy), a table keyed by busy cores, non-decreasing (fewer busy
 * cores never make a core slower), interpolated and clamped. */
struct hm_proc_type {
	char *name;
	struct hm_table k3_dgemm;   /* s/flop of dgemm (trailing update) */
	struct hm_table k3_dtrsm;   /* s/flop of dtrsm (b x b triangle) */
	struct hm_table k2_dgetf2;  /* s/flop of the panel factorisation */
	struct hm_table busy_scale; /* relative k by busy cores; n = 0: 1 */
	/* The cost of a core two or more processes share, relative to the
	 * heterogeneity rule's (which charges each of f processes f times
	 * its k), by routine (index: enum hm_routine, lu then gemm); 1 when
	 * not given. Measured by experiments/cores/stacking.sh. */
	double stacked[HM_NR_STACKED];
	/* The simulator's kernel models, fitted by calibrate from timed
	 * shapes (kernel_model.h); nterms 0 where not given: the simulator
	 * then reads the k tables above. */
	struct hm_kernel_model kernels[HM_NR_KERNELS];
	/* LU's steps beside its kernels, measured by calibrate with
	 * ScaLAPACK's own routines (models/README.md, "LU's steps"); where a
	 * type gives one not, the loader prices it (step_from, step_source). */
	double column_step;     /* s a process of the panel's column spends in each
				 * synchronisation step of PDGETF2 beyond the message
				 * (HM_STEPS_PER_COLUMN steps of lg r messages a column) */
	double k1_dswap;        /* s per element of a row interchange (PDLASWP) */
	double k1_dswap_aliased; /* the same at an aliased leading dimension
				  * (models/common/stride_alias.h) */
	char step_from[HM_NR_LU_STEPS];         /* enum hm_step_origin */
	int step_source[HM_NR_LU_STEPS];        /* HM_STEP_PRICED: the type priced from */
	/* Ranks of more than one thread (sorted by t; 0 entries: one thread
	 * per rank only). The column step and the row interchanges are
	 * level-1 work on one thread: threads do not change them. */
	int nr_threads;
	struct hm_thread_speedup threads[HM_MAX_THREAD_COUNTS];
};

struct hm_processor {
	char *name;         /* unique within the platform */
	char *host;         /* name written into launcher files */
	int type;           /* index into types[] */
	int host_id;        /* index of its host among distinct hosts */
	int cores;          /* >= 1: processes up to this many run without sharing a core */
	int sockets;        /* >= 1, divides cores: its cores are numbered socket by socket
			     * (cores / sockets each); launchers spread ranks over them */
	double memory;      /* bytes usable by its processes, 0 = not given */
	struct hm_topology *topology;   /* its cores' CPU numbers (topology.h), or NULL:
					 * core j of the host is CPU j */
	double card_t_w;    /* s per word through its host's network card, which
			     * the host's ranks share (hm_platform_set_cards); 0 on
			     * a platform of one host */
};

/* Where the two ends of a message are: the scope decides the link's cost
 * unless a per-pair override says otherwise. (JSON keys: see
 * hm_link_scope_name; "node" there is the file format's word for host.) */
enum hm_link_scope {
	HM_LINK_SAME_PROCESSOR, /* two processes on one processor */
	HM_LINK_SAME_HOST,      /* different processors, same host */
	HM_LINK_INTER_HOST,     /* different hosts */
	HM_LINK_NSCOPES
};

/* "same_processor", "same_node", "inter_node": the keys of 'network'. */
const char *hm_link_scope_name(enum hm_link_scope s);

/* Hockney cost of a message of w words: t_s + w * t_w. t_w_core (<= t_w)
 * is the part of t_w a process's core spends moving the words; the rest is
 * the wire's. f processes sharing a core (the heterogeneity rule's share
 * factor) pay the core's part f times but cannot beat the wire:
 * hm_link_word_cost. t_w_core = t_w (the default) is the thesis's rule,
 * f t_w. */
struct hm_link {
	double t_s;         /* s */
	double t_w;         /* s per 8-byte word */
	double t_w_core;    /* s per 8-byte word, 0 <= t_w_core <= t_w */
};

/* A link's t_w when the busier end's share factor is f (>= 1). Never
 * decreases when f, t_w or t_w_core grows: the searches' bounds take it
 * at componentwise least links. */
static inline double hm_link_word_cost(struct hm_link l, int f)
{
	double core = f * l.t_w_core;

	return core > l.t_w ? core : l.t_w;
}

/* The componentwise least of *m and l, into *m: a floor of both links'
 * costs at every share factor (hm_link_word_cost never decreases in a
 * part). */
static inline void hm_link_min(struct hm_link *m, struct hm_link l)
{
	m->t_s = l.t_s < m->t_s ? l.t_s : m->t_s;
	m->t_w = l.t_w < m->t_w ? l.t_w : m->t_w;
	m->t_w_core = l.t_w_core < m->t_w_core ? l.t_w_core : m->t_w_core;
}

/* a costs no more than b at every share factor (and both are equal when
 * each is at most the other). */
static inline int hm_link_at_most(struct hm_link a, struct hm_link b)
{
	return a.t_s <= b.t_s && a.t_w <= b.t_w && a.t_w_core <= b.t_w_core;
}

struct hm_link_override {
	int a, b;           /* processor indices, a < b */
	struct hm_link link;
};

/* One end of a link rule: patterns, any of which may match a processor's
 * name, host or type (fnmatch: '*', '?', '[...]'). Names without a
 * wildcard are looked up in a sorted list, so that an end listing
 * thousands of hosts costs a search per processor, not a match each. */
struct hm_rule_end {
	char **literal;             /* sorted (strcmp) */
	int nr_literal;
	char **wild;                /* patterns with '*', '?' or '[' */
	int nr_wild;
};

/* A link rule: pairs of processors on different hosts, one end matching
 * each rule end, cost 'link'. The first matching rule wins; per-pair
 * overrides win over rules. Inside a host the same-node scope holds: a
 * rule describes the network, not a node's memory. */
struct hm_link_rule {
	struct hm_rule_end end[2];
	struct hm_link link;
};

#define HM_MAX_LINK_RULES 32

/* Processor names sorted, for hm_platform_find(). */
struct hm_name_index {
	const char *name;   /* points into procs[index].name */
	int index;
};

struct hm_platform {
	char *name;
	char *description;          /* "" if not given */
	char *source;               /* file name, for messages only */
	uint64_t digest;            /* FNV-1a of the description's bytes */
	/* learned corrections (corrections.h), applied by the loader: the
	 * digest of the measured platform they rest on (= digest when none)
	 * and what they are, in words ("" when none) */
	uint64_t base_digest;
	char corrections_note[200];
	int nr_types;
	struct hm_proc_type *types;
	int nr_procs;
	struct hm_processor *procs;
	struct hm_name_index *by_name;  /* nr_procs entries, sorted by name */
	int nr_hosts;               /* distinct hosts */
	struct hm_link links[HM_LINK_NSCOPES];
	int nr_overrides;
	struct hm_link_override *overrides; /* sorted by (a, b) */
	int nr_rules;
	struct hm_link_rule *rules;
	/* rules resolved once: processors matching the same patterns share a
	 * profile, and rule_of[pa * nr_profiles + pb] is the rule between two
	 * profiles (-1: none), so a link costs O(1) however many processors */
	int *profile_of;            /* [i], NULL without rules */
	int nr_profiles;
	signed char *rule_of;
	int nr_block_sizes;
	int block_sizes[HM_MAX_BLOCK_SIZES]; /* candidates for b, ascending */
	/* values the loader accepted but doubts (a k meaning < 1 MFLOP/s or
	 * > 10 TFLOP/s per core, a bandwidth above 1 TB/s): "PATH: why" */
	int nr_warnings;            /* may exceed HM_MAX_WARNINGS: the rest not kept */
	char warnings[HM_MAX_WARNINGS][300];
};

/* Load a platform. 'path' is a file name, or "builtin:NAME" for one of the
 * reference platforms compiled into hetmap. 0 and *out set, or -1 with *out
 * NULL and 'err' holding file, JSON path and reason. Caller frees *out with
 * hm_platform_free(). */
int hm_platform_load(const char *path, struct hm_platform **out,
		     struct hm_error *err);

/* Same from memory ('name' is for messages); used by tests and builtins. */
int hm_platform_load_buffer(const char *json, size_t len, const char *name,
			    struct hm_platform **out, struct hm_error *err);

void hm_platform_free(struct hm_platform *p);   /* NULL is fine */

/* Index of processor 'name', or -1 (O(log P)). */
int hm_platform_find(const struct hm_platform *p, const char *name);

/* Each processor's card_t_w: its host's network card moves a word in the
 * time of the fastest link the processor has to another host, so that a
 * stream alone is never slowed by it (the inter-node link, the rules
 * matching it, its per-pair overrides; models/README.md, "A host's
 * card"). The loader calls it last, after the corrections. */
void hm_platform_set_cards(struct hm_platform *p);

/* Link cost between processors i and j (i == j: same processor). */
struct hm_link hm_platform_link(const struct hm_platform *p, int i, int j);

/* Value of a table at block size b (interpolated, clamped). */
double hm_table_at(const struct hm_table *t, int b);

/* What each of d processes on a processor of type ty and 'cores' cores
 * pays relative to all cores busy: the type's busy-cores scale at
 * min(d, cores); 1 without one or without a process. The model's rule and
 * the simulator's export read it alike. */
double hm_type_busy_scale(const struct hm_proc_type *ty, int cores, int d);

/* A step of LU's names and its stated default where no type gives it
 * (models/README.md, "LU's steps": a multiple of the type's own panel
 * s/flop, k2_dgetf2 at the middle candidate b). */
struct hm_lu_step_info {
	const char *key;        /* the platform file's: "column_step", "k1_dswap" */
	const char *what;       /* in words: "column step", "row interchange" */
	double per_panel_flop;  /* the stated default */
	const char *evidence;   /* where that default comes from, in words */
	int same_as;            /* > 0: a variant of that step, which a type that does
				 * not give this one pays instead (HM_STEP_OWN); the
				 * column step (0) is no step's variant */
};
const struct hm_lu_step_info *hm_lu_step_info(enum hm_lu_step s);
/* A type's cost of step s (s per column step, s per element), and where
 * the platform's loader stores it. */
double hm_lu_step_cost(const struct hm_proc_type *ty, enum hm_lu_step s);
double *hm_lu_step_slot(struct hm_proc_type *ty, enum hm_lu_step s);

/* Each processor's slot: its first core on its host, the cores of the
 * processors listed before it on that host coming first (what a rankfile
 * numbers). slot[] has nr_procs entries. 0, or -1 when out of memory. */
int hm_platform_slots(const struct hm_platform *p, int *slot);
/* Its least value (the least at any b: interpolation stays between entries). */
double hm_table_min(const struct hm_table *t);
/* Largest value of a table. */
double hm_table_max(const struct hm_table *t);

/* The cores of all processors together. */
long hm_platform_cores(const struct hm_platform *p);

/* Candidate block sizes for order n: the first k of block_sizes, those
 * <= n (a block larger than the matrix is no block-cyclic distribution),
 * at least the smallest one. Returns k. */
int hm_platform_block_count(const struct hm_platform *p, double n);

/* For platform_load.c, which fills the struct: build by_name and number
 * the hosts. -1 on success, -2 out of memory, else the index of a
 * processor whose name is taken. */
int hm_platform_index(struct hm_platform *p);
/* Sort the overrides; -1, or the index of a pair given twice. */
int hm_platform_sort_overrides(struct hm_platform *p);
/* Add 'pattern' to rule end 'e' (kept in order of arrival; call
 * hm_rule_end_sort once all are in). 0, or -1 when out of memory. */
int hm_rule_end_add(struct hm_rule_end *e, const char *pattern);
void hm_rule_end_sort(struct hm_rule_end *e);

/* The end as written, "a" or "[a, b, ...]", cut to 'size' with "...". */
void hm_rule_end_text(const struct hm_rule_end *e, char *buf, size_t size);

/* Resolve the link rules into profiles: 0, -1 out of memory, -2 too many
 * distinct profiles; *matched gets bit 2r (2r + 1) set when some processor
 * matches rule r's first (second) end. */
int hm_platform_resolve_rules(struct hm_platform *p, uint64_t *matched);

/* Names of the builtin platforms, NULL-terminated. */
const char *const *hm_platform_builtin_names(void);

/* JSON text of builtin platform 'name', or NULL. */
const char *hm_platform_builtin_json(const char *name);

#endif /* HM_PLATFORM_H */

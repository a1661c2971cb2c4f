/* models/platform/threads.h - ranks of more than one BLAS thread
 * (models/README.md, "Ranks of t threads").
 *
 * A rank of t threads holds t cores of its processor and runs each kernel
 * group its type's measured speed-up faster than a rank of one thread.
 * The models and the searches price such ranks through a thread view: the
 * same platform, processor i seen as cores_i / t_i cores of a type whose
 * k values and kernel models are the speed-up faster. Every model and
 * search then runs unchanged on the view, and the simulator's export of a
 * view gives each simulated rank its t-thread kernels. */
#ifndef HM_THREADS_H
#define HM_THREADS_H

#include "platform.h"

/* Ranks of t >= 2 threads never share cores (their threads would fight
 * for them, and OpenBLAS's waiting threads spin): the view prices a
 * processor's view core holding more than one such rank this many times
 * slower (its stacking factor), so no search picks it, while the factor
 * stays non-decreasing in the ranks, which the exact searches' bounds
 * need. Finite: a zero cost times it stays zero. */
#define HM_THREAD_RANKS_SHARING 1e9

/* The kernel groups' names, NULL-terminated ("dgemm", "dtrsm", "panel"):
 * the keys of a type's "threads" entries. */
const char *const *hm_thread_kernel_names(void);

/* The speed-up of kernel group g for ranks of t threads on type ty at
 * block size b: 1 at t = 1; a measured count's own (its table at b,
 * interpolated and clamped as the k tables are); between measured counts
 * linear in t; beyond the largest, its efficiency (speed-up / t) held;
 * below the smallest, linear from 1 at t = 1. Types without threads: 1
 * (t = 1) or 0 (not known). */
double hm_thread_speedup(const struct hm_proc_type *ty, int t, enum hm_thread_kernel g, int b);

/* The thread counts the searches try on processor i: 1, and each count
 * its type measured that fits its cores (at most HM_MAX_THREAD_COUNTS + 1,
 * ascending, into t[]). Returns how many. */
int hm_thread_options(const struct hm_platform *p, int i, int *t);

/* A view of platform 'base' with processor i running ranks of threads[i]
 * threads. It shares names, links and rules with 'base', which must
 * outlive it; only its types and processors are its own. */
struct hm_thread_view {
	struct hm_platform view;
	int nr_base_types;      /* view.types[0 .. nr_base_types - 1] are base's own */
};

/* Build the view ('threads' NULL or all 1: a copy of base's arrays).
 * A processor whose t exceeds its cores, or whose type knows nothing
 * of t threads, is an error. 0, or -1 with 'err' set. */
int hm_thread_view_build(struct hm_thread_view *v, const struct hm_platform *base,
			 const int *threads, struct hm_error *err);
void hm_thread_view_release(struct hm_thread_view *v);

/* 0 if d[i] ranks of threads[i] threads fit every processor's cores
 * (ranks of one thread may share cores, ranks of more may not), else -1
 * with 'err' naming the first that does not. */
int hm_thread_ranks_fit(const struct hm_platform *p, const int *d, const int *threads,
			struct hm_error *err);

/* 1 when a processor of the P that hold ranks (d[i] > 0) runs them with
 * two threads or more: then a configuration is priced on a thread view. */
int hm_threads_used(const int *d, const int *threads, int P);

/* 1 if any processor of 'p' can run a rank of two threads or more. */
int hm_platform_has_threads(const struct hm_platform *p);

#endif /* HM_THREADS_H */

/* wrappers/vcluster/core_locks.h - the cores of a virtual node under
 * the BLAS emulation, as robust process-shared mutexes in a file that
 * 'hetmap-vcluster up' makes (VC_TMP_ROOT/NODE/cores) and the ranks of the
 * node map (slowblas.c): a rank holds a core while it computes or sleeps
 * off a slower core's extra time. */
#ifndef HM_CORE_LOCKS_H
#define HM_CORE_LOCKS_H

#include <pthread.h>

#define HM_MAX_CORE_LOCKS 64

struct hm_core_locks {
	int n;                                  /* cores of the node */
	pthread_mutex_t core[HM_MAX_CORE_LOCKS];
};

#endif /* HM_CORE_LOCKS_H */

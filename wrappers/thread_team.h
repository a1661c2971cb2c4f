/* wrappers/thread_team.h - the calibration's ranks of t BLAS threads
 * (models/README.md, "Ranks of t threads"): on every host the measured
 * ranks, in rank order, form teams of t; each full team's first rank binds
 * itself to the team's CPUs and times LU's kernels with t OpenBLAS threads
 * while its team mates sleep, all teams at once, and the ranks past a
 * host's last full team time one thread (their times dropped), so the
 * node is as busy as when every core runs a rank. Each kernel is timed
 * by its wall time (its threads run on other cores than the one whose
 * run_delay could be read); t = 1 is timed the same way, so a speed-up
 * compares like with like. */
#ifndef HM_THREAD_TEAM_H
#define HM_THREAD_TEAM_H

#include "lu_kernels.h"

/* Rank 'rank' of 'nproc' measured ranks (host of rank r: hosts[r]): when
 * it leads a team of t, the median seconds per flop of each LU kernel at
 * each of the nbs block sizes bs[] (rows m = 'rows', 'repeat' rounds of
 * at least 'min_time' s) into median[bi * LU_NR_KERNELS + kernel]; else
 * median[] is 0. Collective over MPI_COMM_WORLD (every rank calls it, the
 * unmeasured ones too). */
void hm_time_thread_team(int t, char *const *hosts, int nproc, int rank, int rows, const int *bs, int nbs,
			 int repeat, double min_time, double *median);

#endif /* HM_THREAD_TEAM_H */

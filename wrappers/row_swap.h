/* wrappers/row_swap.h - the cost of LU's row interchanges, timed with
 * ScaLAPACK itself: PDLASWP applies each pivot of a panel to the whole
 * local width of the matrix, a dswap of two rows whose elements lie a
 * column (the local leading dimension) apart, so every element is a cache
 * line and, past 512 rows, a page of its own. On one process of this
 * machine it took 28 % of LU n = 4000 with a fast dgemm (the row swaps are
 * memory-bound: dgemm's speed does not move them); the models' k1_dswap
 * (models/README.md). */
#ifndef HM_ROW_SWAP_H
#define HM_ROW_SWAP_H

#include "held_time.h"

/* Seconds per element of a row interchange on this process alone (a BLACS
 * grid 1 x 1 over MPI_COMM_SELF): PDLASWP of b pivots (random rows below
 * each) over a rows x 'width' matrix of leading dimension lld >= rows,
 * the median of 'samples' samples of the time each held the core
 * (hm_held_clock). The stride matters: where lld x 8 bytes is a multiple
 * of 4 KiB (hm_stride_aliased) a row's elements alias in the cache and
 * the interchange cost 2-3x as much on this machine (models/README.md,
 * "LU's steps"), so calibrate times both strides. */
double hm_time_row_swap(int rows, int lld, int width, int b, int samples, struct hm_held_clock *clock);

#endif /* HM_ROW_SWAP_H */

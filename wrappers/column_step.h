/* wrappers/column_step.h - the time of one column step of ScaLAPACK's panel
 * factorisation, timed with ScaLAPACK itself: PDGETF2 on the r processes of
 * one process column runs, for each column, pdamax (a combine over the r
 * processes), pdswap, pdscal and pdger (the pivot row broadcast down the
 * column). hetmap calibrate compares r = 2 with r = 1 to learn what each
 * step costs a process beyond its flops and its messages' latency
 * (models/README.md, "The panel's column steps").
 *
 * The panel is (r b) x b with b rows on each process, so its flops are a
 * few thousand per column and the time is the steps' own. */
#ifndef HM_COLUMN_STEP_H
#define HM_COLUMN_STEP_H

#include <mpi.h>

#include "held_time.h"

/* Every rank of 'column' calls it (r = its size, on a BLACS grid r x 1 made
 * over it). Times PDGETF2 on the panel 'samples' times after two warm-ups;
 * a sample during which the scheduler kept any rank waiting for its core
 * (run_delay above 2 % of the sample, hm_held_clock) is dropped and taken
 * again, up to 10 x samples tries. Returns the median seconds per column
 * over the samples kept (the same on every rank), or NAN when fewer than
 * half were undisturbed (not measured: other work owned the cores), and
 * counts the dropped samples into *disturbed. */
double hm_time_column_step(MPI_Comm column, int b, int samples, struct hm_held_clock *clock,
			   int *disturbed);

#endif /* HM_COLUMN_STEP_H */

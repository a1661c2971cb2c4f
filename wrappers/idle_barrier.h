/* wrappers/idle_barrier.h - a barrier over MPI_COMM_WORLD that sleeps
 * while it waits, polling every 0.2 ms: a rank that waits gives its core
 * to the rank (or the threads) being measured, where MPI's own barrier
 * would spin on it. */
#ifndef HM_IDLE_BARRIER_H
#define HM_IDLE_BARRIER_H

#include <mpi.h>
#include <time.h>

static inline void hm_idle_barrier(void)
{
	/* named, not a compound literal: SMPI makes nanosleep a macro, whose
	 * arguments a brace initialiser's comma would split */
	const struct timespec pause = { 0, 200000 };
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	while (MPI_Test(&req, &done, MPI_STATUS_IGNORE), !done)
		nanosleep(&pause, NULL);
}

#endif /* HM_IDLE_BARRIER_H */

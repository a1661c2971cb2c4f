/* wrappers/thread_team.c - ranks of t threads in the calibration (see
 * thread_team.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity */
#endif
#include "thread_team.h"
#include "idle_barrier.h"

#include <mpi.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* OpenBLAS's own call: its thread pool grows from the calling thread,
 * whose CPU set every new thread inherits. */
void openblas_set_num_threads(int n);

/* Rank r's place among the measured ranks of its host, and their number. */
static int host_index(char *const *hosts, int nproc, int r, int *on_host)
{
	int j = 0;

	*on_host = 0;
	for (int q = 0; q < nproc; q++)
		if (!strcmp(hosts[q], hosts[r])) {
			j += q < r;
			(*on_host)++;
		}
	return j;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

void hm_time_thread_team(int t, char *const *hosts, int nproc, int rank, int rows, const int *bs, int nbs,
			 int repeat, double min_time, double *median)
{
	int size, on_host = 0, j = 0, leads, fills, rounds = 0;
	cpu_set_t mine, *all, team, saved;
	struct hm_held_clock wall = { 0 };      /* corrects 0: wall time */
	int rounds_max = hm_lu_kernel_rounds_max(repeat);
	int cells = nbs * LU_NR_KERNELS;
	double *samples = calloc((size_t)cells * rounds_max, sizeof(double));

	MPI_Comm_size(MPI_COMM_WORLD, &size);
	memset(median, 0, (size_t)cells * sizeof(double));
	CPU_ZERO(&mine);
	sched_getaffinity(0, sizeof(mine), &mine);
	all = calloc((size_t)size, sizeof(cpu_set_t));
	if (!all || !samples) {
		free(all), free(samples);
		MPI_Abort(MPI_COMM_WORLD, 2);
		return;
	}
	MPI_Allgather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine), MPI_BYTE, MPI_COMM_WORLD);
	if (rank < nproc)
		j = host_index(hosts, nproc, rank, &on_host);
	leads = rank < nproc && j % t == 0 && j + t <= on_host;
	/* the host's ranks past its last full team keep their cores busy with
	 * one thread, as in the one-thread round and in a run: idle, they
	 * would lend the teams cores, memory bandwidth and, on the emulated
	 * cluster, the very core a team runs on */
	fills = rank < nproc && j >= on_host / t * t;
	if (leads) {
		/* the team: this rank and the next t - 1 measured ranks of its host */
		CPU_ZERO(&team);
		for (int q = rank, taken = 0; q < nproc && taken < t; q++)
			if (!strcmp(hosts[q], hosts[rank])) {
				CPU_OR(&team, &team, &all[q]);
				taken++;
			}
		saved = mine;
		sched_setaffinity(0, sizeof(team), &team);
		openblas_set_num_threads(t);
	}
	hm_idle_barrier();
	if (leads || fills)     /* a filler's times are dropped */
		rounds = hm_time_lu_kernels(rows, bs, nbs, LU_NR_KERNELS, repeat, min_time, &wall, samples);
	if (leads) {
		for (int k = 0; k < cells; k++) {
			double *v = samples + (size_t)k * rounds_max;

			qsort(v, (size_t)rounds, sizeof(double), cmp_double);
			median[k] = rounds % 2 ? v[rounds / 2] : (v[rounds / 2 - 1] + v[rounds / 2]) / 2;
		}
		openblas_set_num_threads(1);
		sched_setaffinity(0, sizeof(saved), &saved);
	}
	hm_idle_barrier();
	free(all), free(samples);
}

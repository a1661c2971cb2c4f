/* wrappers/mpi_span.c - libhetmap-mpi-span.so: how long a rank ran its MPI
 * program, for programs that print no time of their own.
 *
 * hetmap-probe preloads it into the program it becomes. It stands in
 * front of MPI_Init, MPI_Init_thread and MPI_Finalize (and gfortran's
 * mpi_init_, mpi_init_thread_, mpi_finalize_ of 'use mpi' and mpif.h, and
 * mpi_init_f08_, mpi_init_thread_f08_, mpi_finalize_f08_ of 'use
 * mpi_f08', Open MPI's and MPICH's alike), calls the MPI library's own
 * through dlsym(RTLD_NEXT), and at MPI_Finalize writes one line
 *   hetmap-mpi-span: SECONDS
 * on standard output: the monotonic time from the return of the rank's
 * MPI_Init to its call of MPI_Finalize. 'hetmap run' takes the largest
 * rank's. It includes all the program does between them (reading input,
 * generating the matrix, checking the result), not MPI's start-up and
 * teardown. It uses no MPI type, so one build serves Open MPI and MPICH:
 * a program that calls neither symbol (a serial one, a static MPI) is
 * untouched and prints nothing.
 *
 * The line also says how long other work kept the rank waiting for its core
 * meanwhile, as calibrate measures it (held_time.h: the run_delay of the
 * rank's main thread; not where a CPU quota makes throttling look alike),
 * and the host: 'hetmap run' records the load beside the time
 *   hetmap-mpi-span: SECONDS waited SECONDS on HOST */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "held_time.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double started = -1;     /* when the first MPI_Init returned */
static double delay_at_start;   /* its run_delay then; < 0: not measured */
static int said;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The next definition of 'name' (the MPI library's); NULL if none. */
static void *next(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

static void start(void)
{
	if (started >= 0)
		return;
	started = now();
	delay_at_start = hm_cpu_quota_set() ? -1 : hm_run_delay();
}

/* One line, written whole (no stdio buffer of the program's to mix with). */
static void say(void)
{
	char line[400], host[256] = "";
	double delay = delay_at_start >= 0 ? hm_run_delay() : -1;
	int len;

	if (said || started < 0)
		return;
	said = 1;
	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (delay >= 0 && host[0] && !strpbrk(host, " \n"))
		len = snprintf(line, sizeof(line), "hetmap-mpi-span: %.9f waited %.9f on %s\n", now() - started,
			       delay - delay_at_start, host);
	else
		len = snprintf(line, sizeof(line), "hetmap-mpi-span: %.9f\n", now() - started);
	if (len > 0 && write(STDOUT_FILENO, line, (size_t)len) < 0)
		return;         /* nothing to do: the record then says no span */
}

int MPI_Init(int *argc, char ***argv)
{
	int (*real)(int *, char ***) = (int (*)(int *, char ***))next("MPI_Init");
	int rc = real ? real(argc, argv) : -1;

	start();
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int (*real)(int *, char ***, int, int *) = (int (*)(int *, char ***, int, int *))next("MPI_Init_thread");
	int rc = real ? real(argc, argv, required, provided) : -1;

	start();
	return rc;
}

int MPI_Finalize(void)
{
	int (*real)(void) = (int (*)(void))next("MPI_Finalize");

	fflush(stdout);         /* the program's own lines first */
	say();
	return real ? real() : -1;
}

/* A Fortran binding, as gfortran names it: the library's own, then the
 * clock's part. The error argument by reference, NULL when the f08
 * binding's optional one is absent, passed on as is. */
static void fortran_init(const char *name, int *ierr)
{
	void (*real)(int *) = (void (*)(int *))next(name);

	if (real)
		real(ierr);
	start();
}

static void fortran_init_thread(const char *name, int *required, int *provided, int *ierr)
{
	void (*real)(int *, int *, int *) = (void (*)(int *, int *, int *))next(name);

	if (real)
		real(required, provided, ierr);
	start();
}

static void fortran_finalize(const char *name, int *ierr)
{
	void (*real)(int *) = (void (*)(int *))next(name);

	fflush(stdout);
	say();
	if (real)
		real(ierr);
}

/* 'use mpi' and mpif.h */
void mpi_init_(int *ierr) { fortran_init("mpi_init_", ierr); }
void mpi_init_thread_(int *required, int *provided, int *ierr)
{
	fortran_init_thread("mpi_init_thread_", required, provided, ierr);
}
void mpi_finalize_(int *ierr) { fortran_finalize("mpi_finalize_", ierr); }

/* 'use mpi_f08': MPI_Init_f08 and the others, external subroutines of the
 * MPI's f08 library (Open MPI's and MPICH's) */
void mpi_init_f08_(int *ierr) { fortran_init("mpi_init_f08_", ierr); }
void mpi_init_thread_f08_(int *required, int *provided, int *ierr)
{
	fortran_init_thread("mpi_init_thread_f08_", required, provided, ierr);
}
void mpi_finalize_f08_(int *ierr) { fortran_finalize("mpi_finalize_f08_", ierr); }

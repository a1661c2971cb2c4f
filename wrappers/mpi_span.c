/* wrappers/mpi_span.c - libhetmap-mpi-span.so: how long a rank ran its MPI
 * program, for programs that print no time of their own.
 *
 * hetmap-probe preloads it into the program it becomes. It stands in
 * front of MPI_Init, MPI_Init_thread and MPI_Finalize (and gfortran's
 * mpi_init_, mpi_init_thread_, mpi_finalize_), calls the MPI library's own
 * through dlsym(RTLD_NEXT), and at MPI_Finalize writes one line
 *   hetmap-mpi-span: SECONDS
 * on standard output: the monotonic time from the return of the rank's
 * MPI_Init to its call of MPI_Finalize. 'hetmap run' takes the largest
 * rank's. It includes all the program does between them (reading input,
 * generating the matrix, checking the result), not MPI's start-up and
 * teardown. It uses no MPI type, so one build serves Open MPI and MPICH:
 * a program that calls neither symbol (a serial one, a static MPI) is
 * untouched and prints nothing. */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double started = -1;     /* when the first MPI_Init returned */
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
	if (started < 0)
		started = now();
}

/* One line, written whole (no stdio buffer of the program's to mix with). */
static void say(void)
{
	char line[64];
	int len;

	if (said || started < 0)
		return;
	said = 1;
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

/* gfortran's bindings: the error code by reference. */
void mpi_init_(int *ierr)
{
	void (*real)(int *) = (void (*)(int *))next("mpi_init_");

	if (real)
		real(ierr);
	start();
}

void mpi_init_thread_(int *required, int *provided, int *ierr)
{
	void (*real)(int *, int *, int *) = (void (*)(int *, int *, int *))next("mpi_init_thread_");

	if (real)
		real(required, provided, ierr);
	start();
}

void mpi_finalize_(int *ierr)
{
	void (*real)(int *) = (void (*)(int *))next("mpi_finalize_");

	fflush(stdout);
	say();
	if (real)
		real(ierr);
}

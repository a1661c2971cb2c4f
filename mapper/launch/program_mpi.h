/* mapper/launch/program_mpi.h - which MPI a program is linked with, read from
 * its ELF dependencies (DT_NEEDED, and theirs: Debian's xdlu reaches
 * libmpich.so.12 only through libscalapack-mpich.so.2.2), so that 'run'
 * refuses to start an MPICH program with Open MPI's mpirun, where every
 * rank would run alone (a singleton) and the test would fail for a reason
 * nobody would guess. */
#ifndef HM_PROGRAM_MPI_H
#define HM_PROGRAM_MPI_H

#include <stddef.h>
#include "launcher.h"

/* What was found. */
struct hm_program_mpi {
	const struct hm_launcher *launcher;     /* the first launcher whose mpi_libraries it needs */
	char library[128];                      /* that library ("libmpich.so.12") */
	char via[128];                          /* the program's own dependency that needs it, or "" */
};

/* Look 'program' (a path, or a name in PATH) up; 1 when one of the
 * launchers' MPI libraries was found (m filled), 0 when none was (a
 * static program, a script, not an ELF file of this machine's kind). */
int hm_program_mpi(const char *program, struct hm_program_mpi *m);

#endif /* HM_PROGRAM_MPI_H */

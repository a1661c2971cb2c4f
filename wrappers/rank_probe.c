/* wrappers/rank_probe.c - hetmap-probe: say where this rank landed, then
 * become the program.
 *
 *   hetmap-probe PROGRAM [ARGS...]
 *
 * Started by the launcher in place of the program, it prints one line
 *   hetmap-probe {"rank":K,"host":"H","cpus":"0-1"}
 * on its standard output (which every launcher forwards) and executes
 * PROGRAM with ARGS, unchanged, in the same process: the program keeps
 * the rank's binding, environment and descriptors. This is how 'hetmap
 * run' checks the placement of programs that do not report it: what each
 * process really got (its host name and the CPUs it may run on), not
 * what the launcher meant to do.
 *
 * The rank comes from the variables the launchers set: Open MPI
 * (OMPI_COMM_WORLD_RANK), PMIx (PMIX_RANK), MPICH/Hydra and Intel MPI
 * (PMI_RANK), Slurm (SLURM_PROCID). HETMAP_HOST, when set, overrides the
 * host name (the emulated cluster's virtual nodes set it). */
#define _GNU_SOURCE /* sched_getaffinity */
#include "cpu_list.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const rank_variables[] = {
	"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID", NULL
};

/* Only characters that need no JSON escaping pass into the line. */
static void json_safe(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == '"' || *s == '\\' || (unsigned char)*s >= 0x7f)
			*s = '?';
}

int main(int argc, char **argv)
{
	char host[256] = "", cpus[1024];
	const char *rank = NULL, *forced = getenv("HETMAP_HOST");

	if (argc < 2) {
		fprintf(stderr, "usage: hetmap-probe PROGRAM [ARGS...]\n");
		return 127;
	}
	for (int i = 0; rank_variables[i] && !rank; i++)
		rank = getenv(rank_variables[i]);
	if (forced && *forced)
		snprintf(host, sizeof(host), "%s", forced);
	else
		gethostname(host, sizeof(host) - 1);
	json_safe(host);
	hm_cpu_list(cpus, sizeof(cpus));
	if (rank && strspn(rank, "0123456789") == strlen(rank) && strlen(rank) < 10) {
		printf("hetmap-probe {\"rank\":%s,\"host\":\"%s\",\"cpus\":\"%s\"}\n", rank, host, cpus);
		fflush(stdout);
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "hetmap-probe: cannot run %s: %s\n", argv[1], strerror(errno));
	return 127;
}

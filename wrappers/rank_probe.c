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
 * The rank comes from the variables the launchers set, the host name from
 * the system or HETMAP_HOST (rank_identity.h).
 *
 * It also preloads libhetmap-mpi-span.so, found beside it, into the
 * program (wrappers/mpi_span.c): the time from MPI_Init to MPI_Finalize,
 * which 'run' records for a program that prints no time of its own.
 *
 * With HETMAP_RANK_CPUS set to a file, the rank first binds itself to the
 * CPUs on line K of that file ("2,10": a core's hardware threads). hetmap
 * asks this where the launcher binds by one CPU list for every host (MPICH,
 * Slurm, Intel MPI) and the hosts' cores are numbered differently; a line
 * it cannot read or a binding the system refuses is said on standard error
 * and the rank runs where the launcher put it, which the line reports. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "cpu_list.h"
#include "rank_identity.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Line 'rank' of 'path' as a CPU set; 0, or -1 (errno or EINVAL). */
static int read_cpus(const char *path, long rank, cpu_set_t *set)
{
	char line[4096];
	FILE *f = fopen(path, "r");
	long k = 0;
	int ret = -1;

	if (!f)
		return -1;
	errno = EINVAL;
	while (fgets(line, sizeof(line), f) && k < rank)
		k += strchr(line, '\n') != NULL;
	/* a line longer than the buffer is refused whole, never bound in part */
	if (k == rank && !feof(f) && (strchr(line, '\n') || fgetc(f) == EOF)) {
		char *s = line, *end;

		CPU_ZERO(set);
		for (ret = 0; *s && *s != '\n' && !ret; s = *end == ',' ? end + 1 : end) {
			long cpu = strtol(s, &end, 10);

			if (end == s || cpu < 0 || cpu >= CPU_SETSIZE || (*end != ',' && *end != '\n' && *end))
				ret = -1;
			else
				CPU_SET((int)cpu, set);
		}
		ret = ret || !CPU_COUNT(set) ? -1 : 0;
	}
	fclose(f);
	return ret;
}

/* Bind this process as HETMAP_RANK_CPUS says (see above). */
static void bind_as_planned(const char *rank)
{
	const char *path = getenv("HETMAP_RANK_CPUS");
	cpu_set_t set;

	if (!path || !*path)
		return;
	if (!rank)
		fprintf(stderr, "hetmap-probe: not bound to its planned CPUs (%s): no rank in "
			"OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID\n", path);
	else if (read_cpus(path, atol(rank), &set) || sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "hetmap-probe: rank %s: not bound to its planned CPUs (%s, its line: "
			"%s)\n", rank, path,
			errno == EINVAL ? "not a list of CPUs under 4096 characters" : strerror(errno));
}

/* LD_PRELOAD gains the span library beside this program, when it is
 * there; what the user preloads stays, ahead of it. */
static void preload_span_library(void)
{
	char self[4096], value[8192];
	const char *old = getenv("LD_PRELOAD");
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0)
		return;
	self[len] = '\0';
	if (!(slash = strrchr(self, '/')))
		return;
	snprintf(slash + 1, sizeof(self) - (size_t)(slash + 1 - self), "libhetmap-mpi-span.so");
	if (access(self, R_OK))
		return;
	if (snprintf(value, sizeof(value), "%s%s%s", old && *old ? old : "", old && *old ? ":" : "",
		     self) < (int)sizeof(value))
		setenv("LD_PRELOAD", value, 1);
}

int main(int argc, char **argv)
{
	char host[256], cpus[1024];
	const char *rank = hm_rank_of_process();

	if (argc < 2) {
		fprintf(stderr, "usage: hetmap-probe PROGRAM [ARGS...]\n");
		return 127;
	}
	hm_host_of_process(host, sizeof(host));
	bind_as_planned(rank);
	hm_cpu_list(cpus, sizeof(cpus));
	if (rank) {
		printf("hetmap-probe {\"rank\":%s,\"host\":\"%s\",\"cpus\":\"%s\"}\n", rank, host, cpus);
		fflush(stdout);
	}
	preload_span_library();
	execvp(argv[1], argv + 1);
	fprintf(stderr, "hetmap-probe: cannot run %s: %s\n", argv[1], strerror(errno));
	return 127;
}

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
 * and the rank runs where the launcher put it, which the line reports.
 *
 * With HETMAP_RANK_THREADS set to a file, the rank sets
 * OPENBLAS_NUM_THREADS and OMP_NUM_THREADS to the count on its line K:
 * hetmap asks this where ranks of one job have different thread counts. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "cpu_list.h"
#include "rank_identity.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Line 'rank' of 'path' into line[size] (its newline kept); 0, or -1
 * (errno, or EINVAL: no such line, or one longer than the buffer, which
 * is refused whole, never used in part). */
static int read_line(const char *path, long rank, char *line, int size)
{
	FILE *f = fopen(path, "r");
	long k = 0;
	int ret = -1;

	if (!f)
		return -1;
	errno = EINVAL;
	while (fgets(line, size, f) && k < rank)
		k += strchr(line, '\n') != NULL;
	if (k == rank && !feof(f) && (strchr(line, '\n') || fgetc(f) == EOF))
		ret = 0;
	fclose(f);
	return ret;
}

/* Line 'rank' of 'path' as a CPU set; 0, or -1 (errno or EINVAL). */
static int read_cpus(const char *path, long rank, cpu_set_t *set)
{
	char line[4096], *s = line, *end;
	int ret = 0;

	if (read_line(path, rank, line, sizeof(line)))
		return -1;
	errno = EINVAL;
	CPU_ZERO(set);
	for (; *s && *s != '\n' && !ret; s = *end == ',' ? end + 1 : end) {
		long cpu = strtol(s, &end, 10);

		if (end == s || cpu < 0 || cpu >= CPU_SETSIZE || (*end != ',' && *end != '\n' && *end))
			ret = -1;
		else
			CPU_SET((int)cpu, set);
	}
	return ret || !CPU_COUNT(set) ? -1 : 0;
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

/* Set the BLAS and OpenMP thread counts as HETMAP_RANK_THREADS says:
 * line K of that file is rank K's count (1..4096). */
static void threads_as_planned(const char *rank)
{
	static const char *const variables[] = { "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS" };
	const char *path = getenv("HETMAP_RANK_THREADS");
	char line[64], *end = line;
	long t = 0;

	if (!path || !*path)
		return;
	if (rank && !read_line(path, atol(rank), line, sizeof(line))) {
		line[strcspn(line, "\n")] = '\0';
		t = strtol(line, &end, 10);
	}
	if (t < 1 || t > 4096 || *end) {
		fprintf(stderr, "hetmap-probe: rank %s: no thread count on its line of %s: "
			"its threads stay as the environment says\n", rank ? rank : "?", path);
		return;
	}
	for (int i = 0; i < 2; i++)
		setenv(variables[i], line, 1);
}

/* LD_PRELOAD gains the span library beside this program, when it is
 * there; what the user preloads stays, ahead of it. ld.so splits
 * LD_PRELOAD at blanks and colons, so a library under a folder named with
 * either is preloaded by its bare name and found through
 * LD_LIBRARY_PATH, which splits at colons and semicolons only; a folder
 * named with those cannot be named at all, and the span is left out
 * (said: the program's time then needs its own line). */
static void preload_span_library(void)
{
	static const char name[] = "libhetmap-mpi-span.so";
	char self[4096], value[8192], dir[4096];
	const char *old = getenv("LD_PRELOAD"), *entry;
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0)
		return;
	self[len] = '\0';
	if (!(slash = strrchr(self, '/')))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - self), self);
	snprintf(slash + 1, sizeof(self) - (size_t)(slash + 1 - self), "%s", name);
	if (access(self, R_OK))
		return;
	entry = self;
	if (strpbrk(self, " \t:")) {
		const char *libs = getenv("LD_LIBRARY_PATH");

		if (strpbrk(dir, ":;")) {
			fprintf(stderr, "hetmap-probe: %s cannot be preloaded from a folder named with ':' or ';': "
				"no MPI span measured\n", self);
			return;
		}
		if (snprintf(value, sizeof(value), "%s%s%s", dir, libs && *libs ? ":" : "", libs ? libs : "") >=
		    (int)sizeof(value))
			return;
		setenv("LD_LIBRARY_PATH", value, 1);
		entry = name;
	}
	if (snprintf(value, sizeof(value), "%s%s%s", old && *old ? old : "", old && *old ? ":" : "",
		     entry) < (int)sizeof(value))
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
	threads_as_planned(rank);
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

/* wrappers/held_time.h - how long a measured stretch of code held its core:
 * the wall time less the time the scheduler kept this thread waiting while
 * it was ready to run (Linux's run_delay, /proc/thread-self/schedstat).
 *
 * Why: on a shared machine another process on the measured core takes
 * turns with the benchmark; the wall time of a kernel then counts the other
 * process's turns and a calibration measures the load, not the core (two
 * calibrations of one 2-core machine a minute apart gave dgemm 8-12 and
 * 19-28 GFLOP/s). The run_delay counts exactly those turns (measured: a
 * spinning process on the same core gave run_delay / wall = 0.50 and the
 * benchmark's CPU time / wall = 0.50). Time a thread spends asleep of its
 * own accord is not run_delay, so the emulated cluster's slow nodes (whose
 * BLAS sleeps, wrappers/vcluster/README.md) stay slow. A CPU quota's
 * throttling is run_delay as well: on a rank whose cgroup has a quota (the
 * emulated cluster's "quota" nodes, a container's CPU limit) the quota is
 * the node's speed, so nothing is subtracted there (hm_held_clock_init says
 * which). Time a virtual machine's host steals is not run_delay either: it
 * stays in the measurement, and calibrate reports the load average.
 *
 * Under SMPI every time is simulated: the correction is off. */
#ifndef HM_HELD_TIME_H
#define HM_HELD_TIME_H

#include <stdio.h>
#include <string.h>

struct hm_held_clock {
	int corrects;           /* 1: run_delay is read and subtracted */
	const char *why_not;    /* when it is not: why (for the record) */
	double waited;          /* run_delay summed over what was measured, s */
	double spent;           /* wall time of what was measured, s */
};

/* This thread's run_delay in seconds, or -1 where the kernel does not say. */
static inline double hm_run_delay(void)
{
	unsigned long long on_cpu, delay;
	FILE *f = fopen("/proc/thread-self/schedstat", "r");
	int got;

	if (!f)
		return -1;
	got = fscanf(f, "%llu %llu", &on_cpu, &delay);
	fclose(f);
	return got == 2 ? (double)delay * 1e-9 : -1;
}

/* 1 if 'list' (a cgroup v1 line's controllers, "cpu,cpuacct") names "cpu". */
static inline int hm_names_cpu_controller(const char *list)
{
	for (const char *s = list; *s;) {
		size_t len = strcspn(s, ",");

		if (len == 3 && !strncmp(s, "cpu", 3))
			return 1;
		s += len + (s[len] == ',');
	}
	return 0;
}

/* 1 if this process's cgroup limits its CPU time (cgroup v1 cpu.cfs_quota_us
 * above 0, or v2 cpu.max other than "max"). */
static inline int hm_cpu_quota_set(void)
{
	char line[4096], path[4400], value[64];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int quota = 0;

	if (!f)
		return 0;
	while (!quota && fgets(line, sizeof(line), f)) {
		/* "ID:CONTROLLERS:/PATH" (v1), "0::/PATH" (v2) */
		char *controllers = strchr(line, ':'), *dir = controllers ? strchr(controllers + 1, ':') : NULL;
		FILE *q;

		if (!dir)
			continue;
		*controllers++ = '\0', *dir++ = '\0';
		dir[strcspn(dir, "\n")] = '\0';
		if (!*controllers)
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpu.max", dir);
		else if (hm_names_cpu_controller(controllers))
			snprintf(path, sizeof(path), "/sys/fs/cgroup/%s%s/cpu.cfs_quota_us", controllers, dir);
		else
			continue;
		if (!(q = fopen(path, "r")))
			continue;
		if (fgets(value, sizeof(value), q))
			quota = strncmp(value, "max", 3) && strncmp(value, "-1", 2);
		fclose(q);
	}
	fclose(f);
	return quota;
}

static inline void hm_held_clock_init(struct hm_held_clock *c)
{
	memset(c, 0, sizeof(*c));
#ifdef SMPI_SHARED_MALLOC
	c->why_not = "simulated (SMPI)";
#else
	if (hm_run_delay() < 0)
		c->why_not = "the kernel gives no run_delay (/proc/thread-self/schedstat)";
	else if (hm_cpu_quota_set())
		c->why_not = "a CPU quota limits this rank (its throttling is the node's speed)";
	else
		c->corrects = 1;
#endif
}

/* A mark before a measured stretch: its wall time and run_delay. */
struct hm_held_mark {
	double wall, delay;
};

/* The two clocks are read in an order that can only understate the wait: the
 * wall clock first at the start, run_delay first at the stop. A turn lost
 * between the two reads then counts in the span alone. The other order at
 * the stop counted it as waited but not spent: a stretch shorter than one
 * lost turn (a 1 ms sample on a busy machine) came out held for 0 s, and
 * calibrate refused the platform. 'wall' is the caller's clock (MPI_Wtime
 * or the benchmark's own). */
static inline struct hm_held_mark hm_held_start(const struct hm_held_clock *c, double (*wall)(void))
{
	struct hm_held_mark m;

	m.wall = wall();
	m.delay = c->corrects ? hm_run_delay() : 0;
	return m;
}

/* The stretch since 'm', ended now: the time it held the core (its wall time
 * less what the scheduler kept it waiting); its wall time in *span when
 * asked. */
static inline double hm_held_stop(struct hm_held_clock *c, struct hm_held_mark m, double (*wall)(void),
				  double *span)
{
	double delay = c->corrects ? hm_run_delay() : 0, spent = wall() - m.wall, waited = 0;

	if (c->corrects) {
		waited = delay - m.delay;
		if (waited < 0 || waited > spent)
			waited = waited < 0 ? 0 : spent;
	}
	c->waited += waited;
	c->spent += spent;
	if (span)
		*span = spent;
	return spent - waited;
}

#endif /* HM_HELD_TIME_H */

/* mapper/calibrate/bench_launch.h - how a calibration starts its programs
 * (hetmap-topology, then hetmap-calibrate-bench) through the launcher:
 * their ranks as a placement, bound to the cores hwloc numbers, the
 * launcher's file written and removed, the output read line by line. */
#ifndef HM_BENCH_LAUNCH_H
#define HM_BENCH_LAUNCH_H

#include "host_list.h"
#include "mapper/launch/launcher.h"
#include "mapper/launch/placement.h"
#include "models/util/strbuild.h"

/* Where a calibration's launches happen: one launch directory for all,
 * one launcher. */
struct hm_bench_site {
	const struct hm_launcher *l;
	const char *mpirun;
	int launcher_major;             /* Open MPI 4 or 5: their syntax differs */
	double timeout;                 /* s */
	double host_speed;              /* simulators: this machine's flop/s */
	char **extra;                   /* the user's launcher options */
	int nextra;
	char dir[4096], file[4200], platform[4200];
};

/* The benchmark's ranks as a placement: rank i on processor i, the shadow
 * rank beside rank 0 (the launcher then writes its file and command);
 * with 'one_per_host', one rank on the first core of each host instead
 * (hetmap-topology). Each rank is bound to its core's first CPU as hwloc
 * numbers them ('topo', NULL: not read), else to the CPU of the core's
 * number; a simulator's processor is the simulated host itself. 0, or -1
 * when out of memory (free pl->ranks either way). */
int hm_bench_placement(const struct hm_host_list *h, int simulated, const struct hm_node_topologies *topo,
		       int one_per_host, struct hm_placement *pl);

/* Launch 'program' (its words) as the ranks of 'pl', each line of its
 * output to on_line(ctx); 'what' names it in messages. Where the launcher
 * binds by one CPU list for every host and the hosts need different ones,
 * each rank binds itself through hetmap-probe, as 'run' does. An exit
 * code, after a message when it is not HM_EXIT_OK. */
int hm_bench_launch(const struct hm_bench_site *ls, const struct hm_placement *pl, const struct hm_argv *program,
		    const char *what, void (*on_line)(const char *, void *), void *ctx);

#endif /* HM_BENCH_LAUNCH_H */

/* mapper/calibrate/pipeline.h - 'hetmap calibrate' as one pipeline of
 * stages run in order, each a function of its own over one state
 * (mapper/calibrate/README.md maps every stage to its code, here, in
 * wrappers/ and in models/platform/):
 *
 *   hosts     the processors to measure: --hosts, a hostfile, the Slurm
 *             allocation, this machine, or a simulator's platform
 *   site      one launch directory for every launch (a simulator's platform)
 *   topology  each host's cores as hwloc sees them there, the list trimmed
 *   measure   hetmap-calibrate-bench on every processor at once
 *   fit       kernels, types and links into a platform, topologies recorded
 *   trust     how far each type can be trusted, said on standard error
 *   write     the platform, or kept aside when in doubt
 *
 * The first stage that fails ends it, with its exit code; whatever the
 * stages made is released, and the launch directory removed. */
#ifndef HM_CALIBRATION_PIPELINE_H
#define HM_CALIBRATION_PIPELINE_H

#include "mapper/launch/launcher.h"

struct hm_calibration_setup {
	const struct hm_launcher *l;    /* checked: 'run' drives it */
	const char *mpirun;             /* the launcher program found */
	int launcher_major;             /* Open MPI 4 or 5: their syntax differs */
	const char *hosts, *hostfile;   /* --hosts, --hostfile: NULL for the defaults */
	const char *out, *name, *block_sizes, *bench;
	const char *platform, *host_speed_text;        /* simulators */
	int rows, repeat, link_rounds;
	int thread_rows;        /* rows of the kernels timed with threads (0: the bench's 4 x rows) */
	double tolerance, timeout, min_time;
	int split;              /* one processor per rank, not per node */
	int all_busy_only;      /* no busy-cores scale (no alone phase) */
	int no_shapes;          /* no kernel models for the simulator (no shapes phase) */
	int smt;                /* a process per hardware thread, not per core */
	const char *threads;    /* --threads: BLAS thread counts to time ranks of ("2,4"), or NULL */
	int no_topology;        /* do not read the nodes' topologies (core j is CPU j) */
	int accept_unreliable;  /* write the platform even when calibration_trust.h doubts it */
};

/* Run every stage; 'extra' the user's launcher options. An exit code
 * (mapper/launch/exit_code.h), after a message when it is not HM_EXIT_OK. */
int hm_calibrate(const struct hm_calibration_setup *cs, char **extra, int nextra);

/* The stages, one line each ("  name      what it does"), into buf (the
 * help's, from the table that runs them). */
const char *hm_calibration_stage_list(char *buf, int size);

#endif /* HM_CALIBRATION_PIPELINE_H */

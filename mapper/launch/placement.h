/* mapper/launch/placement.h - what a launcher needs from a plan: the routine and
 * its parameters, and for every rank the host and core slot it must run on.
 *
 * Rank order: processors in platform order, d_i consecutive ranks each;
 * BLACS row-major then puts rank k at grid position (k / c, k mod c). A
 * processor's slot is the first core it owns on its host: the cores of the
 * processors listed before it on that host come first. */
#ifndef HM_PLACEMENT_H
#define HM_PLACEMENT_H

#include <cJSON.h>
#include "models/util/error.h"
#include "plan.h"
#include "models/platform/topology.h"

struct hm_rank_place {
	const char *processor;  /* point into the placement's strings */
	const char *host;
	int host_id;            /* 0 .. nr_hosts - 1, one per distinct host name
				 * (hm_placement_number_hosts) */
	int slot, cores;        /* cores slot .. slot + cores - 1 of host */
	int threads;            /* BLAS threads of each of the processor's ranks, >= 1:
				 * a rank holds cores core .. core + threads - 1 */
	int stacked;            /* processes on this processor */
	int core;               /* the (first) core this rank is bound to: the j-th rank
				 * of its processor gets the (j mod cores / threads)-th
				 * group of 'threads' cores in socket-round-robin order
				 * (hm_spread_core), so ranks spread over the sockets
				 * and share cores only when they outnumber them */
	int sockets;            /* the cores are numbered socket by socket, cores / sockets each */
	int cpu;                /* the OS CPU number of 'core' (its first hardware
				 * thread): what Slurm, MPICH and Intel MPI bind by
				 * (hm_rank_cpus: all the rank's cores) */
	const struct hm_topology *topology;     /* the processor's cores as CPUs, or
						 * NULL: 'cpu' is 'core' */
};

struct hm_placement {
	char routine[8];        /* "lu" / "gemm" */
	long n;
	int D, r, c, b;
	double predicted;       /* s, the model's time */
	char method[32];
	int oversubscribed;     /* some processor holds more processes than cores */
	int column_major;       /* ranks fill the grid column by column (k at k mod r, k / r) */
	int threads_as_cores;   /* the plan's cores are hardware threads (calibrate --smt) */
	struct hm_rank_place *ranks;    /* D entries */
	int nr_hosts;
	cJSON *owner;           /* the plan document: what plan.json and the record
				 * say; a plan read from it points its strings into it */
	char *names;            /* the processors' and hosts' names, for a placement
				 * made from a search result */
	struct hm_topology *topologies; /* one per process entry, those the ranks point to */
	int nr_topologies;
};

/* From a search result, straight from the platform: the placement its
 * plan document (hm_plan_json, kept as 'owner' for plan.json and the
 * record) gives when read back (tests/test_launch.c holds the two ways to
 * one result). Names and topologies are copied: the platform may go
 * first. 0, or -1 with 'err' set. */
int hm_placement_from_result(struct hm_placement *pl, const struct hm_plan_inputs *in,
			     const struct hm_result *res, struct hm_error *err);

/* From a plan document (hm_plan_json's output, e.g. read from a file named
 * 'source'). Every field is validated. 0, or -1 with 'err' set. */
int hm_placement_from_plan(struct hm_placement *pl, const cJSON *plan,
			   const char *source, struct hm_error *err);

/* Number the distinct hosts of the ranks (host_id, nr_hosts), so that
 * what goes by host (a launcher's per-host lists, the allocation's check)
 * indexes instead of comparing names: O(D log D) once, then O(D). Done by
 * the loaders; call it after building 'ranks' by hand. 0, or -1 when out
 * of memory. */
int hm_placement_number_hosts(struct hm_placement *pl);

/* Read a plan JSON file. 0, or -1 with 'err' set. */
int hm_placement_load(struct hm_placement *pl, const char *path, struct hm_error *err);

/* Reorder the ranks for a program whose BLACS grid is column-major: the
 * process at grid position (i, j) becomes rank i + j r instead of
 * i c + j, so every grid position keeps its planned processor.
 * 0, or -1 when out of memory (the placement unchanged). */
int hm_placement_column_major(struct hm_placement *pl);

void hm_placement_release(struct hm_placement *pl);

/* The core, counted from the processor's first, of its q-th rank (q <
 * cores): socket q mod sockets, its (q / sockets)-th core. With one
 * socket: q. Consecutive ranks land on different sockets, so a processor
 * using half its cores uses half of every socket's memory bandwidth. */
static inline int hm_spread_core(int q, int cores, int sockets)
{
	return (q % sockets) * (cores / sockets) + q / sockets;
}

/* The BLAS threads of every rank when they all have the same count (1
 * for none), else 0. */
int hm_placement_threads(const struct hm_placement *pl);

/* The most CPUs one rank is bound to: its cores' hardware threads. */
#define HM_MAX_RANK_CPUS 4096

/* The OS CPUs of rank r's cores (its 'threads' cores from 'core'), into
 * cpus[] (at most 'max'): their hardware threads as the topology gives
 * them, else CPUs cpu .. cpu + threads - 1. Returns how many. */
static inline int hm_rank_cpus(const struct hm_rank_place *r, int *cpus, int max)
{
	const struct hm_topology *t = r->topology;
	int own = r->core - r->slot, n = 0;

	if (!t) {
		for (; n < r->threads && n < max; n++)
			cpus[n] = r->cpu + n;
		return n;
	}
	for (int i = t->first[own]; i < t->first[own + r->threads] && n < max; i++)
		cpus[n++] = t->cpus[i];
	return n;
}

#endif /* HM_PLACEMENT_H */

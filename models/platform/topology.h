/* models/platform/topology.h - which CPUs a processor's cores are, as hwloc
 * reported them on its node (wrappers/node_topology.c; models/platform/
 * README.md, "Topology").
 *
 * A processor's cores are numbered 0 .. cores-1 from its first, in hwloc's
 * logical order (package by package): the numbers Open MPI's rankfile
 * takes, offset by the processor's slot on its host. The per-thread
 * launchers (Slurm's map_cpu, MPICH's -bind-to user:, Intel MPI's pinning
 * list) take the operating system's CPU numbers instead, which on many
 * two-socket nodes alternate between the sockets: core_cpus gives them.
 * Without a topology, the two numberings are taken to be the same. */
#ifndef HM_TOPOLOGY_H
#define HM_TOPOLOGY_H

#include "models/util/error.h"

struct cJSON;   /* platform.h includes this header without cJSON */

#define HM_MAX_CPU_ID (1 << 20)         /* an OS CPU number is below this */
#define HM_MAX_THREADS_PER_CORE 64

struct hm_topology {
	int cores;              /* entries of core_cpus */
	int *first;             /* cores + 1 offsets into cpus: core j's CPUs are
				 * cpus[first[j]] .. cpus[first[j + 1] - 1] */
	int *cpus;              /* OS numbers of each core's hardware threads */
	int numa_nodes;         /* 0: not reported */
	int threads_per_core;   /* the node's, 0: not reported */
	int threads_as_cores;   /* each hardware thread counts as a core (calibrate --smt):
				 * Open MPI then numbers hardware threads, not cores */
	char *allowed;          /* the node's allowed CPUs as hwloc lists them, or NULL */
};

/* Read a "topology" object of a processor of 'cores' cores at JSON 'path':
 * {"core_cpus": [[0, 8], [2, 10], ...], "numa_nodes": N, "threads_per_core":
 * T, "threads_as_cores": B, "allowed": "0-15"}, core_cpus required with one
 * non-empty list per core, no CPU twice. 0, or -1 with 'err' set (and *t
 * empty). */
int hm_topology_read(const struct cJSON *obj, const char *path, int cores, struct hm_topology *t,
		     struct hm_error *err);

/* Only core_cpus, as read from a plan's process entry (the rest stays 0). */
int hm_topology_read_core_cpus(const struct cJSON *list, const char *path, int cores, struct hm_topology *t,
			       struct hm_error *err);

/* Only core_cpus and threads_as_cores of 'from' into *to, as a plan
 * carries them. 0, or -1 when out of memory (*to empty). */
int hm_topology_copy_core_cpus(struct hm_topology *to, const struct hm_topology *from);

/* {"core_cpus": ..., ...}: what hm_topology_read reads (NULL when out of memory). */
struct cJSON *hm_topology_json(const struct hm_topology *t);
/* The [[...], ...] of core_cpus alone. */
struct cJSON *hm_topology_core_cpus_json(const struct hm_topology *t);

/* The first OS CPU of core j: the one a per-thread launcher binds to. */
static inline int hm_topology_cpu(const struct hm_topology *t, int j)
{
	return t->cpus[t->first[j]];
}

void hm_topology_release(struct hm_topology *t);

#endif /* HM_TOPOLOGY_H */

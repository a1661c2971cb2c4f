/* mapper/calibrate/node_topologies.h - the nodes' topologies that calibrate reads
 * through the launcher (hetmap-topology, one process per host:
 * wrappers/node_topology.c), and what a processor gets of its node's. */
#ifndef HM_NODE_TOPOLOGIES_H
#define HM_NODE_TOPOLOGIES_H

#include <cJSON.h>
#include "models/platform/topology.h"

struct hm_node_topology {
	int seen;                       /* its line arrived, and was read */
	char refused[240];              /* why a line that arrived was not, or "" */
	struct hm_topology cores;       /* all cores the node allows, in hwloc's order */
	int *package;                   /* each core's package (logical index) */
	int packages;                   /* the node's */
};

struct hm_node_topologies {
	struct hm_node_topology *node;  /* one per host, by the rank that read it */
	int n;
	int threads_as_cores;           /* what was asked of hetmap-topology */
};

/* 0, or -1 when out of memory. */
int hm_node_topologies_init(struct hm_node_topologies *t, int hosts, int threads_as_cores);
void hm_node_topologies_release(struct hm_node_topologies *t);

/* A line callback for the launcher's output (ctx: the topologies): takes
 * "hetmap-topology {...}" lines, perhaps after a launcher's tag; a line
 * that is not JSON leaves its host unseen; one whose values the platform
 * loader would refuse too, with the reason in 'refused'. */
void hm_node_topology_line(const char *line, void *ctx);

/* The measured hosts, as calibrate lists them: rank r of the benchmark
 * ran on hosts[r], the node_index[r]-th host (the topologies' index). */
struct hm_host_ranks {
	const char *const *hosts;
	const int *node_index;
	int n;
};

/* Into each processor of a platform document (its "host" and "cores",
 * processors of one host taking its cores in turn, as plans do): its
 * "topology" and, when its cores fill two or more packages evenly,
 * "sockets". 0, or -1 when out of memory or a processor's cores are not
 * its node's. */
int hm_node_topologies_record(const struct hm_node_topologies *t, cJSON *platform,
			      const struct hm_host_ranks *hr);

/* One line per kind of node on standard error: packages, cores, threads,
 * NUMA nodes, allowed CPUs, how many hosts and the first of them. */
void hm_node_topologies_describe(const struct hm_node_topologies *t, const struct hm_host_ranks *hr);

#endif /* HM_NODE_TOPOLOGIES_H */

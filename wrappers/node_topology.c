/* wrappers/node_topology.c - hetmap-topology: what cores this node gives
 * its processes, as hwloc sees them. Started by 'hetmap calibrate'
 * through the launcher, one process per host, it prints one line
 *
 *   hetmap-topology {"rank":K,"host":"H","packages":2,"numa_nodes":2,
 *     "threads_per_core":2,"allowed":"0-15","core_cpus":[[0,8],[2,10],...],
 *     "core_package":[0,0,...]}
 *
 * core_cpus lists the cores this process may use (hwloc's allowed
 * cpuset: what a cgroup or the batch system leaves it), in hwloc's
 * logical order, which goes package by package; each core is the
 * operating system's numbers of its allowed hardware threads (PUs).
 * Position j in that list is the core's hwloc logical index: Open MPI's
 * rankfile names cores by it, while Slurm's map_cpu, MPICH's
 * -bind-to user: and Intel MPI's pinning list name OS numbers
 * (mapper/README.md, "Launchers"). core_package gives each core's package
 * by its logical index.
 *
 *   --smt   every hardware thread counts as a core of its own (the user
 *           wants a process per thread)
 *
 * hwloc reads the machine, or the node that HETMAP_TOPOLOGY describes: an
 * hwloc XML file (lstopo node.xml) when it names a readable file, else a
 * synthetic description ("pack:2 core:4 pu:2"). Read by this program only
 * (unlike HWLOC_XMLFILE, which the MPI library in every rank would read
 * too), it describes a node hwloc cannot read, and gives the tests two
 * interleaved sockets or reserved cores. The rank and host name come
 * from rank_identity.h (rank 0 outside a launcher). Exit 0, or 1 when hwloc cannot read the topology, 2 on a bad
 * option. */
#include <hwloc.h>
#include "rank_identity.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The package that holds obj, by logical index; 0 without packages. */
static unsigned package_of(hwloc_topology_t topo, hwloc_obj_t obj)
{
	hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_PACKAGE, obj);

	return pkg ? pkg->logical_index : 0;
}

/* The cores: Core objects, or the PUs themselves with --smt or where the
 * operating system reports no cores. */
static hwloc_obj_type_t core_type(hwloc_topology_t topo, int smt)
{
	return smt || hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) == 0 ? HWLOC_OBJ_PU : HWLOC_OBJ_CORE;
}

static void print_cores(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(topo, type);

	printf("\"core_cpus\":[");
	for (int i = 0; i < n; i++) {
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, type, (unsigned)i);
		unsigned pu;
		int first = 1;

		printf("%s[", i ? "," : "");
		hwloc_bitmap_foreach_begin(pu, core->cpuset) {
			printf("%s%u", first ? "" : ",", pu);
			first = 0;
		} hwloc_bitmap_foreach_end();
		printf("]");
	}
	printf("],\"core_package\":[");
	for (int i = 0; i < n; i++)
		printf("%s%u", i ? "," : "", package_of(topo, hwloc_get_obj_by_type(topo, type, (unsigned)i)));
	printf("]");
}

/* The most PUs one core holds. */
static int threads_per_core(hwloc_topology_t topo, hwloc_obj_type_t type)
{
	int most = 1;

	for (unsigned i = 0; type == HWLOC_OBJ_CORE && i < (unsigned)hwloc_get_nbobjs_by_type(topo, type); i++) {
		int w = hwloc_bitmap_weight(hwloc_get_obj_by_type(topo, type, i)->cpuset);

		most = w > most ? w : most;
	}
	return most;
}

/* A synthetic description's PUs: the product of its levels' counts
 * ("pack:2 core:8 pu:2" has 32), capped past 'cap'. */
static long synthetic_pus(const char *d, long cap)
{
	long pus = 1;

	for (const char *s = strchr(d, ':'); s && pus <= cap; s = strchr(s + 1, ':')) {
		long count = strtol(s + 1, NULL, 10);

		pus *= count > 0 ? count : 1;
	}
	return pus;
}

/* hwloc loads a synthetic topology in time that grows with the square of
 * its PUs (10000: 0.3 s, 40000: 4 s here); real nodes have far fewer */
#define MAX_SYNTHETIC_PUS 16384

/* The node HETMAP_TOPOLOGY describes, if set: 0, or -1 when hwloc refuses it. */
static int described(hwloc_topology_t topo)
{
	const char *d = getenv("HETMAP_TOPOLOGY");

	if (!d || !*d)
		return 0;
	if (access(d, R_OK) == 0)
		return hwloc_topology_set_xml(topo, d);
	if (synthetic_pus(d, MAX_SYNTHETIC_PUS) > MAX_SYNTHETIC_PUS) {
		fprintf(stderr, "hetmap-topology: HETMAP_TOPOLOGY describes more than %d hardware threads\n",
			MAX_SYNTHETIC_PUS);
		return -1;
	}
	return hwloc_topology_set_synthetic(topo, d);
}

int main(int argc, char **argv)
{
	hwloc_topology_t topo;
	hwloc_obj_type_t type;
	char host[256], *allowed = NULL;
	const char *rank = hm_rank_of_process();
	int smt = argc == 2 && !strcmp(argv[1], "--smt");

	if (argc > 2 || (argc == 2 && !smt)) {
		fprintf(stderr, "usage: hetmap-topology [--smt]\n");
		return 2;
	}
	if (hwloc_topology_init(&topo) || described(topo) || hwloc_topology_load(topo)) {
		fprintf(stderr, "hetmap-topology: hwloc cannot read %s\n",
			getenv("HETMAP_TOPOLOGY") ? "HETMAP_TOPOLOGY" : "this node's topology");
		return 1;
	}
	hm_host_of_process(host, sizeof(host));
	type = core_type(topo, smt);
	if (hwloc_bitmap_list_asprintf(&allowed, hwloc_topology_get_allowed_cpuset(topo)) < 0) {
		fprintf(stderr, "hetmap-topology: out of memory\n");
		hwloc_topology_destroy(topo);
		return 1;
	}
	printf("hetmap-topology {\"rank\":%s,\"host\":\"%s\",\"packages\":%d,\"numa_nodes\":%d,"
	       "\"threads_per_core\":%d,\"allowed\":\"%s\",", rank ? rank : "0", host,
	       hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE), hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE),
	       threads_per_core(topo, type), allowed);
	print_cores(topo, type);
	printf("}\n");
	free(allowed);
	hwloc_topology_destroy(topo);
	return fflush(stdout) ? 1 : 0;
}

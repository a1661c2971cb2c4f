/* mapper/calibrate/node_topologies.c - see node_topologies.h. */
#include "node_topologies.h"
#include "models/util/json_read.h"
#include "models/util/say.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hm_node_topologies_init(struct hm_node_topologies *t, int hosts, int threads_as_cores)
{
	t->n = hosts;
	t->threads_as_cores = threads_as_cores;
	t->node = calloc((size_t)hosts, sizeof(*t->node));
	return t->node ? 0 : -1;
}

void hm_node_topologies_release(struct hm_node_topologies *t)
{
	for (int i = 0; t->node && i < t->n; i++) {
		hm_topology_release(&t->node[i].cores);
		free(t->node[i].package);
	}
	free(t->node);
	t->node = NULL;
}

/* The packages of the cores, checked against their number. */
static int read_packages(const cJSON *list, struct hm_node_topology *nt, struct hm_error *err)
{
	const cJSON *e;
	int j = 0;

	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != nt->cores.cores)
		return hm_error_set(err, "core_package: expected one package per core (%d)", nt->cores.cores);
	if (!(nt->package = calloc((size_t)nt->cores.cores, sizeof(int))))
		return hm_error_set(err, "out of memory");
	cJSON_ArrayForEach(e, list) {
		long v;

		if (hm_json_int(e, "core_package[]", 0, HM_MAX_CPU_ID, &v, err))
			return -1;
		nt->package[j++] = (int)v;
	}
	return 0;
}

/* A node's line, read by the platform loader's own reader of a topology
 * (topology.h), so that every value calibrate keeps is one the platform
 * it writes will load with. 0, or -1 with 'err' set. */
static int read_node(const cJSON *doc, struct hm_node_topology *nt, int threads_as_cores,
		     struct hm_error *err)
{
	static const char *const topology_keys[] = { "core_cpus", "numa_nodes", "threads_per_core",
						     "allowed", NULL };
	const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(doc, "core_cpus");
	cJSON *topo = cJSON_CreateObject();
	long packages = 1;
	int n = cJSON_GetArraySize(cpus), ret;

	if (!topo)
		return hm_error_set(err, "out of memory");
	for (int k = 0; topology_keys[k]; k++) {
		cJSON *item = cJSON_GetObjectItemCaseSensitive(doc, topology_keys[k]);

		if (item)
			cJSON_AddItemReferenceToObject(topo, topology_keys[k], item);
	}
	if (!cJSON_IsArray(cpus) || n < 1 || n > HM_MAX_CPU_ID)
		ret = hm_error_set(err, "core_cpus: expected a list of 1 to %d cores", HM_MAX_CPU_ID);
	else
		ret = hm_topology_read(topo, "", n, &nt->cores, err);
	cJSON_Delete(topo);     /* references only: doc keeps its items */
	if (ret || read_packages(cJSON_GetObjectItemCaseSensitive(doc, "core_package"), nt, err) ||
	    hm_json_member_int(doc, "", "packages", 0, 1, n, &packages, err))
		return -1;
	nt->packages = (int)packages;
	nt->cores.threads_as_cores = threads_as_cores;
	nt->seen = 1;
	return 0;
}

/* The node as before its line came. */
static void forget_node(struct hm_node_topology *nt)
{
	hm_topology_release(&nt->cores);
	free(nt->package);
	memset(nt, 0, sizeof(*nt));
}

void hm_node_topology_line(const char *line, void *ctx)
{
	struct hm_node_topologies *t = ctx;
	const char *at = strstr(line, "hetmap-topology {");
	const cJSON *rank;
	cJSON *doc;

	if (!at || !(doc = cJSON_Parse(at + strlen("hetmap-topology "))))
		return;
	rank = cJSON_GetObjectItemCaseSensitive(doc, "rank");
	if (cJSON_IsNumber(rank) && rank->valuedouble == rank->valueint && rank->valueint >= 0 &&
	    rank->valueint < t->n && !t->node[rank->valueint].seen) {
		struct hm_node_topology *nt = &t->node[rank->valueint];
		struct hm_error err;

		hm_error_clear(&err);
		forget_node(nt);
		if (read_node(doc, nt, t->threads_as_cores, &err)) {
			forget_node(nt);
			hm_error_format(&err, nt->refused, (int)sizeof(nt->refused));
		}
	}
	cJSON_Delete(doc);
}

/* The packages that cores first .. first + n - 1 fill evenly, one after
 * the other; 1 when they do not. */
static int even_packages(const int *package, int n)
{
	int runs = 1, run = 1, length = 0;

	for (int j = 1; j <= n; j++) {
		if (j < n && package[j] == package[j - 1]) {
			run++;
			continue;
		}
		if (length && run != length)
			return 1;
		length = run, run = 1;
		runs += j < n;
	}
	return runs;
}

/* The "topology" of a processor holding cores first .. first + n - 1 of
 * its node (NULL when out of memory); *sockets gets the packages those
 * cores fill evenly, package by package, else 1. */
static cJSON *hm_node_topology_slice(const struct hm_node_topology *t, int first, int n, int *sockets)
{
	/* a view: first[] holds offsets into the node's cpus[] */
	struct hm_topology part = t->cores;

	part.cores = n;
	part.first = t->cores.first + first;
	*sockets = even_packages(t->package + first, n);
	return hm_topology_json(&part);
}

/* The node of 'host', searched from *from on (processors come in the
 * hosts' order, so this is one step each), or -1. */
static int node_of(const struct hm_host_ranks *hr, const char *host, int *from)
{
	for (int k = 0; k < hr->n; k++) {
		int r = (*from + k) % hr->n;

		if (!strcmp(hr->hosts[r], host)) {
			*from = r;
			return hr->node_index[r];
		}
	}
	return -1;
}

int hm_node_topologies_record(const struct hm_node_topologies *t, cJSON *platform,
			      const struct hm_host_ranks *hr)
{
	const cJSON *procs = cJSON_GetObjectItemCaseSensitive(platform, "processors");
	int *next = calloc((size_t)t->n, sizeof(int)), from = 0, ret = 0;
	cJSON *e;

	if (!next)
		return -1;
	cJSON_ArrayForEach(e, procs) {
		const cJSON *host = cJSON_GetObjectItemCaseSensitive(e, "host");
		const cJSON *cores = cJSON_GetObjectItemCaseSensitive(e, "cores");
		int node = cJSON_IsString(host) ? node_of(hr, host->valuestring, &from) : -1, sockets;
		cJSON *topo;

		if (node < 0 || !t->node[node].seen || !cJSON_IsNumber(cores) || cores->valueint < 1 ||
		    next[node] + cores->valueint > t->node[node].cores.cores ||
		    !(topo = hm_node_topology_slice(&t->node[node], next[node], cores->valueint, &sockets))) {
			ret = -1;
			break;
		}
		next[node] += cores->valueint;
		cJSON_AddItemToObject(e, "topology", topo);
		if (sockets > 1)
			cJSON_AddNumberToObject(e, "sockets", sockets);
	}
	free(next);
	return ret;
}

/* What tells nodes apart in the description. */
static int same_kind(const struct hm_node_topology *a, const struct hm_node_topology *b)
{
	return a->seen && b->seen && a->packages == b->packages && a->cores.cores == b->cores.cores &&
	       a->cores.threads_per_core == b->cores.threads_per_core &&
	       a->cores.numa_nodes == b->cores.numa_nodes &&
	       !strcmp(a->cores.allowed ? a->cores.allowed : "", b->cores.allowed ? b->cores.allowed : "");
}

void hm_node_topologies_describe(const struct hm_node_topologies *t, const struct hm_host_ranks *hr)
{
	const char **name = calloc((size_t)t->n, sizeof(char *));

	if (!name)
		return;
	for (int r = hr->n - 1; r >= 0; r--)     /* each node's host */
		name[hr->node_index[r]] = hr->hosts[r];
	for (int i = 0; i < t->n; i++) {
		const struct hm_node_topology *nt = &t->node[i];
		int like = 0, seen_before = 0;

		for (int j = 0; j < i && !seen_before; j++)
			seen_before = same_kind(&t->node[j], nt);
		for (int j = i + 1; j < t->n && !seen_before; j++)
			like += same_kind(&t->node[j], nt);
		if (seen_before || !nt->seen)
			continue;
		hm_say_note("calibrate: hwloc on %s%s%.0d%s: %d package%s, %d %s%s", name[i] ? name[i] : "?",
			like ? " and " : "", like, like ? " more" : "", nt->packages, nt->packages == 1 ? "" : "s",
			nt->cores.cores, t->threads_as_cores ? "hardware thread" : "core",
			nt->cores.cores == 1 ? "" : "s");
		if (nt->cores.threads_per_core > 1)
			hm_say_note(" (%d threads each)", nt->cores.threads_per_core);
		hm_say_note(", %d NUMA node%s, CPUs %s allowed\n", nt->cores.numa_nodes,
			nt->cores.numa_nodes == 1 ? "" : "s", nt->cores.allowed ? nt->cores.allowed : "?");
	}
	free(name);
}

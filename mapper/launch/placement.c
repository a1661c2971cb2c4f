/* mapper/launch/placement.c - placements from plan documents and from
 * search results (see placement.h). Both ways in end in the same two
 * steps, each rank placed (place_rank) and the hosts numbered, so a plan
 * file launches exactly like a fresh plan; JSON is read only at the file
 * boundary. */
#include "placement.h"
#include "plan.h"
#include "models/util/json_read.h"
#include "models/platform/hostname.h"
#include "search/problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the deepest configuration a search gives (search/problem.h) */
#define MAX_PROCESSES ((long)HM_MAX_DEPTH)
#define MAX_ENTRY_KEYS 64      /* keys of one object of a plan */
#define MAX_PLAN_BYTES ((size_t)64 << 20)   /* 100000 ranks take ~5 MB */

void hm_placement_release(struct hm_placement *pl)
{
	for (int i = 0; i < pl->nr_topologies; i++)
		hm_topology_release(&pl->topologies[i]);
	free(pl->topologies);
	free(pl->ranks);
	free(pl->names);
	cJSON_Delete(pl->owner);
	memset(pl, 0, sizeof(*pl));
}

static const cJSON *member(const cJSON *obj, const char *key, const char *path,
			   struct hm_error *err)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!it)
		hm_error_at(err, path, "missing key '%s'", key);
	return it;
}

static int load_inputs(struct hm_placement *pl, const cJSON *inputs, struct hm_error *err)
{
	const cJSON *routine;
	const char *name;

	if (hm_json_check_keys(inputs, "inputs", (const char *const[]){ NULL }, MAX_ENTRY_KEYS, err))
		return -1;
	if (!(routine = member(inputs, "routine", "inputs", err)) ||
	    hm_json_name(routine, "inputs.routine", &name, err))
		return -1;
	if (strcmp(name, "lu") && strcmp(name, "gemm"))
		return hm_error_at(err, "inputs.routine", "must be \"lu\" or \"gemm\"");
	snprintf(pl->routine, sizeof(pl->routine), "%s", name);
	return hm_json_member_int(inputs, "inputs", "n", 1, 1, 10000000, &pl->n, err);
}

static int load_decision(struct hm_placement *pl, const cJSON *plan, struct hm_error *err)
{
	const cJSON *it;
	const char *method;
	long D, r, c, b;

	if (hm_json_check_keys(plan, "plan", (const char *const[]){ NULL }, MAX_ENTRY_KEYS, err))
		return -1;
	if (!(it = member(plan, "found", "plan", err)))
		return -1;
	if (!cJSON_IsTrue(it))
		return hm_error_at(err, "plan.found", "the plan holds no configuration");
	if (!(it = member(plan, "method", "plan", err)) || hm_json_name(it, "plan.method", &method, err))
		return -1;
	snprintf(pl->method, sizeof(pl->method), "%s", method);
	if (hm_json_member_int(plan, "plan", "D", 1, 1, MAX_PROCESSES, &D, err) ||
	    hm_json_member_int(plan, "plan", "r", 1, 1, MAX_PROCESSES, &r, err) ||
	    hm_json_member_int(plan, "plan", "c", 1, 1, MAX_PROCESSES, &c, err) ||
	    hm_json_member_int(plan, "plan", "b", 1, 1, pl->n, &b, err))
		return -1;
	if (r * c != D)
		return hm_error_at(err, "plan", "grid %ld x %ld does not hold D = %ld processes", r, c, D);
	pl->D = (int)D, pl->r = (int)r, pl->c = (int)c, pl->b = (int)b;
	it = cJSON_GetObjectItemCaseSensitive(plan, "predicted");
	it = cJSON_GetObjectItemCaseSensitive(it, "total_s");
	pl->predicted = cJSON_IsNumber(it) ? it->valuedouble : 0;
	return 0;
}

/* Whether the job's cores are hardware threads, from its first process
 * entry (first); a later entry must agree. 0, or -1 with 'err' set. */
static int set_threads_as_cores(struct hm_placement *pl, int first, int as_cores, const char *where,
				struct hm_error *err)
{
	if (!first && pl->threads_as_cores != as_cores)
		return hm_error_at(err, where, "processes on cores and on hardware threads "
				   "('threads_as_cores') cannot be launched together");
	pl->threads_as_cores = as_cores;
	return 0;
}

/* Rank k as the q-th rank of its processor 'proc': on the group of
 * 'threads' consecutive cores hm_spread_core picks among the processor's
 * groups (inside one socket where the socket's cores divide into such
 * groups), and its first core's first CPU. */
static void place_rank(struct hm_placement *pl, int k, const struct hm_rank_place *proc, int q)
{
	int t = proc->threads, groups = proc->cores / t;
	int sockets = (proc->cores / proc->sockets) % t ? 1 : proc->sockets;
	int own = t * hm_spread_core(q % groups, groups, sockets);

	pl->ranks[k] = *proc;
	pl->ranks[k].core = proc->slot + own;
	pl->ranks[k].cpu = proc->topology ? hm_topology_cpu(proc->topology, own) : proc->slot + own;
	if (proc->stacked > groups)
		pl->oversubscribed = 1;
}

/* An entry's core_cpus (and threads_as_cores), when given, into topo;
 * 'first': the plan's first entry, which sets whether Open MPI numbers
 * cores or hardware threads, for the whole job. */
static int load_core_cpus(struct hm_placement *pl, const cJSON *e, const char *where, int cores, int first,
			  struct hm_topology *topo, struct hm_error *err)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(e, "core_cpus");
	const cJSON *as_cores = cJSON_GetObjectItemCaseSensitive(e, "threads_as_cores");
	char sub[96];

	if (as_cores && !cJSON_IsBool(as_cores))
		return hm_error_at(err, where, "'threads_as_cores' must be true or false");
	if (as_cores && !list)
		return hm_error_at(err, where, "'threads_as_cores' without 'core_cpus'");
	if (set_threads_as_cores(pl, first, cJSON_IsTrue(as_cores), where, err))
		return -1;
	if (!list)
		return 0;
	snprintf(sub, sizeof(sub), "%s.core_cpus", where);
	if (hm_topology_read_core_cpus(list, sub, cores, topo, err))
		return -1;
	topo->threads_as_cores = pl->threads_as_cores;
	return 0;
}

/* plan.processes: one entry per used processor. Fills 'procs' (an array
 * of the same length) with processor, host, slot, cores, count and the
 * cores' CPUs (pl->topologies). */
static int load_processes(struct hm_placement *pl, const cJSON *list, struct hm_rank_place *procs,
			  int *counts, struct hm_error *err)
{
	const cJSON *e;
	int i = 0;

	cJSON_ArrayForEach(e, list) {
		char where[64];
		const cJSON *it;
		long count, slot, cores, sockets = 1, threads = 1;

		snprintf(where, sizeof(where), "plan.processes[%d]", i);
		if (hm_json_check_keys(e, where, (const char *const[]){ NULL }, MAX_ENTRY_KEYS, err) ||
		    !(it = member(e, "processor", where, err)) ||
		    hm_json_name(it, where, &procs[i].processor, err) ||
		    !(it = member(e, "host", where, err)) ||
		    hm_json_name(it, where, &procs[i].host, err) ||
		    hm_check_hostname(procs[i].host, where, err) ||
		    hm_json_member_int(e, where, "count", 1, 1, MAX_PROCESSES, &count, err) ||
		    hm_json_member_int(e, where, "slot", 1, 0, 1000000, &slot, err) ||
		    hm_json_member_int(e, where, "cores", 1, 1, 1000000, &cores, err) ||
		    hm_json_member_int(e, where, "sockets", 0, 1, 1000000, &sockets, err) ||
		    hm_json_member_int(e, where, "threads", 0, 1, 1000000, &threads, err))
			return -1;
		if (cores % sockets)
			return hm_error_at(err, where, "%ld sockets do not divide the %ld cores", sockets, cores);
		if (threads > 1 && count * threads > cores)
			return hm_error_at(err, where, "%ld processes of %ld threads on %ld cores (ranks of threads "
					   "never share cores)", count, threads, cores);
		if (load_core_cpus(pl, e, where, (int)cores, i == 0, &pl->topologies[i], err))
			return -1;
		pl->nr_topologies = i + 1;
		procs[i].topology = pl->topologies[i].cores ? &pl->topologies[i] : NULL;
		procs[i].slot = (int)slot;
		procs[i].cores = (int)cores;
		procs[i].sockets = (int)sockets;
		procs[i].threads = (int)threads;
		procs[i].stacked = (int)count;
		counts[i] = (int)count;
		i++;
	}
	return 0;
}

/* The processes sorted by name (index order), so that a duplicate shows
 * and every rank finds its processor in O(log n): plans of 100000 ranks
 * load in milliseconds. */
static const struct hm_rank_place *sort_base;

static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(sort_base[*(const int *)a].processor, sort_base[*(const int *)b].processor);
}

static int find_process(const struct hm_rank_place *procs, const int *order, int n, const char *name)
{
	int lo = 0, hi = n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(procs[order[mid]].processor, name);

		if (!c)
			return order[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

static int cmp_by_host(const void *a, const void *b)
{
	return strcmp(sort_base[*(const int *)a].host, sort_base[*(const int *)b].host);
}

int hm_placement_number_hosts(struct hm_placement *pl)
{
	int *order = malloc((size_t)pl->D * sizeof(int));

	if (!order)
		return -1;
	for (int k = 0; k < pl->D; k++)
		order[k] = k;
	sort_base = pl->ranks;
	qsort(order, (size_t)pl->D, sizeof(int), cmp_by_host);
	pl->nr_hosts = 0;
	for (int k = 0; k < pl->D; k++) {
		if (k > 0 && strcmp(pl->ranks[order[k]].host, pl->ranks[order[k - 1]].host))
			pl->nr_hosts++;
		pl->ranks[order[k]].host_id = pl->nr_hosts;
	}
	pl->nr_hosts += pl->D > 0;
	free(order);
	return 0;
}

/* plan.ranks: the processor of every rank, each processor holding exactly
 * its count of ranks. */
static int load_ranks(struct hm_placement *pl, const cJSON *ranks, struct hm_rank_place *procs,
		      int *left, int nprocs, struct hm_error *err)
{
	const cJSON *e;
	int *order = malloc((size_t)nprocs * sizeof(int)), k = 0, j, ret = -1;

	if (!order)
		return hm_error_set(err, "out of memory");
	for (j = 0; j < nprocs; j++)
		order[j] = j;
	sort_base = procs;
	qsort(order, (size_t)nprocs, sizeof(int), cmp_by_name);
	for (j = 1; j < nprocs; j++)
		if (!strcmp(procs[order[j]].processor, procs[order[j - 1]].processor)) {
			char where[64];

			snprintf(where, sizeof(where), "plan.processes[%d]",
				 order[j] > order[j - 1] ? order[j] : order[j - 1]);
			hm_error_at(err, where, "processor '%s' is listed twice", procs[order[j]].processor);
			goto out;
		}
	if (!cJSON_IsArray(ranks) || cJSON_GetArraySize(ranks) != pl->D) {
		hm_error_at(err, "plan.ranks", "expected an array of D = %d processor names", pl->D);
		goto out;
	}
	cJSON_ArrayForEach(e, ranks) {
		char where[64];

		snprintf(where, sizeof(where), "plan.ranks[%d]", k);
		if (!cJSON_IsString(e)) {
			hm_error_at(err, where, "expected a processor name");
			goto out;
		}
		if ((j = find_process(procs, order, nprocs, e->valuestring)) < 0) {
			hm_error_at(err, where, "processor '%s' is not in plan.processes", e->valuestring);
			goto out;
		}
		if (--left[j] < 0) {
			hm_error_at(err, where, "more ranks on '%s' than its count", e->valuestring);
			goto out;
		}
		place_rank(pl, k++, &procs[j], procs[j].stacked - 1 - left[j]);
	}
	for (j = 0; j < nprocs; j++)
		if (left[j] > 0) {
			char where[64];

			snprintf(where, sizeof(where), "plan.processes[%d].count", j);
			hm_error_at(err, where, "%d ranks on '%s' in plan.ranks, not its count %d",
				    procs[j].stacked - left[j], procs[j].processor, procs[j].stacked);
			goto out;
		}
	ret = 0;
out:
	free(order);
	return ret;
}

int hm_placement_from_plan(struct hm_placement *pl, const cJSON *doc, const char *source,
			   struct hm_error *err)
{
	const cJSON *plan, *list;
	struct hm_rank_place *procs = NULL;
	int *left = NULL, nprocs, ret = -1;
	long version;

	memset(pl, 0, sizeof(*pl));
	hm_error_clear(err);
	snprintf(err->file, sizeof(err->file), "%s", source);
	if (!cJSON_IsObject(doc))
		return hm_error_set(err, "not a plan: expected a JSON object");
	if (hm_json_check_keys(doc, "", (const char *const[]){ NULL }, MAX_ENTRY_KEYS, err))
		return -1;
	if (!member(doc, "hetmap_plan", "", err) ||
	    hm_json_int(cJSON_GetObjectItemCaseSensitive(doc, "hetmap_plan"), "hetmap_plan", 1, 1,
			&version, err) ||
	    load_inputs(pl, cJSON_GetObjectItemCaseSensitive(doc, "inputs"), err) ||
	    load_decision(pl, plan = cJSON_GetObjectItemCaseSensitive(doc, "plan"), err) ||
	    !(list = member(plan, "processes", "plan", err)))
		return -1;
	if (!cJSON_IsArray(list) || (nprocs = cJSON_GetArraySize(list)) < 1 || nprocs > pl->D)
		return hm_error_at(err, "plan.processes", "expected 1..D entries");
	procs = calloc((size_t)nprocs, sizeof(*procs));
	left = calloc((size_t)nprocs, sizeof(int));
	pl->ranks = calloc((size_t)pl->D, sizeof(*pl->ranks));
	pl->topologies = calloc((size_t)nprocs, sizeof(*pl->topologies));
	if (!procs || !left || !pl->ranks || !pl->topologies) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	if (load_processes(pl, list, procs, left, err) ||
	    load_ranks(pl, cJSON_GetObjectItemCaseSensitive(plan, "ranks"), procs, left, nprocs, err))
		goto out;
	if (hm_placement_number_hosts(pl)) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	ret = 0;
out:
	free(procs);
	free(left);
	if (ret)
		hm_placement_release(pl);
	return ret;
}

/* Keep the parsed document: the placement's strings point into it. */
static int adopt(struct hm_placement *pl, cJSON *doc, const char *source, struct hm_error *err)
{
	if (!doc)
		return hm_error_set(err, "out of memory");
	if (hm_placement_from_plan(pl, doc, source, err)) {
		cJSON_Delete(doc);
		return -1;
	}
	pl->owner = doc;
	return 0;
}

/* Processor i's entry, as a plan's process entry says it: names copied
 * to *names, its topology's core_cpus to *topo. 0, or -1 with 'err' set. */
static int result_process(struct hm_placement *pl, const struct hm_processor *pr, int count, int slot,
			  int first, char **names, struct hm_topology *topo, struct hm_rank_place *e,
			  struct hm_error *err)
{
	size_t a = strlen(pr->name) + 1, b = strlen(pr->host) + 1;

	e->processor = memcpy(*names, pr->name, a);
	e->host = memcpy(*names + a, pr->host, b);
	*names += a + b;
	e->slot = slot, e->cores = pr->cores, e->sockets = pr->sockets, e->stacked = count;
	e->topology = NULL;
	if (set_threads_as_cores(pl, first, pr->topology && pr->topology->threads_as_cores, pr->name, err))
		return -1;
	if (pr->topology) {
		if (hm_topology_copy_core_cpus(topo, pr->topology))
			return hm_error_set(err, "out of memory");
		e->topology = topo;
	}
	return 0;
}

int hm_placement_from_result(struct hm_placement *pl, const struct hm_plan_inputs *in,
			     const struct hm_result *res, struct hm_error *err)
{
	const struct hm_platform *p = in->pb->platform;
	struct hm_rank_place proc;
	size_t bytes = 1;
	int *slot = NULL, nprocs = 0, k = 0;
	char *names;

	memset(pl, 0, sizeof(*pl));
	hm_error_clear(err);
	if (!res->found)
		return hm_error_set(err, "no configuration fits");
	for (int i = 0; i < res->P; i++)
		if (res->d[i] > 0) {
			nprocs++;
			bytes += strlen(p->procs[i].name) + strlen(p->procs[i].host) + 2;
		}
	snprintf(pl->routine, sizeof(pl->routine), "%s", hm_routine_name(in->pb->routine));
	snprintf(pl->method, sizeof(pl->method), "%s", res->method);
	pl->n = (long)in->pb->n, pl->D = res->D, pl->r = res->r, pl->c = res->c, pl->b = res->b;
	pl->predicted = res->pred.total;
	slot = malloc((size_t)res->P * sizeof(int));
	pl->ranks = calloc((size_t)res->D, sizeof(*pl->ranks));
	pl->topologies = calloc((size_t)nprocs, sizeof(*pl->topologies));
	names = pl->names = malloc(bytes);
	if (!slot || !pl->ranks || !pl->topologies || !names || hm_platform_slots(p, slot) ||
	    !(pl->owner = hm_plan_json(in, res))) {
		hm_error_set(err, "out of memory");
		goto fail;
	}
	for (int i = 0, j = 0; i < res->P; i++) {
		if (res->d[i] == 0)
			continue;
		if (result_process(pl, &p->procs[i], res->d[i], slot[i], j == 0, &names,
				   &pl->topologies[j], &proc, err))
			goto fail;
		proc.threads = res->threads ? res->threads[i] : 1;
		pl->nr_topologies = ++j;
		for (int q = 0; q < res->d[i]; q++)
			place_rank(pl, k++, &proc, q);
	}
	if (hm_placement_number_hosts(pl)) {
		hm_error_set(err, "out of memory");
		goto fail;
	}
	free(slot);
	return 0;
fail:
	free(slot);
	hm_placement_release(pl);
	return -1;
}

int hm_placement_threads(const struct hm_placement *pl)
{
	int t = pl->D > 0 ? pl->ranks[0].threads : 1;

	for (int k = 1; k < pl->D; k++)
		if (pl->ranks[k].threads != t)
			return 0;
	return t > 1 ? t : 1;
}

int hm_placement_load(struct hm_placement *pl, const char *path, struct hm_error *err)
{
	cJSON *doc;

	memset(pl, 0, sizeof(*pl));
	hm_error_clear(err);
	snprintf(err->file, sizeof(err->file), "%s", path);
	if (!(doc = hm_json_read_file(path, MAX_PLAN_BYTES, err)))
		return -1;
	return adopt(pl, doc, path, err);
}

int hm_placement_column_major(struct hm_placement *pl)
{
	struct hm_rank_place *by_column = malloc((size_t)pl->D * sizeof(*by_column));

	if (!by_column)
		return -1;
	for (int i = 0; i < pl->r; i++)
		for (int j = 0; j < pl->c; j++)
			by_column[i + j * pl->r] = pl->ranks[i * pl->c + j];
	free(pl->ranks);
	pl->ranks = by_column;
	pl->column_major = 1;
	return 0;
}

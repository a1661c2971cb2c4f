/* models/platform/topology.c - a processor's cores as CPU numbers (see topology.h). */
#include "topology.h"
#include <cJSON.h>
#include "models/util/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ALLOWED_TEXT 4096   /* "0-15,32-47": hwloc's list of the allowed CPUs */

/* 1 if 'list' can be an 'allowed' CPU list ("0-15,32-47", bounded). */
static int hm_topology_allowed_ok(const char *list)
{
	size_t len = strlen(list);

	return len > 0 && len <= MAX_ALLOWED_TEXT && strspn(list, "0123456789,-") == len;
}

void hm_topology_release(struct hm_topology *t)
{
	free(t->first);
	free(t->cpus);
	free(t->allowed);
	memset(t, 0, sizeof(*t));
}

int hm_topology_copy_core_cpus(struct hm_topology *to, const struct hm_topology *from)
{
	int n = from->first[from->cores];

	memset(to, 0, sizeof(*to));
	to->first = malloc((size_t)(from->cores + 1) * sizeof(int));
	to->cpus = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
	if (!to->first || !to->cpus) {
		hm_topology_release(to);
		return -1;
	}
	memcpy(to->first, from->first, (size_t)(from->cores + 1) * sizeof(int));
	memcpy(to->cpus, from->cpus, (size_t)n * sizeof(int));
	to->cores = from->cores;
	to->threads_as_cores = from->threads_as_cores;
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* No CPU is two cores' (or twice one core's). */
static int check_distinct(const struct hm_topology *t, const char *path, struct hm_error *err)
{
	int n = t->first[t->cores], *sorted = malloc((size_t)n * sizeof(int)), ret = 0;

	if (!sorted)
		return hm_error_at(err, path, "out of memory");
	memcpy(sorted, t->cpus, (size_t)n * sizeof(int));
	qsort(sorted, (size_t)n, sizeof(int), cmp_int);
	for (int i = 1; i < n && !ret; i++)
		if (sorted[i] == sorted[i - 1])
			ret = hm_error_at(err, path, "CPU %d is listed twice", sorted[i]);
	free(sorted);
	return ret;
}

/* One core's list of CPUs, appended to t->cpus from t->first[j]. */
static int read_core(const cJSON *core, const char *path, int j, struct hm_topology *t,
		     struct hm_error *err)
{
	char where[600];
	const cJSON *cpu;
	int n = cJSON_GetArraySize(core), k = 0;

	snprintf(where, sizeof(where), "%s[%d]", path, j);
	if (!cJSON_IsArray(core) || n < 1 || n > HM_MAX_THREADS_PER_CORE)
		return hm_error_at(err, where, "expected a list of 1 to %d CPU numbers (the core's "
				   "hardware threads)", HM_MAX_THREADS_PER_CORE);
	cJSON_ArrayForEach(cpu, core) {
		char at[640];
		long v;

		snprintf(at, sizeof(at), "%s[%d]", where, k++);
		if (hm_json_int(cpu, at, 0, HM_MAX_CPU_ID - 1, &v, err))
			return -1;
		t->cpus[t->first[j] + k - 1] = (int)v;
	}
	t->first[j + 1] = t->first[j] + n;
	return 0;
}

int hm_topology_read_core_cpus(const cJSON *list, const char *path, int cores, struct hm_topology *t,
			       struct hm_error *err)
{
	const cJSON *core;
	size_t total = 0;
	int j = 0;

	memset(t, 0, sizeof(*t));
	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) != cores)
		return hm_error_at(err, path, "expected one list of CPUs per core (%d)", cores);
	cJSON_ArrayForEach(core, list)      /* room for what read_core accepts */
		total += (size_t)cJSON_GetArraySize(core) <= HM_MAX_THREADS_PER_CORE ?
			 (size_t)cJSON_GetArraySize(core) : 0;
	t->cores = cores;
	t->first = calloc((size_t)cores + 1, sizeof(int));
	t->cpus = malloc((total + 1) * sizeof(int));
	if (!t->first || !t->cpus) {
		hm_topology_release(t);
		return hm_error_at(err, path, "out of memory");
	}
	cJSON_ArrayForEach(core, list)
		if (read_core(core, path, j++, t, err)) {
			hm_topology_release(t);
			return -1;
		}
	if (check_distinct(t, path, err)) {
		hm_topology_release(t);
		return -1;
	}
	return 0;
}

/* 1 if CPU 'cpu' is in 'list' ("0-15,32-47", hm_topology_allowed_ok). */
static int allowed_has(const char *list, int cpu)
{
	for (const char *s = list; *s; s += *s == ',') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (lo <= cpu && cpu <= hi)
			return 1;
		if (end == s)
			return 0;       /* not a list: allowed_ok let it through */
		s = end;
	}
	return 0;
}

/* Every core's CPUs are among the node's allowed ones: a core outside them
 * would be bound where the rank may not run. */
static int check_allowed(const struct hm_topology *t, const char *path, struct hm_error *err)
{
	for (int i = 0; t->allowed && i < t->first[t->cores]; i++)
		if (!allowed_has(t->allowed, t->cpus[i]))
			return hm_error_at(err, path, "CPU %d of core_cpus is not among the allowed CPUs (%s)",
					   t->cpus[i], t->allowed);
	return 0;
}

int hm_topology_read(const cJSON *obj, const char *path, int cores, struct hm_topology *t,
		     struct hm_error *err)
{
	static const char *const keys[] = { "core_cpus", "numa_nodes", "threads_per_core",
					    "threads_as_cores", "allowed", NULL };
	const cJSON *allowed = cJSON_GetObjectItemCaseSensitive(obj, "allowed");
	const cJSON *as_cores = cJSON_GetObjectItemCaseSensitive(obj, "threads_as_cores");
	char sub[600];
	long numa = 0, threads = 0;

	memset(t, 0, sizeof(*t));
	if (!cJSON_IsObject(obj))
		return hm_error_at(err, path, "expected an object");
	if (hm_json_check_keys(obj, path, keys, 16, err) ||
	    hm_json_member_int(obj, path, "numa_nodes", 0, 1, 1 << 16, &numa, err) ||
	    hm_json_member_int(obj, path, "threads_per_core", 0, 1, HM_MAX_THREADS_PER_CORE, &threads, err))
		return -1;
	if (as_cores && !cJSON_IsBool(as_cores))
		return hm_error_at(err, path, "'threads_as_cores' must be true or false");
	if (allowed && (!cJSON_IsString(allowed) || !hm_topology_allowed_ok(allowed->valuestring)))
		return hm_error_at(err, path, "'allowed' must be a CPU list such as \"0-15,32-47\"");
	snprintf(sub, sizeof(sub), "%s.core_cpus", path);
	if (!cJSON_HasObjectItem(obj, "core_cpus"))
		return hm_error_at(err, path, "missing 'core_cpus'");
	if (hm_topology_read_core_cpus(cJSON_GetObjectItemCaseSensitive(obj, "core_cpus"), sub, cores, t, err))
		return -1;
	t->numa_nodes = (int)numa;
	t->threads_per_core = (int)threads;
	t->threads_as_cores = cJSON_IsTrue(as_cores);
	if (allowed && !(t->allowed = strdup(allowed->valuestring))) {
		hm_topology_release(t);
		return hm_error_at(err, path, "out of memory");
	}
	if (check_allowed(t, path, err)) {
		hm_topology_release(t);
		return -1;
	}
	return 0;
}

cJSON *hm_topology_core_cpus_json(const struct hm_topology *t)
{
	cJSON *list = cJSON_CreateArray();

	for (int j = 0; list && j < t->cores; j++)
		cJSON_AddItemToArray(list, cJSON_CreateIntArray(t->cpus + t->first[j],
								t->first[j + 1] - t->first[j]));
	return list;
}

cJSON *hm_topology_json(const struct hm_topology *t)
{
	cJSON *o = cJSON_CreateObject();

	if (!o)
		return NULL;
	cJSON_AddItemToObject(o, "core_cpus", hm_topology_core_cpus_json(t));
	if (t->numa_nodes)
		cJSON_AddNumberToObject(o, "numa_nodes", t->numa_nodes);
	if (t->threads_per_core)
		cJSON_AddNumberToObject(o, "threads_per_core", t->threads_per_core);
	if (t->threads_as_cores)
		cJSON_AddTrueToObject(o, "threads_as_cores");
	if (t->allowed)
		cJSON_AddStringToObject(o, "allowed", t->allowed);
	return o;
}

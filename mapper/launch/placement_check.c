/* mapper/launch/placement_check.c - see placement_check.h. */
#include "placement_check.h"
#include "models/platform/hostname.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hm_placement_check_init(struct hm_placement_check *c, const struct hm_placement *pl, int bound)
{
	memset(c, 0, sizeof(*c));
	c->pl = pl, c->bound = bound;
	c->host = calloc((size_t)pl->D, sizeof(char *));
	c->cpus = calloc((size_t)pl->D, sizeof(char *));
	if (!c->host || !c->cpus) {
		hm_placement_check_release(c);
		return -1;
	}
	return 0;
}

/* hetmap-probe {"rank":K,"host":"H","cpus":"L"}, perhaps after a tag the
 * launcher adds (Open MPI's --tag-output). */
int hm_placement_check_line(struct hm_placement_check *c, const char *line)
{
	const char *at = strstr(line, HM_PROBE_MARK);
	const cJSON *rank, *host, *cpus;
	cJSON *doc;
	int k;

	if (!at)
		return 0;
	doc = cJSON_Parse(at + strlen(HM_PROBE_MARK) - 1);
	rank = cJSON_GetObjectItemCaseSensitive(doc, "rank");
	host = cJSON_GetObjectItemCaseSensitive(doc, "host");
	cpus = cJSON_GetObjectItemCaseSensitive(doc, "cpus");
	if (cJSON_IsNumber(rank) && cJSON_IsString(host) && cJSON_IsString(cpus) &&
	    (k = rank->valueint) >= 0 && k < c->pl->D && !c->host[k]) {
		c->host[k] = strdup(host->valuestring);
		c->cpus[k] = strdup(cpus->valuestring);
		c->reports++;
	}
	cJSON_Delete(doc);
	return 1;
}

static int is_one_of(long cpu, const int *set, int n)
{
	for (int i = 0; i < n; i++)
		if (set[i] == cpu)
			return 1;
	return 0;
}

/* The CPU list a rank reported ("2,10" or "4-5") names CPUs of its
 * planned cores only, at least one: bound to the whole cores (Open MPI) or
 * to some of their hardware threads (the per-thread launchers). */
static int on_planned_core(const char *list, const struct hm_rank_place *r)
{
	int set[HM_MAX_RANK_CPUS], n = hm_rank_cpus(r, set, HM_MAX_RANK_CPUS);
	const char *s = list;

	if (!*s)
		return 0;
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return 0;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (hi < lo || hi - lo >= n)
			return 0;
		for (long cpu = lo; cpu <= hi; cpu++)
			if (!is_one_of(cpu, set, n))
				return 0;
		if (*end && *end != ',')
			return 0;
		s = *end ? end + 1 : end;
	}
	return 1;
}

/* The planned host is the one seen, or both are this machine. */
static int same_host(const char *planned, const char *seen, const char *here)
{
	return hm_host_same(planned, seen) || (hm_host_names(planned, here) && hm_host_same(seen, here));
}

cJSON *hm_placement_check_json(const struct hm_placement_check *c)
{
	cJSON *o = cJSON_CreateObject(), *ranks = cJSON_CreateArray();
	char here[256] = "";
	int all = c->reports == c->pl->D;

	gethostname(here, sizeof(here) - 1);
	for (int k = 0; k < c->pl->D; k++) {
		const struct hm_rank_place *r = &c->pl->ranks[k];
		cJSON *e = cJSON_CreateObject();
		int host_ok = c->host[k] && same_host(r->host, c->host[k], here);
		int planned[HM_MAX_RANK_CPUS], n = hm_rank_cpus(r, planned, HM_MAX_RANK_CPUS);

		cJSON_AddNumberToObject(e, "rank", k);
		cJSON_AddStringToObject(e, "planned_host", r->host);
		cJSON_AddNumberToObject(e, "planned_core", r->core);
		cJSON_AddItemToObject(e, "planned_cpus", cJSON_CreateIntArray(planned, n));
		if (c->host[k]) {
			cJSON_AddStringToObject(e, "host", c->host[k]);
			cJSON_AddStringToObject(e, "cpus", c->cpus[k]);
		}
		cJSON_AddBoolToObject(e, "host_ok", host_ok);
		all &= host_ok;
		if (c->bound && c->cpus[k]) {
			int core_ok = on_planned_core(c->cpus[k], r);

			cJSON_AddBoolToObject(e, "core_ok", core_ok);
			all &= core_ok;
		} else {
			cJSON_AddNullToObject(e, "core_ok");
		}
		cJSON_AddItemToArray(ranks, e);
	}
	cJSON_AddBoolToObject(o, "as_planned", all);
	cJSON_AddNumberToObject(o, "reported", c->reports);
	cJSON_AddBoolToObject(o, "cores_checked", c->bound);
	cJSON_AddItemToObject(o, "ranks", ranks);
	return o;
}

void hm_placement_check_release(struct hm_placement_check *c)
{
	for (int k = 0; c->pl && k < c->pl->D; k++) {
		if (c->host)
			free(c->host[k]);
		if (c->cpus)
			free(c->cpus[k]);
	}
	free(c->host);
	free(c->cpus);
	c->host = c->cpus = NULL;
}

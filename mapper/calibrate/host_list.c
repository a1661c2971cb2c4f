/* mapper/calibrate/host_list.c - see host_list.h. */
#include "host_list.h"
#include "host_source.h"
#include "models/platform/hostname.h"
#include "models/util/say.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hm_host_list_free(struct hm_host_list *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->names[i]);
	free(h->text);
}

/* 0 if 'name' can be a host's, else -1 after a message naming 'source'. */
static int check_host_name(const char *name, const char *source)
{
	struct hm_error err;

	hm_error_clear(&err);
	if (!hm_check_listed_host(name, &err))
		return 0;
	hm_say_error("calibrate: %s: %s", source, err.msg);
	return -1;
}

int hm_host_list_parse(const char *spec, const char *source, struct hm_host_list *h)
{
	char *save = NULL, here[256] = "";

	memset(h, 0, sizeof(*h));
	gethostname(here, sizeof(here) - 1);
	if (!(h->text = strdup(spec)))
		return -1;
	for (char *item = strtok_r(h->text, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':'), *end;
		long count = 1;

		if (colon) {
			*colon = '\0';
			errno = 0;
			count = strtol(colon + 1, &end, 10);
			if (errno || end == colon + 1 || *end || count < 1 || count > HM_HOST_SLOTS_MAX) {
				hm_say_error("calibrate: %s: '%s:%s' needs a count in [1, %d]", source, item,
					     colon + 1, HM_HOST_SLOTS_MAX);
				return -1;
			}
		}
		if (check_host_name(item, source))
			return -1;
		for (int i = 0; i < h->n; i++)
			if (hm_host_one_machine(h->hosts[i], item, here)) {
				hm_say_error("calibrate: %s: host '%s' is listed twice%s%s%s", source, item,
					     strcmp(h->hosts[i], item) ? " (as '" : "",
					     strcmp(h->hosts[i], item) ? h->hosts[i] : "",
					     strcmp(h->hosts[i], item) ? "': both name this machine)" : "");
				return -1;
			}
		if (h->n + count > HM_CAL_MAX_PROCS) {
			hm_say_error("calibrate: %s: more than %d processors", source, HM_CAL_MAX_PROCS);
			return -1;
		}
		for (int k = 0; k < count; k++) {
			char name[256];

			snprintf(name, sizeof(name), "%s-%d", item, k);
			if (!(h->names[h->n] = strdup(name)))
				return -1;
			h->hosts[h->n] = item;
			h->host_index[h->n] = h->nr_hosts;
			h->slot[h->n++] = k;
		}
		h->nr_hosts++;
	}
	if (!h->n) {
		hm_say_error("calibrate: %s names no processor", source);
		return -1;
	}
	return 0;
}

void hm_host_list_fit(struct hm_host_list *h, const struct hm_node_topologies *topo)
{
	int kept = 0;

	for (int i = 0; i < h->n; i++) {
		const struct hm_node_topology *node = &topo->node[h->host_index[i]];
		int given = 0;

		if (h->slot[i] < node->cores.cores) {
			h->names[kept] = h->names[i], h->hosts[kept] = h->hosts[i];
			h->slot[kept] = h->slot[i], h->host_index[kept++] = h->host_index[i];
			continue;
		}
		free(h->names[i]);
		if (h->slot[i] == node->cores.cores) {
			const char *unit = topo->threads_as_cores ? "hardware thread" : "core";

			for (int j = i; j < h->n && h->host_index[j] == h->host_index[i]; j++)
				given++;
			hm_say_note("calibrate: %s: %d processes listed, but hwloc finds %d %s%s allowed there "
				"(CPUs %s): measuring %d%s\n", h->hosts[i], node->cores.cores + given,
				node->cores.cores, unit, node->cores.cores > 1 ? "s" : "", node->cores.allowed,
				node->cores.cores, node->cores.threads_per_core > 1 && !topo->threads_as_cores ?
				" (--smt: one per hardware thread)" : "");
		}
	}
	h->n = kept;
}

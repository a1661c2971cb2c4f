/* mapper/calibrate/host_list.h - the processors a calibration measures:
 * "HOST[:N],..." (from --hosts, a hostfile or the Slurm allocation:
 * host_source.h) as N processors HOST-0 .. HOST-(N-1) per host, in order,
 * trimmed to the cores hwloc finds allowed on each host. */
#ifndef HM_HOST_LIST_H
#define HM_HOST_LIST_H

#include "node_topologies.h"

enum { HM_CAL_MAX_PROCS = 4096 };

struct hm_host_list {
	char *names[HM_CAL_MAX_PROCS];     /* processor names */
	char *hosts[HM_CAL_MAX_PROCS];     /* host of each processor */
	int slot[HM_CAL_MAX_PROCS];        /* core index on its host */
	int host_index[HM_CAL_MAX_PROCS];  /* its host's place among the hosts, in order */
	int n, nr_hosts;
	char *text;                     /* owns the host strings */
};

/* "a:2,b,c:4" -> processors a-0 a-1 b-0 c-0..c-3 into *h; 'source' names
 * where the list came from in messages. 0, or -1 after a message (release
 * *h either way). */
int hm_host_list_parse(const char *spec, const char *source, struct hm_host_list *h);
void hm_host_list_free(struct hm_host_list *h);

/* Measure no more processes on a host than the cores hwloc finds allowed
 * there (the list's count may be CPUs, that is hardware threads, or more
 * than a cgroup leaves): drop the rest, say so. */
void hm_host_list_fit(struct hm_host_list *h, const struct hm_node_topologies *topo);

#endif /* HM_HOST_LIST_H */

/* mapper/launch/placement_check.h - where each rank really ran, against the
 * plan. hetmap-probe (wrappers/rank_probe.c) starts before the program
 * in every rank and prints the rank, its host name and the CPUs it may
 * use; the check compares them with the planned host and core. */
#ifndef HM_PLACEMENT_CHECK_H
#define HM_PLACEMENT_CHECK_H

#include <cJSON.h>
#include "placement.h"

/* What starts a probe's line (wrappers/rank_probe.c), perhaps after a tag
 * the launcher adds */
#define HM_PROBE_MARK "hetmap-probe {"

struct hm_placement_check {
	const struct hm_placement *pl;
	int bound;              /* the launcher binds each rank to its core */
	char **host, **cpus;    /* per rank, as reported; NULL until seen */
	int reports;
};

/* 0, or -1 when out of memory. */
int hm_placement_check_init(struct hm_placement_check *c, const struct hm_placement *pl, int bound);
/* Take one output line; 1 if it was a probe's. */
int hm_placement_check_line(struct hm_placement_check *c, const char *line);
/* {"as_planned": true|false, "reported": K, "ranks": [...]} (one entry
 * per rank: planned host, core and its OS CPUs, the host and CPUs seen,
 * host_ok, core_ok: the CPUs seen are some of the planned core's, null
 * when the launcher does not bind); NULL when out of memory. */
cJSON *hm_placement_check_json(const struct hm_placement_check *c);
void hm_placement_check_release(struct hm_placement_check *c);

#endif /* HM_PLACEMENT_CHECK_H */

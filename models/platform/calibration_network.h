/* models/platform/calibration_network.h - the network part of a
 * calibration's fit: each link scope's t_s and t_w from the benchmark's
 * ping-pongs (Hockney's model), the links between pairs of processors, and
 * between hosts each host's own link (models/common/host_links.h), hosts
 * of like links grouped into rules. */
#ifndef HM_CALIBRATION_NETWORK_H
#define HM_CALIBRATION_NETWORK_H

#include <cJSON.h>
#include "platform.h"
#include "models/common/host_links.h"

/* Hockney fit of one-way times over message sizes (bytes), as above. */
void hm_hockney_fit(const double *bytes, const double *seconds, int n, double *t_s, double *t_w);

/* The platform's "network" from the benchmark's output 'raw' (its
 * "pingpong", host pairs and rounds): the scopes fitted, a scope that could
 * not be measured copying the slowest measured one (listed under the
 * record's "scopes_not_measured"), links per pair of processors and, between
 * hosts, rules for the slower hosts' groups; what was fitted goes into
 * 'record' (the platform's "calibration"). rank_name and rank_host name
 * each of the benchmark's 'nranks' ranks' processor and host; 'tolerance'
 * groups hosts of like links. NULL with 'err' set when no pair was
 * measured (or out of memory). */
cJSON *hm_calibration_network(const cJSON *raw, cJSON *record, const char *const *rank_name,
			   const char *const *rank_host, int nranks, double tolerance, struct hm_error *err);

#endif /* HM_CALIBRATION_NETWORK_H */

/* mapper/launch/results.h - the results file of 'hetmap run': JSON Lines, one
 * record per run, appended whole.
 *
 * A record is one write(2) of a complete line on an O_APPEND descriptor,
 * then fsync: a crash or Ctrl-C can lose the record being written, never
 * corrupt the ones before it. If an earlier write was cut short (disk
 * full), the next record starts on a fresh line, so every complete line
 * stays valid JSON. */
#ifndef HM_RESULTS_H
#define HM_RESULTS_H

#include <cJSON.h>
#include "models/util/error.h"

/* Open the results file 'path' for appending, creating it (0666 less the
 * umask) if missing: before the job runs, so that a path that cannot take
 * the record is refused before any measurement is made. Only a regular
 * file is accepted: not a directory, FIFO, device or symbolic link. The
 * descriptor, or -1 with 'err' set. */
int hm_results_open(const char *path, struct hm_error *err);

/* Append 'record' as one line to the results file open on 'fd'.
 * 0, or -1 with 'err' set. */
int hm_results_append(int fd, const cJSON *record, struct hm_error *err);

/* A record does not repeat itself as ranks grow (a user's file of runs on
 * hundreds of ranks): 'ranks', a driver's list of {"rank", "host", "cpus",
 * "row", "col"}, becomes runs {"first": k, "count": m, "host", "cpus"} of
 * consecutive ranks on one host with the same CPUs, when every rank k is
 * at grid position (k / c, k mod c) as planned; otherwise it stays whole,
 * to show where. Returns the folded list (new), or NULL to keep it. */
cJSON *hm_fold_rank_list(const cJSON *ranks, int c);

/* "2026-11-22T15:04:05Z" for now, into buf. */
const char *hm_utc_timestamp(char *buf, size_t size);

#endif /* HM_RESULTS_H */

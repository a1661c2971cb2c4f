/* models/platform/calibration.h - from the raw samples of hetmap-calibrate-bench to
 * a platform description (models/README.md, "System parameters").
 *
 *  - k values: median of the repeats per processor and block size; the
 *    spread (max - min) / median is kept in the "calibration" record;
 *  - types: processors whose k values all lie within 'tolerance' of a
 *    type's first member share that type (values: the members' median),
 *    so identical cores give one type and the exact search can use it;
 *  - Hockney t_s, t_w per link scope, fitted per message-size range as
 *    the MPI protocol switch near 4 KiB demands: t_s from the small
 *    messages (<= 64 B: the median one-way time), t_w as the least-squares
 *    slope over the large ones (>= 64 KiB), which are what LU and GEMM
 *    send. A scope that could not be measured (one host: no inter-node
 *    pair) takes the slowest measured scope and is listed as such. */
#ifndef HM_CALIBRATION_H
#define HM_CALIBRATION_H

#include <cJSON.h>
#include "platform.h"
#include "calibration_network.h"

struct hm_calibration_opts {
	const char *name;           /* platform name */
	double tolerance;           /* relative, for grouping into types */
	const char *const *names;   /* processor names, one per processor rank */
	const char *const *hosts;   /* their hosts */
	const int *cores;           /* cores per processor (NULL: 1) */
	int nproc;
	double memory_per_proc;     /* bytes per rank, 0 = leave out */
	int per_node;               /* one processor per host, its ranks its cores */
	const char *when;           /* timestamp for the description */
};

/* The platform JSON (caller frees), or NULL with 'err' set when the raw
 * document is not what the bench prints. */
cJSON *hm_calibration_platform(const cJSON *raw, const struct hm_calibration_opts *o,
			       struct hm_error *err);

/* A line callback for the benchmark's output: the first line holding its
 * raw JSON ({"hetmap_calibration_raw": ...}) parsed into *(cJSON **)ctx. */
void hm_calibration_raw_line(const char *line, void *ctx);

#endif /* HM_CALIBRATION_H */

/* models/platform/units.h - physical quantities in platform files: plain SI numbers
 * or strings with a unit ("0.72us", "100Mbps", "2GiB").
 *
 * Everything is converted to SI on load, so the rest of hetmap only sees
 * seconds, seconds per flop, seconds per 8-byte word and bytes. */
#ifndef HM_UNITS_H
#define HM_UNITS_H

#include <stddef.h>

enum hm_unit_kind {
	HM_UNIT_SECONDS,        /* "100us", "1.5ms", "2s", "10ns" */
	HM_UNIT_SECONDS_PER_FLOP, /* same suffixes, read per flop: "0.003us";
				   * or a flop rate: "45GFLOP/s", "45Gf" */
	HM_UNIT_SECONDS_PER_WORD, /* a time per 8-byte word, or a bandwidth:
				   * "0.72us", "100Mbps", "1Gbps", "125MB/s" */
	HM_UNIT_BYTES,          /* "512MiB", "2GiB", "1GB", "4096B" */
	HM_UNIT_RATIO,          /* a plain number: no string form */
};

/* Parse 'text' as a quantity of 'kind'. 0 and *out set (SI, finite, > 0),
 * or -1 with a reason in 'why' (at least 128 bytes). */
int hm_unit_parse(const char *text, enum hm_unit_kind kind, double *out,
		  char *why, int why_size);

/* Name of the SI unit of 'kind', for messages ("s", "s/flop", ...). */
const char *hm_unit_name(enum hm_unit_kind kind);

#endif /* HM_UNITS_H */

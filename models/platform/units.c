/* models/platform/units.c - unit strings in platform files (see units.h).
 *
 * Each kind has a table of accepted suffixes and their factor to SI; a
 * string is a decimal number immediately followed by one of them. */
#include "units.h"
#include "models/util/decimal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit_suffix {
	const char *suffix;
	double factor;          /* value * factor: a time, or a rate (per > 0) */
	double per;             /* a rate: SI = per / (value * factor); 0: a time */
};

#define TIMES { "ps", 1e-12, 0 }, { "ns", 1e-9, 0 }, { "us", 1e-6, 0 }, \
	{ "ms", 1e-3, 0 }, { "s", 1.0, 0 }

static const struct unit_suffix time_suffixes[] = { TIMES, { NULL, 0, 0 } };

/* a time per flop, or a flop rate (s/flop = 1 / rate) */
static const struct unit_suffix flop_suffixes[] = {
	TIMES,
	{ "MFLOP/s", 1e6, 1 }, { "GFLOP/s", 1e9, 1 }, { "TFLOP/s", 1e12, 1 },
	{ "Mflop/s", 1e6, 1 }, { "Gflop/s", 1e9, 1 }, { "Tflop/s", 1e12, 1 },
	{ "Mf", 1e6, 1 }, { "Gf", 1e9, 1 }, { "Tf", 1e12, 1 },
	{ NULL, 0, 0 },
};

/* a time per 8-byte word, or a bandwidth (s/word = 8 / bytes per s) */
static const struct unit_suffix word_suffixes[] = {
	TIMES,
	{ "Kbps", 1e3 / 8, 8 }, { "Mbps", 1e6 / 8, 8 }, { "Gbps", 1e9 / 8, 8 },
	{ "KB/s", 1e3, 8 }, { "MB/s", 1e6, 8 }, { "GB/s", 1e9, 8 },
	{ "KiB/s", 1024.0, 8 }, { "MiB/s", 1048576.0, 8 },
	{ "GiB/s", 1073741824.0, 8 }, { NULL, 0, 0 },
};

static const struct unit_suffix byte_suffixes[] = {
	{ "B", 1.0, 0 }, { "KB", 1e3, 0 }, { "MB", 1e6, 0 }, { "GB", 1e9, 0 },
	{ "TB", 1e12, 0 }, { "KiB", 1024.0, 0 }, { "MiB", 1048576.0, 0 },
	{ "GiB", 1073741824.0, 0 }, { "TiB", 1099511627776.0, 0 },
	{ NULL, 0, 0 },
};

static const struct unit_suffix no_suffixes[] = { { NULL, 0, 0 } };

const char *hm_unit_name(enum hm_unit_kind kind)
{
	switch (kind) {
	case HM_UNIT_SECONDS: return "s";
	case HM_UNIT_SECONDS_PER_FLOP: return "s/flop";
	case HM_UNIT_SECONDS_PER_WORD: return "s/word";
	case HM_UNIT_BYTES: return "bytes";
	case HM_UNIT_RATIO: return "a plain number";
	}
	return "?";
}

static const struct unit_suffix *suffixes_of(enum hm_unit_kind kind)
{
	switch (kind) {
	case HM_UNIT_SECONDS: return time_suffixes;
	case HM_UNIT_SECONDS_PER_FLOP: return flop_suffixes;
	case HM_UNIT_SECONDS_PER_WORD: return word_suffixes;
	case HM_UNIT_BYTES: return byte_suffixes;
	case HM_UNIT_RATIO: return no_suffixes;
	}
	return no_suffixes;
}

/* The suffixes 'kind' accepts, comma-separated into buf (for messages
 * and help texts: made from the same table the parser reads). */
static const char *hm_unit_suffixes(enum hm_unit_kind kind, char *buf, size_t size)
{
	const struct unit_suffix *s = suffixes_of(kind);
	size_t n = 0;

	buf[0] = '\0';
	if (!s->suffix) {
		snprintf(buf, size, "no unit");
		return buf;
	}
	for (; s->suffix && n < size; s++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "", s->suffix);
	return buf;
}

int hm_unit_parse(const char *text, enum hm_unit_kind kind, double *out,
		  char *why, int why_size)
{
	const struct unit_suffix *s;
	char *end;
	double v;

	/* a number starts here: no white space of any kind, no sign but '-' */
	if (!text || !((text[0] >= '0' && text[0] <= '9') || text[0] == '.' || text[0] == '-')) {
		snprintf(why, (size_t)why_size, "'%s' is not a quantity", text ? text : "");
		return -1;
	}
	v = hm_strtod_decimal(text, &end, 0);
	if (end == text || !isfinite(v)) {
		snprintf(why, (size_t)why_size, "'%s' does not start with a finite decimal number", text);
		return -1;
	}
	for (s = suffixes_of(kind); s->suffix; s++)
		if (!strcmp(end, s->suffix))
			break;
	if (!s->suffix) {
		char list[400];

		snprintf(why, (size_t)why_size, "unknown unit '%s' in '%s' (a %s quantity takes %s)",
			 end, text, hm_unit_name(kind), hm_unit_suffixes(kind, list, sizeof(list)));
		return -1;
	}
	if (!(v > 0)) {
		snprintf(why, (size_t)why_size, "'%s' must be positive", text);
		return -1;
	}
	v *= s->factor;
	if (s->per > 0)
		v = s->per / v; /* a rate: seconds per flop or per 8-byte word */
	if (!isfinite(v) || !(v > 0)) {
		snprintf(why, (size_t)why_size, "'%s' is out of range", text);
		return -1;
	}
	*out = v;
	return 0;
}

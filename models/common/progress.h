/* models/common/progress.h - the progress line of a modeled simulation:
 * what the modeled kernels print (wrappers/smpi/kernels.c) and the judge
 * reads from each candidate's log (mapper/launch/judge.c), one contract
 * for both: "hetmap-progress: SECONDS", the simulated clock, every
 * HETMAP_PROGRESS_S seconds of this machine's time (default 10, 0: never). */
#ifndef HM_PROGRESS_H
#define HM_PROGRESS_H

#include <stdlib.h>

#define HM_PROGRESS_MARK "hetmap-progress: "
#define HM_PROGRESS_VARIABLE "HETMAP_PROGRESS_S"

#define HM_PROGRESS_DEFAULT 10.0
#define HM_PROGRESS_MAX 86400.0

/* 'text' read as a period: plain decimal digits with at most one point,
 * in [0, HM_PROGRESS_MAX] (no sign, exponent, "nan" or "inf"). 0 and
 * *period set, or -1. */
static inline int hm_progress_parse(const char *text, double *period)
{
	int digits = 0, points = 0;
	double v = 0, scale = 1;

	for (const char *c = text; *c; c++) {
		if (*c == '.' && !points++)
			continue;
		if (*c < '0' || *c > '9')
			return -1;
		digits++;
		if (points)
			scale /= 10, v += (*c - '0') * scale;
		else
			v = 10 * v + (*c - '0');
		if (v > HM_PROGRESS_MAX)
			return -1;
	}
	if (!digits)
		return -1;
	*period = v;
	return 0;
}

/* The period in seconds: HETMAP_PROGRESS_S, else (unset, or not a period:
 * hetmap refuses such a value before any simulation starts) 10. */
static inline double hm_progress_period(void)
{
	const char *text = getenv(HM_PROGRESS_VARIABLE);
	double period = HM_PROGRESS_DEFAULT;

	if (text && hm_progress_parse(text, &period))
		period = HM_PROGRESS_DEFAULT;
	return period;
}

#endif /* HM_PROGRESS_H */

/* wrappers/common/progress.h - the progress line of a modeled simulation:
 * what the modeled kernels print (wrappers/smpi/kernels.c) and the judge
 * reads from each candidate's log (mapper/launch/judge.c), one contract
 * for both: "hetmap-progress: SECONDS", the simulated clock, every
 * HETMAP_PROGRESS_S seconds of this machine's time (default 10, 0: never). */
#ifndef HM_PROGRESS_H
#define HM_PROGRESS_H

#include <stdlib.h>

#define HM_PROGRESS_MARK "hetmap-progress: "
#define HM_PROGRESS_VARIABLE "HETMAP_PROGRESS_S"

/* The period in seconds: HETMAP_PROGRESS_S, else 10. */
static inline double hm_progress_period(void)
{
	const char *text = getenv(HM_PROGRESS_VARIABLE);

	return text ? atof(text) : 10;
}

#endif /* HM_PROGRESS_H */

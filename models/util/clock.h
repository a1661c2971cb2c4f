/* models/util/clock.h - the wall clock that time budgets and reports read. */
#ifndef HM_CLOCK_H
#define HM_CLOCK_H

/* Seconds on a monotonic clock (only differences mean anything). */
double hm_now(void);

#endif /* HM_CLOCK_H */

/* models/platform/calibration_trust.h - whether a calibration's values can be
 * trusted, judged from the facts the fit records per type under
 * calibration.trust (calibration.c): how well its kernels' medians are
 * known, how well its kernel models fit, how its core alone compares with
 * all busy, how much of the time other processes held its cores, the load
 * average. 'hetmap calibrate' refuses to write a platform with a doubt
 * unless --accept-unreliable; 'hetmap platform show' prints them. */
#ifndef HM_CALIBRATION_TRUST_H
#define HM_CALIBRATION_TRUST_H

#include <cJSON.h>
#include <stddef.h>

/* A type's facts as one line for people ("medians within 3 %, ..."). */
void hm_trust_summary(const cJSON *facts, char *buf, size_t size);

/* Each doubt of the record's types (its 'trust'), one line each to
 * say(ctx, type, line); returns how many. */
int hm_trust_doubts(const cJSON *record, void (*say)(void *ctx, const char *type, const char *line),
		    void *ctx);

/* The limits, for the help text: one "  - ..." line each. */
const char *hm_trust_limits(void);

#endif /* HM_CALIBRATION_TRUST_H */

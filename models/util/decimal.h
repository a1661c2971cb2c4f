/* models/util/decimal.h - numbers as people write them in options and
 * platform files: decimal digits, an optional point, an optional
 * exponent. strtod alone also takes hexadecimal ("0x10" is 16), "inf",
 * "nan" and leading blanks, each of which has turned a typo into a value. */
#ifndef HM_DECIMAL_H
#define HM_DECIMAL_H

#include <stddef.h>

/* strtod on a decimal number at s, with an optional leading '-' (and '+'
 * when 'plus'); *end is set to s (nothing read) when s does not start
 * with one. */
double hm_strtod_decimal(const char *s, char **end, int plus);

/* 'text' as a printed time: a decimal number (hm_strtod_decimal) and
 * nothing after it but blanks; its value and tick (hm_decimal_tick).
 * 0, or -1 when it is not one. */
int hm_decimal_time(const char *text, double *value, double *tick);

/* 1 when s is a whole number in decimal digits only, 1 to max_len of
 * them (no sign, blank or point): a count or an identifier read from the
 * environment, checked before it goes into a record or a job. */
int hm_is_digits(const char *s, size_t max_len);

#endif /* HM_DECIMAL_H */

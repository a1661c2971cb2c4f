/* models/util/decimal.c - see decimal.h. */
#include "decimal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double hm_strtod_decimal(const char *s, char **end, int plus)
{
	const char *p = s + (*s == '-' || (plus && *s == '+'));
	size_t digits = strspn(p, "0123456789");

	/* a digit must come first or right after the point ("1.", ".5") */
	if (!digits && !(p[0] == '.' && isdigit((unsigned char)p[1]))) {
		*end = (char *)s;
		return 0;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {      /* "0x10" */
		*end = (char *)s;
		return 0;
	}
	return strtod(s, end);
}

int hm_is_digits(const char *s, size_t max_len)
{
	size_t len = strlen(s);

	return len > 0 && len <= max_len && strspn(s, "0123456789") == len;
}

/* The value of one unit in the last digit of the decimal number that
 * starts at s, as hm_strtod_decimal reads it: 0.01 for "0.21", 1 for "12",
 * 1e-5 for "1.5e-4". A program that prints its time so measures nothing
 * finer. 0 when s holds no number. */
static double hm_decimal_tick(const char *s)
{
	char *end;
	const char *p;
	int decimals = 0;
	long exponent = 0;

	hm_strtod_decimal(s, &end, 1);
	if (end == s)
		return 0;
	for (p = s; p < end && *p != '.' && *p != 'e' && *p != 'E'; p++)
		;
	if (p < end && *p == '.')
		for (p++; p < end && isdigit((unsigned char)*p); p++)
			decimals++;
	if (p < end && (*p == 'e' || *p == 'E'))
		exponent = strtol(p + 1, NULL, 10);
	return pow(10, (double)(exponent - decimals));
}

int hm_decimal_time(const char *text, double *value, double *tick)
{
	char *end;
	double v = hm_strtod_decimal(text, &end, 0);

	if (end == text || end[strspn(end, " \t\r")])
		return -1;
	*value = v;
	*tick = hm_decimal_tick(text);
	return 0;
}

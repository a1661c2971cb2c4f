/* models/util/decimal.c - see decimal.h. */
#include "decimal.h"

#include <ctype.h>
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

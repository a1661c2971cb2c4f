/* wrappers/vcluster/vc_fail.c - see vc_fail.h. */
#include "vc_fail.h"

#include <stdarg.h>
#include <stdio.h>

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hetmap-vcluster: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* models/util/say.c - see say.h. */
#include "say.h"

#include <stdarg.h>
#include <stdio.h>

int hm_verbosity = 1;

/* fmt, as written, when -q / -v allow a message of this 'level'. */
__attribute__((format(printf, 2, 0)))
static void say_at(int level, const char *fmt, va_list ap)
{
	if (hm_verbosity >= level)
		vfprintf(stderr, fmt, ap);
}

void hm_say_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_at(1, fmt, ap);
	va_end(ap);
}

void hm_say_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_at(2, fmt, ap);
	va_end(ap);
}

void hm_say_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hetmap: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void hm_say_report(const struct hm_error *err)
{
	char buf[1100];

	hm_say_error("%s", hm_error_format(err, buf, sizeof(buf)));
}

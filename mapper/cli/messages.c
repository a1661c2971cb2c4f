/* mapper/cli/messages.c - what hetmap says on standard error, and the check
 * that standard output took everything (see cli.h). Only mapper/ prints. */
#include "cli.h"

#include <stdarg.h>

/* fmt, as written, when -q / -v allow a message of this 'level'. */
static void say_at(int level, const char *fmt, va_list ap)
{
	if (hm_verbosity >= level)
		vfprintf(stderr, fmt, ap);
}

void hm_cli_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_at(1, fmt, ap);
	va_end(ap);
}

void hm_cli_detail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say_at(2, fmt, ap);
	va_end(ap);
}

void hm_cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hetmap: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void hm_cli_report(const struct hm_error *err)
{
	char buf[1100];

	hm_cli_error("%s", hm_error_format(err, buf, sizeof(buf)));
}

int hm_cli_finish(int code)
{
	if (fflush(stdout) || ferror(stdout)) {
		hm_cli_error("cannot write to standard output");
		return HM_EXIT_OUTPUT;
	}
	return code;
}

void hm_cli_warnings(const struct hm_platform *p)
{
	int shown = p->nr_warnings < HM_MAX_WARNINGS ? p->nr_warnings : HM_MAX_WARNINGS;

	for (int i = 0; i < shown; i++)
		fprintf(stderr, "hetmap: warning: %s: %s\n", p->source, p->warnings[i]);
	if (p->nr_warnings > shown)
		fprintf(stderr, "hetmap: warning: %s: %d more values like these\n", p->source,
			p->nr_warnings - shown);
}

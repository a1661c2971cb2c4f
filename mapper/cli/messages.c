/* mapper/cli/messages.c - the check that standard output took everything,
 * and the platform loader's warnings (see cli.h; messages: models/util/say.h). */
#include "cli.h"

int hm_cli_finish(int code)
{
	if (fflush(stdout) || ferror(stdout)) {
		hm_say_error("cannot write to standard output");
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

/* mapper/cli/help_text.c - the parts of help texts and messages that list
 * what a registry holds (models, methods and users, launchers), made from
 * the registries themselves so that they cannot drift from the code. */
#include "cli.h"
#include "mapper/launch/launcher.h"
#include "models/util/rows.h"

#include <stdio.h>

static int model_name(const void *ctx, int i, char *out, size_t room)
{
	const struct hm_model *m = hm_model_list()[i];

	return snprintf(out, room, "%s (%s)", m->name, hm_model_status_name(m->status));
}

const char *hm_help_models(void)
{
	static char buf[512];
	char names[400];
	int n = 0;

	while (hm_model_list()[n])
		n++;
	if (!buf[0])
		snprintf(buf, sizeof(buf), "execution-time model: %s; evidence: 'hetmap models'",
			 hm_join(names, sizeof(names), n, ", ", model_name, NULL));
	return buf;
}

const char *hm_help_methods(void)
{
	static char buf[512];
	char searches[256], users[64];

	if (!buf[0])
		snprintf(buf, sizeof(buf), "search method: %s (default %s); or a modeled user: %s",
			 hm_method_names(HM_METHOD_SEARCH, searches, sizeof(searches)),
			 HM_DEFAULT_METHOD, hm_method_names(HM_METHOD_USER, users, sizeof(users)));
	return buf;
}

const char *hm_help_launchers(const char *intro, int runnable_only)
{
	static char ring[4][384];
	static int next;
	char *buf = ring[next++ % 4], runs[200], files[200];

	/* every command lists every launcher, the same way: those that run,
	 * then those whose files only 'plan -o DIR' writes */
	snprintf(buf, sizeof(ring[0]), "%s: %s%s, or %s (files only: plan --launcher L -o DIR)", intro,
		 hm_launcher_names(HM_LAUNCHERS_RUN, ", ", runs, sizeof(runs)),
		 runnable_only ? " (default " HM_DEFAULT_LAUNCHER ")" : "",
		 hm_launcher_names(HM_LAUNCHERS_FILES_ONLY, ", ", files, sizeof(files)));
	return buf;
}

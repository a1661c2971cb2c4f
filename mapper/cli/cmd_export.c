/* mapper/cli/cmd_export.c - 'hetmap export FORMAT': a platform in another
 * tool's format. One format so far: SimGrid's platform XML, the platform
 * SMPI simulates (models/platform/simgrid_platform.h). A table, so that a format
 * is one row. */
#include "cli.h"
#include "models/util/atomic_file.h"
#include "models/util/rows.h"
#include "models/platform/simgrid_platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct export_format {
	const char *name;
	const char *summary;
	/* busy: processes per processor, NULL for every core busy (what export writes) */
	char *(*text)(const struct hm_platform *p, int b, enum hm_sim_kernels kernels, const int *busy,
		      struct hm_error *err);
};

static const struct export_format formats[] = {
	{ "simgrid", "SimGrid platform XML (version 4.1) for SMPI: hosts, cores, speeds, links, routes",
	  hm_simgrid_platform },
};
#define NR_FORMATS (int)(sizeof(formats) / sizeof(formats[0]))

static int format_help_line(const void *ctx, int i, char *out, size_t room)
{
	return snprintf(out, room, "  %-10s %s\n", formats[i].name, formats[i].summary);
}

static const char *help_formats(void)
{
	static char text[1024];

	return hm_join(text, sizeof(text), NR_FORMATS, "", format_help_line, NULL);
}

static const struct hm_usage usage = {
	"export",
	"hetmap export FORMAT -p PLATFORM [-b B] [--kernels MODE] [-o FILE]",
	"Write the platform in another tool's format (to standard output without -o).\n"
	"Speeds that depend on the block size are taken at b (-b; default the\n"
	"platform's middle candidate block size). --kernels modeled adds each host's\n"
	"kernel models for programs linked with hetmap's modeled kernels\n"
	"(wrappers/README.md).",
	NULL,
};

static int write_text(const char *out, const char *text)
{
	struct hm_error err;

	hm_error_clear(&err);
	if (!out) {
		fputs(text, stdout);
		return HM_EXIT_OK;
	}
	if (hm_write_file_atomic(out, text, strlen(text), &err)) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	hm_say_note("hetmap: export: %s written\n", out);
	return HM_EXIT_OK;
}

int cmd_export(int argc, char **argv)
{
	const char *platform = NULL, *out = NULL, *kernels_name = "executed";
	int b = 0, first, ret, kernels;
	const struct export_format *fmt = NULL;
	struct hm_usage u = usage;
	const struct hm_option opts[] = {
		{ 'p', "platform", HM_OPT_STRING, &platform, "FILE", "platform JSON, or builtin:NAME", 0, 0 },
		{ 'b', "block-size", HM_OPT_INT, &b, "B", "block size at which speeds are taken", 1, HM_MAX_BLOCK },
		{ 0, "kernels", HM_OPT_STRING, &kernels_name, "MODE", "executed (default), modeled or modeled-as-executed: the simulator's kernels", 0, 0 },
		{ 'o', "output", HM_OPT_STRING, &out, "FILE", "write there (atomically) instead of stdout", 0, 0 },
		HM_OPT_TABLE_END,
	};
	struct hm_platform *p;
	struct hm_error err;
	char *text;
	char epilog[1200];

	snprintf(epilog, sizeof(epilog), "formats:\n%sexit codes: 0 written; 2 invalid platform; 3 bad usage; "
		 "4 cannot write the output.\nexample:\n  hetmap export simgrid -p builtin:torc -o torc.xml",
		 help_formats());
	u.epilog = epilog;
	/* the format comes first (hetmap export simgrid -p ...): the options
	 * are parsed after it */
	for (int i = 0; argc > 1 && i < NR_FORMATS; i++)
		if (!strcmp(argv[1], formats[i].name))
			fmt = &formats[i];
	if (fmt)
		argc--, argv++;
	if ((first = hm_options_parse(&u, opts, argc, argv)) == -2)
		return HM_EXIT_OK;
	if (first < 0)
		return HM_EXIT_USAGE;
	if (first != argc || !fmt || !platform) {
		hm_say_error("export: expected one FORMAT (%s) and -p PLATFORM (see 'hetmap export --help')",
			     formats[0].name);
		return HM_EXIT_USAGE;
	}
	if ((kernels = hm_sim_kernels_parse(kernels_name)) < 0) {
		hm_say_error("export: --kernels must be one of %s, not '%s'", hm_sim_kernels_list(),
			     kernels_name);
		return HM_EXIT_USAGE;
	}
	hm_error_clear(&err);
	if (out && hm_atomic_check(out, &err)) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	if (hm_platform_load(platform, &p, &err)) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	hm_cli_warnings(p);
	if (!b)
		b = p->block_sizes[p->nr_block_sizes / 2];
	if (!(text = fmt->text(p, b, (enum hm_sim_kernels)kernels, NULL, &err))) {
		hm_say_error("export: %s: %s", platform, err.msg);
		ret = strstr(err.msg, "memory") ? HM_EXIT_FAILURE : HM_EXIT_INPUT;
	} else {
		ret = write_text(out, text);
	}
	free(text);
	hm_platform_free(p);
	return ret;
}

/* mapper/cli/cmd_generate.c - 'hetmap generate': build a platform from a
 * generator description (models/platform/generator.h), check that hetmap reads it,
 * and write it. */
#include "cli.h"
#include "models/util/atomic_file.h"
#include "models/platform/generator.h"
#include "models/util/json_read.h"
#include "models/platform/platform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hm_usage usage = {
	"generate",
	"hetmap generate CONFIG.json [-o PLATFORM.json]",
	"Build a platform from a generator description: a base platform\n"
	"('from'), added processors ('add'), random families ('random': seed,\n"
	"processors, types, speed_ratio, per_host, k3, k2_over_k3) and a network.\n"
	"The result is validated like any platform file and written atomically\n"
	"(standard output without -o). Same description, same platform.",
	"examples are in models/platform/examples/ (a three-generation cluster,\n"
	"'TORC with 20 17P4', a random family).\n"
	"example: hetmap generate models/platform/examples/modern-1024.json -o modern-1024.json",
};

#define MAX_DESCRIPTION_BYTES ((size_t)1 << 20)  /* descriptions are a few lines */

/* Read and parse a JSON file; NULL after a message. */
static cJSON *read_config(const char *path)
{
	struct hm_error err;
	cJSON *doc;

	hm_error_clear(&err);
	if (!(doc = hm_json_read_file(path, MAX_DESCRIPTION_BYTES, &err))) {
		snprintf(err.file, sizeof(err.file), "%s", path);
		hm_say_report(&err);
	}
	return doc;
}

int cmd_generate(int argc, char **argv)
{
	const char *out = NULL;
	struct hm_platform *p = NULL;
	struct hm_error err;
	cJSON *config, *plat;
	char *text;
	int first, rest, ret;
	const struct hm_option opts[] = {
		{ 'o', "output", HM_OPT_STRING, &out, "FILE", "platform JSON to write (default: standard output)", 0, 0 },
		HM_OPT_TABLE_END,
	};

	const char *path;

	first = hm_options_parse(&usage, opts, argc, argv);
	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0)
		return HM_EXIT_USAGE;
	if (first >= argc) {
		hm_say_error("generate: expected one CONFIG.json (see 'hetmap generate --help')");
		return HM_EXIT_USAGE;
	}
	path = argv[first];
	/* options may also follow the file: parse what comes after it */
	rest = hm_options_parse(&usage, opts, argc - first, argv + first);
	if (rest == -2)
		return HM_EXIT_OK;
	if (rest < 0)
		return HM_EXIT_USAGE;
	if (rest < argc - first) {
		hm_say_error("generate: unexpected argument '%s'", argv[first + rest]);
		return HM_EXIT_USAGE;
	}
	/* an output that cannot be written is said before any work */
	if (out && hm_atomic_check(out, &err)) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	if (!(config = read_config(path)))
		return HM_EXIT_INPUT;
	hm_error_clear(&err);
	snprintf(err.file, sizeof(err.file), "%s", path);
	plat = hm_generate_platform(config, &err);
	cJSON_Delete(config);
	if (!plat) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	text = cJSON_Print(plat);
	cJSON_Delete(plat);
	if (!text)
		return HM_EXIT_FAILURE;
	/* what is written must be a platform hetmap reads; its paths are
	 * those of the generated platform, not of the description */
	if (hm_platform_load_buffer(text, strlen(text), path, &p, &err)) {
		char where[600];

		snprintf(where, sizeof(where), "the generated platform is not valid at %s",
			 err.path[0] ? err.path : "its top level");
		snprintf(err.path, sizeof(err.path), "%s", where);
		hm_say_report(&err);
		free(text);
		return HM_EXIT_INPUT;
	}
	hm_say_note("hetmap: generate: %s: %d processor%s of %d type%s on %d host%s\n", p->name,
		p->nr_procs, HM_PLURAL(p->nr_procs), p->nr_types, HM_PLURAL(p->nr_types), p->nr_hosts,
		HM_PLURAL(p->nr_hosts));
	hm_platform_free(p);
	ret = HM_EXIT_OK;
	if (out) {
		size_t len = strlen(text);

		text[len] = '\n';
		if (hm_write_file_atomic(out, text, len + 1, &err)) {
			hm_say_report(&err);
			ret = HM_EXIT_OUTPUT;
		}
	} else {
		printf("%s\n", text);
	}
	free(text);
	return hm_cli_finish(ret);
}

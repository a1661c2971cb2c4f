/* Fuzz target for the platform generator: a description (parsed as
 * 'hetmap generate' does), the generated platform, and that platform
 * through the loader, as 'hetmap generate' checks what it writes. Built
 * with clang -fsanitize=fuzzer for libFuzzer runs, or with replay_main.c
 * (any compiler) to replay a corpus and the regression inputs in CTest.
 *
 * Two kinds of input are passed over, because they measure the machine
 * rather than the code: a 'from' that is not builtin:NAME (a fuzzer
 * would read whatever file it names), and more than MAX_FUZZ_PROCESSORS
 * processors (tested for time in tests/cli_hostile.sh instead). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/platform/generator.h"
#include "models/util/json_read.h"
#include "models/platform/platform.h"

#define MAX_FUZZ_PROCESSORS 5000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The processors a description asks for, as far as it says. */
static double requested(const cJSON *config)
{
	const cJSON *rnd = cJSON_GetObjectItemCaseSensitive(config, "random"), *e;
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(rnd, "processors");
	double total = cJSON_IsNumber(n) ? n->valuedouble : 0;

	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(config, "add")) {
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "count");

		if (cJSON_IsNumber(c))
			total += c->valuedouble;
	}
	return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_error err;
	struct hm_platform *p = NULL;
	const cJSON *from;
	cJSON *config, *plat;
	char *text;

	hm_error_clear(&err);
	if (!(config = hm_json_parse((const char *)data, size, &err)))
		return 0;
	from = cJSON_GetObjectItemCaseSensitive(config, "from");
	if ((cJSON_IsString(from) && strncmp(from->valuestring, "builtin:", 8)) ||
	    !(requested(config) <= MAX_FUZZ_PROCESSORS)) {
		cJSON_Delete(config);
		return 0;
	}
	plat = hm_generate_platform(config, &err);
	cJSON_Delete(config);
	if (!plat)
		return 0;
	text = cJSON_Print(plat);
	cJSON_Delete(plat);
	if (text && hm_platform_load_buffer(text, strlen(text), "generated", &p, &err) == 0)
		hm_platform_free(p);
	free(text);
	return 0;
}

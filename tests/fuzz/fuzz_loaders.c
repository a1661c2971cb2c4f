/* Fuzz target for the two loaders that read files written by people: the
 * platform loader (hm_platform_load_buffer) and the plan loader
 * (hm_placement_from_plan). Built with clang -fsanitize=fuzzer for
 * libFuzzer runs, or with replay_main.c (any compiler) to replay a corpus
 * and the regression inputs in CTest. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "models/platform/platform.h"
#include "models/util/json_read.h"
#include "mapper/launch/placement.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hm_platform *p = NULL;
	struct hm_placement pl;
	struct hm_error err;
	cJSON *doc;

	if (hm_platform_load_buffer((const char *)data, size, "fuzz", &p, &err) == 0) {
		/* a platform that loads must also describe itself and be searched */
		hm_platform_find(p, "P0");
		hm_platform_free(p);
	}
	doc = hm_json_parse((const char *)data, size, &err);   /* as hm_placement_load */
	if (doc) {
		if (hm_placement_from_plan(&pl, doc, "fuzz", &err) == 0)
			hm_placement_release(&pl);
		cJSON_Delete(doc);
	}
	return 0;
}

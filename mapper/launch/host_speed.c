/* mapper/launch/host_speed.c - see host_speed.h. */
#include "host_speed.h"
#include "job.h"
#include "models/platform/calibration.h"
#include "models/util/median.h"
#include "spawn.h"

#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 1024, REPEAT = 5 };

/* The median of processors[0].KERNEL[0] (s/flop), or 0. */
static double median_k(const cJSON *doc, const char *kernel)
{
	const cJSON *procs = cJSON_GetObjectItemCaseSensitive(doc, "processors");
	const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(procs, 0),
									    kernel), 0);
	double v[64];
	int n = 0;
	const cJSON *s;

	cJSON_ArrayForEach(s, k)
		if (cJSON_IsNumber(s) && s->valuedouble > 0 && n < 64)
			v[n++] = s->valuedouble;
	if (!n)
		return 0;
	qsort(v, (size_t)n, sizeof(v[0]), hm_cmp_double);
	return v[n / 2];
}

double hm_measure_host_speed(int b, const char *kernel, struct hm_error *err)
{
	char self[PATH_MAX], bs[32], rows[32], repeat[32];
	const char *bench = hm_helper_program("hetmap-calibrate-bench", self, sizeof(self), err);
	char *argv[] = { (char *)bench, "--block-sizes", bs, "--rows", rows, "--repeat", repeat,
			 "--min-time", "0.05", "--hosts", "localhost", NULL };
	const char *env[] = { "OPENBLAS_NUM_THREADS=1", NULL };
	cJSON *doc = NULL;
	struct hm_spawn_opts so = { .timeout = 120, .grace = 2, .env = env, .on_line = hm_calibration_raw_line,
				    .ctx = &doc };
	struct hm_spawn_result res;
	double k;

	if (!bench)
		return 0;
	snprintf(bs, sizeof(bs), "%d", b < ROWS ? b : ROWS);
	snprintf(rows, sizeof(rows), "%d", ROWS);
	snprintf(repeat, sizeof(repeat), "%d", REPEAT);
	if (hm_spawn_run(argv, &so, &res) || res.status != HM_SPAWN_EXITED || res.exit_code) {
		cJSON_Delete(doc);
		hm_error_set(err, "measuring this machine's %s rate with %s failed", kernel, bench);
		return 0;
	}
	k = doc ? median_k(doc, kernel) : 0;
	cJSON_Delete(doc);
	if (!(k > 0))
		hm_error_set(err, "%s printed no %s sample", bench, kernel);
	return k > 0 ? 1.0 / k : 0;
}

/* mapper/launch/record.c - see record.h. */
#include "record.h"
#include "results.h"
#include "models/util/decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct { const char *variable, *key; } slurm_ids[] = {
	{ "SLURM_JOB_ID", "slurm_job" }, { "SLURM_STEP_ID", "slurm_step" },
};

cJSON *hm_record_start(void)
{
	cJSON *rec = cJSON_CreateObject();
	char stamp[32], host[256] = "";

	if (!rec)
		return NULL;
	gethostname(host, sizeof(host) - 1);
	cJSON_AddNumberToObject(rec, HM_REC_MARK, 1);
	cJSON_AddStringToObject(rec, HM_REC_TIME, hm_utc_timestamp(stamp, sizeof(stamp)));
	cJSON_AddStringToObject(rec, HM_REC_LAUNCHED_FROM, host);
	/* inside Slurm, the job (and step) to look up with sacct: numbers, as
	 * Slurm writes them, checked before they go in */
	for (size_t i = 0; i < sizeof(slurm_ids) / sizeof(slurm_ids[0]); i++) {
		const char *v = getenv(slurm_ids[i].variable);

		if (v && hm_is_digits(v, 15))
			cJSON_AddStringToObject(rec, slurm_ids[i].key, v);
	}
	return rec;
}

void hm_record_outcome(cJSON *rec, const struct hm_launcher *l, const struct hm_launcher_found *lf,
		       const struct hm_spawn_result *res, int exit_code)
{
	cJSON *launcher = cJSON_AddObjectToObject(rec, HM_REC_LAUNCHER);

	cJSON_AddStringToObject(launcher, HM_REC_LAUNCHER_NAME, l->name);
	cJSON_AddStringToObject(launcher, "program", lf->program);
	cJSON_AddStringToObject(launcher, "version", lf->version);
	cJSON_AddStringToObject(rec, HM_REC_MPIRUN_STATUS, hm_spawn_status_name(res->status));
	cJSON_AddNumberToObject(rec, HM_REC_MPIRUN_EXIT, res->exit_code);
	if (res->signal)
		cJSON_AddNumberToObject(rec, HM_REC_SIGNAL, res->signal);
	cJSON_AddNumberToObject(rec, HM_REC_WALL, res->seconds);
	cJSON_AddNumberToObject(rec, HM_REC_EXIT, exit_code);
}

cJSON *hm_record_interrupted(const struct hm_launcher *l, const struct hm_launcher_found *lf,
			     const char *stage, int sig, const char *plan_file)
{
	struct hm_spawn_result res = { HM_SPAWN_INTERRUPTED, 0, sig, 0, 0 };
	cJSON *rec = hm_record_start();

	if (!rec)
		return NULL;
	cJSON_AddStringToObject(rec, HM_REC_STAGE, stage);
	cJSON_AddNullToObject(rec, HM_REC_PLAN);
	cJSON_AddNullToObject(rec, HM_REC_MEASURED);
	hm_record_outcome(rec, l, lf, &res, 128 + sig);
	if (plan_file)
		cJSON_AddStringToObject(rec, HM_REC_PLAN_FILE, plan_file);
	return rec;
}

void hm_record_shorten(cJSON *rec, int c)
{
	cJSON *driver = cJSON_GetObjectItemCaseSensitive(rec, HM_REC_DRIVER);
	cJSON *folded = hm_fold_rank_list(cJSON_GetObjectItemCaseSensitive(driver, "ranks"), c);

	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(rec, HM_REC_PLAN), "ranks");
	if (folded) {
		cJSON_DeleteItemFromObjectCaseSensitive(driver, "ranks");
		cJSON_AddItemToObject(driver, "rank_runs", folded);
	}
}

static const cJSON *get(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

static double number_or(const cJSON *o, const char *key, double none)
{
	const cJSON *v = get(o, key);

	return cJSON_IsNumber(v) ? v->valuedouble : none;
}

static int int_or_zero(const cJSON *o, const char *key)
{
	double v = number_or(o, key, 0);

	return v >= 0 && v <= 1e9 ? (int)v : 0;
}

int hm_record_read(const cJSON *rec, struct hm_run_record *out)
{
	const cJSON *in = get(rec, HM_REC_INPUTS), *plan = get(rec, HM_REC_PLAN);
	const cJSON *prog = get(rec, HM_REC_PROGRAM);

	memset(out, 0, sizeof(*out));
	if (!cJSON_IsObject(rec) || !cJSON_IsNumber(get(rec, HM_REC_MARK)))
		return 0;
	out->routine = cJSON_GetStringValue(get(in, HM_REC_IN_ROUTINE));
	out->model = cJSON_GetStringValue(get(in, HM_REC_IN_MODEL));
	out->platform_name = cJSON_GetStringValue(get(in, HM_REC_IN_PLATFORM_NAME));
	out->digest = cJSON_GetStringValue(get(in, HM_REC_IN_DIGEST));
	out->base_digest = cJSON_GetStringValue(get(in, HM_REC_IN_BASE_DIGEST));
	if (!out->base_digest)
		out->base_digest = out->digest;
	out->n = number_or(in, HM_REC_IN_N, 0);
	out->predicted = number_or(rec, HM_REC_PREDICTED, -1);
	out->measured = number_or(rec, HM_REC_MEASURED, -1);
	out->measured_by = cJSON_GetStringValue(get(rec, HM_REC_MEASURED_BY));
	out->ratio_withheld = get(rec, HM_REC_RATIO_WITHHELD) != NULL;
	out->simulated = cJSON_IsTrue(get(rec, HM_REC_SIMULATED));
	out->exit_code = (int)number_or(rec, HM_REC_EXIT, -1);
	out->launcher = cJSON_GetStringValue(get(get(rec, HM_REC_LAUNCHER), HM_REC_LAUNCHER_NAME));
	out->program = cJSON_GetStringValue(get(prog, HM_REC_PROG_PATH));
	out->verdict = cJSON_GetStringValue(get(prog, HM_REC_PROG_VERDICT));
	if (cJSON_IsObject(plan)) {
		out->D = int_or_zero(plan, "D"), out->r = int_or_zero(plan, "r");
		out->c = int_or_zero(plan, "c"), out->b = int_or_zero(plan, "b");
		out->processes = cJSON_IsArray(get(plan, "processes")) ? get(plan, "processes") : NULL;
	}
	out->tune = cJSON_IsObject(get(rec, HM_REC_TUNE)) ? get(rec, HM_REC_TUNE) : NULL;
	return 1;
}

int hm_record_is_measurement(const struct hm_run_record *r)
{
	return r->exit_code == 0 && !r->simulated && r->processes && r->D > 0 && r->measured > 0 &&
	       r->predicted > 0 && !r->ratio_withheld && r->routine && r->n > 0;
}

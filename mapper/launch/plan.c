/* mapper/launch/plan.c - plan documents (see plan.h).
 *
 * Rank order: processors in platform order, d_i consecutive ranks each;
 * BLACS row-major puts rank k at grid position (k / c, k mod c). */
#include "plan.h"
#include "models/util/atomic_file.h"
#include "models/platform/corrections.h"
#include "models/util/strbuild.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *hm_stop_name(enum hm_stop s)
{
	static const char *const names[] = { "complete", "node budget", "time budget", "signal" };

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* The parts of a prediction, in the order a plan lists them. */
static const struct { const char *key; size_t offset; } prediction_fields[] = {
	{ "total_s", offsetof(struct hm_prediction, total) },
	{ "comp_s", offsetof(struct hm_prediction, comp) },
	{ "comp_dgemm_s", offsetof(struct hm_prediction, comp_gemm) },
	{ "comp_dtrsm_s", offsetof(struct hm_prediction, comp_trsm) },
	{ "comp_dgetf2_s", offsetof(struct hm_prediction, comp_getf2) },
	{ "comp_column_steps_s", offsetof(struct hm_prediction, comp_steps) },
	{ "comp_row_swaps_s", offsetof(struct hm_prediction, comp_swaps) },
	{ "comm_s", offsetof(struct hm_prediction, comm) },
	{ "comm_latency_s", offsetof(struct hm_prediction, comm_latency) },
	{ "comm_bandwidth_s", offsetof(struct hm_prediction, comm_bandwidth) },
	{ "comm_card_s", offsetof(struct hm_prediction, comm_card) },
};

static cJSON *prediction_json(const struct hm_prediction *pr)
{
	cJSON *o = cJSON_CreateObject();

	for (size_t i = 0; i < sizeof(prediction_fields) / sizeof(prediction_fields[0]); i++)
		cJSON_AddNumberToObject(o, prediction_fields[i].key,
					*(const double *)((const char *)pr + prediction_fields[i].offset));
	return o;
}

cJSON *hm_result_json(const struct hm_platform *p, const struct hm_result *res)
{
	cJSON *o = cJSON_CreateObject(), *procs, *ranks, *search;
	int *slot = malloc((size_t)(p->nr_procs > 0 ? p->nr_procs : 1) * sizeof(int));
	int i, k;

	if (!o || !slot || hm_platform_slots(p, slot)) {
		free(slot);
		cJSON_Delete(o);
		return NULL;
	}
	cJSON_AddStringToObject(o, "method", res->method);
	cJSON_AddBoolToObject(o, "found", res->found);
	cJSON_AddNumberToObject(o, "D", res->D);
	cJSON_AddNumberToObject(o, "r", res->r);
	cJSON_AddNumberToObject(o, "c", res->c);
	cJSON_AddNumberToObject(o, "b", res->b);
	cJSON_AddItemToObject(o, "d", cJSON_CreateIntArray(res->d, res->P));
	procs = cJSON_AddArrayToObject(o, "processes");
	ranks = cJSON_AddArrayToObject(o, "ranks");
	for (i = 0; i < res->P; i++) {
		cJSON *e;

		if (res->d[i] == 0)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "processor", p->procs[i].name);
		cJSON_AddStringToObject(e, "host", p->procs[i].host);
		cJSON_AddNumberToObject(e, "count", res->d[i]);
		cJSON_AddNumberToObject(e, "slot", slot[i]);
		cJSON_AddNumberToObject(e, "cores", p->procs[i].cores);
		if (p->procs[i].sockets > 1)
			cJSON_AddNumberToObject(e, "sockets", p->procs[i].sockets);
		if (res->threads && res->threads[i] > 1)
			cJSON_AddNumberToObject(e, "threads", res->threads[i]);
		if (p->procs[i].topology) {
			/* the launchers that bind by OS CPU numbers need them */
			cJSON_AddItemToObject(e, "core_cpus", hm_topology_core_cpus_json(p->procs[i].topology));
			if (p->procs[i].topology->threads_as_cores)
				cJSON_AddTrueToObject(e, "threads_as_cores");
		}
		cJSON_AddItemToArray(procs, e);
		for (k = 0; k < res->d[i]; k++)
			cJSON_AddItemToArray(ranks, cJSON_CreateString(p->procs[i].name));
	}
	cJSON_AddItemToObject(o, "predicted", prediction_json(&res->pred));
	search = cJSON_AddObjectToObject(o, "search");
	cJSON_AddNumberToObject(search, "evaluated", (double)res->evaluated);
	cJSON_AddNumberToObject(search, "pruned", (double)res->pruned);
	cJSON_AddNumberToObject(search, "level_reached", res->level_reached);
	cJSON_AddNumberToObject(search, "seconds", res->seconds);
	cJSON_AddNumberToObject(search, "seconds_to_best", res->seconds_to_best);
	cJSON_AddStringToObject(search, "stopped", hm_stop_name(res->stopped));
	if (res->thread_splits) {
		cJSON_AddNumberToObject(search, "thread_splits", res->thread_splits);
		cJSON_AddBoolToObject(search, "thread_splits_all", res->thread_splits_all);
	}
	free(slot);
	return o;
}

const char *hm_plan_unmeasured(const struct hm_problem *pb, const int *d, char *buf, size_t size)
{
	const struct hm_platform *p = pb->platform;
	size_t len = 0;

	buf[0] = '\0';
	if (pb->routine != HM_ROUTINE_LU)
		return buf;
	for (int t = 0; t < p->nr_types; t++) {
		const struct hm_proc_type *ty = &p->types[t];
		int used = 0;

		for (int i = 0; i < p->nr_procs && !used; i++)
			used = d[i] && p->procs[i].type == t;
		for (int s = 0; s < HM_NR_LU_STEPS && used; s++) {
			const char *what = hm_lu_step_info(s)->what;

			if (ty->step_from[s] == HM_STEP_PRICED)
				hm_buf_addf(buf, size, &len, "%s%s of %s (priced from %s's by their panel speeds)",
					    len ? "; " : "", what, ty->name, p->types[ty->step_source[s]].name);
			else if (ty->step_from[s] == HM_STEP_DEFAULT)
				hm_buf_addf(buf, size, &len, "%s%s of %s (default: %s)", len ? "; " : "", what,
					    ty->name, hm_lu_step_info(s)->evidence);
		}
	}
	return buf;
}

cJSON *hm_plan_json(const struct hm_plan_inputs *in, const struct hm_result *res)
{
	const struct hm_problem *pb = in->pb;
	cJSON *o = cJSON_CreateObject(), *inputs, *plan;
	char unmeasured[512];

	if (!o)
		return NULL;
	cJSON_AddNumberToObject(o, "hetmap_plan", 1);
	inputs = cJSON_AddObjectToObject(o, "inputs");
	cJSON_AddStringToObject(inputs, "platform", in->platform_path);
	cJSON_AddStringToObject(inputs, "platform_name", pb->platform->name);
	{
		char digest[32];

		cJSON_AddStringToObject(inputs, "platform_digest", hm_digest_text(pb->platform->digest, digest, sizeof(digest)));
		/* learned corrections: the measured platform they correct, and how */
		if (pb->platform->corrections_note[0]) {
			cJSON_AddStringToObject(inputs, "platform_base_digest",
						hm_digest_text(pb->platform->base_digest, digest, sizeof(digest)));
			cJSON_AddStringToObject(inputs, "corrections", pb->platform->corrections_note);
		}
	}
	cJSON_AddStringToObject(inputs, "routine", hm_routine_name(pb->routine));
	cJSON_AddNumberToObject(inputs, "n", pb->n);
	cJSON_AddNumberToObject(inputs, "depth", pb->depth);
	cJSON_AddStringToObject(inputs, "model", pb->model->name);
	if (pb->shape.b)
		cJSON_AddNumberToObject(inputs, "block_size", pb->shape.b);
	if (pb->shape.rows_le_cols)
		cJSON_AddBoolToObject(inputs, "rows_le_cols", 1);
	if (in->budget) {
		cJSON_AddNumberToObject(inputs, "max_nodes", (double)in->budget->max_nodes);
		cJSON_AddNumberToObject(inputs, "max_seconds", in->budget->max_seconds);
	}
	cJSON_AddItemToObject(o, "plan", plan = hm_result_json(pb->platform, res));
	if (plan && res->found && hm_plan_unmeasured(pb, res->d, unmeasured, sizeof(unmeasured))[0])
		cJSON_AddStringToObject(plan, "unmeasured", unmeasured);
	return o;
}

int hm_json_write(const char *path, const cJSON *json, struct hm_error *err)
{
	char *text = cJSON_Print(json);
	size_t len;
	int ret;

	if (!text)
		return hm_error_set(err, "out of memory");
	len = strlen(text);
	text[len] = '\n';   /* cJSON_Print's NUL becomes the final newline */
	ret = hm_write_file_atomic(path, text, len + 1, err);
	free(text);
	return ret;
}

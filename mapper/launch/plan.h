/* mapper/launch/plan.h - a plan as a JSON document (mapper/README.md, "Plans"): the inputs echoed,
 * the decision (d, D, r x c, b and the rank order), the predicted time
 * with its parts and the search statistics. */
#ifndef HM_PLAN_H
#define HM_PLAN_H

#include <cJSON.h>
#include "search/search.h"

/* What the plan was made from, echoed into it. */
struct hm_plan_inputs {
	const char *platform_path;  /* as given: a file or builtin:NAME */
	const struct hm_problem *pb;
	const struct hm_budget *budget; /* NULL for users and predictions */
};

/* The result as a JSON object (for tables and plan files). Caller frees
 * with cJSON_Delete(); NULL when out of memory. */
cJSON *hm_result_json(const struct hm_platform *p, const struct hm_result *res);

/* A full plan document; NULL when out of memory. */
cJSON *hm_plan_json(const struct hm_plan_inputs *in, const struct hm_result *res);

/* LU's steps not measured on a type the configuration d uses: charged
 * nothing, or a column step priced from another type's (platform.h), as
 * "column step of T1 (charged nothing)", into buf; "" when none (or GEMM,
 * which has none). Said in the plan ("unmeasured") and beside its
 * prediction. */
const char *hm_plan_unmeasured(const struct hm_problem *pb, const int *d, char *buf, size_t size);

/* Serialise 'json' and write it atomically to 'path'. 0 or -1 with 'err'. */
int hm_json_write(const char *path, const cJSON *json, struct hm_error *err);

/* Name of a stop reason: "complete", "node budget", "time budget". */
const char *hm_stop_name(enum hm_stop s);

#endif /* HM_PLAN_H */

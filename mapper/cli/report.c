/* mapper/cli/report.c - human-readable results and output formats. */
#include "cli.h"
#include "mapper/launch/plan.h"

#include <cJSON.h>

#include <string.h>
#include <strings.h>

/* No configuration fits: what the matrices need against what the
 * processors hold (those that give their memory). */
static void say_memory(FILE *f, const struct hm_problem *pb, const char *method)
{
	const struct hm_platform *p = pb->platform;
	double need = hm_bytes_per_process(pb->routine, pb->n, 1), have = 0;

	for (int i = 0; i < p->nr_procs; i++)
		have += p->procs[i].memory;
	fprintf(f, "%s: no configuration fits in memory: %s n=%.0f needs %.3g GiB of matrices and workspace "
		"in all, the processors hold %.3g GiB (within the depth limit %d)\n", method,
		hm_routine_name(pb->routine), pb->n, need / 1073741824.0, have / 1073741824.0, pb->depth);
}

void hm_print_result(FILE *f, const struct hm_problem *pb, const struct hm_result *res)
{
	const struct hm_platform *p = pb->platform;
	const struct hm_prediction *t = &res->pred;
	char unmeasured[512];
	int i, shown = 0;

	if (!res->found) {
		if (res->stopped)
			fprintf(f, "%s: stopped by the %s before any configuration was found\n",
				res->method, res->stopped == HM_STOP_NODES ? "node budget" : "time budget");
		else
			say_memory(f, pb, res->method);
		return;
	}
	fprintf(f, "%s plan for %s n=%.0f on %s (%d processor%s), model %s\n",
		res->method, hm_routine_name(pb->routine), pb->n, p->name, p->nr_procs, HM_PLURAL(p->nr_procs),
		pb->model->name);
	if (p->corrections_note[0])     /* the platform's learned corrections (hetmap learn) */
		fprintf(f, "  corrected    %s\n", p->corrections_note);
	fprintf(f, "  processes    D = %d on a %d x %d grid, block size b = %d\n",
		res->D, res->r, res->c, res->b);
	fprintf(f, "  placement   ");
	for (i = 0; i < res->P; i++) {
		if (!res->d[i])
			continue;
		if (shown++ == 12) {
			fprintf(f, " ...");
			break;
		}
		fprintf(f, " %s:%d", p->procs[i].name, res->d[i]);
		if (res->threads && res->threads[i] > 1)
			fprintf(f, "x%dt", res->threads[i]);   /* ranks of t BLAS threads */
	}
	fprintf(f, "\n  predicted    %.6g s = computation %.6g s + communication %.6g s\n",
		t->total, t->comp, t->comm);
	fprintf(f, "               computation: dgemm %.6g s, dtrsm %.6g s, dgetf2 %.6g s", t->comp_gemm,
		t->comp_trsm, t->comp_getf2);
	if (t->comp_steps > 0 || t->comp_swaps > 0)
		fprintf(f, ",\n                            column steps %.6g s, row interchanges %.6g s",
			t->comp_steps, t->comp_swaps);
	fprintf(f, "\n");
	if (hm_plan_unmeasured(pb, res->d, unmeasured, sizeof(unmeasured))[0])
		fprintf(f, "               not measured: %s\n", unmeasured);
	fprintf(f, "               communication: latency %.6g s, bandwidth %.6g s", t->comm_latency,
		t->comm_bandwidth);
	if (t->comm_card > 0)
		fprintf(f, ", cards shared %.6g s", t->comm_card);
	fprintf(f, "\n");
	fprintf(f, "  search       %ld node%s evaluated, %ld pruned, level %d reached, %.3g s (best after %.3g s)%s%s\n",
		res->evaluated, HM_PLURAL(res->evaluated), res->pruned, res->level_reached, res->seconds,
		res->seconds_to_best, res->stopped ? ", STOPPED by the " : "",
		res->stopped == HM_STOP_NODES ? "node budget" :
		res->stopped == HM_STOP_TIME ? "time budget" : "");
	if (res->thread_splits)
		fprintf(f, "  threads      %d split%s of the cores into ranks x threads priced%s\n",
			res->thread_splits, res->thread_splits == 1 ? "" : "s",
			res->thread_splits_all ? " (all)" : res->stopped ? " (stopped before all)"
			: " (a descent: not all)");
}

int hm_format_parse(const char *cmd, const char *text, unsigned allowed)
{
	static const char *const names[] = { "text", "csv", "json", NULL };
	const char *near;
	int i;

	for (i = 0; i < 3; i++)
		if (!strcasecmp(text, names[i]) && (allowed & (1u << i)))
			return i;
	near = hm_nearest_name(text, names);
	hm_say_error("%s: unknown format '%s'%s%s%s (expected %s%s%s)", cmd, text, HM_DID_YOU_MEAN(near),
		     "text", allowed & 2 ? ", csv" : "", allowed & 4 ? " or json" : "");
	return -1;
}

const char *hm_format_counts(const int *d, int P, char *buf, size_t size)
{
	size_t len = 0;
	int i = 0;

	buf[0] = '\0';
	len += (size_t)snprintf(buf, size, "[");
	while (i < P && len < size) {
		int j = i;

		while (j < P && d[j] == d[i])
			j++;
		if (j - i > 1)
			len += (size_t)snprintf(buf + len, size - len, "%s%d*%d",
						i ? "," : "", d[i], j - i);
		else
			len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "," : "", d[i]);
		i = j;
	}
	if (len < size)
		snprintf(buf + len, size - len, "]");
	return buf;
}

const char *hm_format_threads(const struct hm_result *r, char *buf, size_t size)
{
	if (!r->threads) {
		snprintf(buf, size, "1");
		return buf;
	}
	return hm_format_counts(r->threads, r->P, buf, size);
}

const char *hm_printable(const char *text, char *buf, size_t size)
{
	size_t n = 0;

	for (const unsigned char *s = (const unsigned char *)text; *s && n + 5 < size; s++)
		if (*s < 0x20 || *s == 0x7f)
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", *s);
		else
			buf[n++] = (char)*s;
	buf[n] = '\0';
	return buf;
}

void hm_report_depth_limit(FILE *f, const struct hm_problem *pb, const struct hm_result *res,
			   double max_seconds, cJSON *plan)
{
	struct hm_problem wider = *pb;
	/* a tenth of the search's own budget, a second at most */
	struct hm_budget quick = { 0, max_seconds > 0 && max_seconds < 10 ? max_seconds / 10 : 1 };
	struct hm_result more;
	struct hm_error err;
	cJSON *note;

	const struct hm_method *m = hm_method_find(res->method);

	/* users ignore the limit: only a search can be held back by it */
	if (!res->found || res->D < pb->depth || pb->depth >= HM_MAX_DEPTH || !m ||
	    m->kind != HM_METHOD_SEARCH)
		return;
	/* what more processes would give, by the fast greedy method */
	wider.depth = 2 * pb->depth < HM_MAX_DEPTH ? 2 * pb->depth : HM_MAX_DEPTH;
	if (hm_search(hm_method_find("GPTM"), &wider, &quick, &more, &err) || !more.found) {
		hm_result_release(&more);
		return;
	}
	/* said beside a text plan, and beside a JSON one unless -q (its
	 * "depth_limit" member says it too) */
	if (f == stdout || hm_verbosity > 0) {
		long cores = hm_platform_cores(pb->platform);

		if (more.eet < res->eet)
			fprintf(f, "  depth limit  the plan uses all %d processes the depth allows; with up to "
				"%d the model predicts %.6g s (%.1f %% less): raise -d\n", pb->depth,
				wider.depth, more.eet, 100 * (1 - more.eet / res->eet));
		else
			fprintf(f, "  depth limit  the plan uses all %d processes the depth allows; up to %d "
				"gave no better plan (GPTM%s)\n", pb->depth, wider.depth,
				wider.depth > cores ? ": past the platform's cores, ranks would share them" : "");
	}
	if (plan && (note = cJSON_AddObjectToObject(plan, "depth_limit"))) {
		cJSON_AddBoolToObject(note, "reached", 1);
		cJSON_AddNumberToObject(note, "wider_depth", wider.depth);
		cJSON_AddNumberToObject(note, "wider_predicted_s", more.eet);
		cJSON_AddNumberToObject(note, "wider_D", more.D);
	}
	hm_result_release(&more);
}

void hm_judge_print(FILE *f, const cJSON *record)
{
	const cJSON *e;

	fprintf(f, "  judge        SMPI, kernels modeled; decided by the %s: %s\n",
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(record, "decided_by")),
		cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(record, "chosen")));
	fprintf(f, "               %-10s %5s %11s %5s %12s %12s  %s\n", "candidate", "D", "grid", "b",
		"predicted", "simulated", "status");
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(record, "candidates")) {
		const cJSON *sim = cJSON_GetObjectItemCaseSensitive(e, "simulated_s");
		char grid[32], simt[32];

		snprintf(grid, sizeof(grid), "%d x %d",
			 cJSON_GetObjectItemCaseSensitive(e, "r")->valueint,
			 cJSON_GetObjectItemCaseSensitive(e, "c")->valueint);
		if (cJSON_IsNumber(sim))
			snprintf(simt, sizeof(simt), "%.4g s", sim->valuedouble);
		else
			snprintf(simt, sizeof(simt), "-");
		const char *same = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "same_as"));

		fprintf(f, "               %-10s %5d %11s %5d %10.4g s %12s  %s%s\n",
			cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "label")),
			cJSON_GetObjectItemCaseSensitive(e, "D")->valueint, grid,
			cJSON_GetObjectItemCaseSensitive(e, "b")->valueint,
			cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(e, "predicted_s")), simt,
			same ? "same as " : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "status")),
			same ? same : "");
	}
}

/* mapper/cli/cmd_compare.c - 'hetmap compare': every method and modeled user
 * on one problem, with the ratio of each to the exhaustive optimum. */
#include "cli.h"
#include "mapper/launch/plan.h"
#include "models/platform/threads.h"
#include "models/util/clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct hm_usage usage = {
	"compare",
	"hetmap compare [-p FILE] [-r lu|gemm] [-n N] [-d DEPTH] [--methods LIST] [-f text|csv|json]",
	"Run the exact optimizer, BTM, BGRM, GRM, GCTM, GPTM and the modeled\n"
	"users GU, CU, EU (or the --methods given) on one problem and print one\n"
	"row each: the decision, its predicted time, its ratio to the model\n"
	"optimum, the time to solution, nodes evaluated and the level reached.",
	"The optimum is the first of 'exact' or 'exhaustive' in the list that\n"
	"completes. --max-time is the whole comparison's: each run gets an equal\n"
	"share of the time left, and a run that ends early leaves its share to\n"
	"the rest; --max-nodes bounds each run. Runs a budget stopped are listed\n"
	"under the table. If no exact run completes, ratios are to the best time\n"
	"any run found, and the table says so.\n"
	"example: hetmap compare -p builtin:sunet -n 7680 -d 25 --methods exhaustive,exact,BTM,GPTM,GU",
};

#define MAX_ROWS 32
#define DEFAULT_METHODS "exact,BTM,BGRM,GRM,GCTM,GPTM,GU,CU,EU"

static int is_exact(const char *name)
{
	return !strcmp(name, "exact") || !strcmp(name, "exhaustive");
}

/* The comma-separated 'list' into 'names' (its copy) and name[]; every
 * name between commas counts (",BTM" or "BTM,,GU" is an error, not a
 * shorter list) and must be a method's: checked before any work. */
struct method_list {
	char names[512];
	const char *name[MAX_ROWS];
	int count;
};

static int parse_list(const char *list, struct method_list *ml)
{
	char *next;
	int ret;

	ml->count = 0;
	if (strlen(list) >= sizeof(ml->names)) {
		hm_say_error("compare: --methods list too long");
		return HM_EXIT_USAGE;
	}
	strcpy(ml->names, list);
	for (char *n = ml->names; n; n = next) {
		if ((next = strchr(n, ',')))
			*next++ = '\0';
		if (!*n) {
			hm_say_error("compare: empty method name in --methods '%s'", list);
			return HM_EXIT_USAGE;
		}
		if (ml->count == MAX_ROWS) {
			hm_say_error("compare: at most %d methods", MAX_ROWS);
			return HM_EXIT_USAGE;
		}
		if ((ret = hm_method_check("compare", n)))
			return ret;
		ml->name[ml->count++] = n;
	}
	return HM_EXIT_OK;
}

/* Run every method of 'ml' that takes the problem; rows filled, an exit
 * code. The time budget is the comparison's: each run gets an equal share
 * of what is left (a run that ends early leaves its share to the others),
 * so the whole stays within it. */
static int run_list(const struct method_list *ml, const struct hm_problem *pb, const struct hm_budget *budget,
		    struct hm_result *rows, int *nr, double *shares)
{
	const char *name[MAX_ROWS];
	int count = 0;
	double start = hm_now();

	for (int k = 0; k < ml->count; k++) {
		const struct hm_method *m = hm_method_find(ml->name[k]);
		struct hm_error err;

		if (hm_method_applies(m, pb, &err))
			/* one method that cannot take the problem does not stop the rest */
			fprintf(stderr, "hetmap: compare: %s skipped: %s\n", m->name, err.msg);
		else
			name[count++] = ml->name[k];
	}
	for (int i = 0; i < count; i++) {
		struct hm_budget b = *budget;
		double left = budget->max_seconds - (hm_now() - start);
		int ret;

		if (budget->max_seconds > 0)
			b.max_seconds = (left > 0 ? left : 1e-3) / (count - i);
		shares[*nr] = b.max_seconds;
		if (b.max_seconds > 0)
			hm_say_note("hetmap: compare: running %s (at most %.3g s of the %.3g s left)...\n",
				name[i], b.max_seconds, left);
		else
			hm_say_note("hetmap: compare: running %s...\n", name[i]);
		if ((ret = hm_run_named(name[i], pb, &b, &rows[*nr])))
			return ret;
		(*nr)++;
	}
	return HM_EXIT_OK;
}

/* Under the table: which runs a budget stopped, so that no one reads
 * their row as the method's answer. */
static void print_stopped(const struct hm_result *rows, int nr, const double *shares)
{
	for (int i = 0; i < nr; i++)
		if (rows[i].stopped != HM_STOP_COMPLETE)
			printf("%s was stopped by its %s (%.3g s of the comparison's budget) after %ld nodes: "
			       "its row is the best it had found%s\n", rows[i].method, hm_stop_name(rows[i].stopped),
			       shares[i], rows[i].evaluated, rows[i].found ? "" : " (none)");
}

static void print_text(const struct hm_problem *pb, struct hm_result *rows, int nr,
		       double ref, int ref_exact)
{
	int i;

	printf("%s n=%.0f on %s (%d processor%s), depth %d, model %s\n", hm_routine_name(pb->routine),
	       pb->n, pb->platform->name, pb->platform->nr_procs, HM_PLURAL(pb->platform->nr_procs), pb->depth,
	       pb->model->name);
	printf("ratio: predicted time / %s\n\n", ref_exact ? "the model optimum"
			: "the best time found (NO exact run completed)");
	printf("%-10s %-28s %-10s %5s %4s %7s %12s %8s %10s %10s %9s %5s\n", "method", "d", "threads", "D", "b",
	       "grid", "predicted_s", "ratio", "time_s", "nodes", "pruned", "level");
	for (i = 0; i < nr; i++) {
		const struct hm_result *r = &rows[i];
		char d[512], t[512], grid[32];

		hm_format_counts(r->d, r->P, d, sizeof(d));
		hm_format_threads(r, t, sizeof(t));
		snprintf(grid, sizeof(grid), "%dx%d", r->r, r->c);
		printf("%-10s %-28s %-10s %5d %4d %7s %12.6g %8.4f %10.3g %10ld %9ld %5d%s\n", r->method, d, t,
		       r->D, r->b, grid, r->eet, r->eet / ref, r->seconds, r->evaluated, r->pruned,
		       r->level_reached, r->stopped ? "  (stopped)" : "");
	}
}

static void print_csv(const struct hm_problem *pb, struct hm_result *rows, int nr, double ref)
{
	int i;

	printf("platform,routine,n,depth,model,method,d,D,r,c,b,predicted_s,comp_s,comm_s,ratio,"
	       "time_s,time_to_best_s,nodes,pruned,level,stopped,processors,threads\n");
	for (i = 0; i < nr; i++) {
		const struct hm_result *r = &rows[i];
		char d[4096], t[4096];

		hm_format_counts(r->d, r->P, d, sizeof(d));
		hm_format_threads(r, t, sizeof(t));
		printf("%s,%s,%.0f,%d,%s,%s,\"%s\",%d,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.6g,%.6g,%ld,%ld,%d,%s,%d,\"%s\"\n",
		       pb->platform->name, hm_routine_name(pb->routine), pb->n, pb->depth,
		       pb->model->name, r->method, d, r->D, r->r, r->c, r->b, r->eet, r->pred.comp,
		       r->pred.comm, r->eet / ref, r->seconds, r->seconds_to_best, r->evaluated,
		       r->pruned, r->level_reached, hm_stop_name(r->stopped), pb->platform->nr_procs, t);
	}
}

/* The comparison as one JSON document (NULL when out of memory). */
static cJSON *compare_json(const struct hm_problem *pb, const char *path, struct hm_result *rows,
			   int nr, double ref, int ref_exact, double budget_s, const double *shares)
{
	cJSON *o = cJSON_CreateObject(), *arr;
	int i;

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "platform", path);
	cJSON_AddStringToObject(o, "platform_name", pb->platform->name);
	cJSON_AddStringToObject(o, "routine", hm_routine_name(pb->routine));
	cJSON_AddNumberToObject(o, "n", pb->n);
	cJSON_AddNumberToObject(o, "depth", pb->depth);
	cJSON_AddStringToObject(o, "model", pb->model->name);
	cJSON_AddNumberToObject(o, "reference_s", ref);
	cJSON_AddBoolToObject(o, "reference_is_optimum", ref_exact);
	cJSON_AddNumberToObject(o, "budget_s", budget_s);
	arr = cJSON_AddArrayToObject(o, "results");
	for (i = 0; i < nr; i++) {
		cJSON *r = hm_result_json(pb->platform, &rows[i]);

		cJSON_AddNumberToObject(r, "ratio", rows[i].eet / ref);
		cJSON_AddNumberToObject(r, "budget_s", shares[i]);
		cJSON_AddItemToArray(arr, r);
	}
	return o;
}

int cmd_compare(int argc, char **argv)
{
	struct hm_problem_opts po;
	struct hm_budget budget = { 0, HM_DEFAULT_MAX_TIME };
	const char *format = "text";
	struct hm_result rows[MAX_ROWS];
	double shares[MAX_ROWS];
	static const char default_methods[] = DEFAULT_METHODS;
	const char *methods = default_methods, *json_out = NULL;
	struct method_list ml;
	struct hm_problem pb;
	struct hm_platform *p = NULL;
	int stop, fmt, ret, nr = 0, i, ref_exact;
	double ref = INFINITY;

	hm_problem_opts_init(&po);
	{
		const struct hm_option opts[] = {
			HM_PROBLEM_OPTIONS(po),
			HM_HISTORY_OPTION(po),
			HM_DEPTH_OPTION(po),
			{ 0, "max-nodes", HM_OPT_LONG, &budget.max_nodes, "N", "node budget of each run (default: none)", 0, 1e15 },
			{ 0, "max-time", HM_OPT_DOUBLE, &budget.max_seconds, "S", "time budget of the whole comparison, shared by the runs (default " HM_STR(HM_DEFAULT_MAX_TIME) " s; 0 = none)", 0, 1e9 },
			{ 'M', "methods", HM_OPT_STRING, &methods, "LIST", "methods and users to run (default " DEFAULT_METHODS ", and HU where a type has thread speed-ups)", 0, 0 },
			HM_FORMAT_OPTION(format, "text, csv or json"),
			{ 'o', "output", HM_OPT_STRING, &json_out, "FILE", "also write the JSON document there (atomically)", 0, 0 },
			HM_OPT_TABLE_END,
		};

		stop = hm_options_parse_only(&usage, opts, argc, argv);
	}
	if (stop >= 0)
		return stop;
	if ((fmt = hm_format_parse("compare", format, 1 | 2 | 4)) < 0)
		return HM_EXIT_USAGE;
	if ((ret = parse_list(methods, &ml)))
		return ret;
	ret = hm_problem_open("compare", &po, &pb, &p);
	if (ret)
		return ret;
	/* HPL's habit (a rank per socket, its cores as threads) is a user's
	 * choice wherever a type knows ranks of threads */
	if (methods == default_methods && hm_platform_has_threads(p) && ml.count < MAX_ROWS)
		ml.name[ml.count++] = "HU";
	if ((ret = run_list(&ml, &pb, &budget, rows, &nr, shares)))
		goto cleanup;
	/* the reference: the first exact run that completed, else the best found */
	ref_exact = 0;
	for (i = 0; i < nr && !ref_exact; i++)
		if (is_exact(rows[i].method) && rows[i].found && rows[i].stopped == HM_STOP_COMPLETE) {
			ref_exact = 1;
			ref = rows[i].eet;
		}
	for (i = 0; i < nr && !ref_exact; i++)
		if (rows[i].eet < ref)
			ref = rows[i].eet;
	if (fmt == HM_FORMAT_TEXT) {
		print_text(&pb, rows, nr, ref, ref_exact);
		print_stopped(rows, nr, shares);
	}
	else if (fmt == HM_FORMAT_CSV)
		print_csv(&pb, rows, nr, ref);
	if (fmt == HM_FORMAT_JSON || json_out) {
		/* one run, two forms: a study needs the table and the document */
		cJSON *doc = compare_json(&pb, po.platform, rows, nr, ref, ref_exact, budget.max_seconds, shares);
		char *text = fmt == HM_FORMAT_JSON && doc ? cJSON_Print(doc) : NULL;
		struct hm_error err;

		hm_error_clear(&err);
		if (!doc || (fmt == HM_FORMAT_JSON && !text))
			ret = HM_EXIT_FAILURE;
		else if (text)
			printf("%s\n", text);
		if (doc && json_out && hm_json_write(json_out, doc, &err)) {
			hm_say_report(&err);
			ret = HM_EXIT_OUTPUT;
		}
		free(text);
		cJSON_Delete(doc);
	}
cleanup:
	for (i = 0; i < nr; i++)
		hm_result_release(&rows[i]);
	hm_platform_free(p);
	return ret;
}

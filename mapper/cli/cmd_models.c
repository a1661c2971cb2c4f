/* mapper/cli/cmd_models.c - 'hetmap models': the execution-time models
 * with their status (default, reference, candidate), what each models and
 * the evidence for its status, all from the registry's rows (models/model.c). */
#include "cli.h"
#include "models/model_scores.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct hm_usage usage = {
	"models",
	"hetmap models [-f text|json]",
	"The execution-time models, their status and the evidence for it: each\n"
	"model's error (MAPE) and rank correlation (mean Spearman over a set's\n"
	"groups) on every committed set of runs, real runs first (this machine,\n"
	"the emulated cluster, the thesis's TORC table), then simulated ones\n"
	"(SMPI). The default plans unless -m names another, chosen by the real\n"
	"runs; the reference is the thesis's model; a candidate is offered with -m\n"
	"and scored on every study (experiments/README.md) until it becomes the\n"
	"default or is deleted.",
	"exit codes: 0 listed; 3 bad usage.\nexample:\n  hetmap models -f json",
};

/* 'text' after 'label', wrapped at 78 columns, continuation lines indented
 * by 'indent'. */
static void print_wrapped(const char *label, const char *text, int indent)
{
	int col = printf("%*s%s", indent, "", label);

	while (*text) {
		size_t word = strcspn(text, " ");

		if (col + 1 + (int)word > 78 && col > indent + (int)strlen(label)) {
			printf("\n%*s", indent + (int)strlen(label), "");
			col = indent + (int)strlen(label);
		} else if (col > indent + (int)strlen(label)) {
			col += printf(" ");
		}
		col += printf("%.*s", (int)word, text);
		text += word;
		text += strspn(text, " ");
	}
	printf("\n");
}

enum { MAX_SCORES = 64 };

static cJSON *scores_json(const char *name)
{
	struct hm_model_score sc[MAX_SCORES];
	int n = hm_model_scores(name, sc, MAX_SCORES);
	cJSON *list = cJSON_CreateArray();

	for (int i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "set", sc[i].set);
		cJSON_AddStringToObject(o, "kind", sc[i].real ? "real" : "simulated");
		cJSON_AddNumberToObject(o, "configurations", sc[i].configurations);
		cJSON_AddNumberToObject(o, "mape_percent", sc[i].mape);
		cJSON_AddNumberToObject(o, "spearman", sc[i].spearman);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

/* A model's scores, one line a set, real runs first. */
static void print_scores(const char *name)
{
	struct hm_model_score sc[MAX_SCORES];
	int n = hm_model_scores(name, sc, MAX_SCORES);

	for (int i = 0; i < n; i++)
		printf("%8s%-10s %-34s %3d configurations  MAPE %5.1f %%  Spearman %6.3f\n", "",
		       i == 0 || sc[i].real != sc[i - 1].real ? (sc[i].real ? "real:" : "simulated:") : "",
		       sc[i].set, sc[i].configurations, sc[i].mape, sc[i].spearman);
}

static int print_json(void)
{
	cJSON *list = cJSON_CreateArray();
	char *text;

	for (const struct hm_model *const *m = hm_model_list(); *m; m++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", (*m)->name);
		cJSON_AddStringToObject(o, "status", hm_model_status_name((*m)->status));
		cJSON_AddStringToObject(o, "summary", (*m)->summary);
		cJSON_AddStringToObject(o, "evidence", (*m)->evidence);
		cJSON_AddItemToObject(o, "scores", scores_json((*m)->name));
		cJSON_AddItemToArray(list, o);
	}
	if (!(text = cJSON_PrintUnformatted(list))) {
		cJSON_Delete(list);
		hm_say_error("models: out of memory");
		return HM_EXIT_FAILURE;
	}
	printf("%s\n", text);
	free(text);
	cJSON_Delete(list);
	return HM_EXIT_OK;
}

int cmd_models(int argc, char **argv)
{
	const char *format = "text";
	const struct hm_option opts[] = {
		HM_FORMAT_OPTION(format, "text or json"),
		HM_OPT_TABLE_END,
	};
	int ret = hm_options_parse_only(&usage, opts, argc, argv), f;

	if (ret >= 0)
		return ret;
	if ((f = hm_format_parse("models", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	if (f == HM_FORMAT_JSON)
		return print_json();
	for (const struct hm_model *const *m = hm_model_list(); *m; m++) {
		printf("%-7s %s\n", (*m)->name, hm_model_status_name((*m)->status));
		print_wrapped("models:   ", (*m)->summary, 8);
		print_wrapped("evidence: ", (*m)->evidence, 8);
		print_scores((*m)->name);
	}
	return HM_EXIT_OK;
}

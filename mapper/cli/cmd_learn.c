/* mapper/cli/cmd_learn.c - 'hetmap learn': corrections to a platform's
 * measured terms, learned from its measured runs (mapper/tune/learn.h),
 * written into a copy of the platform that every command then plans with. */
#include "cli.h"
#include "mapper/tune/learn.h"
#include "models/platform/corrections.h"
#include "models/util/atomic_file.h"
#include "mapper/launch/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char description[] =
	"Learn a few corrections to the model's terms from the platform's measured\n"
	"runs (the records 'run' and 'tune' append; runs that failed, were\n"
	"simulated, or ran on another platform are left out and counted): a\n"
	"factor on each type's computation (or on each phase of LU: dgemm, dtrsm,\n"
	"panel, swaps), on the links, on the thread speed-ups. Each set of terms\n"
	"(below) the runs can tell apart is fitted by least squares on the logs of\n"
	"measured over predicted time, the model re-pricing every run; the set of\n"
	"least AICc is kept. -o writes the platform with them (its \"corrections\",\n"
	"and the runs they rest on): the loader applies them, every plan says so.\n"
	"--check scores the learned model on other runs (another n, another\n"
	"routine): out of sample.";
static const char epilog[] =
	"The measured values stay in the file as they were: learning again from\n"
	"a corrected platform starts from them.\n"
	"exit codes: 0 learned; 2 a results file or the platform cannot be read, or\n"
	"too few runs; 3 bad usage; 4 the output cannot be written.\n"
	"examples:\n"
	"  hetmap learn runs.jsonl -p cluster.json -o cluster-learned.json\n"
	"  hetmap learn lu-3000.jsonl -p cluster.json --check lu-6000.jsonl";

/* The runs of the n results files on p into h; an exit code. */
static int read_runs(struct hm_history *h, const struct hm_platform *p, const char *const *files, int n)
{
	struct hm_error err;

	hm_history_init(h, p);
	for (int i = 0; i < n; i++)
		if (hm_history_read(h, p, files[i], &err)) {
			hm_say_report(&err);
			return HM_EXIT_INPUT;
		}
	return HM_EXIT_OK;
}

static void print_factors(const struct hm_platform *p, const struct hm_learned *l)
{
	for (int ty = 0; ty < p->nr_types; ty++) {
		for (int ph = 0; ph < HM_NR_PHASES; ph++) {
			double f = l->f.compute[ty * HM_NR_PHASES + ph], se = l->se.compute[ty * HM_NR_PHASES + ph];

			if (f != 1)
				printf("  %-8s %-20s x%.4g (+-%.1f %%)\n", hm_phase_name(ph), p->types[ty].name, f,
				       100 * (exp(se) - 1));
		}
		if (l->f.threads[ty] != 1)
			printf("  threads  %-20s x%.4g (+-%.1f %%)\n", p->types[ty].name, l->f.threads[ty],
			       100 * (exp(l->se.threads[ty]) - 1));
	}
	if (l->f.comm != 1)
		printf("  communication %-15s x%.4g (+-%.1f %%)\n", "", l->f.comm, 100 * (exp(l->se.comm) - 1));
}

static void print_text(const struct hm_platform *p, const struct hm_history *h, const struct hm_learned *l,
		       const struct hm_history *check, const double *out)
{
	printf("learned from %d runs (%d configurations) of %s; left out: %ld of another platform, %ld without "
	       "a measurement, %ld unreadable lines\n", l->runs, l->configurations, p->name, h->other_platform,
	       h->not_measured, h->unreadable);
	printf("  %-52s %10s %8s\n", "terms", "parameters", "AICc");
	for (int s = 0; s < l->nr_sets; s++)
		if (l->sets[s].parameters >= 0)
			printf("  %-52s %10d %8.1f%s\n", l->sets[s].terms, l->sets[s].parameters, l->sets[s].aicc,
			       !strcmp(l->sets[s].terms, l->terms) ? "  kept" : "");
	print_factors(p, l);
	printf("in sample:     MAPE %.1f %% -> %.1f %%, Spearman %.3f -> %.3f\n", l->mape_before, l->mape_after,
	       l->spearman_before, l->spearman_after);
	if (l->caveat[0])
		printf("caveat: %s\n", l->caveat);
	if (check)
		printf("out of sample: MAPE %.1f %% -> %.1f %%, Spearman %.3f -> %.3f (%d runs)\n", out[0], out[1],
		       out[2], out[3], check->n);
}

int cmd_learn(int argc, char **argv)
{
	const char *platform = NULL, *output = NULL, *model_name = NULL, *format = "text";
	struct hm_opt_list check = { .n = 0 };
	const struct hm_option opts[] = {
		{ 'p', "platform", HM_OPT_STRING, &platform, "FILE", "the platform the runs were planned on (required)", 0, 0 },
		{ 'o', "output", HM_OPT_STRING, &output, "FILE", "write the platform with the corrections there (atomically)", 0, 0 },
		{ 'm', "model", HM_OPT_STRING, &model_name, "NAME", hm_help_models(), 0, 0 },
		{ 0, "check", HM_OPT_LIST, &check, "RESULTS", "score the corrections on these runs too, out of sample (repeatable)", 0, HM_OPT_LIST_MAX },
		HM_FORMAT_OPTION(format, "text or json"),
		HM_OPT_TABLE_END,
	};
	const struct hm_model *m;
	struct hm_platform *p = NULL;
	struct hm_history h = { 0 }, test = { 0 };
	struct hm_learned l = { 0 };
	struct hm_error err;
	cJSON *doc = NULL, *corr = NULL;
	double out[4] = { NAN, NAN, NAN, NAN };
	int first, fmt, ret = HM_EXIT_OK;
	char names[600], help_end[1200];
	/* the term sets said from the table learn fits */
	const struct hm_usage usage = { "learn", "hetmap learn RESULTS.jsonl... -p PLATFORM [-o PLATFORM2] [-m MODEL] "
					"[--check RESULTS]", description, help_end };

	snprintf(help_end, sizeof(help_end), "term sets, in the order tried:\n  %s\n\n%s",
		 hm_learn_term_sets("\n  ", names, sizeof(names)), epilog);

	hm_options_anywhere = 1;
	first = hm_options_parse(&usage, opts, argc, argv);
	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0 || (fmt = hm_format_parse("learn", format, 1 | 4)) < 0)
		return HM_EXIT_USAGE;
	if (first >= argc || !platform) {
		hm_say_error("learn: name the results files and the platform (-p) they ran on (see 'hetmap learn --help')");
		return HM_EXIT_USAGE;
	}
	if (!(m = model_name ? hm_model_find(model_name) : hm_model_default())) {
		const char *near = hm_model_nearest(model_name);

		hm_say_error("learn: unknown model '%s'%s%s%s (%s)", model_name, HM_DID_YOU_MEAN(near), hm_help_models());
		return HM_EXIT_USAGE;
	}
	hm_error_clear(&err);
	if (output && hm_atomic_check(output, &err)) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	if (hm_learn_load_base(platform, &p, &doc, &err)) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	if ((ret = read_runs(&h, p, (const char *const *)argv + first, argc - first)) ||
	    (check.n && (ret = read_runs(&test, p, check.v, check.n))))
		goto out;
	if (hm_learn(p, m, &h, &l, &err)) {
		hm_say_error("learn: %s (%ld records: %ld of another platform, %ld without a measurement)", err.msg,
			     h.records, h.other_platform, h.not_measured);
		ret = HM_EXIT_INPUT;
		goto out;
	}
	if (check.n) {
		hm_learn_score(p, m, &test, NULL, &out[0], &out[2]);
		hm_learn_score(p, m, &test, &l, &out[1], &out[3]);
	}
	if (!(corr = hm_learned_json(p, &l, m->name, (const char *const *)argv + first, argc - first))) {
		ret = HM_EXIT_FAILURE;
		goto out;
	}
	if (fmt == HM_FORMAT_JSON) {
		cJSON *o = cJSON_CreateObject();
		char *text;

		cJSON_AddItemToObject(o, "corrections", cJSON_Duplicate(corr, 1));
		if (check.n) {
			cJSON *score = cJSON_AddObjectToObject(o, "out_of_sample");

			cJSON_AddNumberToObject(score, "runs", test.n);
			hm_learn_scores_json(score, out[0], out[1], out[2], out[3]);
		}
		text = cJSON_Print(o);
		if (text)
			printf("%s\n", text);
		free(text);
		cJSON_Delete(o);
	} else {
		print_text(p, &h, &l, check.n ? &test : NULL, out);
	}
	if (output) {
		cJSON_DeleteItemFromObjectCaseSensitive(doc, "corrections");
		cJSON_AddItemToObject(doc, "corrections", corr);
		corr = NULL;
		hm_error_clear(&err);
		if (hm_json_write(output, doc, &err)) {
			hm_say_report(&err);
			ret = HM_EXIT_OUTPUT;
		} else {
			hm_say_note("hetmap: learn: wrote %s: %s's measured values with the corrections\n", output, p->name);
		}
	}
out:
	cJSON_Delete(corr);
	cJSON_Delete(doc);
	hm_learned_release(&l);
	hm_history_release(&h);
	hm_history_release(&test);
	hm_platform_free(p);
	return hm_cli_finish(ret);
}

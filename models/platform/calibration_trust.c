/* models/platform/calibration_trust.c - see calibration_trust.h. */
#include "calibration_trust.h"

#include <math.h>
#include <stdio.h>

/* A doubt: a fact beyond its limit. Why each limit: three calibrations of
 * this project's 2-core machine (a shared virtual machine whose speed
 * wanders between 7.6 and 15 GFLOP/s in spells of seconds) gave notches of
 * 2-6 % and kernel fits within 12-28 %; the calibration tried as a new user
 * would beside other work gave spreads up to 107 %, a kernel fit error of
 * 58 % and a core alone 0.17x as costly as with both busy. */
static const struct doubt {
	const char *fact;
	int above;              /* 1: a doubt above the limit, 0: below it */
	double limit;
	int percent;            /* the value is shown in % */
	const char *why[2];     /* the doubt around the value */
	const char *limit_text[2];      /* the help's words around the limit */
} doubts[] = {
	{ "notch", 1, 0.25, 1,
	  { "its kernels' medians are known only within ", " (the machine's speed wandered while it measured: "
							  "measure again when it is quieter, or with more --repeat)" },
	  { "kernels' medians known within ", " (the notch of their samples)" } },
	{ "kernel_fit", 1, 0.40, 1,
	  { "its kernel models fit the timed shapes only within ", " (the simulator's modeled kernels would be "
								 "that far off)" },
	  { "kernel models fitting their shapes within ", "" } },
	{ "alone_over_all_busy", 0, 0.5, 0,
	  { "a core alone cost ", " of its time with every core busy: load came and went between the two "
				  "measurements" },
	  { "a core alone costing at least ", " of its time with every core busy" } },
};

/* 'words' around a value, into buf: "... 12 % ..." or "... 0.17 ...". */
static int put_value(char *buf, size_t size, const char *const words[2], double v, int percent)
{
	return percent ? snprintf(buf, size, "%s%.0f %%%s", words[0], 100 * v, words[1])
		       : snprintf(buf, size, "%s%.2f%s", words[0], v, words[1]);
}

void hm_trust_summary(const cJSON *facts, char *buf, size_t size)
{
	double notch = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(facts, "notch"));
	double fit = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(facts, "kernel_fit"));
	double waited = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(facts, "waited"));
	const cJSON *load = cJSON_GetObjectItemCaseSensitive(facts, "load_average");
	int len = snprintf(buf, size, "kernels' medians within %.0f %%, kernel models within %.0f %%",
			   isfinite(notch) ? 100 * notch : 0, isfinite(fit) ? 100 * fit : 0);

	if (len >= 0 && (size_t)len < size && isfinite(waited) && waited > 0.005)
		len += snprintf(buf + len, size - (size_t)len, ", other processes held its cores %.0f %% of "
				"the time (not counted)", 100 * waited);
	if (len >= 0 && (size_t)len < size && cJSON_IsNumber(load))
		len += snprintf(buf + len, size - (size_t)len, ", load average %.2f before", load->valuedouble);
	if (len >= 0 && (size_t)len < size && cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(facts, "column_step_measured")) &&
	    cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(facts, "column_samples_dropped")) > 0)
		snprintf(buf + len, size - (size_t)len, "; its column step not measured (%.0f samples disturbed by "
			 "other work: the models charge it nothing)",
			 cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(facts, "column_samples_dropped")));
}

int hm_trust_doubts(const cJSON *record, void (*say)(void *ctx, const char *type, const char *line),
		    void *ctx)
{
	const cJSON *trust = cJSON_GetObjectItemCaseSensitive(record, "trust"), *facts;
	int n = 0;

	cJSON_ArrayForEach(facts, trust) {
		if (!cJSON_IsObject(facts))
			continue;
		for (size_t i = 0; i < sizeof(doubts) / sizeof(doubts[0]); i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(facts, doubts[i].fact);
			char line[300];

			if (!cJSON_IsNumber(v) ||
			    !(doubts[i].above ? v->valuedouble > doubts[i].limit : v->valuedouble < doubts[i].limit))
				continue;
			put_value(line, sizeof(line), doubts[i].why, v->valuedouble, doubts[i].percent);
			say(ctx, facts->string, line);
			n++;
		}
	}
	return n;
}

const char *hm_trust_limits(void)
{
	static char text[512];
	size_t len = 0;

	if (text[0])
		return text;
	for (size_t i = 0; i < sizeof(doubts) / sizeof(doubts[0]) && len < sizeof(text); i++) {
		len += (size_t)snprintf(text + len, sizeof(text) - len, "  - ");
		len += (size_t)put_value(text + len, sizeof(text) - len, doubts[i].limit_text, doubts[i].limit,
					 doubts[i].percent);
		len += (size_t)snprintf(text + len, sizeof(text) - len, "\n");
	}
	return text;
}

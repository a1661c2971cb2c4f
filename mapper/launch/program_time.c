/* mapper/launch/program_time.c - the time a program's output gives (see
 * program_time.h). */
#include "program_time.h"
#include "models/util/decimal.h"

#include <stdio.h>
#include <string.h>

int hm_program_time_init(struct hm_program_time *pt, const char *regex, struct hm_error *err)
{
	int rc;

	memset(pt, 0, sizeof(*pt));
	pt->line_s = pt->regex_s = pt->span_s = -1;
	if (!regex)
		return 0;
	/* glibc's regcomp recurses once per nested group: some 20000 overflow
	 * its stack. A time's expression needs a few. */
	{
		size_t groups = 0;

		for (const char *c = regex; *c; c++)
			groups += *c == '(';
		if (strlen(regex) > HM_TIME_REGEX_MAX || groups > HM_TIME_REGEX_GROUPS)
			return hm_error_set(err, "--time-regex: at most %d characters and %d groups (this one has "
					    "%zu and %zu)", HM_TIME_REGEX_MAX, HM_TIME_REGEX_GROUPS, strlen(regex), groups);
	}
	if ((rc = regcomp(&pt->regex, regex, REG_EXTENDED))) {
		char why[256];

		regerror(rc, &pt->regex, why, sizeof(why));
		return hm_error_set(err, "--time-regex '%s': %s", regex, why);
	}
	pt->have_regex = 1;
	if (pt->regex.re_nsub < 1) {
		hm_program_time_release(pt);
		return hm_error_set(err, "--time-regex '%s' has no group: put the seconds in ( )", regex);
	}
	return 0;
}

void hm_program_time_release(struct hm_program_time *pt)
{
	if (pt->have_regex)
		regfree(&pt->regex);
	pt->have_regex = 0;
}

/* A time in the 'len' characters at 'text' (blanks around it allowed):
 * the largest so far is kept in *seconds, *tick. */
static void take_time(const char *text, size_t len, double *seconds, double *tick)
{
	char number[64];
	size_t blanks = strspn(text, " \t");
	double t, k;

	blanks = blanks < len ? blanks : len;
	text += blanks, len -= blanks;
	if (len == 0 || len >= sizeof(number))
		return;
	memcpy(number, text, len);
	number[len] = '\0';
	if (hm_decimal_time(number, &t, &k) || t < 0 || t <= *seconds)
		return;
	*seconds = t, *tick = k;
}

int hm_program_time_line(struct hm_program_time *pt, const char *line)
{
	size_t tl = strlen(HM_TIME_LINE), sl = strlen(HM_SPAN_LINE);
	regmatch_t m[2];

	if (!strncmp(line, HM_SPAN_LINE, sl)) {
		const char *number = line + sl + strspn(line + sl, " ");
		char *end;
		double t = hm_strtod_decimal(number, &end, 0);

		if (end != number && t > pt->span_s)
			pt->span_s = t;
		return 1;
	}
	if (!strncmp(line, HM_TIME_LINE, tl))
		take_time(line + tl, strlen(line + tl), &pt->line_s, &pt->line_tick);
	if (pt->have_regex && !regexec(&pt->regex, line, 2, m, 0) && m[1].rm_so >= 0)
		take_time(line + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so), &pt->regex_s, &pt->regex_tick);
	return 0;
}

void hm_program_time_settle(const struct hm_program_time *pt, struct hm_app_result *r)
{
	/* one precedence, whatever the values: what the user asked for by
	 * name (--time-regex), then what the program says is its time (its
	 * hetmap-time line), then its profile's reading, then the span, which
	 * also counts what comes before and after */
	if (pt->regex_s >= 0) {
		r->seconds = pt->regex_s, r->tick = pt->regex_tick;
		r->measured_by = "time-regex";
		r->found = 1;
	} else if (pt->line_s >= 0) {
		r->seconds = pt->line_s, r->tick = pt->line_tick;
		r->measured_by = "time-line";
		r->found = 1;
	} else if (r->seconds >= 0) {
		r->measured_by = "profile";
	} else if (pt->span_s >= 0) {
		r->seconds = pt->span_s, r->tick = 1e-9;
		r->measured_by = "mpi-span";
	}
}

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
	pt->line_s = pt->span_s = -1;
	if (!regex)
		return 0;
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
 * the largest so far is kept. */
static void take_line_time(struct hm_program_time *pt, const char *text, size_t len, const char *source)
{
	char number[64];
	size_t blanks = strspn(text, " \t");
	double t, tick;

	blanks = blanks < len ? blanks : len;
	text += blanks, len -= blanks;
	if (len == 0 || len >= sizeof(number))
		return;
	memcpy(number, text, len);
	number[len] = '\0';
	if (hm_decimal_time(number, &t, &tick) || t < 0 || t <= pt->line_s)
		return;
	pt->line_s = t, pt->line_tick = tick;
	pt->line_source = source;
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
		take_line_time(pt, line + tl, strlen(line + tl), "time-line");
	else if (pt->have_regex && !regexec(&pt->regex, line, 2, m, 0) && m[1].rm_so >= 0)
		take_line_time(pt, line + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so), "time-regex");
	return 0;
}

void hm_program_time_settle(const struct hm_program_time *pt, struct hm_app_result *r)
{
	/* a time the program printed is the program's measure of what was
	 * predicted; the span also counts what comes before and after */
	if (pt->line_s >= 0) {
		r->seconds = pt->line_s, r->tick = pt->line_tick;
		r->measured_by = pt->line_source;
		r->found = 1;
	} else if (r->seconds >= 0) {
		r->measured_by = "profile";
	} else if (pt->span_s >= 0) {
		r->seconds = pt->span_s, r->tick = 1e-9;
		r->measured_by = "mpi-span";
	}
}

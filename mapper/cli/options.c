/* mapper/cli/options.c - declared options over getopt_long: parsing, checks of
 * numbers against their range, and the help text (see cli.h). */
#include "cli.h"
#include "models/util/decimal.h"
#include "models/util/nearest_name.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPTIONS 64

int hm_options_anywhere;

/* The options every command has, after its own: one table for parsing,
 * --help and the manual. */
const struct hm_common_option hm_common_options[] = {
	{ 'h', "help", "show this help and exit" },
	{ 'q', "quiet", "no progress on standard error: errors, warnings and results only" },
	{ 'v', "verbose", "also say where each default came from (the platform, the results file)" },
	{ 0, NULL, NULL },
};

static int count_options(const struct hm_option *opts)
{
	int n = 0;

	while (opts[n].type != HM_OPT_END)
		n++;
	return n;
}

void hm_options_help(FILE *f, const struct hm_usage *u, const struct hm_option *opts)
{
	int i;

	fprintf(f, "usage: %s\n\n%s\n\noptions:\n", u->synopsis, u->description);
	for (i = 0; opts[i].type != HM_OPT_END; i++) {
		const struct hm_option *o = &opts[i];
		char left[64];

		snprintf(left, sizeof(left), "%c%c%s--%s%s%s",
			 o->short_name ? '-' : ' ', o->short_name ? o->short_name : ' ',
			 o->short_name ? ", " : "  ", o->long_name,
			 o->arg_name ? " " : "", o->arg_name ? o->arg_name : "");
		fprintf(f, "  %-26s %s\n", left, o->help);
	}
	for (const struct hm_common_option *c = hm_common_options; c->long_name; c++) {
		char left[64];

		snprintf(left, sizeof(left), "-%c, --%s", c->short_name, c->long_name);
		fprintf(f, "  %-26s %s\n", left, c->help);
	}
	if (u->epilog)
		fprintf(f, "\n%s\n", u->epilog);
}

/* Store the argument of option 'o'; 0, or -1 after a message. */
static int store(const struct hm_usage *u, const struct hm_option *o, const char *arg)
{
	char *end;
	double v;

	if (o->type == HM_OPT_FLAG) {
		*(int *)o->value = 1;
		return 0;
	}
	if (o->type == HM_OPT_STRING) {
		*(const char **)o->value = arg;
		return 0;
	}
	if (o->type == HM_OPT_LIST) {
		struct hm_opt_list *l = o->value;

		if (l->n >= (int)o->max || l->n >= HM_OPT_LIST_MAX) {
			hm_say_error("%s: option '--%s' may be given at most %d times", u->name,
				     o->long_name, (int)o->max);
			return -1;
		}
		l->v[l->n++] = arg;
		return 0;
	}
	errno = 0;
	if (o->type == HM_OPT_INT || o->type == HM_OPT_LONG) {
		/* an integer is written in decimal digits: 1e3 and 0x10 are
		 * not counts, however strtod reads them */
		long long iv = strtoll(arg, &end, 10);

		if (end == arg || *end || (errno && errno != ERANGE)) {
			hm_say_error("%s: option '--%s' expects an integer in decimal digits, not '%s'",
				     u->name, o->long_name, arg);
			return -1;
		}
		v = errno == ERANGE ? (iv < 0 ? -HUGE_VAL : HUGE_VAL) : (double)iv;
	} else {
		v = hm_strtod_decimal(arg, &end, 1);
		if (end == arg || *end || errno || !isfinite(v)) {
			hm_say_error("%s: option '--%s' expects a number, not '%s'", u->name, o->long_name, arg);
			return -1;
		}
	}
	if (v < o->min || v > o->max) {
		hm_say_error("%s: option '--%s' must be between %g and %g (got '%s')",
			     u->name, o->long_name, o->min, o->max, arg);
		return -1;
	}
	if (o->type == HM_OPT_INT)
		*(int *)o->value = (int)v;
	else if (o->type == HM_OPT_LONG)
		*(long *)o->value = (long)v;
	else
		*(double *)o->value = v;
	return 0;
}

/* "unknown option '--max-tim' (did you mean '--max-time'? ...)". */
static void report_bad_option(const struct hm_usage *u, const struct hm_option *opts, int n,
			      const char *name, int missing_argument)
{
	const char *names[MAX_OPTIONS + 4], *near = NULL;
	char given[128];

	if (!missing_argument && !strncmp(name, "--", 2)) {
		int k = 0;

		snprintf(given, sizeof(given), "%.*s", (int)strcspn(name + 2, "="), name + 2);
		for (int i = 0; i < n; i++)
			names[k++] = opts[i].long_name;
		for (int c = 0; hm_common_options[c].long_name; c++)
			names[k++] = hm_common_options[c].long_name;
		names[k] = NULL;
		near = hm_nearest_name(given, names);
	}
	if (near)
		hm_say_error("%s: unknown option '%s' (did you mean '--%s'? see 'hetmap %s --help')",
			     u->name, name, near, u->name);
	else
		hm_say_error("%s: %s '%s' (see 'hetmap %s --help')", u->name,
			     missing_argument ? "missing argument for option" : "unknown option", name, u->name);
}

int hm_options_parse(const struct hm_usage *u, const struct hm_option *opts,
		     int argc, char **argv)
{
	struct option lo[MAX_OPTIONS + 4];
	/* '+': options end at the first operand, which may be a program's */
	char shorts[3 * MAX_OPTIONS + 8] = "+:hqv";
	int n = count_options(opts), i, c, idx;
	size_t k = strlen(shorts);

	if (n > MAX_OPTIONS)
		n = MAX_OPTIONS;
	for (i = 0; i < n; i++) {
		lo[i].name = opts[i].long_name;
		lo[i].has_arg = opts[i].type == HM_OPT_FLAG ? no_argument : required_argument;
		lo[i].flag = NULL;
		lo[i].val = 256 + i;
		if (opts[i].short_name) {
			shorts[k++] = (char)opts[i].short_name;
			if (opts[i].type != HM_OPT_FLAG)
				shorts[k++] = ':';
		}
	}
	shorts[k] = '\0';
	if (hm_options_anywhere)        /* GNU's order: options among the operands */
		memmove(shorts, shorts + 1, k);
	for (i = 0; hm_common_options[i].long_name; i++)
		lo[n + i] = (struct option){ hm_common_options[i].long_name, no_argument, NULL,
					     hm_common_options[i].short_name };
	lo[n + i] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, lo, &idx)) != -1) {
		const struct hm_option *o = NULL;

		if (c == 'h') {
			(hm_help_format == HM_HELP_ROFF ? hm_options_help_roff : hm_options_help)(stdout, u, opts);
			return -2;
		}
		if (c == 'q' || c == 'v') {
			hm_verbosity = c == 'q' ? 0 : 2;
			continue;
		}
		if (c == '?' || c == ':') {
			char name[128];

			/* optopt: a short option, 256 + i for a long one, 0 if unknown */
			if (optopt >= 256 && optopt < 256 + n)
				snprintf(name, sizeof(name), "--%s", opts[optopt - 256].long_name);
			else if (optopt > 0 && optopt < 256)
				snprintf(name, sizeof(name), "-%c", optopt);
			else
				snprintf(name, sizeof(name), "%s", argv[optind - 1]);
			report_bad_option(u, opts, n, name, c == ':');
			return -1;
		}
		if (c >= 256)
			o = &opts[c - 256];
		else
			for (i = 0; i < n && !o; i++)
				if (opts[i].short_name == c)
					o = &opts[i];
		if (!o || store(u, o, optarg))
			return -1;
	}
	return optind;
}

int hm_options_parse_rest(const struct hm_usage *u, const struct hm_option *opts,
			  int argc, char **argv, char ***rest, int *nrest)
{
	int first = hm_options_parse(u, opts, argc, argv);

	if (rest) {
		*rest = argv + argc;
		*nrest = 0;
	}
	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0)
		return HM_EXIT_USAGE;
	if (first < argc) {
		if (!rest || strcmp(argv[first - 1], "--")) {
			hm_say_error("%s: unexpected argument '%s'%s", u->name, argv[first],
				     rest ? " (the program and its arguments go after '--')" : "");
			return HM_EXIT_USAGE;
		}
		*rest = argv + first;
		*nrest = argc - first;
	}
	return -1;
}

int hm_options_parse_only(const struct hm_usage *u, const struct hm_option *opts,
			  int argc, char **argv)
{
	return hm_options_parse_rest(u, opts, argc, argv, NULL, NULL);
}

int hm_option_rules_check(const char *cmd, const struct hm_option_rule *rules, int nr)
{
	for (int i = 0; i < nr; i++)
		if (rules[i].when && !rules[i].then) {
			hm_say_error("%s: %s", cmd, rules[i].text);
			return HM_EXIT_USAGE;
		}
	return 0;
}

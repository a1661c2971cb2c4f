/* mapper/cli/man_page.c - 'hetmap help --man': the manual page, roff,
 * made from the same tables as every --help (the commands' option tables,
 * usage texts and the exit codes), so that it cannot drift from them. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

#ifndef HM_SYSCONF_DIR
#define HM_SYSCONF_DIR "/etc"
#endif
#ifndef HM_DOC_DIR
#define HM_DOC_DIR "share/doc/hetmap"
#define HM_DATA_DIR "share"
#endif

enum hm_help_format hm_help_format = HM_HELP_TEXT;

/* Each exit code and its meaning (cli.h's enum; README.md's table says the
 * same), for the EXIT STATUS section. */
static const struct {
	int code;
	const char *meaning;
} exit_codes[] = {
	{ HM_EXIT_OK, "success" },
	{ HM_EXIT_FAILURE, "internal failure (out of memory, ...)" },
	{ HM_EXIT_INPUT, "bad input file (platform, plan or description): one message with file, JSON path and reason" },
	{ HM_EXIT_USAGE, "bad command line, a problem no search can take, or a plan run refuses before launching" },
	{ HM_EXIT_OUTPUT, "an output cannot be written (nothing partial is left behind)" },
	{ HM_EXIT_BUDGET, "a budget stopped the search; the best plan so far, if any, is printed and written" },
	{ HM_EXIT_NO_PLAN, "no configuration fits in memory" },
	{ HM_EXIT_JOB_FAILED, "run, calibrate: the job failed, or printed no result its profile reads" },
	{ HM_EXIT_NO_MPIRUN, "run, calibrate: the launcher cannot be started, or is another MPI's" },
	{ HM_EXIT_TIMEOUT, "run, calibrate: stopped after --timeout" },
	{ HM_EXIT_CHECK_FAILED, "run: the program's result check failed, or it skipped the test" },
	{ HM_EXIT_UNRELIABLE, "calibrate: the measurements are too unsteady to plan with; the platform is kept as PLATFORM.unreliable, not written (--accept-unreliable writes it)" },
};

/* Text as roff: backslashes and dashes escaped, a line that would start
 * with a control character protected ('bol': s starts a line). Returns
 * whether it ended a line. */
static int roff_escape(FILE *f, const char *s, int bol)
{
	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
		bol = *s == '\n';
	}
	return bol;
}

/* A block of text; 'fill' keeps roff's filling, else the lines stay as
 * written (synopses, examples). */
static void roff_text(FILE *f, const char *s, int fill)
{
	if (!fill)
		fputs(".nf\n", f);
	if (!roff_escape(f, s, 1))
		fputc('\n', f);
	if (!fill)
		fputs(".fi\n", f);
}

void hm_options_help_roff(FILE *f, const struct hm_usage *u, const struct hm_option *opts)
{
	fprintf(f, ".SS \"hetmap %s\"\n", u->name);
	roff_text(f, u->synopsis, 0);
	fputs(".PP\n", f);
	roff_text(f, u->description, 0);   /* as --help lays it out: tables, lists */
	for (int i = 0; opts[i].type != HM_OPT_END; i++) {
		const struct hm_option *o = &opts[i];

		fputs(".TP\n", f);
		if (o->short_name)
			fprintf(f, "\\fB\\-%c\\fR, ", o->short_name);
		fputs("\\fB\\-\\-", f);
		roff_escape(f, o->long_name, 0);
		if (o->arg_name) {
			fputs("\\fR \\fI", f);
			roff_escape(f, o->arg_name, 0);
		}
		fputs("\\fR\n", f);
		roff_text(f, o->help, 1);
	}
	for (const struct hm_common_option *c = hm_common_options; c->long_name; c++) {
		fprintf(f, ".TP\n\\fB\\-%c\\fR, \\fB\\-\\-%s\\fR\n", c->short_name, c->long_name);
		roff_text(f, c->help, 1);
	}
	if (u->epilog) {
		fputs(".PP\n", f);
		roff_text(f, u->epilog, 0);
	}
}

int hm_man_page(FILE *f, const struct hm_command_entry *commands, const char *intro)
{
	fprintf(f, ".TH HETMAP 1 \"\" \"hetmap %s\" \"User Commands\"\n", HM_VERSION);
	fputs(".SH NAME\nhetmap \\- plan and run unmodified ScaLAPACK on a heterogeneous cluster\n"
	      ".SH SYNOPSIS\n\\fBhetmap\\fR \\fIcommand\\fR [\\fIoptions\\fR]\n.SH DESCRIPTION\n", f);
	roff_text(f, intro, 1);
	fputs(".SH COMMANDS\n", f);
	hm_help_format = HM_HELP_ROFF;
	for (int i = 0; commands[i].name; i++) {
		char *argv[] = { (char *)commands[i].name, "--help", NULL };

		fflush(f);
		commands[i].fn(2, argv);
	}
	hm_help_format = HM_HELP_TEXT;
	fputs(".SH \"EXIT STATUS\"\n", f);
	for (size_t i = 0; i < sizeof(exit_codes) / sizeof(exit_codes[0]); i++) {
		fprintf(f, ".TP\n%d\n", exit_codes[i].code);
		roff_text(f, exit_codes[i].meaning, 1);
	}
	fputs(".TP\n128 + N\nrun, calibrate: stopped by signal N; the launcher and its ranks are "
	      "stopped, the record written\n"
	      ".SH ENVIRONMENT\n", f);
	roff_text(f, hm_help_settings(), 0);
	fputs(".SH FILES\n.TP\n\\fI" HM_SYSCONF_DIR "/hetmap/hetmap.conf\\fR, "
	      "\\fI~/.config/hetmap/hetmap.conf\\fR\n"
	      "the site's and the user's configuration: lines \\fIkey\\fR = \\fIvalue\\fR, keys "
	      "\\fBplatform\\fR and \\fBresults\\fR ('#' at a line's start, or after a blank, starts a\n"
	      "comment; \\e# is a '#' of a value); UTF-8 text, no NUL byte\n"
	      ".TP\n\\fI~/.cache/hetmap/host-NAME.json\\fR, \\fIslurm-HASH.json\\fR\n"
	      "this machine's (or a Slurm allocation's) calibration, made by the first command "
	      "without \\fB\\-p\\fR; delete it to measure again\n"
	      ".TP\n\\fIhetmap-results.jsonl\\fR\nthe results file 'run' appends one record to, "
	      "in the current directory unless configured\n"
	      ".TP\n\\fIPREFIX/libexec/hetmap/\\fR\nthe helper programs (the ScaLAPACK driver, the rank "
	      "probe and its MPI span library, the calibration benchmark and topology reader, the MPICH "
	      "and SMPI flavours when built), found there, else beside \\fBhetmap\\fR (a build tree)\n"
	      ".TP\n\\fIPREFIX/" HM_DOC_DIR "/\\fR\nREADME.md (the user's guide) and the documents the "
	      "help texts cite under their repository paths (models/platform/README.md: the platform "
	      "format; mapper/README.md: launchers, profiles, the record; wrappers/README.md)\n"
	      ".TP\n\\fIPREFIX/" HM_DATA_DIR "/hetmap/examples/\\fR\nexample platforms and generator "
	      "descriptions (\\fBhetmap generate\\fR, \\fBhetmap plan \\-p\\fR)\n"
	      ".SH \"SEE ALSO\"\n\\fBmpirun\\fR(1), \\fBmpiexec.mpich\\fR(1), \\fBsrun\\fR(1), "
	      "\\fBsbatch\\fR(1), \\fBscontrol\\fR(1), \\fBsmpirun\\fR(1), \\fBhwloc\\fR(7), "
	      "\\fBgnuplot\\fR(1)\n", f);
	return ferror(f) ? HM_EXIT_OUTPUT : HM_EXIT_OK;
}

/* mapper/cli/cli.h - what every hetmap command shares: declared options (a
 * table over getopt_long), the problem options common to predict, plan and
 * compare, and the printing of results. Only cli/ writes standard output
 * or exits; messages go through models/util/say.h. */
#ifndef HM_CLI_H
#define HM_CLI_H

#include <stdio.h>
#include "models/util/error.h"
#include "models/util/nearest_name.h"
#include "models/util/say.h"
#include "models/util/strbuild.h"
#include "search/search.h"
#include "mapper/launch/exit_code.h"
#include <cJSON.h>

/* The options every command has besides its own (-h, -q, -v). */
struct hm_common_option {
	int short_name;
	const char *long_name, *help;
};
extern const struct hm_common_option hm_common_options[];
/* "hetmap: warning: FILE: PATH: MSG" for each doubtful value the loader
 * kept (a k or a bandwidth far from any machine). */
void hm_cli_warnings(const struct hm_platform *p);

enum hm_opt_type { HM_OPT_END, HM_OPT_FLAG, HM_OPT_STRING, HM_OPT_INT, HM_OPT_LONG,
		   HM_OPT_DOUBLE, HM_OPT_LIST };

/* A repeatable option's arguments, in order (HM_OPT_LIST; max = 'max' of
 * the option, at most HM_OPT_LIST_MAX). */
#define HM_OPT_LIST_MAX 16
struct hm_opt_list {
	const char *v[HM_OPT_LIST_MAX];
	int n;
};

/* One declared option. Numbers are checked against [min, max]. */
struct hm_option {
	int short_name;         /* 0 if none */
	const char *long_name;
	enum hm_opt_type type;
	void *value;            /* int* (FLAG, INT), long*, double*, const char**, struct hm_opt_list* */
	const char *arg_name;   /* shown in help, e.g. "FILE" */
	const char *help;
	double min, max;
};

#define HM_OPT_TABLE_END { 0, NULL, HM_OPT_END, NULL, NULL, NULL, 0, 0 }

/* A command's usage text: synopsis lines and a description. */
struct hm_usage {
	const char *name;       /* "plan" */
	const char *synopsis;   /* "hetmap plan [options]" */
	const char *description;
	const char *epilog;     /* printed after the options, may be NULL */
};

/* Set by a command whose operands are files, never a program's
 * arguments (report): its options may come after them. */
extern int hm_options_anywhere;

/* Parse argv[1..] ('argv[0]' is the command name). Returns the index of the
 * first operand, or -1 after printing a usage error, or -2 after printing
 * --help. Every option table gets -h/--help for free. */
int hm_options_parse(const struct hm_usage *u, const struct hm_option *opts,
		     int argc, char **argv);
/* hm_options_parse for a command that takes no operands. Returns -1 when
 * the command goes on, else the exit code to return at once (0 after
 * --help, HM_EXIT_USAGE after a message). */
int hm_options_parse_only(const struct hm_usage *u, const struct hm_option *opts,
			  int argc, char **argv);
/* The same for a command that passes operands on to mpirun: they may only
 * come after "--" and are returned in *rest, *nrest. */
int hm_options_parse_rest(const struct hm_usage *u, const struct hm_option *opts,
			  int argc, char **argv, char ***rest, int *nrest);
void hm_options_help(FILE *f, const struct hm_usage *u, const struct hm_option *opts);

/* How options go together, stated once beside a command's options as a
 * table: a rule is broken when 'when' holds and 'then' does not, and its
 * text says what goes with what. A command checks its rules right after
 * parsing; the first broken one is reported as "CMD: TEXT" and the
 * command exits HM_EXIT_USAGE. */
struct hm_option_rule {
	int when, then;
	const char *text;
};
/* HM_EXIT_USAGE after the first broken rule's message, else 0. */
int hm_option_rules_check(const char *cmd, const struct hm_option_rule *rules, int nr);
#define HM_OPTION_RULES_CHECK(cmd, rules) \
	hm_option_rules_check(cmd, rules, (int)(sizeof(rules) / sizeof((rules)[0])))

/* What --help writes: text, or a section of the manual page (roff) while
 * 'hetmap help --man' asks every command for its help (man_page.c). */
enum hm_help_format { HM_HELP_TEXT, HM_HELP_ROFF };
extern enum hm_help_format hm_help_format;
void hm_options_help_roff(FILE *f, const struct hm_usage *u, const struct hm_option *opts);

/* A subcommand: the table main.c dispatches on and the manual lists. */
struct hm_command_entry {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

/* The manual page of hetmap (roff) on f: 'intro' and every command's help,
 * then the exit codes. Returns an exit code. */
int hm_man_page(FILE *f, const struct hm_command_entry *commands, const char *intro);

/* Options shared by predict, plan and compare. */
struct hm_problem_opts {
	const char *platform;   /* path or builtin:NAME */
	const char *routine;    /* "lu" / "gemm" */
	double n;
	const char *model;
	int depth;              /* 0: the platform's cores (hm_problem_open) */
	struct hm_shape shape;  /* -b, --rows-le-cols (plan, run) */
	struct hm_opt_list history;     /* --history: results files to learn corrections from */
};

/* Defaults: each is written once, here, and the help texts say them. */
#define HM_DEFAULT_RESULTS "hetmap-results.jsonl"
#define HM_DEFAULT_N 2048
#define HM_DEFAULT_METHOD "GPTM"
#define HM_DEFAULT_MAX_TIME 60      /* seconds of a search */
#define HM_DEFAULT_LAUNCHER "openmpi"

/* Help texts listing a registry, made from it (static strings). */
const char *hm_help_models(void);
const char *hm_help_methods(void);
const char *hm_help_launchers(const char *intro, int runnable_only);

/* The option-table rows for 'o' (platform, routine, n, model), to be
 * copied into a command's table. */
#define HM_PROBLEM_OPTIONS(o) \
	{ 'p', "platform", HM_OPT_STRING, &(o).platform, "FILE", \
	  "platform JSON file, or builtin:NAME (default: $HETMAP_PLATFORM, the configuration's, " \
	  "else this machine or Slurm allocation, calibrated once and cached)", 0, 0 }, \
	{ 'r', "routine", HM_OPT_STRING, &(o).routine, "R", "lu (pdgetrf) or gemm (pdgemm); default lu", 0, 0 }, \
	{ 'n', "size", HM_OPT_DOUBLE, &(o).n, "N", "matrix order (default " HM_STR(HM_DEFAULT_N) ")", 1, 1e7 }, \
	{ 'm', "model", HM_OPT_STRING, &(o).model, "NAME", hm_help_models(), 0, 0 }

/* The option-table row of --history (plan, predict, compare, tune). */
#define HM_HISTORY_OPTION(o) \
	{ 0, "history", HM_OPT_LIST, &(o).history, "RESULTS", \
	  "learn corrections from this platform's measured runs in RESULTS (repeatable; as 'hetmap learn' does) and plan with them", \
	  0, HM_OPT_LIST_MAX }

/* The option-table row of the level limit. */
#define HM_DEPTH_OPTION(po) \
	{ 'd', "depth", HM_OPT_INT, &(po).depth, "L", \
	  "level limit: at most L processes (default: the platform's cores, at most " \
	  HM_STR(HM_MAX_DEPTH) ": " HM_MAX_DEPTH_REASON ")", 1, HM_MAX_DEPTH }

/* The option-table rows that choose and bound a search (plan, run). */
#define HM_SEARCH_OPTIONS(method, po, budget) \
	{ 'M', "method", HM_OPT_STRING, &(method), "M", hm_help_methods(), 0, 0 }, \
	HM_DEPTH_OPTION(po), \
	{ 0, "max-nodes", HM_OPT_LONG, &(budget).max_nodes, "N", "stop after N evaluated nodes (default: no limit)", 0, 1e15 }, \
	{ 0, "max-time", HM_OPT_DOUBLE, &(budget).max_seconds, "S", \
	  "stop after S seconds (default " HM_STR(HM_DEFAULT_MAX_TIME) "; 0 = no limit)", 0, 1e9 }, \
	{ 'b', "block-size", HM_OPT_INT, &(po).shape.b, "B", \
	  "plan with this block size only (one of the platform's candidates; not with exact)", 1, 1e6 }, \
	{ 0, "rows-le-cols", HM_OPT_FLAG, &(po).shape.rows_le_cols, NULL, \
	  "plan grids with r <= c only, as many programs require (not with exact)", 0, 0 }

/* Set the defaults of 'o'. */
void hm_problem_opts_init(struct hm_problem_opts *o);

/* Load the platform (o->platform, its default when NULL) and resolve
 * routine and model into 'pb'. Returns an exit code: HM_EXIT_OK, or the
 * code to return after the message printed ('cmd' names the command). */
int hm_problem_open(const char *cmd, struct hm_problem_opts *o, struct hm_problem *pb,
		    struct hm_platform **platform);

/* Defaults beyond the command line (defaults.c). *platform, when NULL,
 * becomes $HETMAP_PLATFORM, else the configuration file's 'platform',
 * else this machine's (the Slurm allocation's) calibration, made now with
 * 'calibrate' if not cached. An exit code. */
int hm_default_platform(const char *cmd, const char **platform);
/* Where hm_default_platform's platform came from ("named by
 * HETMAP_PLATFORM", ...), "" when -p gave it: for the loader's messages. */
const char *hm_default_platform_source(void);
/* *results, when NULL: $HETMAP_RESULTS, the configuration's 'results',
 * else HM_DEFAULT_RESULTS. An exit code. */
int hm_default_results(const char **results);
/* The settings' variables and keys, one per line (help, manual). */
const char *hm_help_settings(void);

/* Flush stdout and return 'code', or HM_EXIT_OUTPUT if stdout failed, so a
 * truncated output never counts as success. */
int hm_cli_finish(int code);

/* 'text' with its control characters (terminal escapes, newlines) shown
 * as \xNN, into buf (cut to fit): for free text from input files. */
const char *hm_printable(const char *text, char *buf, size_t size);

/* "[1*16,0,2,1]": d with runs of equal values folded (written into buf). */
const char *hm_format_counts(const int *d, int P, char *buf, size_t size);
/* The threads of each processor's processes as hm_format_counts writes
 * counts ("1": one thread everywhere), into buf. */
const char *hm_format_threads(const struct hm_result *r, char *buf, size_t size);

/* Human-readable account of a result: decision, predicted time and its
 * parts, search statistics. */
void hm_print_result(FILE *f, const struct hm_problem *pb, const struct hm_result *res);
/* What the judge did (its record in a plan), one line per candidate. */
void hm_judge_print(FILE *f, const cJSON *record);

/* When the result uses every process the depth allows, say what GPTM
 * finds with twice the depth (within a tenth of 'max_seconds', the
 * search's budget, and a second at most): a note on f, and "depth_limit" added to the
 * plan JSON object 'plan' (may be NULL). Nothing otherwise. */
void hm_report_depth_limit(FILE *f, const struct hm_problem *pb, const struct hm_result *res,
			   double max_seconds, cJSON *plan);

/* Parse "--format": 0 text, 1 csv, 2 json; -1 after a message. 'allowed'
 * is a bitmask of the three. */
enum hm_format { HM_FORMAT_TEXT, HM_FORMAT_CSV, HM_FORMAT_JSON };
int hm_format_parse(const char *cmd, const char *text, unsigned allowed);
/* The -f row every command with more than one output form has. */
#define HM_FORMAT_OPTION(var, help) { 'f', "format", HM_OPT_STRING, &(var), "F", help, 0, 0 }

/* HM_EXIT_OK when 'name' is a method or user, else HM_EXIT_USAGE after a
 * message (prefixed 'cmd: ' unless NULL) with the name it likely meant:
 * checked before any work. */
int hm_method_check(const char *cmd, const char *name);
/* Run method or user 'name' (case-insensitive) on 'pb'; an exit code,
 * with a message when it is not HM_EXIT_OK. */
int hm_run_named(const char *name, const struct hm_problem *pb,
		 const struct hm_budget *budget, struct hm_result *res);

/* Commands. */
int cmd_platform(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_generate(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_learn(int argc, char **argv);

#endif /* HM_CLI_H */

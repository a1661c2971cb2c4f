/* mapper/cli/cmd_report.c - 'hetmap report': the runs of one or more results
 * files (what 'run' appends) as a table, and a plot of measured against
 * predicted time. The columns are one table below; text, csv and json
 * are three writers of it. */
#include "cli.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/record.h"
#include "mapper/launch/spawn.h"
#include "models/util/atomic_file.h"
#include "models/util/json_read.h"
#include "models/util/median.h"
#include "models/util/read_file.h"
#include "models/util/strbuild.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct hm_usage usage = {
	"report",
	"hetmap report [-f text|csv|json] [--sort COLUMN] [--plot FILE.png [--by COLUMN]] [RESULTS.jsonl... | JUDGED-PLAN.json...]",
	"One row per run recorded in the results files (what 'hetmap run' appends;\n"
	"none named: the results file run appends to, HETMAP_RESULTS or the\n"
	"configuration's): when, the program, the launcher, the platform, the\n"
	"problem and the configuration (who chose it, threads per rank), the\n"
	"predicted and measured times, their ratio, what measured it and the\n"
	"program's verdict; in text, a summary per program under the table. Given\n"
	"plans that 'plan --judge K' wrote, one row per candidate the judge\n"
	"weighed: its configuration, predicted and simulated times, their ratio,\n"
	"its status and wall time. --plot draws measured (simulated) against\n"
	"predicted time (log-log, one colour per program, or per --by column:\n"
	"launcher, method, platform; the line where they agree) with gnuplot;\n"
	"runs whose ratio is withheld are left out of it and counted.",
	"measured_by: profile (the program's own time, read by its profile),\n"
	"time-line (its '" "hetmap-time: SECONDS' line), time-regex (--time-regex),\n"
	"mpi-span (the longest rank's MPI_Init to MPI_Finalize). A ratio is left\n"
	"empty when the time is under ten ticks of the program's timer.\n"
	"--sort takes a column's name (default time: the order the runs ran in;\n"
	"measured_s, ratio, ... ascending).\n"
	"examples:\n"
	"  hetmap report hetmap-results.jsonl\n"
	"  hetmap report --sort measured_s --plot runs.png --by method runs.jsonl\n"
	"  hetmap report -f csv --plot runs.png a.jsonl b.jsonl > runs.csv",
};

/* One cell: text, or a number (NAN when absent). */
struct cell {
	char text[96];
	double number;
	int is_number;
};

/* A column: its header and how a record gives its cell. */
struct column {
	const char *name;
	int width;              /* in the text table; negative: left-aligned */
	const char *path;       /* "plan.b": a member path in the record */
	void (*derive)(const cJSON *rec, struct cell *c);       /* or this */
};

static const cJSON *member(const cJSON *rec, const char *path)
{
	char key[64];

	while (rec && *path) {
		size_t len = strcspn(path, ".");

		if (len >= sizeof(key))
			return NULL;
		memcpy(key, path, len);
		key[len] = '\0';
		rec = cJSON_GetObjectItemCaseSensitive(rec, key);
		path += len + (path[len] == '.');
	}
	return rec;
}

static void program_name(const cJSON *rec, struct cell *c)
{
	const char *path = cJSON_GetStringValue(member(rec, HM_REC_PROGRAM "." HM_REC_PROG_PATH));
	const char *base = path ? strrchr(path, '/') : NULL;

	hm_printable(base ? base + 1 : path ? path : "", c->text, sizeof(c->text));
}

/* "r x c" from the members at 'r' and 'c'. */
static void grid_at(const cJSON *rec, const char *r_path, const char *c_path, struct cell *c)
{
	const cJSON *r = member(rec, r_path), *cc = member(rec, c_path);

	if (cJSON_IsNumber(r) && cJSON_IsNumber(cc))
		snprintf(c->text, sizeof(c->text), "%dx%d", r->valueint, cc->valueint);
}

/* The most BLAS threads a rank of the plan runs (1 when none said). */
static void run_threads(const cJSON *rec, struct cell *c)
{
	const cJSON *e;
	double most = 1;

	cJSON_ArrayForEach(e, member(rec, HM_REC_PLAN ".processes")) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "threads");

		if (cJSON_IsNumber(t) && t->valuedouble > most)
			most = t->valuedouble;
	}
	c->is_number = 1, c->number = most;
	snprintf(c->text, sizeof(c->text), "%.0f", most);
}

static void run_grid(const cJSON *rec, struct cell *c)
{
	grid_at(rec, HM_REC_PLAN ".r", HM_REC_PLAN ".c", c);
}

static void candidate_grid(const cJSON *rec, struct cell *c)
{
	grid_at(rec, "r", "c", c);
}

/* A judge's candidate: simulated over predicted time. */
static void candidate_ratio(const cJSON *rec, struct cell *c)
{
	const cJSON *sim = member(rec, "simulated_s"), *pred = member(rec, "predicted_s");

	if (cJSON_IsNumber(sim) && cJSON_IsNumber(pred) && pred->valuedouble > 0) {
		c->is_number = 1, c->number = sim->valuedouble / pred->valuedouble;
		snprintf(c->text, sizeof(c->text), "%.3f", c->number);
	}
}

/* A judge's candidate: its status, naming the candidate it repeats. */
static void candidate_status(const cJSON *rec, struct cell *c)
{
	const char *same = cJSON_GetStringValue(member(rec, "same_as"));
	const char *status = cJSON_GetStringValue(member(rec, "status"));
	char text[sizeof(c->text)];

	if (same)
		snprintf(text, sizeof(text), "same as %s", same);
	else
		snprintf(text, sizeof(text), "%s", status ? status : "");
	hm_printable(text, c->text, sizeof(c->text));
}

/* A run of a results file. */
static const struct column run_columns[] = {
	{ "time", -20, HM_REC_TIME, NULL },
	{ "program", -16, NULL, program_name },
	{ "launcher", -11, HM_REC_LAUNCHER "." HM_REC_LAUNCHER_NAME, NULL },
	{ "platform", -12, HM_REC_INPUTS "." HM_REC_IN_PLATFORM_NAME, NULL },
	{ "routine", -7, HM_REC_INPUTS "." HM_REC_IN_ROUTINE, NULL },
	{ "n", 7, HM_REC_INPUTS "." HM_REC_IN_N, NULL },
	{ "method", -8, HM_REC_PLAN ".method", NULL },
	{ "D", 4, HM_REC_PLAN ".D", NULL },
	{ "threads", 7, NULL, run_threads },
	{ "grid", 6, NULL, run_grid },
	{ "b", 4, HM_REC_PLAN ".b", NULL },
	{ "predicted_s", 11, HM_REC_PREDICTED, NULL },
	{ "measured_s", 11, HM_REC_MEASURED, NULL },
	{ "ratio", 7, HM_REC_RATIO, NULL },
	{ "load", 5, HM_REC_LOAD ".share_largest", NULL },
	{ "measured_by", -11, HM_REC_MEASURED_BY, NULL },
	{ "verdict", -8, HM_REC_PROGRAM "." HM_REC_PROG_VERDICT, NULL },
	{ "exit", 4, HM_REC_EXIT, NULL },
};

/* A candidate of a judge's record in a plan (mapper/README.md, "The simulator as judge"). */
static const struct column candidate_columns[] = {
	{ "candidate", -10, "label", NULL },
	{ "method", -10, "method", NULL },
	{ "D", 5, "D", NULL },
	{ "grid", 9, NULL, candidate_grid },
	{ "b", 4, "b", NULL },
	{ "predicted_s", 11, "predicted_s", NULL },
	{ "simulated_s", 11, "simulated_s", NULL },
	{ "ratio", 7, NULL, candidate_ratio },
	{ "status", -16, NULL, candidate_status },
	{ "wall_s", 8, "wall_s", NULL },
};

/* What a report lists: its columns, and which of them the plot takes (y
 * against x, one colour per value of the column named 'group' unless
 * --by names another; 'ratio' empty where both times are: withheld), the
 * summary's rows (one per value of 'summary', NULL: none) and the order. */
struct column_set {
	const char *rows;               /* what a row is, plural */
	const struct column *columns;
	int n;
	const char *group, *x, *y, *ratio, *summary, *sort;
	const char *y_label;
};

#define COLUMNS(table) table, (int)(sizeof(table) / sizeof(table[0]))
static const struct column_set runs = { "runs", COLUMNS(run_columns), "program", "predicted_s", "measured_s",
					"ratio", "program", "time", "measured" };
static const struct column_set candidates = { "candidates", COLUMNS(candidate_columns), "method", "predicted_s",
					      "simulated_s", "ratio", NULL, NULL, "simulated" };

/* The index of the column 'name' of 'set', or -1. */
static int column_named(const struct column_set *set, const char *name)
{
	for (int k = 0; name && k < set->n; k++)
		if (!strcmp(set->columns[k].name, name))
			return k;
	return -1;
}
#define MAX_COLUMNS 20
_Static_assert(sizeof(run_columns) / sizeof(run_columns[0]) <= MAX_COLUMNS, "a row holds every column");
_Static_assert(sizeof(candidate_columns) / sizeof(candidate_columns[0]) <= MAX_COLUMNS, "a row holds every column");

struct row {
	struct cell cells[MAX_COLUMNS];
	int order;              /* as read: ties keep it */
};

static void fill_row(const struct column_set *set, const cJSON *rec, struct row *row)
{
	for (int k = 0; k < set->n; k++) {
		const struct column *col = &set->columns[k];
		struct cell *c = &row->cells[k];
		const cJSON *v;

		memset(c, 0, sizeof(*c));
		c->number = NAN;
		if (col->derive) {
			col->derive(rec, c);
			continue;
		}
		v = member(rec, col->path);
		if (cJSON_IsNumber(v)) {
			c->is_number = 1, c->number = v->valuedouble;
			snprintf(c->text, sizeof(c->text), "%.4g", v->valuedouble);
		} else if (cJSON_IsString(v)) {
			hm_printable(v->valuestring, c->text, sizeof(c->text));
		}
	}
}

struct table {
	const struct column_set *set;   /* runs or candidates: one kind per report */
	struct row *rows;
	int n, cap;
	int x, y, group, ratio;         /* the plot's columns, once the kind is known */
};

/* Room for one more row of 'set' (the kind of the table's rows so far);
 * an exit code, after a message naming 'path'. */
static int add_row(struct table *t, const struct column_set *set, const char *path, const cJSON *rec)
{
	if (t->set && t->set != set) {
		hm_say_error("report: %s holds %s, the files before it %s: give one kind in one report", path,
			     set->rows, t->set->rows);
		return HM_EXIT_USAGE;
	}
	t->set = set;
	if (t->n == t->cap) {
		struct row *more = realloc(t->rows, sizeof(*more) * (size_t)(t->cap ? 2 * t->cap : 64));

		if (!more) {
			hm_say_error("report: out of memory");
			return HM_EXIT_FAILURE;
		}
		t->rows = more, t->cap = t->cap ? 2 * t->cap : 64;
	}
	t->rows[t->n].order = t->n;
	fill_row(set, rec, &t->rows[t->n++]);
	return HM_EXIT_OK;
}

/* A plan document (one JSON object, what 'plan -o' writes): the
 * candidates of its judge's record; an exit code. */
static int read_judged_plan(const char *path, const cJSON *doc, struct table *t)
{
	const cJSON *list = member(doc, "judge.candidates"), *e;
	int ret = HM_EXIT_OK;

	if (!cJSON_IsArray(list)) {
		hm_say_error("report: %s is a plan without a judge's record (plan --judge K writes one)", path);
		return HM_EXIT_INPUT;
	}
	cJSON_ArrayForEach(e, list)
		if (!ret)
			ret = add_row(t, &candidates, path, e);
	return ret;
}

#define MAX_PLAN_BYTES ((size_t)64 << 20)

static int read_plan_file(const char *path, struct table *t)
{
	struct hm_error err;
	cJSON *doc;
	int ret;

	hm_error_clear(&err);
	if (!(doc = hm_json_read_file(path, MAX_PLAN_BYTES, &err))) {
		hm_say_report(&err);
		return HM_EXIT_INPUT;
	}
	if (!cJSON_IsNumber(member(doc, "hetmap_plan"))) {
		hm_say_error("report: %s is neither a results file nor a plan", path);
		ret = HM_EXIT_INPUT;
	} else {
		ret = read_judged_plan(path, doc, t);
	}
	cJSON_Delete(doc);
	return ret;
}

/* A line past its zero block (hm_line_after_zeros): the record after the
 * NUL bytes is read, and the bytes skipped are said. NULL when a NUL byte
 * is inside the line itself (said too): it is no record. */
static const char *after_zero_block(const char *path, long number, const char *line, size_t len)
{
	size_t zeros;
	const char *text = hm_line_after_zeros(line, len, &zeros);

	if (!text) {
		hm_say_error("report: %s: line %ld holds a NUL byte inside it: not a record", path, number);
		return NULL;
	}
	if (zeros)
		hm_say_error("report: warning: %s: line %ld: %zu NUL bytes (a crash's zero block) skipped%s",
			     path, number, zeros, text[strspn(text, " \t\r\n")] ? " before a record" : "");
	return text;
}

/* The records of 'path' appended to t, or a judged plan's candidates; an
 * exit code. A line that is not a record is an error naming it: a report
 * must not skip runs silently. */
static int read_results(const char *path, struct table *t)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, len;
	long number = 0;
	int ret = HM_EXIT_OK, got;

	if (!f) {
		hm_say_error("report: %s: %s", path, strerror(errno));
		return HM_EXIT_INPUT;
	}
	while (!ret && (got = hm_read_line(f, &line, &cap, &len)) > 0) {
		const char *text;
		cJSON *rec;

		number++;
		if (!(text = after_zero_block(path, number, line, len))) {
			ret = HM_EXIT_INPUT;
			break;
		}
		if (text[strspn(text, " \t\r\n")] == '\0')
			continue;
		rec = cJSON_Parse(text);
		if (number == 1 && cJSON_IsObject(rec) && cJSON_IsNumber(member(rec, "hetmap_plan"))) {
			/* a plan on one line (compact JSON): read whole, as any plan */
			cJSON_Delete(rec);
			ret = read_plan_file(path, t);
			break;
		}
		if (number == 1 && !rec && text[strspn(text, " \t")] == '{') {
			/* a document over several lines: a plan, read whole */
			ret = read_plan_file(path, t);
			break;
		}
		if (!cJSON_IsObject(rec) || !cJSON_IsNumber(member(rec, HM_REC_MARK))) {
			hm_say_error("report: %s: line %ld is not a hetmap run record", path, number);
			ret = HM_EXIT_INPUT;
		} else {
			ret = add_row(t, &runs, path, rec);
		}
		cJSON_Delete(rec);
	}
	if (!ret && got < 0) {
		int e = errno;

		if (e == EFBIG)
			hm_say_error("report: %s: line %ld is longer than %zu bytes: not a record", path, number + 1,
				     HM_LINE_MAX);
		else
			hm_say_error("report: %s: line %ld: %s", path, number + 1,
				     e == ENOMEM ? "out of memory (a line too long to hold)" : strerror(e));
		ret = e == ENOMEM ? HM_EXIT_FAILURE : HM_EXIT_INPUT;
	}
	free(line);
	fclose(f);
	return ret;
}

/* Rows by one column: numbers ascending, then text, empty cells last;
 * ties in the order read. qsort has no context: the column is here. */
static int sort_column;

static int by_sort_column(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	const struct cell *cx = &x->cells[sort_column], *cy = &y->cells[sort_column];
	int ex = !cx->text[0], ey = !cy->text[0], d;

	if (ex != ey)
		return ex - ey;
	if (cx->is_number && cy->is_number && cx->number != cy->number)
		return cx->number < cy->number ? -1 : 1;
	if (cx->is_number != cy->is_number)
		return cy->is_number - cx->is_number;
	if ((d = strcmp(cx->text, cy->text)))
		return d;
	return x->order - y->order;
}

static const char *range_text(double lo, double hi)
{
	static char text[48];

	snprintf(text, sizeof(text), "%.3f-%.3f", lo, hi);
	return text;
}

/* Under the text table, one line per program: its runs, the median and
 * range of measured over predicted, the runs that failed. */
static void print_summary(const struct table *t)
{
	int key = column_named(t->set, t->set->summary), ratio = t->ratio, exit = column_named(t->set, "exit");
	double *r = key >= 0 ? malloc(sizeof(double) * (size_t)t->n) : NULL;

	if (!r || !t->n) {
		free(r);
		return;
	}
	printf("\nper %s (measured / predicted):\n  %-24s %5s %8s  %-15s %6s\n", t->set->summary, t->set->summary,
	       "runs", "median", "min-max", "failed");
	for (int i = 0; i < t->n; i++) {
		const char *name = t->rows[i].cells[key].text;
		int seen = 0, count = 0, failed = 0, k = 0;

		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(t->rows[j].cells[key].text, name);
		if (seen)
			continue;
		for (int j = i; j < t->n; j++) {
			const struct cell *c = t->rows[j].cells;

			if (strcmp(c[key].text, name))
				continue;
			count++;
			failed += exit >= 0 && c[exit].is_number && c[exit].number != 0;
			if (ratio >= 0 && c[ratio].is_number)
				r[k++] = c[ratio].number;
		}
		if (k) {
			double median = hm_median(r, k);        /* sorts r: its ends are the range */

			printf("  %-24s %5d %8.3f  %-15s %6d\n", name[0] ? name : "-", count, median,
			       range_text(r[0], r[k - 1]), failed);
		} else {
			printf("  %-24s %5d %8s  %-15s %6d\n", name[0] ? name : "-", count, "-", "-", failed);
		}
	}
	free(r);
}

static void print_text(const struct table *t)
{
	const struct column *columns = t->set->columns;

	for (int k = 0; k < t->set->n; k++)
		printf("%s%*s", k ? " " : "", columns[k].width, columns[k].name);
	printf("\n");
	for (int i = 0; i < t->n; i++) {
		for (int k = 0; k < t->set->n; k++)
			printf("%s%*s", k ? " " : "", columns[k].width,
			       t->rows[i].cells[k].text[0] ? t->rows[i].cells[k].text : "-");
		printf("\n");
	}
	if (!t->n)
		printf("(no %s recorded)\n", t->set->rows);
}

/* A text cell that a spreadsheet would take for a formula (OWASP's "CSV
 * injection": a first character of = + - @, a tab or a carriage return)
 * gets a leading single quote, which shows it as text. */
static int formula_like(const char *text)
{
	return text[0] && strchr("=+-@\t\r", text[0]);
}

/* CSV: RFC 4180 quoting where a cell needs it; text never read as a formula. */
static void print_csv(const struct table *t)
{
	const struct column *columns = t->set->columns;

	for (int k = 0; k < t->set->n; k++)
		printf("%s%s", k ? "," : "", columns[k].name);
	printf("\n");
	for (int i = 0; i < t->n; i++) {
		for (int k = 0; k < t->set->n; k++) {
			const struct cell *c = &t->rows[i].cells[k];
			int quote = strpbrk(c->text, ",\"\n\r") != NULL;

			printf("%s", k ? "," : "");
			if (c->is_number) {
				printf("%.9g", c->number);
				continue;
			}
			printf("%s%s", quote ? "\"" : "", formula_like(c->text) ? "'" : "");
			for (const char *s = c->text; *s; s++)
				printf(*s == '"' ? "\"\"" : "%c", *s);
			printf("%s", quote ? "\"" : "");
		}
		printf("\n");
	}
}

static int print_json(const struct table *t)
{
	cJSON *doc = cJSON_CreateArray();
	char *text;

	for (int i = 0; doc && i < t->n; i++) {
		cJSON *o = cJSON_CreateObject();

		for (int k = 0; o && k < t->set->n; k++) {
			const struct cell *c = &t->rows[i].cells[k];
			const char *name = t->set->columns[k].name;

			if (c->is_number)
				cJSON_AddNumberToObject(o, name, c->number);
			else if (c->text[0])
				cJSON_AddStringToObject(o, name, c->text);
			else
				cJSON_AddNullToObject(o, name);
		}
		cJSON_AddItemToArray(doc, o);
	}
	if (!(text = doc ? cJSON_Print(doc) : NULL)) {
		cJSON_Delete(doc);
		hm_say_error("report: out of memory");
		return HM_EXIT_FAILURE;
	}
	printf("%s\n", text);
	free(text);
	cJSON_Delete(doc);
	return HM_EXIT_OK;
}

#define MAX_GROUPS 32         /* colours in one plot; a 33rd group's rows are left out */
/* What a log-log plot can draw: a time beyond these (a program that
 * printed 1e308) makes an infinite axis, and gnuplot gives up */
#define PLOT_MIN 1e-250
#define PLOT_MAX 1e250

static int drawable(const struct table *t, const struct cell *c)
{
	double x = c[t->x].number, y = c[t->y].number;

	return x >= PLOT_MIN && x <= PLOT_MAX && y >= PLOT_MIN && y <= PLOT_MAX;
}

/* Both times, but no ratio: under ten ticks of the program's timer, where
 * the ratio says nothing (the record's ratio_withheld). */
static int withheld(const struct table *t, const struct cell *c)
{
	return drawable(t, c) && t->ratio >= 0 && !c[t->ratio].is_number;
}

/* A point of the plot. */
static int plotted(const struct table *t, const struct cell *c)
{
	return drawable(t, c) && !withheld(t, c);
}

/* 'text' as a gnuplot string literal: single-quoted, where only '' is
 * special; control characters shown as \xNN, never a line break. Data
 * never becomes script: a record's names are written so and nothing else. */
static void gnuplot_string(struct hm_text *out, const char *text)
{
	char shown[4 * sizeof(((struct cell *)0)->text)];

	hm_printable(text, shown, sizeof(shown));
	hm_text_addf(out, "'");
	for (const char *s = shown; *s; s++)
		hm_text_addf(out, *s == '\'' ? "''" : "%c", *s);
	hm_text_addf(out, "'");
}

/* The groups (launcher, method) in order of first appearance, rows with
 * both times drawable: a pass over the rows for each (a results file names
 * a few). Returns how many, names into group[]. */
static int plot_groups(const struct table *t, const char **group)
{
	int blocks = 0;

	for (int i = 0; i < t->n; i++) {
		const struct cell *c = t->rows[i].cells;
		int known = !plotted(t, c);             /* no point: no colour */

		for (int k = 0; k < blocks && !known; k++)
			known = !strcmp(group[k], c[t->group].text);
		if (!known && blocks < MAX_GROUPS)
			group[blocks++] = c[t->group].text;
	}
	return blocks;
}

/* gnuplot's input: one block per group ("index i"), and its script, the
 * groups' names as string literals of its plot command. */
static void plot_files(const struct table *t, double lo, double hi, int points, int held_back, struct hm_text *data,
		       struct hm_text *script)
{
	const struct column_set *set = t->set;
	const char *group[MAX_GROUPS];
	int blocks = plot_groups(t, group);
	char title[256];

	for (int k = 0; k < blocks; k++) {
		for (int j = 0; j < t->n; j++) {
			const struct cell *c = t->rows[j].cells;

			if (!strcmp(c[t->group].text, group[k]) && plotted(t, c))
				hm_text_addf(data, "%.9g %.9g\n", c[t->x].number, c[t->y].number);
		}
		hm_text_addf(data, "\n\n");
	}
	/* what is plotted, in words: the reader of a picture has no --help. Two
	 * lines in a double-quoted string, made of this file's words and
	 * numbers only (no record's text: that goes through gnuplot_string) */
	snprintf(title, sizeof(title), "%s against predicted time, one colour per %s\\n%d %s%s%.0d%s", set->y_label,
		 set->columns[t->group].name, points, set->rows, held_back ? "; " : "", held_back,
		 held_back ? " left out: ratio withheld (under ten ticks of their timer)" : "");
	hm_text_addf(script, "set terminal pngcairo size 900,700 noenhanced\nset output 'plot.png'\n"
		     "set logscale xy\nset format x '%%g'\nset format y '%%g'\nset mxtics 10\nset mytics 10\n"
		     "set xlabel 'predicted time (s)'\nset ylabel '%s time (s)'\n"
		     "set key bottom right\nset grid\nset xrange [%g:%g]\nset yrange [%g:%g]\nset size square\n"
		     "set title \"%s\"\nplot ", set->y_label, lo / 2, hi * 2, lo / 2, hi * 2, title);
	for (int k = 0; k < blocks; k++) {
		hm_text_addf(script, "'runs.dat' index %d using 1:2 with points pointsize 1.5 title ", k);
		gnuplot_string(script, group[k][0] ? group[k] : "none");
		hm_text_addf(script, ", \\\n     ");
	}
	hm_text_addf(script, "x with lines dashtype 2 lc 'grey' title '%s = predicted'\n", set->y_label);
}

/* Write the files, run gnuplot in 'dir', read its PNG; an exit code. */
static int draw(const struct table *t, const char *dir, char **png, size_t *len)
{
	struct hm_text data = { 0 }, script = { 0 };
	char path[4200], *d, *s;
	int points = 0, left_out = 0, held_back = 0, ret;
	double lo = INFINITY, hi = 0;
	struct hm_error err;
	struct hm_spawn_opts so = { .timeout = 60, .grace = 2, .cwd = dir };
	struct hm_spawn_result res;
	char *argv[] = { "gnuplot", "plot.gp", NULL };
	enum hm_read_status st;

	/* both axes over every time, a third of a decade beyond: the
	 * diagonal is the diagonal */
	for (int i = 0; i < t->n; i++) {
		const struct cell *c = t->rows[i].cells;
		double p = c[t->x].number, m = c[t->y].number;

		if (plotted(t, c)) {
			points++;
			lo = fmin(lo, fmin(p, m)), hi = fmax(hi, fmax(p, m));
		} else if (withheld(t, c)) {
			held_back++;
		} else if (p > 0 && m > 0) {
			left_out++;
		}
	}
	if (left_out)
		hm_say_error("report: warning: %d of the %s left out of the plot: a time beyond %g s or under %g s",
			     left_out, t->set->rows, PLOT_MAX, PLOT_MIN);
	if (!points)
		lo = 0.1, hi = 1;
	plot_files(t, lo, hi, points, held_back, &data, &script);
	hm_text_add(&data, "", 0);      /* no point at all is an empty file, not a failure */
	d = hm_text_done(&data), s = hm_text_done(&script);
	hm_error_clear(&err);
	ret = !d || !s ? HM_EXIT_FAILURE : HM_EXIT_OK;
	snprintf(path, sizeof(path), "%s/runs.dat", dir);
	if (!ret && hm_write_file_atomic(path, d, strlen(d), &err))
		ret = HM_EXIT_OUTPUT;
	snprintf(path, sizeof(path), "%s/plot.gp", dir);
	if (!ret && hm_write_file_atomic(path, s, strlen(s), &err))
		ret = HM_EXIT_OUTPUT;
	if (ret)
		hm_say_error("report: cannot write gnuplot's input: %s", err.msg[0] ? err.msg : "out of memory");
	free(d), free(s);
	if (!ret && (hm_spawn_run(argv, &so, &res) || res.status != HM_SPAWN_EXITED || res.exit_code)) {
		char why[256];

		hm_say_error("report: gnuplot %s", res.status == HM_SPAWN_NOT_FOUND ?
			     "is not installed (apt-get install gnuplot-nox)" : hm_spawn_describe(&res, &so, why, sizeof(why)));
		ret = res.status == HM_SPAWN_NOT_FOUND ? HM_EXIT_NO_MPIRUN : HM_EXIT_FAILURE;
	}
	snprintf(path, sizeof(path), "%s/plot.png", dir);
	if (!ret && !(*png = hm_read_file(path, 64u << 20, len, &st))) {
		hm_say_error("report: gnuplot wrote no plot");
		ret = HM_EXIT_FAILURE;
	}
	return ret;
}

/* The plot into 'out' (whole or not at all), through a directory of its own. */
static int plot(const struct table *t, const char *out)
{
	char dir[4096], path[4200];
	char *png = NULL;
	size_t len = 0;
	struct hm_error err;
	int ret;

	if ((ret = hm_mpirun_temp_dir("report", dir, sizeof(dir))))
		return ret;
	ret = draw(t, dir, &png, &len);
	hm_error_clear(&err);
	if (!ret && hm_write_file_atomic(out, png, len, &err)) {
		hm_say_report(&err);
		ret = HM_EXIT_OUTPUT;
	}
	if (!ret)
		hm_say_note("hetmap: report: plot written to %s\n", out);
	free(png);
	for (const char *const *f = (const char *const[]){ "runs.dat", "plot.gp", "plot.png", NULL }; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	rmdir(dir);
	return ret;
}

/* The plot must not replace what it is drawn from: an output that is one
 * of the inputs (the same file, under any name), or that reads like
 * results rather than a picture (named .json or .jsonl, or a file there
 * already that is not a PNG), is refused. HM_EXIT_OK, or HM_EXIT_OUTPUT
 * after a message. */
static int check_plot_output(const char *out, char **inputs, int n)
{
	static const unsigned char png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	const char *dot = strrchr(out, '.');
	unsigned char head[8] = { 0 };
	struct stat so, si;
	FILE *f;

	if (dot && (!strcasecmp(dot, ".json") || !strcasecmp(dot, ".jsonl"))) {
		hm_say_error("report: --plot %s: a plot is a PNG, not a results file (name it .png)", out);
		return HM_EXIT_OUTPUT;
	}
	if (stat(out, &so))
		return HM_EXIT_OK;      /* a new file */
	for (int i = 0; i < n; i++)
		if (!stat(inputs[i], &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
			hm_say_error("report: --plot %s is %s, which the report reads: it would be replaced", out,
				     inputs[i]);
			return HM_EXIT_OUTPUT;
		}
	if (S_ISREG(so.st_mode) && so.st_size > 0 && (f = fopen(out, "rb"))) {
		size_t got = fread(head, 1, sizeof(head), f);

		fclose(f);
		if (got < sizeof(head) || memcmp(head, png, sizeof(png))) {
			hm_say_error("report: --plot %s holds something other than a PNG: not replaced", out);
			return HM_EXIT_OUTPUT;
		}
	}
	return HM_EXIT_OK;
}

/* The columns --sort and --by name, and the plot's, once the kind of
 * rows is known; an exit code. */
static int resolve_columns(struct table *t, const char *sort, const char *by)
{
	const struct column_set *set = t->set;
	char names[512];
	size_t len = 0;

	for (int k = 0; k < set->n; k++)
		len += (size_t)snprintf(names + len, len < sizeof(names) ? sizeof(names) - len : 0, "%s%s",
					k ? ", " : "", set->columns[k].name);
	t->x = column_named(set, set->x), t->y = column_named(set, set->y);
	t->ratio = column_named(set, set->ratio), t->group = column_named(set, by ? by : set->group);
	if (t->group < 0) {
		hm_say_error("report: --by %s: not a column of %s (%s)", by, set->rows, names);
		return HM_EXIT_USAGE;
	}
	sort = sort ? sort : set->sort;
	if (sort && (sort_column = column_named(set, sort)) < 0) {
		hm_say_error("report: --sort %s: not a column of %s (%s)", sort, set->rows, names);
		return HM_EXIT_USAGE;
	}
	if (sort)
		qsort(t->rows, (size_t)t->n, sizeof(t->rows[0]), by_sort_column);
	return HM_EXIT_OK;
}

/* No file named: the results file 'run' appends to (HETMAP_RESULTS, the
 * configuration's, else hetmap-results.jsonl here), when there is one. */
static int default_results(const char **file)
{
	int ret = hm_default_results(file);

	if (ret)
		return ret;
	if (access(*file, F_OK)) {
		hm_say_error("report: no results file named, and %s (where 'run' appends) is not there: name one "
			     "(see 'hetmap report --help')", *file);
		return HM_EXIT_USAGE;
	}
	hm_say_note("hetmap: report: %s (the results file 'run' appends to)\n", *file);
	return HM_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	const char *format = "text", *plot_file = NULL, *sort = NULL, *by = NULL, *fallback = NULL;
	const struct hm_option opts[] = {
		HM_FORMAT_OPTION(format, "text, csv or json"),
		{ 0, "sort", HM_OPT_STRING, &sort, "COLUMN", "rows in this column's order (default: time, as they ran)", 0, 0 },
		{ 0, "plot", HM_OPT_STRING, &plot_file, "FILE", "also draw measured against predicted time (PNG, gnuplot)", 0, 0 },
		{ 0, "by", HM_OPT_STRING, &by, "COLUMN", "the plot's colours: one per value of this column (default: program; a judge's candidates: method)", 0, 0 },
		HM_OPT_TABLE_END,
	};
	struct table t = { 0 };
	struct hm_error err;
	char **files;
	int first, fmt, nfiles, ret = HM_EXIT_OK;

	hm_options_anywhere = 1;        /* 'report runs.jsonl --plot runs.png' */
	first = hm_options_parse(&usage, opts, argc, argv);

	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0 || (fmt = hm_format_parse("report", format, 1 | 2 | 4)) < 0)
		return HM_EXIT_USAGE;
	if (by && !plot_file) {
		hm_say_error("report: --by chooses the plot's colours: give --plot FILE.png");
		return HM_EXIT_USAGE;
	}
	files = argv + first, nfiles = argc - first;
	if (!nfiles) {
		if ((ret = default_results(&fallback)))
			return ret;
		files = (char **)&fallback, nfiles = 1;
	}
	hm_error_clear(&err);
	if (plot_file && (hm_atomic_check(plot_file, &err) || (ret = check_plot_output(plot_file, files, nfiles)))) {
		if (!ret)
			hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	for (int i = 0; i < nfiles && !ret; i++)
		ret = read_results(files[i], &t);
	if (!t.set)
		t.set = &runs;          /* empty files: an empty table of runs */
	if (!ret)
		ret = resolve_columns(&t, sort, by);
	if (!ret && fmt == HM_FORMAT_JSON)
		ret = print_json(&t);
	else if (!ret && fmt == HM_FORMAT_CSV)
		print_csv(&t);
	else if (!ret) {
		print_text(&t);
		print_summary(&t);
	}
	if (!ret && plot_file)
		ret = plot(&t, plot_file);
	free(t.rows);
	return ret;
}

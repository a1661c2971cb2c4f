/* mapper/cli/cmd_report.c - 'hetmap report': the runs of one or more results
 * files (what 'run' appends) as a table, and a plot of measured against
 * predicted time. The columns are one table below; text, csv and json
 * are three writers of it. */
#include "cli.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/spawn.h"
#include "models/util/atomic_file.h"
#include "models/util/read_file.h"
#include "models/util/strbuild.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct hm_usage usage = {
	"report",
	"hetmap report [-f text|csv|json] [--plot FILE.png] RESULTS.jsonl...",
	"One row per run recorded in the results files (what 'hetmap run' appends):\n"
	"when, the program, the launcher, the problem and the plan, the predicted\n"
	"and measured times, their ratio, what measured it and the program's\n"
	"verdict. --plot draws measured against predicted time (log-log, one\n"
	"colour per launcher, the line where they agree) with gnuplot.",
	"measured_by: profile (the program's own time, read by its profile),\n"
	"time-line (its '" "hetmap-time: SECONDS' line), time-regex (--time-regex),\n"
	"mpi-span (the longest rank's MPI_Init to MPI_Finalize). A ratio is left\n"
	"empty when the time is under ten ticks of the program's timer.\n"
	"examples:\n"
	"  hetmap report hetmap-results.jsonl\n"
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
	const char *path = cJSON_GetStringValue(member(rec, "program.path"));
	const char *base = path ? strrchr(path, '/') : NULL;

	snprintf(c->text, sizeof(c->text), "%s", base ? base + 1 : path ? path : "");
}

static void grid(const cJSON *rec, struct cell *c)
{
	const cJSON *r = member(rec, "plan.r"), *cc = member(rec, "plan.c");

	if (cJSON_IsNumber(r) && cJSON_IsNumber(cc))
		snprintf(c->text, sizeof(c->text), "%dx%d", r->valueint, cc->valueint);
}

static const struct column columns[] = {
	{ "time", -20, "time", NULL },
	{ "program", -16, NULL, program_name },
	{ "launcher", -8, "launcher.name", NULL },
	{ "routine", -7, "inputs.routine", NULL },
	{ "n", 7, "inputs.n", NULL },
	{ "D", 4, "plan.D", NULL },
	{ "grid", 6, NULL, grid },
	{ "b", 4, "plan.b", NULL },
	{ "predicted_s", 11, "predicted_s", NULL },
	{ "measured_s", 11, "measured_s", NULL },
	{ "ratio", 7, "measured_over_predicted", NULL },
	{ "measured_by", -11, "measured_by", NULL },
	{ "verdict", -8, "program.verdict", NULL },
	{ "exit", 4, "exit_code", NULL },
};
#define NR_COLUMNS (int)(sizeof(columns) / sizeof(columns[0]))
enum { COL_LAUNCHER = 2, COL_PREDICTED = 8, COL_MEASURED = 9 };

struct row {
	struct cell cells[NR_COLUMNS];
};

static void fill_row(const cJSON *rec, struct row *row)
{
	for (int k = 0; k < NR_COLUMNS; k++) {
		struct cell *c = &row->cells[k];
		const cJSON *v;

		memset(c, 0, sizeof(*c));
		c->number = NAN;
		if (columns[k].derive) {
			columns[k].derive(rec, c);
			continue;
		}
		v = member(rec, columns[k].path);
		if (cJSON_IsNumber(v)) {
			c->is_number = 1, c->number = v->valuedouble;
			snprintf(c->text, sizeof(c->text), "%.4g", v->valuedouble);
		} else if (cJSON_IsString(v)) {
			hm_printable(v->valuestring, c->text, sizeof(c->text));
		}
	}
}

struct table {
	struct row *rows;
	int n, cap;
};

/* The records of 'path' appended to t; an exit code. A line that is not a
 * record is an error naming it: a report must not skip runs silently. */
static int read_results(const char *path, struct table *t)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	long number = 0;
	int ret = HM_EXIT_OK;

	if (!f) {
		hm_say_error("report: %s: %s", path, strerror(errno));
		return HM_EXIT_INPUT;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		cJSON *rec;

		number++;
		if (line[strspn(line, " \t\r\n")] == '\0')
			continue;
		rec = cJSON_Parse(line);
		if (!cJSON_IsObject(rec) || !cJSON_IsNumber(member(rec, "hetmap_result"))) {
			hm_say_error("report: %s: line %ld is not a hetmap run record", path, number);
			ret = HM_EXIT_INPUT;
		} else if (t->n == t->cap) {
			struct row *more = realloc(t->rows, sizeof(*more) * (size_t)(t->cap ? 2 * t->cap : 64));

			if (!more) {
				hm_say_error("report: out of memory");
				ret = HM_EXIT_FAILURE;
			} else {
				t->rows = more, t->cap = t->cap ? 2 * t->cap : 64;
			}
		}
		if (!ret)
			fill_row(rec, &t->rows[t->n++]);
		cJSON_Delete(rec);
	}
	if (!ret && ferror(f)) {
		hm_say_error("report: %s: %s", path, strerror(errno));
		ret = HM_EXIT_INPUT;
	}
	free(line);
	fclose(f);
	return ret;
}

static void print_text(const struct table *t)
{
	for (int k = 0; k < NR_COLUMNS; k++)
		printf("%s%*s", k ? " " : "", columns[k].width, columns[k].name);
	printf("\n");
	for (int i = 0; i < t->n; i++) {
		for (int k = 0; k < NR_COLUMNS; k++)
			printf("%s%*s", k ? " " : "", columns[k].width,
			       t->rows[i].cells[k].text[0] ? t->rows[i].cells[k].text : "-");
		printf("\n");
	}
	if (!t->n)
		printf("(no runs recorded)\n");
}

/* CSV: RFC 4180 quoting where a cell needs it. */
static void print_csv(const struct table *t)
{
	for (int k = 0; k < NR_COLUMNS; k++)
		printf("%s%s", k ? "," : "", columns[k].name);
	printf("\n");
	for (int i = 0; i < t->n; i++) {
		for (int k = 0; k < NR_COLUMNS; k++) {
			const struct cell *c = &t->rows[i].cells[k];

			printf("%s", k ? "," : "");
			if (c->is_number)
				printf("%.9g", c->number);
			else if (strpbrk(c->text, ",\"")) {
				printf("\"");
				for (const char *s = c->text; *s; s++)
					printf(*s == '"' ? "\"\"" : "%c", *s);
				printf("\"");
			} else
				printf("%s", c->text);
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

		for (int k = 0; o && k < NR_COLUMNS; k++) {
			const struct cell *c = &t->rows[i].cells[k];

			if (c->is_number)
				cJSON_AddNumberToObject(o, columns[k].name, c->number);
			else if (c->text[0])
				cJSON_AddStringToObject(o, columns[k].name, c->text);
			else
				cJSON_AddNullToObject(o, columns[k].name);
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

#define MAX_LAUNCHERS 32         /* colours in one plot; a 33rd launcher's runs are left out */

/* gnuplot's input: one block per launcher ("index i"), rows with both
 * times; the launchers' names into 'names' (gnuplot's word list). */
static int plot_data(const struct table *t, struct hm_text *data, char *names, size_t size)
{
	const char *launcher[MAX_LAUNCHERS];
	int blocks = 0;

	names[0] = '\0';
	/* the launchers in order of first appearance: a pass over the rows
	 * for each (a results file names a few) */
	for (int i = 0; i < t->n; i++) {
		const char *l = t->rows[i].cells[COL_LAUNCHER].text;
		int known = 0;

		for (int k = 0; k < blocks && !known; k++)
			known = !strcmp(launcher[k], l);
		if (!known && blocks < MAX_LAUNCHERS)
			launcher[blocks++] = l;
	}
	for (int k = 0; k < blocks; k++) {
		for (int j = 0; j < t->n; j++) {
			const struct row *r = &t->rows[j];

			if (!strcmp(r->cells[COL_LAUNCHER].text, launcher[k]) && r->cells[COL_PREDICTED].number > 0 &&
			    r->cells[COL_MEASURED].number > 0)
				hm_text_addf(data, "%.9g %.9g\n", r->cells[COL_PREDICTED].number,
					     r->cells[COL_MEASURED].number);
		}
		hm_text_addf(data, "\n\n");
		snprintf(names + strlen(names), size - strlen(names), "%s%s", k ? " " : "",
			 launcher[k][0] ? launcher[k] : "none");
	}
	return blocks;
}

static const char plot_script[] =
	"set terminal pngcairo size 800,600\n"
	"set output 'plot.png'\n"
	"set logscale xy\n"
	"set xlabel 'predicted time (s)'\n"
	"set ylabel 'measured time (s)'\n"
	"set key bottom right\n"
	"set grid\n"
	"set xrange [%g:%g]\n"
	"set yrange [%g:%g]\n"
	"set size square\n"
	"set title 'hetmap report: %d runs with both times'\n"
	"names = '%s'\n"
	"plot for [i=0:%d] 'runs.dat' index i using 1:2 with points pointsize 1.5 title word(names, i+1), \\\n"
	"     x with lines dashtype 2 lc 'grey' title 'measured = predicted'\n";

/* Write the files, run gnuplot in 'dir', read its PNG; an exit code. */
static int draw(const struct table *t, const char *dir, char **png, size_t *len)
{
	struct hm_text data = { 0 }, script = { 0 };
	char names[1024], path[4200], *d, *s;
	int blocks = plot_data(t, &data, names, sizeof(names)), points = 0, ret;
	double lo = INFINITY, hi = 0;
	struct hm_error err;
	struct hm_spawn_opts so = { 60, 2, NULL, NULL, NULL, NULL, NULL, dir };
	struct hm_spawn_result res;
	char *argv[] = { "gnuplot", "plot.gp", NULL };
	enum hm_read_status st;

	/* both axes over every time, a third of a decade beyond: the
	 * diagonal is the diagonal */
	for (int i = 0; i < t->n; i++) {
		double p = t->rows[i].cells[COL_PREDICTED].number, m = t->rows[i].cells[COL_MEASURED].number;

		if (p > 0 && m > 0) {
			points++;
			lo = fmin(lo, fmin(p, m)), hi = fmax(hi, fmax(p, m));
		}
	}
	if (!points)
		lo = 0.1, hi = 1;
	hm_text_addf(&script, plot_script, lo / 2, hi * 2, lo / 2, hi * 2, points, names,
		     blocks > 0 ? blocks - 1 : 0);
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

int cmd_report(int argc, char **argv)
{
	const char *format = "text", *plot_file = NULL;
	const struct hm_option opts[] = {
		HM_FORMAT_OPTION(format, "text, csv or json"),
		{ 0, "plot", HM_OPT_STRING, &plot_file, "FILE", "also draw measured against predicted time (PNG, gnuplot)", 0, 0 },
		HM_OPT_TABLE_END,
	};
	struct table t = { 0 };
	struct hm_error err;
	int first, fmt, ret = HM_EXIT_OK;

	hm_options_anywhere = 1;        /* 'report runs.jsonl --plot runs.png' */
	first = hm_options_parse(&usage, opts, argc, argv);

	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0 || (fmt = hm_format_parse("report", format, 1 | 2 | 4)) < 0)
		return HM_EXIT_USAGE;
	if (first >= argc) {
		hm_say_error("report: name one results file at least (see 'hetmap report --help')");
		return HM_EXIT_USAGE;
	}
	hm_error_clear(&err);
	if (plot_file && hm_atomic_check(plot_file, &err)) {
		hm_say_report(&err);
		return HM_EXIT_OUTPUT;
	}
	for (int i = first; i < argc && !ret; i++)
		ret = read_results(argv[i], &t);
	if (!ret && fmt == HM_FORMAT_JSON)
		ret = print_json(&t);
	else if (!ret)
		(fmt == HM_FORMAT_CSV ? print_csv : print_text)(&t);
	if (!ret && plot_file)
		ret = plot(&t, plot_file);
	free(t.rows);
	return ret;
}

/* mapper/cli/cmd_report.c - 'hetmap report': the runs of one or more results
 * files (what 'run' appends) as a table, and a plot of measured against
 * predicted time. The columns are one table below; text, csv and json
 * are three writers of it. */
#include "cli.h"
#include "mapper/launch/mpirun.h"
#include "mapper/launch/spawn.h"
#include "models/util/atomic_file.h"
#include "models/util/json_read.h"
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
	"hetmap report [-f text|csv|json] [--plot FILE.png] RESULTS.jsonl... | JUDGED-PLAN.json...",
	"One row per run recorded in the results files (what 'hetmap run' appends):\n"
	"when, the program, the launcher, the problem and the plan, the predicted\n"
	"and measured times, their ratio, what measured it and the program's\n"
	"verdict. Given plans that 'plan --judge K' wrote, one row per candidate\n"
	"the judge weighed: its configuration, predicted and simulated times,\n"
	"their ratio, its status and wall time. --plot draws measured (simulated)\n"
	"against predicted time (log-log, one colour per launcher (method), the\n"
	"line where they agree) with gnuplot.",
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

/* "r x c" from the members at 'r' and 'c'. */
static void grid_at(const cJSON *rec, const char *r_path, const char *c_path, struct cell *c)
{
	const cJSON *r = member(rec, r_path), *cc = member(rec, c_path);

	if (cJSON_IsNumber(r) && cJSON_IsNumber(cc))
		snprintf(c->text, sizeof(c->text), "%dx%d", r->valueint, cc->valueint);
}

static void run_grid(const cJSON *rec, struct cell *c)
{
	grid_at(rec, "plan.r", "plan.c", c);
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
	{ "time", -20, "time", NULL },
	{ "program", -16, NULL, program_name },
	{ "launcher", -8, "launcher.name", NULL },
	{ "routine", -7, "inputs.routine", NULL },
	{ "n", 7, "inputs.n", NULL },
	{ "D", 4, "plan.D", NULL },
	{ "grid", 6, NULL, run_grid },
	{ "b", 4, "plan.b", NULL },
	{ "predicted_s", 11, "predicted_s", NULL },
	{ "measured_s", 11, "measured_s", NULL },
	{ "ratio", 7, "measured_over_predicted", NULL },
	{ "measured_by", -11, "measured_by", NULL },
	{ "verdict", -8, "program.verdict", NULL },
	{ "exit", 4, "exit_code", NULL },
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

/* What a report lists: its columns, and which of them the plot takes
 * (one colour per value of 'group', y against x). */
struct column_set {
	const char *rows;               /* what a row is, plural */
	const struct column *columns;
	int n;
	int group, x, y;
	const char *y_label;
};

#define COLUMNS(table) table, (int)(sizeof(table) / sizeof(table[0]))
static const struct column_set runs = { "runs", COLUMNS(run_columns), 2, 8, 9, "measured" };
static const struct column_set candidates = { "candidates", COLUMNS(candidate_columns), 1, 5, 6, "simulated" };
#define MAX_COLUMNS 16
_Static_assert(sizeof(run_columns) / sizeof(run_columns[0]) <= MAX_COLUMNS, "a row holds every column");
_Static_assert(sizeof(candidate_columns) / sizeof(candidate_columns[0]) <= MAX_COLUMNS, "a row holds every column");

struct row {
	struct cell cells[MAX_COLUMNS];
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

/* The records of 'path' appended to t, or a judged plan's candidates; an
 * exit code. A line that is not a record is an error naming it: a report
 * must not skip runs silently. */
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
		if (number == 1 && !rec && line[strspn(line, " \t")] == '{') {
			/* a document over several lines: a plan, read whole */
			ret = read_plan_file(path, t);
			break;
		}
		if (!cJSON_IsObject(rec) || !cJSON_IsNumber(member(rec, "hetmap_result"))) {
			hm_say_error("report: %s: line %ld is not a hetmap run record", path, number);
			ret = HM_EXIT_INPUT;
		} else {
			ret = add_row(t, &runs, path, rec);
		}
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

/* CSV: RFC 4180 quoting where a cell needs it. */
static void print_csv(const struct table *t)
{
	const struct column *columns = t->set->columns;

	for (int k = 0; k < t->set->n; k++)
		printf("%s%s", k ? "," : "", columns[k].name);
	printf("\n");
	for (int i = 0; i < t->n; i++) {
		for (int k = 0; k < t->set->n; k++) {
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

/* gnuplot's input: one block per group (launcher, method: "index i"),
 * rows with both times; the groups' names into 'names' (gnuplot's word
 * list). */
static int plot_data(const struct table *t, struct hm_text *data, char *names, size_t size)
{
	const struct column_set *set = t->set;
	const char *group[MAX_GROUPS];
	int blocks = 0;

	names[0] = '\0';
	/* the groups in order of first appearance: a pass over the rows for
	 * each (a results file names a few) */
	for (int i = 0; i < t->n; i++) {
		const struct cell *c = t->rows[i].cells;
		const char *g = c[set->group].text;
		int known = !(c[set->x].number > 0 && c[set->y].number > 0);        /* no point: no colour */

		for (int k = 0; k < blocks && !known; k++)
			known = !strcmp(group[k], g);
		if (!known && blocks < MAX_GROUPS)
			group[blocks++] = g;
	}
	for (int k = 0; k < blocks; k++) {
		for (int j = 0; j < t->n; j++) {
			const struct cell *c = t->rows[j].cells;

			if (!strcmp(c[set->group].text, group[k]) && c[set->x].number > 0 && c[set->y].number > 0)
				hm_text_addf(data, "%.9g %.9g\n", c[set->x].number, c[set->y].number);
		}
		hm_text_addf(data, "\n\n");
		snprintf(names + strlen(names), size - strlen(names), "%s%s", k ? " " : "",
			 group[k][0] ? group[k] : "none");
	}
	return blocks;
}

static const char plot_script[] =
	"set terminal pngcairo size 800,600\n"
	"set output 'plot.png'\n"
	"set logscale xy\n"
	"set xlabel 'predicted time (s)'\n"
	"set ylabel '%s time (s)'\n"
	"set key bottom right\n"
	"set grid\n"
	"set xrange [%g:%g]\n"
	"set yrange [%g:%g]\n"
	"set size square\n"
	"set title 'hetmap report: %d %s with both times'\n"
	"names = '%s'\n"
	"plot for [i=0:%d] 'runs.dat' index i using 1:2 with points pointsize 1.5 title word(names, i+1), \\\n"
	"     x with lines dashtype 2 lc 'grey' title '%s = predicted'\n";

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
		double p = t->rows[i].cells[t->set->x].number, m = t->rows[i].cells[t->set->y].number;

		if (p > 0 && m > 0) {
			points++;
			lo = fmin(lo, fmin(p, m)), hi = fmax(hi, fmax(p, m));
		}
	}
	if (!points)
		lo = 0.1, hi = 1;
	hm_text_addf(&script, plot_script, t->set->y_label, lo / 2, hi * 2, lo / 2, hi * 2, points, t->set->rows,
		     names, blocks > 0 ? blocks - 1 : 0, t->set->y_label);
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
	if (!t.set)
		t.set = &runs;          /* empty files: an empty table of runs */
	if (!ret && fmt == HM_FORMAT_JSON)
		ret = print_json(&t);
	else if (!ret)
		(fmt == HM_FORMAT_CSV ? print_csv : print_text)(&t);
	if (!ret && plot_file)
		ret = plot(&t, plot_file);
	free(t.rows);
	return ret;
}

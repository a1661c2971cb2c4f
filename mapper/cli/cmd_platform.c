/* mapper/cli/cmd_platform.c - 'hetmap platform show|check|list'. */
#include "cli.h"
#include "models/util/strbuild.h"
#include "models/platform/calibration_trust.h"
#include "models/platform/threads.h"
#include "models/util/read_file.h"

#include <stdlib.h>
#include <string.h>

static const struct hm_usage usage = {
	"platform",
	"hetmap platform [-f F] show FILE | check FILE... | list",
	"Work with platform descriptions (their format: models/platform/README.md).\n"
	"  show FILE    print a readable summary of a platform (json: the description)\n"
	"  check FILE   validate files, and say what each type is charged for the LU\n"
	"               steps it does not give; exit 0 if all are valid, 2 otherwise\n"
	"  list         list the builtin reference platforms (use as builtin:NAME)",
	"FILE is a path or builtin:NAME. Values are SI (s, s/flop, s per 8-byte word,\n"
	"bytes) or strings with a unit: \"0.72us\", \"100Mbps\", \"2GiB\" (models/platform/README.md).",
};

static void print_table_row(const char *label, const struct hm_table *t,
			    const struct hm_platform *p)
{
	int i;

	printf("    %-10s", label);
	for (i = 0; i < p->nr_block_sizes; i++)
		printf(" %9.4g", 1e-9 / hm_table_at(t, p->block_sizes[i]));  /* GFLOP/s */
	printf("\n");
}

/* LU's steps beside its kernels: each as given, priced from another type
 * or defaulted (the loader's pricing, hm_lu_step_info). */
static void show_lu_steps(const struct hm_platform *p, const struct hm_proc_type *ty)
{
	static const double unit[HM_NR_LU_STEPS] = { [HM_LU_COLUMN_STEP] = 1e6, [HM_LU_ROW_SWAP] = 1e9,
						     [HM_LU_ROW_SWAP_ALIASED] = 1e9 };
	static const char *const per[HM_NR_LU_STEPS] = { [HM_LU_COLUMN_STEP] = "us beyond its message",
							  [HM_LU_ROW_SWAP] = "ns per element",
							  [HM_LU_ROW_SWAP_ALIASED] = "ns" };

	printf("    %-10s", "LU steps");
	for (int s = 0; s < HM_NR_LU_STEPS; s++) {
		printf("%s %s %.3g %s", s ? "," : "", hm_lu_step_info(s)->what, hm_lu_step_cost(ty, s) * unit[s],
		       per[s]);
		if (ty->step_from[s] == HM_STEP_PRICED)
			printf(" (priced from %s's)", p->types[ty->step_source[s]].name);
		else if (ty->step_from[s] == HM_STEP_DEFAULT)
			printf(" (default)");
		else if (ty->step_from[s] == HM_STEP_OWN)
			printf(" (not measured: its %s)", hm_lu_step_info(hm_lu_step_info(s)->same_as)->key);
	}
	printf("\n");
}

/* What a rank of t BLAS threads gains over a rank of one, per kernel
 * group, as calibrate --threads measured it (models/README.md). */
static void show_thread_speedups(const struct hm_proc_type *ty)
{
	const char *const *groups = hm_thread_kernel_names();

	for (int k = 0; k < ty->nr_threads; k++) {
		printf("    %-10s %s%d threads a rank:", k ? "" : "threads", ty->threads[k].t < 10 ? " " : "",
		       ty->threads[k].t);
		for (int g = 0; g < HM_NR_THREAD_KERNELS; g++) {
			const struct hm_table *s = &ty->threads[k].s[g];

			printf("%s %s x%.3g", g ? "," : "", groups[g], s->k[0]);
			for (int i = 1; i < s->n; i++)  /* by block size: the type line's b */
				printf("/%.3g", s->k[i]);
		}
		printf(" (over one thread%s)\n", ty->threads[k].s[0].n > 1 ? ", at each b" : "");
	}
}

static void show_types(const struct hm_platform *p)
{
	int t, i;

	printf("types (per core, all cores busy: GFLOP/s at b =");
	for (i = 0; i < p->nr_block_sizes; i++)
		printf(" %d", p->block_sizes[i]);
	printf("):\n");
	for (t = 0; t < p->nr_types; t++) {
		int count = 0;

		for (i = 0; i < p->nr_procs; i++)
			count += p->procs[i].type == t;
		printf("  %s: %d processor%s\n", p->types[t].name, count, count == 1 ? "" : "s");
		print_table_row("k3_dgemm", &p->types[t].k3_dgemm, p);
		print_table_row("k3_dtrsm", &p->types[t].k3_dtrsm, p);
		print_table_row("k2_dgetf2", &p->types[t].k2_dgetf2, p);
		if (p->types[t].busy_scale.n) {
			const struct hm_table *b = &p->types[t].busy_scale;

			printf("    %-10s", "busy cores");
			for (i = 0; i < b->n; i++)
				printf(" %d: k x %.3g", b->b[i], b->k[i]);
			printf("\n");
		}
		show_lu_steps(p, &p->types[t]);
		if (p->types[t].stacked[HM_ROUTINE_LU] != 1 || p->types[t].stacked[HM_ROUTINE_GEMM] != 1)
			printf("    %-10s a shared core costs the rule's x %.3g (lu), x %.3g (gemm)\n",
			       "stacked", p->types[t].stacked[HM_ROUTINE_LU],
			       p->types[t].stacked[HM_ROUTINE_GEMM]);
		show_thread_speedups(&p->types[t]);
	}
}

/* A list's next item into buf (size bytes, *len used), or, where the item
 * and then 'cut' would not fit, 'cut' instead: 0, or -1 once cut. */
static int add_or_cut(char *buf, size_t size, size_t *len, const char *item, const char *cut)
{
	if (*len + strlen(item) + strlen(cut) >= size) {
		hm_buf_addf(buf, size, len, "%s", cut);
		return -1;
	}
	hm_buf_addf(buf, size, len, "%s", item);
	return 0;
}

/* The first CPU of each core, runs of consecutive numbers as "a-b", into
 * buf; "..." ends a list that does not fit. */
static void first_cpus(const struct hm_topology *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int j = 0; j < t->cores; j++) {
		int lo = hm_topology_cpu(t, j), k = j;
		char item[32];

		while (k + 1 < t->cores && hm_topology_cpu(t, k + 1) == hm_topology_cpu(t, k) + 1)
			k++;
		snprintf(item, sizeof(item), k > j ? "%s%d-%d" : "%s%d", j ? "," : "", lo, hm_topology_cpu(t, k));
		if (add_or_cut(buf, size, &len, item, ",..."))
			return;
		j = k;
	}
}

/* Each core's CPUs ("0,8 1,9 ..."), cut with "..." where it does not fit. */
static void core_cpus(const struct hm_topology *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int j = 0; j < t->cores; j++)
		for (int i = t->first[j]; i < t->first[j + 1]; i++) {
			char item[16];

			snprintf(item, sizeof(item), "%s%d", i > t->first[j] ? "," : j ? " " : "", t->cpus[i]);
			if (add_or_cut(buf, size, &len, item, " ..."))
				return;
		}
}

/* The nodes' topologies, as hwloc read them where calibrate ran. */
static void show_topologies(const struct hm_platform *p)
{
	int any = 0;

	for (int i = 0; i < p->nr_procs; i++) {
		const struct hm_processor *pr = &p->procs[i];
		const struct hm_topology *t = pr->topology;
		char cpus[96];

		if (!t)
			continue;
		if (!any++)
			printf("\ntopology (hwloc, where calibrate ran; each core's CPUs):\n");
		core_cpus(t, cpus, sizeof(cpus));
		printf("  %-12s %d core%s", pr->name, t->cores, HM_PLURAL(t->cores));
		if (t->numa_nodes)
			printf(", %d NUMA node%s", t->numa_nodes, HM_PLURAL(t->numa_nodes));
		if (t->threads_per_core)
			printf(", %d hardware thread%s a core%s", t->threads_per_core, HM_PLURAL(t->threads_per_core),
			       t->threads_as_cores ? " (each counted as a core: --smt)" : "");
		if (t->allowed)
			printf(", CPUs %s allowed", t->allowed);
		printf(": %s\n", cpus);
	}
}

static void show_processors(const struct hm_platform *p)
{
	int i;

	printf("processors:\n  %-12s %-16s %-10s %5s %7s %12s  %s\n", "name", "host", "type", "cores",
	       "sockets", "memory", "CPUs (each core's first)");
	for (i = 0; i < p->nr_procs; i++) {
		const struct hm_processor *pr = &p->procs[i];
		char mem[32] = "-", cpus[48] = "-";

		if (pr->memory > 0)
			snprintf(mem, sizeof(mem), "%.3g GiB", pr->memory / 1073741824.0);
		if (pr->topology)
			first_cpus(pr->topology, cpus, sizeof(cpus));
		printf("  %-12s %-16s %-10s %5d %7d %12s  %s\n", pr->name, pr->host,
		       p->types[pr->type].name, pr->cores, pr->sockets, mem, cpus);
	}
	show_topologies(p);
}

/* One link: latency in us, and t_w per 8-byte word as a bandwidth; the
 * core's part when it is not all of t_w. */
static void print_link(const char *label, struct hm_link l)
{
	if (l.t_w > 0)
		printf("  %-15s t_s = %9.4g us   %9.4g GB/s (t_w = %.4g us/word)", label,
		       l.t_s * 1e6, 8e-9 / l.t_w, l.t_w * 1e6);
	else
		printf("  %-15s t_s = %9.4g us   free (t_w = 0)", label, l.t_s * 1e6);
	if (l.t_w_core < l.t_w)
		printf(", core's part %.4g us/word", l.t_w_core * 1e6);
	printf("\n");
}

static void show_network(const struct hm_platform *p)
{
	int c, i;

	printf("network (Hockney: t_s + words x t_w):\n");
	for (c = 0; c < HM_LINK_NSCOPES; c++)
		print_link(hm_link_scope_name((enum hm_link_scope)c), p->links[c]);
	for (i = 0; i < p->nr_rules; i++) {
		char pair[600], a[200], b[200];

		hm_rule_end_text(&p->rules[i].end[0], a, sizeof(a));
		hm_rule_end_text(&p->rules[i].end[1], b, sizeof(b));
		snprintf(pair, sizeof(pair), "%s ~ %s", a, b);
		print_link(pair, p->rules[i].link);
	}
	for (i = 0; i < p->nr_overrides; i++) {
		const struct hm_link_override *o = &p->overrides[i];
		char pair[600];

		snprintf(pair, sizeof(pair), "%s-%s", p->procs[o->a].name, p->procs[o->b].name);
		print_link(pair, o->link);
	}
}

static void say_doubt(void *ctx, const char *type, const char *line)
{
	(void)ctx;
	printf("  %s: in doubt: %s\n", type, line);
}

/* A calibrated platform's record: how far each type can be trusted
 * (calibration_trust.h). Nothing for a platform nobody calibrated. */
static void show_trust(const char *json, size_t len)
{
	cJSON *root = cJSON_ParseWithLength(json, len), *facts;
	const cJSON *record = cJSON_GetObjectItemCaseSensitive(root, "calibration");
	char line[512];

	if (cJSON_GetObjectItemCaseSensitive(record, "trust")) {
		printf("\ncalibration (how far it can be trusted):\n");
		cJSON_ArrayForEach(facts, cJSON_GetObjectItemCaseSensitive(record, "trust")) {
			if (!cJSON_IsObject(facts))
				continue;
			hm_trust_summary(facts, line, sizeof(line));
			printf("  %s: %s\n", facts->string, line);
		}
		hm_trust_doubts(record, say_doubt, NULL);
	}
	cJSON_Delete(root);
}

/* The platform 'file' and its text (caller frees *json), or -1 after a
 * message. */
static int load_with_text(const char *file, struct hm_platform **p, char **json)
{
	struct hm_error err;
	enum hm_read_status status;
	const char *builtin = strncmp(file, "builtin:", 8) ? NULL : hm_platform_builtin_json(file + 8);
	size_t len;
	char why[128];

	*json = builtin ? hm_strdup(builtin) : hm_read_file(file, HM_MAX_PLATFORM_BYTES, &len, &status);
	if (!*json && !builtin && strncmp(file, "builtin:", 8)) {
		hm_say_error("%s: %s", file, hm_read_failure(status, HM_MAX_PLATFORM_BYTES, why, sizeof(why)));
		return -1;
	}
	hm_error_clear(&err);
	if (!*json ? hm_platform_load(file, p, &err) : hm_platform_load_buffer(*json, strlen(*json), file, p, &err)) {
		hm_say_report(&err);
		free(*json);
		*json = NULL;
		return -1;
	}
	return 0;
}

/* The description itself, as JSON (a file read by name: its text). */
static int show_json(const char *json)
{
	cJSON *doc = json ? cJSON_Parse(json) : NULL;
	char *text = doc ? cJSON_Print(doc) : NULL;

	cJSON_Delete(doc);
	if (!text) {
		hm_say_error("platform: out of memory");
		return HM_EXIT_FAILURE;
	}
	printf("%s\n", text);
	free(text);
	return HM_EXIT_OK;
}

static int show(const char *file, int fmt)
{
	struct hm_platform *p;
	char text[2048], *json;

	if (load_with_text(file, &p, &json))
		return HM_EXIT_INPUT;
	hm_cli_warnings(p);
	if (fmt == HM_FORMAT_JSON) {
		int ret = show_json(json);

		free(json);
		hm_platform_free(p);
		return ret;
	}
	printf("platform %s (%s)\n", p->name, p->source);
	if (p->description[0])
		printf("  %s\n", hm_printable(p->description, text, sizeof(text)));
	printf("  %d processor%s on %d host%s, %d type%s, %d candidate block size%s\n\n",
	       p->nr_procs, HM_PLURAL(p->nr_procs), p->nr_hosts, HM_PLURAL(p->nr_hosts), p->nr_types,
	       HM_PLURAL(p->nr_types), p->nr_block_sizes, HM_PLURAL(p->nr_block_sizes));
	show_types(p);
	printf("\n");
	show_processors(p);
	printf("\n");
	show_network(p);
	if (json)
		show_trust(json, strlen(json));
	free(json);
	hm_platform_free(p);
	return HM_EXIT_OK;
}

/* Where a step that type ty does not give came from: the type it was
 * priced from, "default", or the step of its own it pays instead. */
static const char *step_origin_name(const struct hm_platform *p, const struct hm_proc_type *ty,
				    enum hm_lu_step s)
{
	if (ty->step_from[s] == HM_STEP_PRICED)
		return p->types[ty->step_source[s]].name;
	return ty->step_from[s] == HM_STEP_OWN ? hm_lu_step_info(hm_lu_step_info(s)->same_as)->key : "default";
}

/* What each type is charged for the LU steps it does not give: one entry
 * per type and step, {"type", "term", "from": the type it was priced
 * from, "default", or its own step it pays instead, "seconds"}. */
static cJSON *steps_not_given(const struct hm_platform *p)
{
	cJSON *a = cJSON_CreateArray();

	for (int s = 0; s < HM_NR_LU_STEPS; s++)
		for (int t = 0; t < p->nr_types; t++) {
			const struct hm_proc_type *ty = &p->types[t];
			cJSON *e;

			if (ty->step_from[s] == HM_STEP_GIVEN)
				continue;
			e = cJSON_CreateObject();
			cJSON_AddStringToObject(e, "type", ty->name);
			cJSON_AddStringToObject(e, "term", hm_lu_step_info(s)->key);
			cJSON_AddStringToObject(e, "from", step_origin_name(p, ty, s));
			cJSON_AddNumberToObject(e, "seconds", hm_lu_step_cost(ty, s));
			cJSON_AddItemToArray(a, e);
		}
	return a;
}

/* The same in words: a line per step defaulted (its types together) and
 * per type priced. */
static void print_steps_not_given(const struct hm_platform *p)
{
	for (int s = 0; s < HM_NR_LU_STEPS; s++) {
		const struct hm_lu_step_info *st = hm_lu_step_info(s);
		char names[512], item[300];
		size_t len = 0;
		int cut = 0;

		names[0] = '\0';
		for (int t = 0; t < p->nr_types; t++) {
			const struct hm_proc_type *ty = &p->types[t];

			if (ty->step_from[s] == HM_STEP_PRICED)
				printf("  %s of %s not given: priced from %s's by their panel speeds\n", st->key,
				       ty->name, p->types[ty->step_source[s]].name);
			else if ((ty->step_from[s] == HM_STEP_DEFAULT || ty->step_from[s] == HM_STEP_OWN) && !cut) {
				snprintf(item, sizeof(item), "%s%s", len ? ", " : "", ty->name);
				cut = add_or_cut(names, sizeof(names), &len, item, ", ...") < 0;
			}
		}
		if (len)
			printf("  %s of %s not given: %s%s\n", st->key, names, st->same_as ? "" : "the default, ",
			       st->evidence);
	}
}

/* One file's verdict as an element of a JSON array (the brackets by
 * 'first' and 'last'); p NULL when it was refused. */
static void print_check_json(const char *file, const struct hm_platform *p, int first, int last)
{
	cJSON *o = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(o, "file", file);
	cJSON_AddBoolToObject(o, "ok", p != NULL);
	if (p) {
		cJSON_AddStringToObject(o, "name", p->name);
		cJSON_AddNumberToObject(o, "processors", p->nr_procs);
		cJSON_AddNumberToObject(o, "types", p->nr_types);
		cJSON_AddItemToObject(o, "steps_not_given", steps_not_given(p));
	}
	text = cJSON_PrintUnformatted(o);
	printf("%s%s%s", first ? "[\n  " : ",\n  ", text ? text : "null", last ? "\n]\n" : "");
	free(text);
	cJSON_Delete(o);
}

static int check(int argc, char **argv, int fmt)
{
	int i, ret = HM_EXIT_OK;

	for (i = 0; i < argc; i++) {
		struct hm_platform *p;
		struct hm_error err;

		if (hm_platform_load(argv[i], &p, &err)) {
			hm_say_report(&err);
			ret = HM_EXIT_INPUT;
			if (fmt == HM_FORMAT_JSON)
				print_check_json(argv[i], NULL, i == 0, i == argc - 1);
			continue;
		}
		hm_cli_warnings(p);
		if (fmt == HM_FORMAT_JSON)
			print_check_json(argv[i], p, i == 0, i == argc - 1);
		else {
			printf("%s: ok (%s, %d processor%s, %d type%s)\n", argv[i], p->name,
			       p->nr_procs, HM_PLURAL(p->nr_procs), p->nr_types, HM_PLURAL(p->nr_types));
			print_steps_not_given(p);
		}
		hm_platform_free(p);
	}
	return ret;
}

/* A built-in platform as a csv row or a JSON array element. */
static void print_list_row(int fmt, const char *path, const struct hm_platform *p, int first)
{
	cJSON *o = cJSON_CreateObject();
	char *text;

	cJSON_AddStringToObject(o, "platform", path);
	cJSON_AddStringToObject(o, "name", p->name);
	cJSON_AddNumberToObject(o, "processors", p->nr_procs);
	cJSON_AddStringToObject(o, "description", p->description);
	if (fmt == HM_FORMAT_JSON) {
		text = cJSON_PrintUnformatted(o);
		printf("%s\n  %s", first ? "" : ",", text ? text : "null");
		free(text);
	} else {
		/* descriptions have commas: quoted, quotes doubled (RFC 4180) */
		printf("%s,%s,%d,\"", path, p->name, p->nr_procs);
		for (const char *c = p->description; *c; c++)
			printf(*c == '"' ? "\"\"" : "%c", *c);
		printf("\"\n");
	}
	cJSON_Delete(o);
}

static int list(int fmt)
{
	const char *const *names = hm_platform_builtin_names();
	int i;

	if (fmt == HM_FORMAT_CSV)
		printf("platform,name,processors,description\n");
	if (fmt == HM_FORMAT_JSON)
		printf("[");
	for (i = 0; names[i]; i++) {
		struct hm_platform *p;
		struct hm_error err;
		char path[64], text[2048];

		snprintf(path, sizeof(path), "builtin:%s", names[i]);
		if (hm_platform_load(path, &p, &err)) {
			hm_say_report(&err);
			return HM_EXIT_FAILURE;
		}
		hm_printable(p->description, text, sizeof(text));
		if (fmt == HM_FORMAT_TEXT)
			printf("%-22s %-10s %4d processors  %s\n", path, p->name, p->nr_procs, text);
		else
			print_list_row(fmt, path, p, i == 0);
		hm_platform_free(p);
	}
	if (fmt == HM_FORMAT_JSON)
		printf("\n]\n");
	return HM_EXIT_OK;
}

int cmd_platform(int argc, char **argv)
{
	const char *format = "text";
	const struct hm_option opts[] = {
		HM_FORMAT_OPTION(format, "text or json; csv for list"),
		HM_OPT_TABLE_END,
	};
	int first, fmt;

	hm_options_anywhere = 1;        /* 'platform check FILE -q', 'platform list -f json' */
	first = hm_options_parse(&usage, opts, argc, argv);

	if (first == -2)
		return HM_EXIT_OK;
	if (first < 0)
		return HM_EXIT_USAGE;
	argc -= first;
	argv += first;
	if (argc == 1 && !strcmp(argv[0], "list"))
		return (fmt = hm_format_parse("platform list", format, 1 | 2 | 4)) < 0 ? HM_EXIT_USAGE : list(fmt);
	if (argc == 2 && !strcmp(argv[0], "show"))
		return (fmt = hm_format_parse("platform show", format, 1 | 4)) < 0 ? HM_EXIT_USAGE : show(argv[1], fmt);
	if (argc >= 2 && !strcmp(argv[0], "check"))
		return (fmt = hm_format_parse("platform check", format, 1 | 4)) < 0 ? HM_EXIT_USAGE :
		       check(argc - 1, argv + 1, fmt);
	hm_say_error("platform: expected 'show FILE', 'check FILE...' or 'list' (see 'hetmap platform --help')");
	return HM_EXIT_USAGE;
}

/* mapper/launch/plan_values.c - placeholders and environment from one table. */
#include "plan_values.h"
#include "models/util/rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct plan_value {
	const char *placeholder;        /* without braces */
	const char *env;                /* NULL: not exported */
	const char *meaning;
	void (*format)(const struct hm_run_values *v, char *buf, size_t size);
};

static void fmt_n(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%ld", v->pl->n); }
static void fmt_b(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%d", v->pl->b); }
static void fmt_r(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%d", v->pl->r); }
static void fmt_c(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%d", v->pl->c); }
static void fmt_D(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%d", v->pl->D); }
static void fmt_routine(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%s", v->pl->routine); }
static void fmt_seed(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%d", v->seed); }
static void fmt_dir(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%s", v->dir ? v->dir : "."); }
static void fmt_predicted(const struct hm_run_values *v, char *b, size_t s) { snprintf(b, s, "%.6g", v->pl->predicted); }

static void fmt_order(const struct hm_run_values *v, char *b, size_t s)
{
	snprintf(b, s, "%s", v->pl->column_major ? "column" : "row");
}

static const struct plan_value values[] = {
	{ "n", "HETMAP_N", "matrix order", fmt_n },
	{ "b", "HETMAP_NB", "block size", fmt_b },
	{ "r", "HETMAP_NPROW", "process rows", fmt_r },
	{ "c", "HETMAP_NPCOL", "process columns", fmt_c },
	{ "D", "HETMAP_NPROCS", "number of processes (r x c)", fmt_D },
	{ "routine", "HETMAP_ROUTINE", "lu or gemm", fmt_routine },
	{ "order", "HETMAP_GRID_ORDER", "row (rank k at k / c, k mod c) or column (k mod r, k / r)", fmt_order },
	{ "predicted", "HETMAP_PREDICTED_S", "the model's time in seconds", fmt_predicted },
	{ "seed", NULL, "matrix seed (--seed)", fmt_seed },
	{ "dir", NULL, "the job's directory (absolute path)", fmt_dir },
};
#define NR_VALUES (int)(sizeof(values) / sizeof(values[0]))

static const struct plan_value *find_value(const char *name, size_t len)
{
	for (int i = 0; i < NR_VALUES; i++)
		if (strlen(values[i].placeholder) == len && !strncmp(values[i].placeholder, name, len))
			return &values[i];
	return NULL;
}

static const char *known_names(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < NR_VALUES && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s{%s}", i ? " " : "", values[i].placeholder);
	return buf;
}

/* Append n bytes to a growing string; -1 when out of memory, -2 beyond
 * HM_MAX_RENDERED_BYTES. */
static int append(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n > HM_MAX_RENDERED_BYTES)
		return -2;
	if (*len + n + 1 > *cap) {
		size_t c = 2 * (*cap + n) + 64;
		char *d = realloc(*out, c);

		if (!d)
			return -1;
		*out = d, *cap = c;
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
	return 0;
}

char *hm_render(const char *t, const struct hm_run_values *v, const char *what, struct hm_error *err)
{
	char *out = NULL, buf[4200];
	size_t len = 0, cap = 0;
	int failed = append(&out, &len, &cap, "", 0);

	while (*t && !failed) {
		const char *close;
		const struct plan_value *pv;

		if ((t[0] == '{' && t[1] == '{') || (t[0] == '}' && t[1] == '}')) {
			failed = append(&out, &len, &cap, t, 1);
			t += 2;
			continue;
		}
		if (*t != '{') {
			size_t run = strcspn(t, "{}");

			if (!run) {     /* a lone '}' */
				free(out);
				hm_error_set(err, "%s: a lone '}' (write '}}' for one)", what);
				return NULL;
			}
			failed = append(&out, &len, &cap, t, run);
			t += run;
			continue;
		}
		if (!(close = strchr(t, '}')) || !(pv = find_value(t + 1, (size_t)(close - t - 1)))) {
			int shown = close ? (int)(close - t + 1) : (int)strcspn(t, "\n");

			free(out);
			hm_error_set(err, "%s: %s placeholder '%.*s' (known: %s; write '{{' for '{')", what,
				     close ? "unknown" : "unclosed", shown > 40 ? 40 : shown, t,
				     known_names(buf, sizeof(buf)));
			return NULL;
		}
		pv->format(v, buf, sizeof(buf));
		failed = append(&out, &len, &cap, buf, strlen(buf));
		t = close + 1;
	}
	if (failed) {
		free(out);
		if (failed == -2)
			hm_error_set(err, "%s: expands to more than %d MiB once the plan's values are filled in",
				     what, HM_MAX_RENDERED_BYTES >> 20);
		else
			hm_error_set(err, "out of memory");
		return NULL;
	}
	return out;
}

void hm_plan_environment(struct hm_argv *env, const struct hm_run_values *v)
{
	char buf[4200];

	for (int i = 0; i < NR_VALUES; i++) {
		if (!values[i].env)
			continue;
		values[i].format(v, buf, sizeof(buf));
		hm_argv_addf(env, "%s=%s", values[i].env, buf);
	}
}

static int value_help_line(const void *ctx, int i, char *out, size_t room)
{
	return snprintf(out, room, "  {%s}%*s%-20s %s\n", values[i].placeholder,
			10 - (int)strlen(values[i].placeholder), "", values[i].env ? values[i].env : "-",
			values[i].meaning);
}

const char *hm_help_plan_values(void)
{
	static char text[2048];

	return text[0] ? text : hm_join(text, sizeof(text), NR_VALUES, "", value_help_line, NULL);
}

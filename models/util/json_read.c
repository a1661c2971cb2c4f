/* models/util/json_read.c - see json_read.h. */
#include "json_read.h"
#include "nearest_name.h"
#include "read_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hm_json_name(const cJSON *it, const char *path, const char **out, struct hm_error *err)
{
	const unsigned char *s;

	if (!cJSON_IsString(it))
		return hm_error_at(err, path, "expected a string");
	if (!it->valuestring[0])
		return hm_error_at(err, path, "must not be empty");
	if (strlen(it->valuestring) >= HM_MAX_NAME)
		return hm_error_at(err, path, "longer than %d characters", HM_MAX_NAME - 1);
	for (s = (const unsigned char *)it->valuestring; *s; s++)
		if (*s < 0x20 || *s == 0x7f)
			return hm_error_at(err, path, "contains a control character");
	*out = it->valuestring;
	return 0;
}

int hm_json_int(const cJSON *it, const char *path, long lo, long hi, long *out,
		struct hm_error *err)
{
	double v;

	if (!cJSON_IsNumber(it))
		return hm_error_at(err, path, "expected an integer");
	v = it->valuedouble;
	if (!isfinite(v) || v != floor(v))
		return hm_error_at(err, path, "expected an integer (got %.17g)", v);
	if (v < (double)lo || v > (double)hi)
		return hm_error_at(err, path, "must be between %ld and %ld (got %.17g)", lo, hi, v);
	*out = (long)v;
	return 0;
}

/* "PATH.KEY" into buf (just KEY at the top); the member, or NULL. */
static const cJSON *member(const cJSON *obj, const char *path, const char *key, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", path, *path ? "." : "", key);
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

int hm_json_member_name(const cJSON *obj, const char *path, const char *key, int required,
			const char **out, struct hm_error *err)
{
	char where[HM_MAX_NAME + 64];
	const cJSON *it = member(obj, path, key, where, sizeof(where));

	if (!it)
		return required ? hm_error_at(err, path, "missing key '%s'", key) : 0;
	return hm_json_name(it, where, out, err);
}

int hm_json_member_int(const cJSON *obj, const char *path, const char *key, int required,
		       long lo, long hi, long *out, struct hm_error *err)
{
	char where[HM_MAX_NAME + 64];
	const cJSON *it = member(obj, path, key, where, sizeof(where));

	if (!it)
		return required ? hm_error_at(err, path, "missing key '%s'", key) : 0;
	return hm_json_int(it, where, lo, hi, out, err);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The limit is checked before anything else, and duplicates are found by
 * sorting, so a hostile object with a million keys costs O(k log k) at
 * most, and only when it is within the limit. */
int hm_json_check_keys(const cJSON *obj, const char *path, const char *const *allowed,
		       int max_keys, struct hm_error *err)
{
	const cJSON *it;
	const char **keys;
	int n = 0, i, ret = 0;

	if (!cJSON_IsObject(obj))
		return hm_error_at(err, path, "expected an object");
	for (it = obj->child; it; it = it->next)
		if (++n > max_keys)
			return hm_error_at(err, path, "more than %d keys", max_keys);
	for (it = obj->child; it && allowed[0]; it = it->next) {
		const char *const *a;

		for (a = allowed; *a && strcmp(*a, it->string); a++)
			;
		if (!*a) {
			const char *near = hm_nearest_name(it->string, allowed);

			if (near)
				return hm_error_at(err, path, "unknown key '%s' (did you mean '%s'?)",
						   it->string, near);
			return hm_error_at(err, path, "unknown key '%s'", it->string);
		}
	}
	if (n < 2)
		return 0;
	if (!(keys = malloc((size_t)n * sizeof(*keys))))
		return hm_error_at(err, path, "out of memory");
	for (i = 0, it = obj->child; it; it = it->next)
		keys[i++] = it->string;
	qsort(keys, (size_t)n, sizeof(*keys), cmp_key);
	for (i = 1; i < n && !ret; i++)
		if (!strcmp(keys[i], keys[i - 1]))
			ret = hm_error_at(err, path, "duplicate key '%s'", keys[i]);
	free(keys);
	return ret;
}

/* 1-based line and column of 'pos' in 'text', for messages. */
static void line_col(const char *text, const char *pos, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *s = text; s < pos; s++) {
		if (*s == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* What cJSON would accept silently or report badly: an escaped NUL
 * ("\u0000" ends the string where it stands: "a\u0000;rm" reads as "a")
 * and nesting deeper than HM_JSON_MAX_DEPTH (cJSON says "syntax error").
 * One pass over the text, strings and escapes followed exactly. */
static int scan_text(const char *text, size_t len, struct hm_error *err)
{
	int depth = 0, in_string = 0, line, col;

	for (size_t i = 0; i < len; i++) {
		char ch = text[i];

		if (in_string) {
			if (ch == '"') {
				in_string = 0;
			} else if (ch == '\\' && i + 1 < len) {
				if (text[i + 1] == 'u' && i + 5 < len && !strncmp(text + i + 2, "0000", 4)) {
					line_col(text, text + i, &line, &col);
					return hm_error_set(err, "escaped NUL (\\u0000) in a string at line %d, column %d",
							    line, col);
				}
				i++;    /* the escaped character */
			}
		} else if (ch == '"') {
			in_string = 1;
		} else if (ch == '[' || ch == '{') {
			if (++depth > HM_JSON_MAX_DEPTH) {
				line_col(text, text + i, &line, &col);
				return hm_error_set(err, "nested deeper than %d levels at line %d, column %d",
						    HM_JSON_MAX_DEPTH, line, col);
			}
		} else if (ch == ']' || ch == '}') {
			depth--;
		}
	}
	return 0;
}

cJSON *hm_json_parse(const char *text, size_t len, struct hm_error *err)
{
	const char *end = NULL;
	cJSON *root;
	int line, col;

	if (len == 0) {
		hm_error_set(err, "empty input (expected a JSON object)");
		return NULL;
	}
	if (memchr(text, '\0', len)) {
		hm_error_set(err, "file contains a NUL byte");
		return NULL;
	}
	if (scan_text(text, len, err))
		return NULL;
	root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
	if (!root) {
		line_col(text, end ? end : text, &line, &col);
		hm_error_set(err, "JSON syntax error at line %d, column %d", line, col);
		return NULL;
	}
	while (end < text + len && strchr(" \t\r\n", *end))
		end++;
	if (end < text + len) {
		cJSON_Delete(root);
		line_col(text, end, &line, &col);
		hm_error_set(err, "unexpected text after the JSON value at line %d, column %d", line, col);
		return NULL;
	}
	return root;
}

cJSON *hm_json_read_file(const char *path, size_t max, struct hm_error *err)
{
	enum hm_read_status status;
	size_t len = 0;
	char *text = hm_read_file(path, max, &len, &status), why[256];
	cJSON *doc;

	/* every error names the file it is about */
	if (err && !err->file[0])
		snprintf(err->file, sizeof(err->file), "%s", path);
	if (!text) {
		hm_error_set(err, "%s", hm_read_failure(status, max, why, sizeof(why)));
		return NULL;
	}
	doc = hm_json_parse(text, len, err);
	free(text);
	return doc;
}

/* models/json_read.c - see json_read.h. */
#include "json_read.h"

#include <math.h>
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
		return hm_error_at(err, path, "expected an integer (got %g)", v);
	if (v < (double)lo || v > (double)hi)
		return hm_error_at(err, path, "must be between %ld and %ld (got %g)", lo, hi, v);
	*out = (long)v;
	return 0;
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
		if (!*a)
			return hm_error_at(err, path, "unknown key '%s'", it->string);
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

/* models/json_read.c - see json_read.h. */
#include "json_read.h"

#include <math.h>
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

int hm_check_hostname(const char *host, const char *path, struct hm_error *err)
{
	const char *s;

	if (host[0] == '-' || host[0] == '.')
		return hm_error_at(err, path, "host name '%s' must start with a letter or digit", host);
	for (s = host; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '-' || *s == '.' || *s == '_'))
			return hm_error_at(err, path,
					   "host name '%s' has character '%c' (allowed: letters, digits, '-', '.', '_')",
					   host, *s);
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

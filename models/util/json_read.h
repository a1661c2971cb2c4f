/* models/util/json_read.h - typed reads of cJSON values with the error style of
 * the loaders (JSON path and reason). Shared by the platform loader and
 * the plan loader and the generator, so all judge keys, names and
 * integers alike. */
#ifndef HM_JSON_READ_H
#define HM_JSON_READ_H

#include <cJSON.h>
#include <stddef.h>
#include "error.h"

#define HM_MAX_NAME 256     /* longest name or host, with its NUL */
#define HM_JSON_MAX_DEPTH 100   /* hetmap's documents nest 6 levels at most */

/* Parse a whole document strictly: no NUL byte, no escaped NUL in a
 * string, nesting within HM_JSON_MAX_DEPTH, nothing after the value but
 * white space; a syntax error reported with its line and column. The
 * tree (caller frees with cJSON_Delete), or NULL with 'err' set (its
 * message only: the caller sets the file). */
cJSON *hm_json_parse(const char *text, size_t len, struct hm_error *err);

/* hm_read_file (at most 'max' bytes) and hm_json_parse: the tree, or NULL
 * with the reason in 'err' (its message only). */
cJSON *hm_json_read_file(const char *path, size_t max, struct hm_error *err);

/* A string that is non-empty, shorter than HM_MAX_NAME and printable. */
int hm_json_name(const cJSON *it, const char *path, const char **out, struct hm_error *err);

/* A JSON integer within [lo, hi]. */
int hm_json_int(const cJSON *it, const char *path, long lo, long hi, long *out,
		struct hm_error *err);

/* obj's member 'key' read as hm_json_name or hm_json_int, the messages
 * naming it ("groups[0].digits"); a missing member is an error ("PATH:
 * missing key 'KEY'") when 'required', else *out is left as it was. */
int hm_json_member_name(const cJSON *obj, const char *path, const char *key, int required,
			const char **out, struct hm_error *err);
int hm_json_member_int(const cJSON *obj, const char *path, const char *key, int required,
		       long lo, long hi, long *out, struct hm_error *err);

/* 'obj' is an object of at most 'max_keys' keys, each in 'allowed'
 * (NULL-terminated; an empty list allows any key), none given twice
 * (cJSON would keep both and lookups would see the first). */
int hm_json_check_keys(const cJSON *obj, const char *path, const char *const *allowed,
		       int max_keys, struct hm_error *err);

#endif /* HM_JSON_READ_H */

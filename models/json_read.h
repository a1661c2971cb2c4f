/* models/json_read.h - typed reads of cJSON values with the error style of
 * the loaders (JSON path and reason). Shared by the platform loader and
 * the plan loader, so both judge names, hosts and integers alike. */
#ifndef HM_JSON_READ_H
#define HM_JSON_READ_H

#include <cJSON.h>
#include "error.h"

#define HM_MAX_NAME 256     /* longest name or host, with its NUL */

/* A string that is non-empty, shorter than HM_MAX_NAME and printable. */
int hm_json_name(const cJSON *it, const char *path, const char **out, struct hm_error *err);

/* A JSON integer within [lo, hi]. */
int hm_json_int(const cJSON *it, const char *path, long lo, long hi, long *out,
		struct hm_error *err);

/* Host names go into launcher files and mpirun's arguments: allow only
 * what DNS allows (letters, digits, '-', '.') plus '_', and no leading '-'
 * that mpirun could read as an option. */
int hm_check_hostname(const char *host, const char *path, struct hm_error *err);

#endif /* HM_JSON_READ_H */

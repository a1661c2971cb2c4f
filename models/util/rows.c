/* models/util/rows.c - see rows.h. */
#include "rows.h"
#include "nearest_name.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const void *hm_row_named(const void *table, int n, size_t stride, const char *name)
{
	for (int i = 0; i < n; i++) {
		const char *const *row = (const char *const *)((const char *)table + (size_t)i * stride);

		if (!strcasecmp(*row, name))
			return row;
	}
	return NULL;
}

const char *hm_row_nearest(const void *table, int n, size_t stride, const char *name)
{
	enum { MAX_ROWS = 64 };
	const char *names[MAX_ROWS + 1];
	int k = 0;

	for (int i = 0; i < n && k < MAX_ROWS; i++)
		names[k++] = *(const char *const *)((const char *)table + (size_t)i * stride);
	names[k] = NULL;
	return hm_nearest_name(name, names);
}

const char *hm_join(char *buf, size_t size, int n, const char *sep,
		    int (*item)(const void *ctx, int i, char *out, size_t room), const void *ctx)
{
	size_t len = 0, seplen = strlen(sep);
	int any = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len + seplen + 1 < size; i++) {
		size_t at = len + (any ? seplen : 0);
		int w = item(ctx, i, buf + at, size - at);

		if (w < 0) {
			buf[len] = '\0';
			continue;
		}
		if (any)
			memcpy(buf + len, sep, seplen);
		any = 1;
		len = at + (size_t)w < size ? at + (size_t)w : size - 1;
	}
	return buf;
}

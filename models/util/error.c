/* models/util/error.c - error values (see error.h). */
#include "error.h"

#include <stdio.h>
#include <string.h>

void hm_error_clear(struct hm_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

int hm_error_set(struct hm_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int hm_error_at(struct hm_error *err, const char *path, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	snprintf(err->path, sizeof(err->path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

const char *hm_error_format(const struct hm_error *err, char *buf, int size)
{
	snprintf(buf, (size_t)size, "%s%s%s%s%s", err->file,
		 err->file[0] ? ": " : "", err->path,
		 err->path[0] ? ": " : "", err->msg);
	return buf;
}

/* models/read_file.c - see read_file.h. */
#include "read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *hm_read_file(const char *path, size_t max, size_t *len, enum hm_read_status *status)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0, got;
	char *buf, *bigger;
	int e;

	*status = HM_READ_OPEN;
	if (!f)
		return NULL;
	*status = HM_READ_FAILED;
	buf = malloc(cap + 1);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		if (cap > max) {        /* read past the bound: too big */
			*status = HM_READ_TOO_BIG;
			free(buf);
			buf = NULL;
		} else if (!(bigger = realloc(buf, 2 * cap + 1))) {
			free(buf);
			buf = NULL;
		} else {
			buf = bigger, cap *= 2;
		}
	}
	if (buf && (ferror(f) || n > max)) {
		if (n > max)
			*status = HM_READ_TOO_BIG;
		free(buf);
		buf = NULL;
	}
	e = errno;
	fclose(f);
	errno = e;
	if (!buf)
		return NULL;
	buf[n] = '\0';
	*len = n;
	*status = HM_READ_OK;
	return buf;
}

/* mapper/results.c - see results.h. */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* 1 when the file is non-empty and does not end in a newline. */
static int ends_mid_line(int fd)
{
	struct stat st;
	char last;

	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return 0;
	return pread(fd, &last, 1, st.st_size - 1) == 1 && last != '\n';
}

int hm_results_append(const char *path, const cJSON *record, struct hm_error *err)
{
	char *text = cJSON_PrintUnformatted(record), *line;
	size_t len;
	ssize_t n;
	int fd, e;

	snprintf(err->file, sizeof(err->file), "%s", path);
	if (!text)
		return hm_error_set(err, "out of memory");
	len = strlen(text);
	if (!(line = malloc(len + 3))) {
		free(text);
		return hm_error_set(err, "out of memory");
	}
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		e = errno;
		free(text), free(line);
		return hm_error_set(err, "cannot open the results file: %s", strerror(e));
	}
	{
		size_t off = 0;

		if (ends_mid_line(fd))
			line[off++] = '\n';
		memcpy(line + off, text, len);
		line[off + len] = '\n';
		len += off + 1;
	}
	n = write(fd, line, len);
	e = errno;
	free(text), free(line);
	if (n != (ssize_t)len || fsync(fd) < 0) {
		if (n == (ssize_t)len)
			e = errno;
		close(fd);
		return hm_error_set(err, "cannot append to the results file: %s",
				    n >= 0 && n != (ssize_t)len ? "short write (disk full?)" : strerror(e));
	}
	if (close(fd) < 0)
		return hm_error_set(err, "cannot close the results file: %s", strerror(errno));
	return 0;
}

const char *hm_utc_timestamp(char *buf, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/* models/util/read_file.c - see read_file.h. */
#include "read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Read what is there, waiting at most the idle time for more. */
static ssize_t read_some(int fd, char *buf, size_t n, enum hm_read_status *status)
{
	for (;;) {
		ssize_t got = read(fd, buf, n);

		if (got >= 0)
			return got;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			*status = HM_READ_FAILED;
			return -1;
		}
		if (poll(&(struct pollfd){ fd, POLLIN, 0 }, 1, HM_READ_IDLE_SECONDS * 1000) == 0) {
			*status = HM_READ_IDLE;
			return -1;
		}
	}
}

static char *read_all(int fd, size_t max, size_t *len, enum hm_read_status *status)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1), *bigger;
	ssize_t got;

	if (!buf) {
		*status = HM_READ_NO_MEMORY;
		return NULL;
	}
	while ((got = read_some(fd, buf + n, cap - n, status)) > 0) {
		n += (size_t)got;
		if (n > max) {
			*status = HM_READ_TOO_BIG;
			break;
		}
		if (n < cap)
			continue;
		/* grow, but never past max + 1: one byte more tells "too big" */
		cap = 2 * cap > max + 1 ? max + 1 : 2 * cap;
		if (!(bigger = realloc(buf, cap + 1))) {
			*status = HM_READ_NO_MEMORY;
			break;
		}
		buf = bigger;
	}
	if (got != 0) {         /* an error, or stopped before the end */
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	*status = HM_READ_OK;
	return buf;
}

char *hm_read_file(const char *path, size_t max, size_t *len, enum hm_read_status *status)
{
	struct stat st;
	char *buf;
	int fd, e;

	*status = HM_READ_OPEN;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return NULL;
	*status = HM_READ_FAILED;
	if (fstat(fd, &st) < 0) {
		buf = NULL;
	} else if (S_ISDIR(st.st_mode)) {
		*status = HM_READ_DIRECTORY;
		buf = NULL;
	} else if (S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
		*status = HM_READ_TOO_BIG;      /* known before reading a byte */
		buf = NULL;
	} else {
		buf = read_all(fd, max, len, status);
	}
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

const char *hm_read_failure(enum hm_read_status status, size_t max, char *buf, size_t size)
{
	if (status == HM_READ_TOO_BIG)
		snprintf(buf, size, "larger than %zu bytes", max);
	else if (status == HM_READ_IDLE)
		snprintf(buf, size, "nothing to read for %d s", HM_READ_IDLE_SECONDS);
	else if (status == HM_READ_DIRECTORY)
		snprintf(buf, size, "is a directory");
	else if (status == HM_READ_NO_MEMORY)
		snprintf(buf, size, "out of memory");
	else    /* OPEN, FAILED: errno says why */
		snprintf(buf, size, "cannot %s: %s", status == HM_READ_OPEN ? "open" : "read",
			 strerror(errno));
	return buf;
}

int hm_read_line(FILE *f, char **line, size_t *cap, size_t *len)
{
	size_t n = 0;
	int c = EOF;

	*len = 0;
	errno = 0;
	while ((c = getc(f)) != EOF) {
		if (n + 2 > *cap) {
			size_t more = *cap ? 2 * *cap : 256;
			char *bigger;

			if (n + 2 > HM_LINE_MAX) {      /* the rest of the line is skipped, the error said */
				while (c != '\n' && (c = getc(f)) != EOF)
					;
				errno = EFBIG;
				return -1;
			}
			if (more > HM_LINE_MAX)
				more = HM_LINE_MAX;
			if (!(bigger = realloc(*line, more))) {
				errno = ENOMEM;
				return -1;
			}
			*line = bigger, *cap = more;
		}
		(*line)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (ferror(f))
		return -1;
	if (!n)
		return 0;
	(*line)[n] = '\0';
	*len = n;
	return 1;
}

const char *hm_line_after_zeros(const char *line, size_t len, size_t *zeros)
{
	size_t z = 0;

	while (z < len && !line[z])
		z++;
	*zeros = z;
	return memchr(line + z, '\0', len - z) ? NULL : line + z;
}

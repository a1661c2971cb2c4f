/* mapper/atomic_file.c - atomic file writes (see atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int hm_write_file_atomic(const char *path, const char *data, size_t len,
			 struct hm_error *err)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	size_t done = 0;
	int fd;

	hm_error_clear(err);
	if (err)
		snprintf(err->file, sizeof(err->file), "%s", path);
	if (!tmp)
		return hm_error_set(err, "out of memory");
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp.XXXXXX", 12);
	fd = mkstemp(tmp);
	if (fd < 0) {
		int e = errno;

		free(tmp);
		return hm_error_set(err, "cannot create a file there: %s", strerror(e));
	}
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	if (done < len || fsync(fd) || close(fd)) {
		int e = errno;

		if (done < len)
			close(fd);
		unlink(tmp);
		free(tmp);
		return hm_error_set(err, "cannot write: %s", strerror(e));
	}
	if (rename(tmp, path)) {
		int e = errno;

		unlink(tmp);
		free(tmp);
		return hm_error_set(err, "cannot rename into place: %s", strerror(e));
	}
	free(tmp);
	return 0;
}

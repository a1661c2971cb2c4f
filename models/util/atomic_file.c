/* models/util/atomic_file.c - atomic file writes (see atomic_file.h). */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void free_file(struct hm_atomic_file *f)
{
	free(f->path);
	free(f->tmp);
	f->path = f->tmp = NULL;
}

/* The mode of a new file: what the umask allows of 0666. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* The mode the file will get, or -1 with 'err' set when the path holds
 * something that is not a regular file. */
static int target_mode(const char *path, mode_t *mode, struct hm_error *err)
{
	struct stat st;

	if (lstat(path, &st) < 0) {
		if (errno != ENOENT)
			return hm_error_set(err, "cannot examine the path: %s", strerror(errno));
		*mode = new_file_mode();
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return hm_error_set(err, "exists and is not a regular file (%s); refusing to replace it",
				    S_ISDIR(st.st_mode) ? "a directory" : S_ISLNK(st.st_mode) ?
				    "a symbolic link" : S_ISFIFO(st.st_mode) ? "a FIFO" :
				    S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "special");
	*mode = st.st_mode & 07777;
	return 0;
}

/* "DIR/.hetmap-XXXXXX" for 'path' in DIR (or "." when there is no '/'). */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
	char *t = malloc(dlen + 20);

	if (t) {
		memcpy(t, path, dlen);
		strcpy(t + dlen, ".hetmap-XXXXXX");
	}
	return t;
}

int hm_atomic_check(const char *path, struct hm_error *err)
{
	struct hm_atomic_file f = { 0 };

	/* the one way to know a file can be made there is to make one */
	if (hm_atomic_prepare(&f, path, "", 0, err))
		return -1;
	hm_atomic_abort(&f);
	return 0;
}

int hm_atomic_prepare(struct hm_atomic_file *f, const char *path, const char *data, size_t len,
		      struct hm_error *err)
{
	size_t done = 0;
	mode_t mode = 0;
	int fd, e;

	memset(f, 0, sizeof(*f));
	hm_error_clear(err);
	if (err)
		snprintf(err->file, sizeof(err->file), "%s", path);
	if (!path[0])
		return hm_error_set(err, "empty file name");
	if (target_mode(path, &mode, err))
		return -1;
	if (!(f->path = strdup(path)) || !(f->tmp = temp_name(path))) {
		free_file(f);
		return hm_error_set(err, "out of memory");
	}
	if ((fd = mkstemp(f->tmp)) < 0) {
		e = errno;
		free_file(f);
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
	e = done < len ? (errno ? errno : ENOSPC) : 0;
	if (!e && (fchmod(fd, mode) || fsync(fd)))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	if (e) {
		hm_atomic_abort(f);
		return hm_error_set(err, "cannot write: %s", strerror(e));
	}
	return 0;
}

int hm_atomic_commit(struct hm_atomic_file *f, struct hm_error *err)
{
	if (rename(f->tmp, f->path)) {
		int e = errno;

		hm_atomic_abort(f);
		return hm_error_set(err, "cannot rename into place: %s", strerror(e));
	}
	free_file(f);
	return 0;
}

void hm_atomic_abort(struct hm_atomic_file *f)
{
	if (f->tmp)
		unlink(f->tmp);
	free_file(f);
}

int hm_write_file_atomic(const char *path, const char *data, size_t len,
			 struct hm_error *err)
{
	struct hm_atomic_file f;

	if (hm_atomic_prepare(&f, path, data, len, err))
		return -1;
	return hm_atomic_commit(&f, err);
}

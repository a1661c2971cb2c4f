/* models/util/atomic_file.h - write a whole file or nothing: readers never see
 * a partial plan, and a failure leaves the old file (if any) in place.
 *
 * Only regular files are replaced: an existing device node, FIFO,
 * directory or symbolic link at the path is refused, never clobbered. A
 * new file gets the mode the umask allows (0666 & ~umask); a file that is
 * replaced keeps its mode. The temporary file is ".hetmap-XXXXXX" in the
 * same directory, so any name the file system takes is a name we can
 * write. */
#ifndef HM_ATOMIC_FILE_H
#define HM_ATOMIC_FILE_H

#include <stddef.h>
#include <sys/types.h>
#include "error.h"

/* A file written but not yet in place. */
struct hm_atomic_file {
	char *path;         /* where it goes */
	char *tmp;          /* where it is */
};

/* Write 'len' bytes to a temporary file beside 'path' and fsync it.
 * 0, or -1 with 'err' set (nothing is left behind). */
int hm_atomic_prepare(struct hm_atomic_file *f, const char *path, const char *data, size_t len,
		      struct hm_error *err);
/* Rename it into place. 0, or -1 with 'err' set (the temporary is removed). */
int hm_atomic_commit(struct hm_atomic_file *f, struct hm_error *err);
/* Remove a prepared file that will not be committed. */
void hm_atomic_abort(struct hm_atomic_file *f);

/* prepare + commit. */
int hm_write_file_atomic(const char *path, const char *data, size_t len,
			 struct hm_error *err);

/* 0 if 'path' may be written by hm_atomic_prepare (it does not exist or
 * is a regular file, and its directory exists), else -1 with 'err' set:
 * for checking an output before long work. */
int hm_atomic_check(const char *path, struct hm_error *err);

#endif /* HM_ATOMIC_FILE_H */

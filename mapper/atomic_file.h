/* mapper/atomic_file.h - write a whole file or nothing: readers never see
 * a partial plan, and a failure leaves the old file (if any) in place. */
#ifndef HM_ATOMIC_FILE_H
#define HM_ATOMIC_FILE_H

#include <stddef.h>
#include "models/error.h"

/* Write 'len' bytes to 'path' through a temporary file in the same
 * directory, fsync, then rename. 0, or -1 with 'err' set (the temporary
 * file is removed). */
int hm_write_file_atomic(const char *path, const char *data, size_t len,
			 struct hm_error *err);

#endif /* HM_ATOMIC_FILE_H */

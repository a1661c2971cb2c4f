/* models/util/read_file.h - a whole input file in memory, as every loader
 * needs it (platforms, plans, generator descriptions). Read as a stream,
 * so a pipe ('-p <(...)') works as well as a regular file, and bounded:
 *  - in size: a huge or endless input (/dev/zero) is refused after at
 *    most 'max' bytes, never read to twice its bound;
 *  - in time: a FIFO is opened without blocking (no writer: it reads as
 *    empty), and a pipe that sends nothing for HM_READ_IDLE_SECONDS is
 *    given up on;
 *  - a directory is said to be one. */
#ifndef HM_READ_FILE_H
#define HM_READ_FILE_H

#include <stddef.h>

#define HM_READ_IDLE_SECONDS 60

enum hm_read_status {
	HM_READ_OK,
	HM_READ_OPEN,       /* open failed: errno says why */
	HM_READ_TOO_BIG,    /* more than 'max' bytes */
	HM_READ_DIRECTORY,  /* a directory */
	HM_READ_IDLE,       /* a pipe sent nothing for HM_READ_IDLE_SECONDS */
	HM_READ_NO_MEMORY,
	HM_READ_FAILED,     /* a read error: errno says why */
};

/* The contents of 'path', NUL-terminated (caller frees), length in *len;
 * or NULL with *status saying why (errno kept for OPEN and FAILED). */
char *hm_read_file(const char *path, size_t max, size_t *len, enum hm_read_status *status);

/* A message for a failed read ("cannot open: No such file or directory",
 * "larger than 16777216 bytes", ...) into buf; call right after the read. */
const char *hm_read_failure(enum hm_read_status status, size_t max, char *buf, size_t size);

#endif /* HM_READ_FILE_H */

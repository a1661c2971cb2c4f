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
#include <stdio.h>

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

/* Line readers (results files, the configuration) read through this, so
 * that no condition reads as the end of the file: the next line of f into
 * *line (getline's buffer, *cap its size), its length in bytes into *len,
 * NUL bytes included. 1 a line, 0 the end of the file, -1 an error with
 * errno set: ENOMEM for a line too long to hold in memory, else the read's.
 * A line is at most HM_LINE_MAX bytes (a record of 128000 ranks is about
 * 30 MB): a longer one is an error (EFBIG, the reader past it), not an
 * allocation of the whole file. */
#define HM_LINE_MAX ((size_t)64 << 20)
int hm_read_line(FILE *f, char **line, size_t *cap, size_t *len);

/* A results file's line (len bytes) past the zero block a crash leaves
 * where a record was being written: the text after the NUL bytes that
 * start it, their count into *zeros; NULL when a NUL byte is inside the
 * text itself (it is no record). */
const char *hm_line_after_zeros(const char *line, size_t len, size_t *zeros);

#endif /* HM_READ_FILE_H */

/* models/read_file.h - a whole input file in memory, as every loader
 * needs it (platforms, plans, generator descriptions). Read as a stream,
 * so a pipe ('-p <(...)') works as well as a regular file, and bounded,
 * so a huge or endless input is refused instead of exhausting memory. */
#ifndef HM_READ_FILE_H
#define HM_READ_FILE_H

#include <stddef.h>

enum hm_read_status {
	HM_READ_OK,
	HM_READ_OPEN,       /* fopen failed: errno says why */
	HM_READ_TOO_BIG,    /* more than 'max' bytes */
	HM_READ_FAILED,     /* a read error (a directory, an I/O error) or no memory */
};

/* The contents of 'path', NUL-terminated (caller frees), length in *len;
 * or NULL with *status saying why. */
char *hm_read_file(const char *path, size_t max, size_t *len, enum hm_read_status *status);

#endif /* HM_READ_FILE_H */

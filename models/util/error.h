/* models/util/error.h - error values: who failed, where in the input, and why.
 *
 * Library code never prints or exits; it fills a caller-owned 'struct
 * hm_error' and returns -1 (or NULL). Only mapper/ turns it into a message
 * of the form "hetmap: FILE: PATH: MESSAGE". */
#ifndef HM_ERROR_H
#define HM_ERROR_H

#include <stdarg.h>

struct hm_error {
	char file[256];     /* input file the error is about, "" if none */
	char path[256];     /* JSON path such as "processors[3].type", "" if none */
	char msg[512];      /* lowercase, no full stop, subjects in 'quotes' */
};

/* Clear all fields. */
void hm_error_clear(struct hm_error *err);

/* Set the message (printf style), keep file and path; always returns -1 so
 * that callers can write 'return hm_error_set(err, "...")'. 'err' may be NULL. */
int hm_error_set(struct hm_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Same, also setting the JSON path. */
int hm_error_at(struct hm_error *err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Format "FILE: PATH: MSG" (parts that are empty are left out) into buf. */
const char *hm_error_format(const struct hm_error *err, char *buf, int size);

#endif /* HM_ERROR_H */

/* models/util/strbuild.h - strings built piece by piece: argument vectors
 * (executed directly, never through a shell) and texts (files we write).
 * A failed allocation marks the result failed instead of stopping the
 * caller at every step; check 'failed' once at the end. */
#ifndef HM_STRBUILD_H
#define HM_STRBUILD_H

#include <stddef.h>

/* A growable NULL-terminated argument vector of owned strings. */
struct hm_argv {
	char **v;
	int n, cap;
	int failed;     /* an allocation failed: the vector is incomplete */
};

void hm_argv_add(struct hm_argv *a, const char *s);
void hm_argv_addf(struct hm_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hm_argv_free(struct hm_argv *a);
/* Add the blank-separated words of 'words' (NULL: none); no quoting, as
 * no shell is involved. */
void hm_argv_split(struct hm_argv *a, const char *words);
/* Word 's' quoted for a POSIX shell when it needs it, appended to 'out'
 * (which has room for 4 strlen(s) + 3 more bytes); the new length. */
size_t hm_shell_quote(char *out, size_t len, const char *s);
/* The vector as one line, each word quoted for a POSIX shell when needed. */
char *hm_argv_quoted(const struct hm_argv *a);

/* Append to the fixed buffer buf (size bytes) at *len, as snprintf
 * writes: buf stays terminated, and *len grows by the whole text, so
 * that *len >= size says it was cut. */
void hm_buf_addf(char *buf, size_t size, size_t *len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A copy of 's' (malloc), or NULL: strdup, which C11 lacks. */
char *hm_strdup(const char *s);

/* A text being built. */
struct hm_text {
	char *data;
	size_t len, cap;
	int failed;
};

void hm_text_addf(struct hm_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hm_text_add(struct hm_text *t, const char *s, size_t n);
/* The text (malloc'd, the caller's), or NULL if any step failed. */
char *hm_text_done(struct hm_text *t);

/* A macro's value as a string literal, for texts made with it
 * ("default " HM_STR(HM_DEFAULT_N)). */
#define HM_STR_(x) #x
#define HM_STR(x) HM_STR_(x)

#endif /* HM_STRBUILD_H */

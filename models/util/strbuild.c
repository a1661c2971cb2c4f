/* models/util/strbuild.c - argument vectors and texts (see strbuild.h). */
#define _GNU_SOURCE /* vasprintf */
#include "strbuild.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append 'word' (malloc'd, now the vector's; NULL after a failed
 * allocation, which marks the vector failed). */
static void argv_take(struct hm_argv *a, char *word)
{
	if (a->failed || !word) {
		a->failed = 1;
		free(word);
		return;
	}
	if (a->n + 2 > a->cap) {
		int cap = a->cap ? 2 * a->cap : 16;
		char **v = realloc(a->v, (size_t)cap * sizeof(*v));

		if (!v) {
			a->failed = 1;
			free(word);
			return;
		}
		a->v = v, a->cap = cap;
	}
	a->v[a->n++] = word;
	a->v[a->n] = NULL;
}

void hm_argv_add(struct hm_argv *a, const char *s)
{
	argv_take(a, strdup(s));
}

void hm_buf_addf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	size_t at = *len < size ? *len : size;  /* a cut buffer takes nothing more */
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + at, size - at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/* The formatted string (malloc'd) and its length, or NULL. */
static char *format(size_t *len, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static char *format(size_t *len, const char *fmt, va_list ap)
{
	char *buf = NULL;
	int n = vasprintf(&buf, fmt, ap);

	if (n < 0)
		return NULL;
	*len = (size_t)n;
	return buf;
}

void hm_argv_addf(struct hm_argv *a, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	argv_take(a, format(&len, fmt, ap));
	va_end(ap);
}

void hm_argv_free(struct hm_argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	memset(a, 0, sizeof(*a));
}

void hm_argv_split(struct hm_argv *a, const char *words)
{
	while (words && *words) {
		size_t n;

		words += strspn(words, " \t\n");
		if ((n = strcspn(words, " \t\n")) > 0)
			hm_argv_addf(a, "%.*s", (int)n, words);
		words += n;
	}
}

static int needs_quotes(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *s))
			return 1;
	return 0;
}

size_t hm_shell_quote(char *out, size_t len, const char *s)
{
	if (!needs_quotes(s)) {
		memcpy(out + len, s, strlen(s) + 1);
		return len + strlen(s);
	}
	out[len++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {   /* ' becomes '\'' */
			memcpy(out + len, "'\\''", 4);
			len += 4;
		} else {
			out[len++] = *s;
		}
	}
	out[len++] = '\'';
	out[len] = '\0';
	return len;
}

char *hm_argv_quoted(const struct hm_argv *a)
{
	size_t size = 1, len = 0;
	char *out;

	for (int i = 0; i < a->n; i++)
		size += 4 * strlen(a->v[i]) + 3;
	if (!(out = malloc(size)))
		return NULL;
	out[0] = '\0';
	for (int i = 0; i < a->n; i++) {
		if (i)
			out[len++] = ' ';
		len = hm_shell_quote(out, len, a->v[i]);
	}
	return out;
}

char *hm_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

void hm_text_add(struct hm_text *t, const char *s, size_t n)
{
	if (t->failed)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = (t->cap ? 2 * t->cap : 4096) + n;
		char *d = realloc(t->data, cap);

		if (!d) {
			t->failed = 1;
			return;
		}
		t->data = d, t->cap = cap;
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
}

void hm_text_addf(struct hm_text *t, const char *fmt, ...)
{
	size_t len;
	va_list ap;
	char *buf;

	va_start(ap, fmt);
	buf = format(&len, fmt, ap);
	va_end(ap);
	if (!buf)
		t->failed = 1;
	else
		hm_text_add(t, buf, len);
	free(buf);
}

char *hm_text_done(struct hm_text *t)
{
	if (t->failed || !t->data) {
		free(t->data);
		t->data = NULL;
		return NULL;
	}
	return t->data;
}

/* models/platform/hostname.c - see hostname.h. */
#include "hostname.h"

#include <string.h>

static int allowed(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '-' || ch == '.' || ch == '_';
}

int hm_check_hostname(const char *host, const char *path, struct hm_error *err)
{
	const char *s;

	if (host[0] == '-' || host[0] == '.')
		return hm_error_at(err, path, "host name '%s' must start with a letter or digit", host);
	for (s = host; *s; s++)
		if (!allowed(*s))
			return hm_error_at(err, path,
					   "host name '%s' has character '%c' (allowed: letters, digits, '-', '.', '_')",
					   host, *s);
	return 0;
}

int hm_host_same(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");

	return !strcmp(a, b) || (la == lb && !strncmp(a, b, la));
}

int hm_host_one_machine(const char *a, const char *b, const char *here)
{
	return !strcmp(a, b) || (hm_host_names(a, here) && hm_host_names(b, here));
}

int hm_host_names(const char *host, const char *here)
{
	return !strcmp(host, "localhost") || !strcmp(host, "127.0.0.1") ||
	       (here[0] && hm_host_same(host, here));
}

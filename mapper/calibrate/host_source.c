/* mapper/calibrate/host_source.c - see host_source.h. */
#include "host_source.h"
#include "mapper/launch/slurm_alloc.h"
#include "models/platform/hostname.h"
#include "models/util/read_file.h"
#include "models/util/strbuild.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_HOSTFILE (1 << 20)  /* bytes: 10000 nodes' lines fit many times */
#define MAX_HOSTS 4096          /* calibrate's most processors */

struct host_slots {
	char *name[MAX_HOSTS];
	long slots[MAX_HOSTS];
	int n;
};

int hm_check_listed_host(const char *name, struct hm_error *err)
{
	if (!*name)
		return hm_error_set(err, "an empty host name");
	if (strlen(name) >= HM_HOST_NAME_MAX)
		return hm_error_set(err, "host name '%.40s...' is longer than %d characters", name,
				    HM_HOST_NAME_MAX - 1);
	return hm_check_hostname(name, "", err);
}

/* The entry of 'h' that names the machine 'name' names: the same name, or
 * both names of this machine ("localhost", "127.0.0.1", its host name),
 * which launchers take as one host; h->n when there is none. */
static int entry_of(const struct host_slots *h, const char *name, const char *here)
{
	int i = 0;

	while (i < h->n && !hm_host_one_machine(h->name[i], name, here))
		i++;
	return i;
}

/* Add 'slots' to host 'name' (a new entry at the end the first time),
 * 'where' naming its place in the source ("line 3", "node 12"). 0, or -1
 * with 'err' set. */
static int add_slots(struct host_slots *h, const char *name, long slots, const char *where,
		     struct hm_error *err)
{
	char here[256] = "";
	int i;

	if (hm_check_listed_host(name, err)) {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		return hm_error_set(err, "%s: %s", where, why);
	}
	gethostname(here, sizeof(here) - 1);
	if ((i = entry_of(h, name, here)) == h->n) {
		if (h->n == MAX_HOSTS)
			return hm_error_set(err, "%s: more than %d hosts", where, MAX_HOSTS);
		if (!(h->name[i] = strdup(name)))
			return hm_error_set(err, "out of memory");
		h->slots[h->n++] = 0;
	}
	if ((h->slots[i] += slots) > HM_HOST_SLOTS_MAX)
		return hm_error_set(err, "%s: host '%s' has more than %d slots", where, h->name[i],
				    HM_HOST_SLOTS_MAX);
	return 0;
}

/* A count in [1, HM_HOST_SLOTS_MAX] at s, to its end; -1 when it is not one. */
static long slot_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	return errno || end == s || *end || v < 1 || v > HM_HOST_SLOTS_MAX ? -1 : v;
}

/* One line without its comment: "host", "host slots=N [other=...]" (Open
 * MPI) or "host:N" (MPICH). 0 (a blank line too), or -1 with 'err' set. */
static int parse_line(struct host_slots *h, char *text, int line, int *bare, struct hm_error *err)
{
	char *save = NULL, *host = strtok_r(text, " \t\r", &save), *word, *colon;
	char where[32];
	long slots = 1;
	int counted = 0;

	if (!host)
		return 0;
	if ((colon = strchr(host, ':'))) {
		*colon = '\0';
		counted = 1;
		if ((slots = slot_count(colon + 1)) < 0)
			return hm_error_set(err, "line %d: '%s:%s' needs a count in [1, %d]", line, host,
					    colon + 1, HM_HOST_SLOTS_MAX);
	}
	while ((word = strtok_r(NULL, " \t\r", &save))) {
		if (strncmp(word, "slots=", 6))
			continue;       /* max_slots= and the like change nothing measured */
		counted = 1;
		if ((slots = slot_count(word + 6)) < 0)
			return hm_error_set(err, "line %d: '%s' needs a count in [1, %d]", line, word,
					    HM_HOST_SLOTS_MAX);
	}
	*bare += !counted;
	if (!*host)
		return hm_error_set(err, "line %d: no host name", line);
	snprintf(where, sizeof(where), "line %d", line);
	return add_slots(h, host, slots, where, err);
}

/* The list of 'h' as "HOST:N,...", or NULL when out of memory. */
static char *host_list(const struct host_slots *h)
{
	struct hm_text t = { 0 };

	for (int i = 0; i < h->n; i++)
		hm_text_addf(&t, "%s%s:%ld", i ? "," : "", h->name[i], h->slots[i]);
	return hm_text_done(&t);
}

/* The hosts as a list, or NULL with 'err' set: 'none' when there is no
 * host, else out of memory. */
static char *listed(const struct host_slots *h, const char *none, struct hm_error *err)
{
	char *list = NULL;

	if (!h->n)
		hm_error_set(err, "%s", none);
	else if (!(list = host_list(h)))
		hm_error_set(err, "out of memory");
	return list;
}

static void release(struct host_slots *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->name[i]);
}

char *hm_hosts_from_hostfile(const char *path, int *bare, struct hm_error *err)
{
	struct host_slots *h = calloc(1, sizeof(*h));
	enum hm_read_status status;
	char *text = NULL, *line, *next, *list = NULL, why[128];
	size_t len;
	int number = 0;

	snprintf(err->file, sizeof(err->file), "%s", path);
	*bare = 0;
	if (!h)
		return hm_error_set(err, "out of memory"), NULL;
	if (!(text = hm_read_file(path, MAX_HOSTFILE, &len, &status))) {
		hm_error_set(err, "%s", hm_read_failure(status, MAX_HOSTFILE, why, sizeof(why)));
		goto out;
	}
	if (strlen(text) != len) {
		hm_error_set(err, "a NUL byte: not a hostfile");
		goto out;
	}
	for (line = text; line; line = next) {
		char *hash;

		if ((next = strchr(line, '\n')))
			*next++ = '\0';
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		if (parse_line(h, line, ++number, bare, err))
			goto out;
	}
	list = listed(h, "no host in it", err);
out:
	release(h);
	free(h);
	free(text);
	return list;
}

char *hm_hosts_from_slurm(struct hm_error *err)
{
	struct host_slots *h = calloc(1, sizeof(*h));
	char **names, *list = NULL;
	int *cpus, nn;

	snprintf(err->file, sizeof(err->file), "the Slurm allocation (SLURM_JOB_NODELIST)");
	if (!h)
		return hm_error_set(err, "out of memory"), NULL;
	if ((nn = hm_slurm_allocation(&names, &cpus, err)) < 0) {
		free(h);
		return NULL;
	}
	for (int i = 0; i < nn; i++) {
		char where[64];

		snprintf(where, sizeof(where), "the allocation's node %d", i + 1);
		if (add_slots(h, names[i], cpus[i] < HM_HOST_SLOTS_MAX ? cpus[i] : HM_HOST_SLOTS_MAX, where, err))
			goto out;
	}
	list = listed(h, "the allocation lists no node", err);
out:
	hm_slurm_allocation_free(names, nn, cpus);
	release(h);
	free(h);
	return list;
}

/* mapper/launch/slurm_alloc.c - see slurm_alloc.h. */
#include "slurm_alloc.h"
#include "spawn.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest node number in a hostlist range (n[0-999999999]) and the
 * most CPUs a node may have: beyond them a number is a mistake, and
 * strtol's saturation or an int's truncation would make it another. */
enum { MAX_NODES = 65536, MAX_NODE_NUMBER = 999999999, MAX_NODE_CPUS = 1 << 20 };

/* A decimal number in [0, max] at s (digits only: no sign, no blank). */
static int read_number(const char *s, char **end, long max, long *v)
{
	errno = 0;
	*v = strtol(s, end, 10);
	return *end == s || !isdigit((unsigned char)*s) || errno == ERANGE || *v < 0 || *v > max ? -1 : 0;
}

static int add_name(char ***names, int *n, const char *name)
{
	char **grown, *s = strdup(name);

	if (!s || *n >= MAX_NODES || !(grown = realloc(*names, (size_t)(*n + 1) * sizeof(char *)))) {
		free(s);
		return -1;
	}
	*names = grown;
	(*names)[(*n)++] = s;
	return 0;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* One item: a plain name, or "pre[a-b,c]rest" where rest may hold more
 * groups ("rack[1-2]-n[01-04]": every rack's every node, as Slurm
 * expands it, the first group slowest). Each group's numbers keep the
 * width written ("01"). Bounded: MAX_NODES names in all. */
static int expand_item(const char *item, char ***names, int *n, struct hm_error *err)
{
	const char *open = strchr(item, '['), *close = open ? strchr(open, ']') : NULL;
	const char *inner = open ? strchr(open + 1, '[') : NULL;
	char pre[256], rest[1024];

	if (!open)
		return add_name(names, n, item) ? hm_error_set(err, "too many nodes") : 0;
	if (!close || open - item >= 256 || strlen(close + 1) >= 256 || (inner && inner < close))
		return hm_error_set(err, "SLURM_JOB_NODELIST: cannot read '%s'", item);
	snprintf(pre, sizeof(pre), "%.*s", (int)(open - item), item);
	for (const char *r = open + 1; r < close;) {
		char *end;
		long a, b;
		int width;

		if (read_number(r, &end, MAX_NODE_NUMBER, &a))
			return hm_error_set(err, "SLURM_JOB_NODELIST: cannot read '%s' (node numbers are "
					    "0 to %d)", item, MAX_NODE_NUMBER);
		width = (int)(end - r), b = a;
		if (*end == '-' && read_number(end + 1, &end, MAX_NODE_NUMBER, &b))
			return hm_error_set(err, "SLURM_JOB_NODELIST: cannot read '%s' (node numbers are "
					    "0 to %d)", item, MAX_NODE_NUMBER);
		if (b < a || b - a >= MAX_NODES || (*end != ',' && end != close))
			return hm_error_set(err, "SLURM_JOB_NODELIST: cannot read '%s'", item);
		for (long v = a; v <= b; v++) {
			snprintf(rest, sizeof(rest), "%s%0*ld%s", pre, width, v, close + 1);
			if (expand_item(rest, names, n, err))
				return -1;
		}
		r = end + (*end == ',');
	}
	return 0;
}

int hm_slurm_hostlist(const char *list, char ***names, struct hm_error *err)
{
	char item[1024];
	int n = 0;

	*names = NULL;
	while (*list) {
		size_t len = 0;
		int depth = 0;

		while (list[len] && (depth || list[len] != ',')) {
			depth += list[len] == '[' ? 1 : list[len] == ']' ? -1 : 0;
			len++;
		}
		if (len >= sizeof(item) || !len || expand_item((snprintf(item, sizeof(item), "%.*s",
								   (int)len, list), item), names, &n, err)) {
			if (!len || len >= sizeof(item))
				hm_error_set(err, "SLURM_JOB_NODELIST: cannot read '%s'", list);
			free_names(*names, n);
			*names = NULL;
			return -1;
		}
		list += len + (list[len] == ',');
	}
	return n;
}

int hm_slurm_cpus(const char *spec, int **cpus, struct hm_error *err)
{
	int n = 0;

	*cpus = NULL;
	while (*spec) {
		char *end;
		long c, times = 1;
		int *grown;

		if (read_number(spec, &end, MAX_NODE_CPUS, &c) || c < 1)
			goto bad;
		if (!strncmp(end, "(x", 2)) {
			if (read_number(end + 2, &end, MAX_NODES, &times) || times < 1 || *end++ != ')')
				goto bad;
		}
		if (n + times > MAX_NODES || !(grown = realloc(*cpus, (size_t)(n + times) * sizeof(int))))
			goto bad;
		*cpus = grown;
		while (times-- > 0)
			(*cpus)[n++] = (int)c;
		if (*end && *end != ',')
			goto bad;
		spec = end + (*end == ',');
	}
	return n;
bad:
	free(*cpus);
	*cpus = NULL;
	return hm_error_set(err, "SLURM_JOB_CPUS_PER_NODE: cannot read '%s' (CPUs per node: 1 to %d, "
			    "repeated at most %d times)", spec, MAX_NODE_CPUS, MAX_NODES);
}

int hm_in_slurm_allocation(void)
{
	return getenv("SLURM_JOB_NODELIST") && getenv("SLURM_JOB_CPUS_PER_NODE");
}

/* 'scontrol show hostnames LIST' when it answers: Slurm's own expansion
 * of every form it takes. The count, or -1 (then hetmap's own reading). */
struct captured_names {
	char **names;
	int n, failed;
};

static void take_name(const char *line, void *ctx)
{
	struct captured_names *c = ctx;

	if (*line && !c->failed && add_name(&c->names, &c->n, line))
		c->failed = 1;
}

static int scontrol_hostnames(const char *list, char ***names)
{
	struct captured_names c = { NULL, 0, 0 };
	struct hm_spawn_opts so = { .timeout = 10, .grace = 1, .on_line = take_name, .ctx = &c };
	struct hm_spawn_result res;
	char *argv[] = { "scontrol", "show", "hostnames", (char *)list, NULL }, found[4096];

	if (hm_program_path("scontrol", found, sizeof(found)) != HM_PROGRAM_OK || hm_spawn_run(argv, &so, &res) ||
	    res.status != HM_SPAWN_EXITED || res.exit_code || c.failed || !c.n) {
		free_names(c.names, c.n);
		return -1;
	}
	*names = c.names;
	return c.n;
}

int hm_slurm_allocation(char ***names, int **cpus, struct hm_error *err)
{
	int nn, nc;

	*names = NULL, *cpus = NULL;
	if (!hm_in_slurm_allocation())
		return hm_error_set(err, "not inside a Slurm allocation (SLURM_JOB_NODELIST and "
				    "SLURM_JOB_CPUS_PER_NODE are unset): run it under salloc or sbatch");
	if ((nn = scontrol_hostnames(getenv("SLURM_JOB_NODELIST"), names)) < 0 &&
	    (nn = hm_slurm_hostlist(getenv("SLURM_JOB_NODELIST"), names, err)) < 0)
		return -1;
	if ((nc = hm_slurm_cpus(getenv("SLURM_JOB_CPUS_PER_NODE"), cpus, err)) < 0 || nc != nn) {
		if (nc >= 0)
			hm_error_set(err, "the allocation lists %d nodes but CPUs for %d", nn, nc);
		hm_slurm_allocation_free(*names, nn, *cpus);
		*names = NULL, *cpus = NULL;
		return -1;
	}
	return nn;
}

void hm_slurm_allocation_free(char **names, int n, int *cpus)
{
	free_names(names, n);
	free(cpus);
}

int hm_slurm_check(const struct hm_placement *pl, struct hm_error *err)
{
	const char *list = getenv("SLURM_JOB_NODELIST");
	char **names;
	int *cpus, *used = NULL, *node_of = NULL, nn, ret = -1;

	if ((nn = hm_slurm_allocation(&names, &cpus, err)) < 0)
		return -1;
	used = calloc((size_t)nn, sizeof(int));
	node_of = malloc((size_t)pl->nr_hosts * sizeof(int));
	if (!used || !node_of) {
		hm_error_set(err, "out of memory");
		goto out;
	}
	for (int i = 0; i < pl->nr_hosts; i++)
		node_of[i] = -1;        /* the allocation's node of each host, found once */
	for (int k = 0; k < pl->D; k++) {
		int *h = &node_of[pl->ranks[k].host_id];

		if (*h < 0)
			for (*h = 0; *h < nn && strcmp(names[*h], pl->ranks[k].host); ++*h)
				;
		if (*h == nn) {
			hm_error_set(err, "rank %d is planned on '%s', which is not in the allocation (%s)",
				     k, pl->ranks[k].host, list);
			goto out;
		}
		if (++used[*h] > cpus[*h] && !pl->oversubscribed) {
			hm_error_set(err, "the plan puts more ranks on '%s' than its %d allocated CPUs",
				     names[*h], cpus[*h]);
			goto out;
		}
	}
	ret = 0;
out:
	hm_slurm_allocation_free(names, nn, cpus);
	free(used);
	free(node_of);
	return ret;
}

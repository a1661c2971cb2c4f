/* search/classes.c - see classes.h. */
#include "classes.h"

#include <stdlib.h>

/* What must be equal for two processors to share a class. */
struct key {
	int type, cores, profile;   /* profile: which link rules it matches */
	double memory;
	long host_key;      /* -1: host does not matter; < -1: a class of its own */
	int index;
};

static int cmp_key(const void *x, const void *y)
{
	const struct key *a = x, *b = y;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->cores != b->cores)
		return a->cores < b->cores ? -1 : 1;
	if (a->profile != b->profile)
		return a->profile < b->profile ? -1 : 1;
	if (a->memory != b->memory)
		return a->memory < b->memory ? -1 : 1;
	if (a->host_key != b->host_key)
		return a->host_key < b->host_key ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int same_class(const struct key *a, const struct key *b)
{
	return a->type == b->type && a->cores == b->cores && a->profile == b->profile &&
	       a->memory == b->memory && a->host_key == b->host_key;
}

/* Classes numbered by their first processor, so that the numbering
 * follows the platform's order whatever the sort did. */
static int renumber(int *class_of, int P, int C)
{
	int *renum = malloc((size_t)C * sizeof(int)), next = 0, i;

	if (!renum)
		return -1;
	for (i = 0; i < C; i++)
		renum[i] = -1;
	for (i = 0; i < P; i++) {
		if (renum[class_of[i]] < 0)
			renum[class_of[i]] = next++;
		class_of[i] = renum[class_of[i]];
	}
	free(renum);
	return 0;
}

int hm_processor_classes(const struct hm_platform *p, int *class_of)
{
	const struct hm_link *sh = &p->links[HM_LINK_SAME_HOST];
	const struct hm_link *ih = &p->links[HM_LINK_INTER_HOST];
	/* rules price inter-host pairs only, so with any rule a host's
	 * processors differ from processors alone on theirs */
	int hosts_matter = !hm_link_at_most(*sh, *ih) || !hm_link_at_most(*ih, *sh) || p->nr_rules;
	struct key *keys = malloc((size_t)p->nr_procs * sizeof(*keys));
	int *host_size = calloc((size_t)p->nr_hosts, sizeof(int));
	int i, C = 0;

	if (!keys || !host_size) {
		free(keys), free(host_size);
		return -1;
	}
	for (i = 0; i < p->nr_procs; i++)
		host_size[p->procs[i].host_id]++;
	for (i = 0; i < p->nr_procs; i++) {
		const struct hm_processor *pr = &p->procs[i];
		int shares_host = host_size[pr->host_id] > 1;

		keys[i] = (struct key){ pr->type, pr->cores, p->profile_of ? p->profile_of[i] : 0,
					pr->memory, hosts_matter && shares_host ? pr->host_id : -1, i };
	}
	free(host_size);
	for (i = 0; i < p->nr_overrides; i++) {
		keys[p->overrides[i].a].host_key = -2L - p->overrides[i].a;
		keys[p->overrides[i].b].host_key = -2L - p->overrides[i].b;
	}
	qsort(keys, (size_t)p->nr_procs, sizeof(*keys), cmp_key);
	for (i = 0; i < p->nr_procs; i++) {
		if (i == 0 || !same_class(&keys[i], &keys[i - 1]))
			C++;
		class_of[keys[i].index] = C - 1;
	}
	free(keys);
	return renumber(class_of, p->nr_procs, C) ? -1 : C;
}

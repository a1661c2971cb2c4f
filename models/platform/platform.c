/* models/platform/platform.c - a platform's invariants and queries (see platform.h):
 * its sorted name index, the numbering of its hosts, its sorted link
 * overrides and the link cost of any pair. platform_load.c fills a
 * platform from JSON and calls the hm_platform_index/sort functions here. */
#include "platform.h"
#include "models/util/strbuild.h"
#include "models/util/json_read.h"

#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char *const link_scope_names[HM_LINK_NSCOPES] = {
	"same_processor", "same_node", "inter_node",
};

const char *hm_link_scope_name(enum hm_link_scope s)
{
	return (unsigned)s < HM_LINK_NSCOPES ? link_scope_names[s] : "?";
}

static void table_free(struct hm_table *t)
{
	free(t->b);
	free(t->k);
}

static void hm_rule_end_free(struct hm_rule_end *e)
{
	for (int i = 0; i < e->nr_literal; i++)
		free(e->literal[i]);
	for (int i = 0; i < e->nr_wild; i++)
		free(e->wild[i]);
	free(e->literal);
	free(e->wild);
	memset(e, 0, sizeof(*e));
}

void hm_platform_free(struct hm_platform *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; p->types && i < p->nr_types; i++) {
		free(p->types[i].name);
		table_free(&p->types[i].k3_dgemm);
		table_free(&p->types[i].k3_dtrsm);
		table_free(&p->types[i].k2_dgetf2);
		table_free(&p->types[i].busy_scale);
		for (int j = 0; j < p->types[i].nr_threads; j++)
			for (int g = 0; g < HM_NR_THREAD_KERNELS; g++)
				table_free(&p->types[i].threads[j].s[g]);
	}
	for (i = 0; p->procs && i < p->nr_procs; i++) {
		free(p->procs[i].name);
		free(p->procs[i].host);
		if (p->procs[i].topology)
			hm_topology_release(p->procs[i].topology);
		free(p->procs[i].topology);
	}
	for (i = 0; p->rules && i < p->nr_rules; i++) {
		hm_rule_end_free(&p->rules[i].end[0]);
		hm_rule_end_free(&p->rules[i].end[1]);
	}
	free(p->rules);
	free(p->profile_of);
	free(p->rule_of);
	free(p->types);
	free(p->procs);
	free(p->by_name);
	free(p->overrides);
	free(p->name);
	free(p->description);
	free(p->source);
	free(p);
}

static int cmp_name_index(const void *a, const void *b)
{
	return strcmp(((const struct hm_name_index *)a)->name,
		      ((const struct hm_name_index *)b)->name);
}

/* Number the distinct hosts (in host-name order): processors on one host
 * share its memory bus and its same-node links. Sorting keeps this
 * O(P log P) where a pairwise scan would be O(P^2). */
static int number_hosts(struct hm_platform *p)
{
	struct hm_name_index *hosts = malloc((size_t)p->nr_procs * sizeof(*hosts));
	int i;

	if (!hosts)
		return -1;
	for (i = 0; i < p->nr_procs; i++) {
		hosts[i].name = p->procs[i].host;
		hosts[i].index = i;
	}
	qsort(hosts, (size_t)p->nr_procs, sizeof(*hosts), cmp_name_index);
	p->nr_hosts = 0;
	for (i = 0; i < p->nr_procs; i++) {
		if (i > 0 && strcmp(hosts[i].name, hosts[i - 1].name))
			p->nr_hosts++;
		p->procs[hosts[i].index].host_id = p->nr_hosts;
	}
	p->nr_hosts++;
	free(hosts);
	return 0;
}

/* Sort the names once: duplicates become neighbours, and lookups while
 * loading overrides and plans stay O(log P) on 100000-processor files. */
int hm_platform_index(struct hm_platform *p)
{
	int i;

	p->by_name = malloc((size_t)p->nr_procs * sizeof(*p->by_name));
	if (!p->by_name)
		return -2;
	for (i = 0; i < p->nr_procs; i++) {
		p->by_name[i].name = p->procs[i].name;
		p->by_name[i].index = i;
	}
	qsort(p->by_name, (size_t)p->nr_procs, sizeof(*p->by_name), cmp_name_index);
	for (i = 1; i < p->nr_procs; i++)
		if (!cmp_name_index(&p->by_name[i], &p->by_name[i - 1])) {
			int a = p->by_name[i].index, b = p->by_name[i - 1].index;

			return a > b ? a : b;
		}
	return number_hosts(p) ? -2 : -1;
}

static int cmp_override(const void *x, const void *y)
{
	const struct hm_link_override *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

int hm_platform_sort_overrides(struct hm_platform *p)
{
	int i;

	qsort(p->overrides, (size_t)p->nr_overrides, sizeof(*p->overrides), cmp_override);
	for (i = 1; i < p->nr_overrides; i++)
		if (!cmp_override(&p->overrides[i], &p->overrides[i - 1]))
			return i;
	return -1;
}

int hm_rule_end_add(struct hm_rule_end *e, const char *pattern)
{
	int wild = strpbrk(pattern, "*?[") != NULL;
	char ***list = wild ? &e->wild : &e->literal, **grown, *copy;
	int *n = wild ? &e->nr_wild : &e->nr_literal;

	/* grown at each power of two: an end may list thousands of hosts */
	if (!(*n & (*n - 1))) {
		if (!(grown = realloc(*list, (size_t)(*n ? 2 * *n : 1) * sizeof(char *))))
			return -1;
		*list = grown;
	}
	if (!(copy = hm_strdup(pattern)))
		return -1;
	(*list)[(*n)++] = copy;
	return 0;
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void hm_rule_end_sort(struct hm_rule_end *e)
{
	if (e->nr_literal > 1)
		qsort(e->literal, (size_t)e->nr_literal, sizeof(char *), cmp_text);
}

void hm_rule_end_text(const struct hm_rule_end *e, char *buf, size_t size)
{
	int n = e->nr_literal + e->nr_wild;
	size_t len = 0;

	buf[0] = '\0';
	for (int k = 0; k < n && len < size; k++) {
		const char *x = k < e->nr_literal ? e->literal[k] : e->wild[k - e->nr_literal];

		len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s", n > 1 && !k ? "[" : "",
					k ? ", " : "", x, n > 1 && k == n - 1 ? "]" : "");
	}
	if (len >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

static int literal_has(const struct hm_rule_end *e, const char *name)
{
	return e->nr_literal &&
	       bsearch(&name, e->literal, (size_t)e->nr_literal, sizeof(char *), cmp_text) != NULL;
}

/* Processor i matches end 'e': its name, host or type is one of the end's
 * names or matches one of its patterns. */
static int matches(const struct hm_rule_end *e, const struct hm_platform *p, int i)
{
	const char *what[3] = { p->procs[i].name, p->procs[i].host, p->types[p->procs[i].type].name };

	for (int k = 0; k < 3; k++)
		if (literal_has(e, what[k]))
			return 1;
	for (int w = 0; w < e->nr_wild; w++)
		for (int k = 0; k < 3; k++)
			if (!fnmatch(e->wild[w], what[k], 0))
				return 1;
	return 0;
}

/* Bits 2r and 2r + 1: processor i matches rule r's first, second end. */
static uint64_t match_mask(const struct hm_platform *p, int i)
{
	uint64_t mask = 0;

	for (int r = 0; r < p->nr_rules; r++)
		mask |= (uint64_t)matches(&p->rules[r].end[0], p, i) << (2 * r) |
			(uint64_t)matches(&p->rules[r].end[1], p, i) << (2 * r + 1);
	return mask;
}

#define MAX_PROFILES 2048   /* the rule table is profiles squared */

int hm_platform_resolve_rules(struct hm_platform *p, uint64_t *matched)
{
	uint64_t *masks = malloc((size_t)p->nr_procs * sizeof(uint64_t)), *seen;
	int ret = -1;

	if (!p->nr_rules) {
		free(masks);
		return 0;
	}
	seen = malloc(MAX_PROFILES * sizeof(uint64_t));
	p->profile_of = malloc((size_t)p->nr_procs * sizeof(int));
	if (!masks || !seen || !p->profile_of)
		goto out;
	p->nr_profiles = 0;
	*matched = 0;
	for (int i = 0; i < p->nr_procs; i++) {
		int q;

		*matched |= masks[i] = match_mask(p, i);
		for (q = 0; q < p->nr_profiles && seen[q] != masks[i]; q++)
			;
		if (q == p->nr_profiles) {
			if (q == MAX_PROFILES) {
				ret = -2;
				goto out;
			}
			seen[p->nr_profiles++] = masks[i];
		}
		p->profile_of[i] = q;
	}
	if (!(p->rule_of = malloc((size_t)p->nr_profiles * p->nr_profiles)))
		goto out;
	for (int a = 0; a < p->nr_profiles; a++)
		for (int b = 0; b < p->nr_profiles; b++) {
			int r;

			for (r = 0; r < p->nr_rules; r++) {
				uint64_t ma = seen[a] >> (2 * r), mb = seen[b] >> (2 * r);

				if (((ma & 1) && (mb & 2)) || ((ma & 2) && (mb & 1)))
					break;
			}
			p->rule_of[a * p->nr_profiles + b] = (signed char)(r < p->nr_rules ? r : -1);
		}
	ret = 0;
out:
	free(masks);
	free(seen);
	return ret;
}

int hm_platform_find(const struct hm_platform *p, const char *name)
{
	struct hm_name_index key = { name, -1 };
	const struct hm_name_index *hit =
		bsearch(&key, p->by_name, (size_t)p->nr_procs, sizeof(key), cmp_name_index);

	return hit ? hit->index : -1;
}

struct hm_link hm_platform_link(const struct hm_platform *p, int i, int j)
{
	if (i == j)
		return p->links[HM_LINK_SAME_PROCESSOR];
	if (p->nr_overrides) {
		struct hm_link_override key = { i < j ? i : j, i < j ? j : i, { 0, 0, 0 } };
		const struct hm_link_override *o =
			bsearch(&key, p->overrides, (size_t)p->nr_overrides,
				sizeof(*p->overrides), cmp_override);

		if (o)
			return o->link;
	}
	if (p->nr_rules && p->procs[i].host_id != p->procs[j].host_id) {
		int r = p->rule_of[p->profile_of[i] * p->nr_profiles + p->profile_of[j]];

		if (r >= 0)
			return p->rules[r].link;
	}
	return p->links[p->procs[i].host_id == p->procs[j].host_id ?
			HM_LINK_SAME_HOST : HM_LINK_INTER_HOST];
}

void hm_platform_set_cards(struct hm_platform *p)
{
	double inter = p->links[HM_LINK_INTER_HOST].t_w, by_profile[MAX_PROFILES];

	/* the rules a profile meets, once a profile: processors x profiles
	 * could be 10^8 lookups on a large platform with many rules */
	for (int a = 0; a < p->nr_profiles; a++) {
		const signed char *rule = &p->rule_of[a * p->nr_profiles];

		by_profile[a] = inter;
		for (int q = 0; q < p->nr_profiles; q++)
			if (rule[q] >= 0)
				by_profile[a] = fmin(by_profile[a], p->rules[rule[q]].link.t_w);
	}
	for (int i = 0; i < p->nr_procs; i++)
		p->procs[i].card_t_w = p->nr_hosts < 2 ? 0 : p->nr_rules ? by_profile[p->profile_of[i]] : inter;
	for (int k = 0; k < p->nr_overrides; k++) {
		const struct hm_link_override *o = &p->overrides[k];

		if (p->procs[o->a].host_id == p->procs[o->b].host_id)
			continue;
		p->procs[o->a].card_t_w = fmin(p->procs[o->a].card_t_w, o->link.t_w);
		p->procs[o->b].card_t_w = fmin(p->procs[o->b].card_t_w, o->link.t_w);
	}
}

long hm_platform_cores(const struct hm_platform *p)
{
	long cores = 0;

	for (int i = 0; i < p->nr_procs; i++)
		cores += p->procs[i].cores;
	return cores;
}

/* The stated defaults are medians over the real calibrations committed in
 * experiments/ (this machine and a 16-core node, quiet), each step over its
 * type's panel s/flop at the middle b: python3 experiments/analysis.py
 * step-defaults. The row interchange: 136x (90-226x over 9 calibrations;
 * 16-25 ns an element); charging nothing had left 8-28 % of LU on one
 * process of this machine unpriced. The column step: 889x (0-3617x over 6,
 * 0 in 2; 0.1-0.6 us a step): the real sets cannot tell it from 0 (MAPE
 * within 0.5 points of it on every one), so the measurement decides. */
static const struct hm_lu_step_info lu_steps[HM_NR_LU_STEPS] = {
	[HM_LU_COLUMN_STEP] = { "column_step", "column step", 889,
				"889 x its panel's s/flop, real calibrations' median" },
	[HM_LU_ROW_SWAP] = { "k1_dswap", "row interchange", 136,
			     "136 x its panel's s/flop, real calibrations' median" },
	/* measured by calibrate since the stride was found to matter; a type
	 * without it pays its k1_dswap at every stride (no guess of how a CPU
	 * not measured aliases) */
	[HM_LU_ROW_SWAP_ALIASED] = { "k1_dswap_aliased", "row interchange at a 4 KiB stride", 0,
				     "its k1_dswap (the stride's cost was not measured)", HM_LU_ROW_SWAP },
};

const struct hm_lu_step_info *hm_lu_step_info(enum hm_lu_step s)
{
	return &lu_steps[s];
}

/* where each step's cost sits in a type */
static const size_t step_offset[HM_NR_LU_STEPS] = {
	[HM_LU_COLUMN_STEP] = offsetof(struct hm_proc_type, column_step),
	[HM_LU_ROW_SWAP] = offsetof(struct hm_proc_type, k1_dswap),
	[HM_LU_ROW_SWAP_ALIASED] = offsetof(struct hm_proc_type, k1_dswap_aliased),
};

double *hm_lu_step_slot(struct hm_proc_type *ty, enum hm_lu_step s)
{
	return (double *)((char *)ty + step_offset[s]);
}

double hm_lu_step_cost(const struct hm_proc_type *ty, enum hm_lu_step s)
{
	return *(const double *)((const char *)ty + step_offset[s]);
}

double hm_type_busy_scale(const struct hm_proc_type *ty, int cores, int d)
{
	return ty->busy_scale.n && d > 0 ? hm_table_at(&ty->busy_scale, d < cores ? d : cores) : 1;
}

double hm_table_at(const struct hm_table *t, int b)
{
	int i;

	if (t->n == 1 || b <= t->b[0])
		return t->k[0];
	for (i = 1; i < t->n; i++)
		if (b <= t->b[i]) {
			double f = (double)(b - t->b[i - 1]) / (t->b[i] - t->b[i - 1]);

			return t->k[i - 1] + f * (t->k[i] - t->k[i - 1]);
		}
	return t->k[t->n - 1];
}

double hm_table_max(const struct hm_table *t)
{
	double m = t->k[0];

	for (int i = 1; i < t->n; i++)
		m = t->k[i] > m ? t->k[i] : m;
	return m;
}

double hm_table_min(const struct hm_table *t)
{
	double m = t->k[0];

	for (int i = 1; i < t->n; i++)
		m = t->k[i] < m ? t->k[i] : m;
	return m;
}

int hm_platform_block_count(const struct hm_platform *p, double n)
{
	int nb = 1;

	while (nb < p->nr_block_sizes && p->block_sizes[nb] <= n)
		nb++;
	return nb;
}

int hm_platform_slots(const struct hm_platform *p, int *slot)
{
	int *next = calloc((size_t)p->nr_hosts + 1, sizeof(int));

	if (!next)
		return -1;
	for (int i = 0; i < p->nr_procs; i++) {
		slot[i] = next[p->procs[i].host_id];
		next[p->procs[i].host_id] += p->procs[i].cores;
	}
	free(next);
	return 0;
}

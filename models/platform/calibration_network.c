/* models/platform/calibration_network.c - see calibration_network.h. */
#include "calibration_network.h"
#include "models/util/median.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NR_SCOPES HM_LINK_NSCOPES
#define SMALL_BYTES 64.0
#define LARGE_BYTES 65536.0

void hm_hockney_fit(const double *bytes, const double *seconds, int n, double *t_s, double *t_w)
{
	double small[64], sx = 0, sy = 0, sxx = 0, sxy = 0;
	int ns = 0, nl = 0;

	for (int i = 0; i < n; i++) {
		if (bytes[i] <= SMALL_BYTES && ns < 64)
			small[ns++] = seconds[i];
		if (bytes[i] >= LARGE_BYTES) {
			double w = bytes[i] / 8;    /* 8-byte words */

			sx += w, sy += seconds[i], sxx += w * w, sxy += w * seconds[i];
			nl++;
		}
	}
	qsort(small, (size_t)ns, sizeof(double), hm_cmp_double);
	*t_s = ns ? small[ns / 2] : seconds[0];
	*t_w = nl >= 2 && nl * sxx - sx * sx > 0 ? (nl * sxy - sx * sy) / (nl * sxx - sx * sx) : 0;
	if (!(*t_w > 0))        /* a noisy fit: fall back to the largest message */
		*t_w = (seconds[n - 1] - *t_s) / (bytes[n - 1] / 8);
	if (!(*t_w > 0))
		*t_w = seconds[n - 1] / (bytes[n - 1] / 8);
}

/* Fit each link scope from its pairs (median one-way time over the pairs
 * at each size). measured[c] says whether scope c had a pair. */
static int fit_network(const cJSON *raw, double t_s[NR_SCOPES], double t_w[NR_SCOPES],
		       int measured[NR_SCOPES], cJSON *record, struct hm_error *err)
{
	const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(raw, "bytes");
	const cJSON *pp = cJSON_GetObjectItemCaseSensitive(raw, "pingpong"), *e;
	int nsizes = cJSON_GetArraySize(bytes);
	double x[64];

	if (nsizes < 2 || nsizes > 64 || !cJSON_IsArray(pp))
		return hm_error_at(err, "pingpong", "missing message sizes or pairs");
	for (int s = 0; s < nsizes; s++)
		x[s] = cJSON_GetArrayItem(bytes, s)->valuedouble;
	for (int c = 0; c < NR_SCOPES; c++) {
		double y[64], per_pair[8][64];
		int npairs = 0;

		cJSON_ArrayForEach(e, pp) {
			const cJSON *scope = cJSON_GetObjectItemCaseSensitive(e, "scope");
			const cJSON *secs = cJSON_GetObjectItemCaseSensitive(e, "seconds");

			if (!cJSON_IsString(scope) || strcmp(scope->valuestring, hm_link_scope_name((enum hm_link_scope)c)) || npairs == 8)
				continue;
			if (cJSON_GetArraySize(secs) != nsizes)
				return hm_error_at(err, "pingpong", "one time per message size expected");
			for (int s = 0; s < nsizes; s++)
				per_pair[npairs][s] = cJSON_GetArrayItem(secs, s)->valuedouble;
			npairs++;
		}
		measured[c] = npairs > 0;
		if (!npairs)
			continue;
		for (int s = 0; s < nsizes; s++) {
			double v[8];

			for (int p = 0; p < npairs; p++)
				v[p] = per_pair[p][s];
			qsort(v, (size_t)npairs, sizeof(double), hm_cmp_double);
			y[s] = v[npairs / 2];
		}
		hm_hockney_fit(x, y, nsizes, &t_s[c], &t_w[c]);
		{
			cJSON *fit = cJSON_AddObjectToObject(record, hm_link_scope_name((enum hm_link_scope)c));

			cJSON_AddNumberToObject(fit, "pairs", npairs);
			cJSON_AddItemToObject(fit, "one_way_s", cJSON_CreateDoubleArray(y, nsizes));
		}
	}
	if (!measured[0] && !measured[1] && !measured[2])
		return hm_error_at(err, "pingpong", "no pair was measured");
	return 0;
}

/* A link's fields. Between two processors a core's part of t_w is taken as
 * the same-processor t_w ('core', 0 when not measured): the least a core
 * spends moving a word, a copy through memory. A slower link is slower by
 * its wire, which processes sharing a core do not slow down
 * (models/README.md, "Heterogeneity rule"); where the same-processor copy
 * is the dearer, all of t_w is the core's. */
static void link_fields(cJSON *link, double ts, double tw, double core)
{
	cJSON_AddNumberToObject(link, "t_s", ts);
	cJSON_AddNumberToObject(link, "t_w", tw);
	if (core > 0 && core < tw)
		cJSON_AddNumberToObject(link, "t_w_core", core);
}

/* Same-node pairs whose own fit is off their scope's by more than
 * 'tolerance' (in t_w): a link of their own, as "pairs" in the platform.
 * 'rank_name' names the processor of each rank; the shadow rank (beyond
 * nproc) is skipped. Pairs between hosts are host_links()'s. */
static void pair_links(const cJSON *raw, const double t_w[NR_SCOPES], double core,
		       const char *const *rank_name, int nranks, double tolerance, cJSON *net)
{
	const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(raw, "bytes");
	const cJSON *pp = cJSON_GetObjectItemCaseSensitive(raw, "pingpong"), *e;
	int nsizes = cJSON_GetArraySize(bytes);
	cJSON *pairs = cJSON_GetObjectItemCaseSensitive(net, "pairs");
	double x[64], y[64];

	for (int s = 0; s < nsizes && s < 64; s++)
		x[s] = cJSON_GetArrayItem(bytes, s)->valuedouble;
	cJSON_ArrayForEach(e, pp) {
		const cJSON *scope = cJSON_GetObjectItemCaseSensitive(e, "scope");
		const cJSON *secs = cJSON_GetObjectItemCaseSensitive(e, "seconds");
		const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(e, "ranks");
		int a = cJSON_GetArrayItem(ranks, 0) ? cJSON_GetArrayItem(ranks, 0)->valueint : -1;
		int b = cJSON_GetArrayItem(ranks, 1) ? cJSON_GetArrayItem(ranks, 1)->valueint : -1;
		double ts, tw;
		int c;

		for (c = 0; c < NR_SCOPES && cJSON_IsString(scope) &&
			    strcmp(scope->valuestring, hm_link_scope_name((enum hm_link_scope)c)); c++)
			;
		if (c != HM_LINK_SAME_HOST || a < 0 || b < 0 || a >= nranks ||
		    b >= nranks || !strcmp(rank_name[a], rank_name[b]) || cJSON_GetArraySize(secs) != nsizes ||
		    nsizes > 64)
			continue;
		for (int s = 0; s < nsizes; s++)
			y[s] = cJSON_GetArrayItem(secs, s)->valuedouble;
		hm_hockney_fit(x, y, nsizes, &ts, &tw);
		if (!(fabs(tw - t_w[c]) > tolerance * t_w[c]))
			continue;
		if (!pairs)
			pairs = cJSON_AddArrayToObject(net, "pairs");
		{
			cJSON *link = cJSON_CreateObject();
			const char *ends[2] = { rank_name[a], rank_name[b] };

			cJSON_AddItemToObject(link, "between", cJSON_CreateStringArray(ends, 2));
			link_fields(link, ts, tw, core);
			cJSON_AddItemToArray(pairs, link);
		}
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* One measured pair between hosts, fitted. */
struct host_pair_fit {
	int ra, rb;             /* ranks */
	struct hm_link link;
};

struct host_groups {
	int H, G;
	const char **host;      /* H distinct host names */
	struct hm_link *own;    /* each host's own link (the pair that settles it) */
	int *group;             /* each host's group, 0 = slowest */
	struct hm_link *glink;  /* each group's link */
};

/* A host by its own t_w, for sorting slowest first. */
struct host_by_t_w {
	double t_w;
	int host;
};

static int slower_first(const void *a, const void *b)
{
	double x = ((const struct host_by_t_w *)a)->t_w, y = ((const struct host_by_t_w *)b)->t_w;

	return x > y ? -1 : x < y;
}

/* 'order' (the hosts sorted slowest first) cut into groups whose t_w lie
 * within 'tol' of their first's; each group's link is its middle
 * member's. */
static int cut_groups(struct host_groups *g, double tol, const struct host_by_t_w *order)
{
	g->G = 0;
	for (int i = 0; i < g->H;) {
		int j = i;

		while (j < g->H && order[j].t_w * (1 + tol) >= order[i].t_w)
			g->group[order[j++].host] = g->G;
		g->glink[g->G++] = g->own[order[(i + j) / 2].host];
		i = j;
	}
	return g->G;
}

static int host_index(struct host_groups *g, const char *name)
{
	int h;

	for (h = 0; h < g->H && strcmp(g->host[h], name); h++)
		;
	if (h == g->H)
		g->host[g->H++] = name;
	return h;
}

/* The inter-node pairs of the raw document, each fitted, their hosts
 * numbered into g->host; returns how many, and the rounds into *rounds. */
static int read_host_pairs(const cJSON *raw, const char *const *rank_host, int nranks,
			   struct host_groups *g, struct host_pair_fit *fit, struct hm_host_pair *hp, int *rounds)
{
	const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(raw, "bytes");
	const cJSON *pp = cJSON_GetObjectItemCaseSensitive(raw, "pingpong"), *e;
	int nsizes = cJSON_GetArraySize(bytes), n = 0;
	double x[64], y[64];

	if (nsizes > 64)
		return 0;
	for (int s = 0; s < nsizes; s++)
		x[s] = cJSON_GetArrayItem(bytes, s)->valuedouble;
	*rounds = 0;
	cJSON_ArrayForEach(e, pp) {
		const cJSON *scope_name = cJSON_GetObjectItemCaseSensitive(e, "scope");
		const cJSON *secs = cJSON_GetObjectItemCaseSensitive(e, "seconds");
		const cJSON *ranks = cJSON_GetObjectItemCaseSensitive(e, "ranks");
		const cJSON *round = cJSON_GetObjectItemCaseSensitive(e, "round");
		int a = cJSON_GetArrayItem(ranks, 0) ? cJSON_GetArrayItem(ranks, 0)->valueint : -1;
		int b = cJSON_GetArrayItem(ranks, 1) ? cJSON_GetArrayItem(ranks, 1)->valueint : -1;

		if (!cJSON_IsString(scope_name) || strcmp(scope_name->valuestring, "inter_node") || a < 0 ||
		    b < 0 || a >= nranks || b >= nranks || !strcmp(rank_host[a], rank_host[b]) ||
		    cJSON_GetArraySize(secs) != nsizes)
			continue;
		for (int s = 0; s < nsizes; s++)
			y[s] = cJSON_GetArrayItem(secs, s)->valuedouble;
		fit[n].ra = a, fit[n].rb = b;
		hm_hockney_fit(x, y, nsizes, &fit[n].link.t_s, &fit[n].link.t_w);
		hp[n] = (struct hm_host_pair){ host_index(g, rank_host[a]), host_index(g, rank_host[b]),
					       fit[n].link.t_w };
		if (cJSON_IsNumber(round) && round->valueint + 1 > *rounds)
			*rounds = round->valueint + 1;
		n++;
	}
	return n;
}

/* A rule [the group's hosts, by name] ~ "*" per group but the fastest,
 * slowest first. 'names' has room for every host. */
static void group_rules(const struct host_groups *g, double core, const char **names, cJSON *net)
{
	cJSON *rules = NULL;

	for (int grp = 0; grp < g->G - 1; grp++) {
		cJSON *rule = cJSON_CreateObject(), *between = cJSON_CreateArray(), *list = cJSON_CreateArray();
		int m = 0;

		for (int h = 0; h < g->H; h++)
			if (g->group[h] == grp)
				names[m++] = g->host[h];
		qsort(names, (size_t)m, sizeof(*names), cmp_name);     /* what a person looks for */
		for (int i = 0; i < m; i++)
			cJSON_AddItemToArray(list, cJSON_CreateString(names[i]));
		cJSON_AddItemToArray(between, list);
		cJSON_AddItemToArray(between, cJSON_CreateString("*"));
		cJSON_AddItemToObject(rule, "between", between);
		link_fields(rule, g->glink[grp].t_s, g->glink[grp].t_w, core);
		if (!rules)
			rules = cJSON_AddArrayToObject(net, "links");
		cJSON_AddItemToArray(rules, rule);
	}
}

/* Measured pairs the groups do not explain within 'tol': links of their own. */
static void unexplained_pairs(const struct host_groups *g, const struct host_pair_fit *fit,
			      const struct hm_host_pair *hp, int n, const char *const *rank_name, double tol,
			      double core, cJSON *net)
{
	cJSON *pairs = NULL;

	for (int i = 0; i < n; i++) {
		double want = fmax(g->glink[g->group[hp[i].a]].t_w, g->glink[g->group[hp[i].b]].t_w);
		const char *ends[2] = { rank_name[fit[i].ra], rank_name[fit[i].rb] };
		cJSON *link;

		if (!(fabs(fit[i].link.t_w - want) > tol * want))
			continue;
		if (!pairs)
			pairs = cJSON_AddArrayToObject(net, "pairs");
		link = cJSON_CreateObject();
		cJSON_AddItemToObject(link, "between", cJSON_CreateStringArray(ends, 2));
		link_fields(link, fit[i].link.t_s, fit[i].link.t_w, core);
		cJSON_AddItemToArray(pairs, link);
	}
}

static void host_links_record(const struct host_groups *g, int n, int rounds, double gtol, const int *known,
			      cJSON *record)
{
	cJSON *rec = cJSON_AddObjectToObject(record, "hosts_links"), *own;
	int settled = 0;

	for (int h = 0; h < g->H; h++)
		settled += known[h];
	cJSON_AddNumberToObject(rec, "hosts", g->H);
	cJSON_AddNumberToObject(rec, "pairs_measured", n);
	cJSON_AddNumberToObject(rec, "rounds", rounds);
	cJSON_AddNumberToObject(rec, "groups", g->G);
	cJSON_AddNumberToObject(rec, "group_tolerance", gtol);
	cJSON_AddNumberToObject(rec, "hosts_settled", settled);
	own = cJSON_AddObjectToObject(rec, "own_t_w");
	for (int h = 0; h < g->H; h++)
		cJSON_AddNumberToObject(own, g->host[h], g->own[h].t_w);
}

/* Links between hosts (host_links.h): every host's own link from the
 * pairs measured, hosts of like links grouped (within 'tol' in t_w); the
 * fastest group's link is the inter_node scope (*scope), each slower group
 * a rule, slowest first (the first rule wins: a pair goes at its slower
 * end's pace); a pair the groups do not explain keeps a link of its own.
 * 0, or -1 when no pair is between hosts (or out of memory). */
static int host_links(const cJSON *raw, const char *const *rank_name, const char *const *rank_host,
		      int nranks, double tol, double core, struct hm_link *scope, cJSON *net, cJSON *record)
{
	int cap = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(raw, "pingpong")), n, rounds, ret = -1;
	struct host_pair_fit *fit = calloc((size_t)cap + 1, sizeof(*fit));
	struct hm_host_pair *hp = calloc((size_t)cap + 1, sizeof(*hp));
	struct host_groups g = { 0, 0, calloc((size_t)nranks + 1, sizeof(char *)),
				 calloc((size_t)nranks + 1, sizeof(struct hm_link)),
				 calloc((size_t)nranks + 1, sizeof(int)),
				 calloc((size_t)nranks + 1, sizeof(struct hm_link)) };
	double *w = calloc((size_t)nranks + 1, sizeof(double)), gtol = tol;
	int *by = calloc((size_t)nranks + 1, sizeof(int)), *known = calloc((size_t)nranks + 1, sizeof(int));
	struct host_by_t_w *order = calloc((size_t)nranks + 1, sizeof(*order));
	const char **names = calloc((size_t)nranks + 1, sizeof(char *));

	if (!fit || !hp || !g.host || !g.own || !g.group || !g.glink || !w || !by || !known || !order || !names)
		goto out;
	if (!(n = read_host_pairs(raw, rank_host, nranks, &g, fit, hp, &rounds)))
		goto out;
	hm_host_links_bound(g.H, hp, n, tol, w, by, known);
	for (int h = 0; h < g.H; h++) {
		g.own[h] = fit[by[h]].link;
		order[h] = (struct host_by_t_w){ g.own[h].t_w, h };
	}
	qsort(order, (size_t)g.H, sizeof(*order), slower_first);
	/* at most HM_MAX_LINK_RULES slower groups: coarser cuts until so */
	while (cut_groups(&g, gtol, order) - 1 > HM_MAX_LINK_RULES)
		gtol = gtol * 1.5 + 0.05;
	*scope = g.glink[g.G - 1];
	group_rules(&g, core, names, net);
	unexplained_pairs(&g, fit, hp, n, rank_name, tol, core, net);
	host_links_record(&g, n, rounds, gtol, known, record);
	ret = 0;
out:
	free(fit), free(hp), free(g.host), free(g.own), free(g.group), free(g.glink), free(w), free(by);
	free(known), free(order), free(names);
	return ret;
}

/* The card phase (the bench's raw "card": k = 1 .. m of one host's ranks
 * streaming the largest message off it at once), into the record: each k's
 * median seconds a message and its stretch over one pair alone, the measure of
 * how a node's card is shared (models/platform/README.md, "A node's
 * card"). Kept as measured; no model reads it yet. */
static void card_record(const cJSON *raw, cJSON *record)
{
	const cJSON *card = cJSON_GetObjectItemCaseSensitive(raw, "card"), *host, *bytes, *k_times;
	cJSON *out, *message, *stretch;
	double first = 0;

	host = cJSON_GetObjectItemCaseSensitive(card, "host");
	bytes = cJSON_GetObjectItemCaseSensitive(card, "bytes");
	k_times = cJSON_GetObjectItemCaseSensitive(card, "seconds");
	if (!cJSON_IsString(host) || !cJSON_IsNumber(bytes) || !cJSON_IsArray(k_times))
		return;
	out = cJSON_AddObjectToObject(record, "card");
	cJSON_AddStringToObject(out, "host", host->valuestring);
	cJSON_AddNumberToObject(out, "bytes", bytes->valuedouble);
	message = cJSON_AddArrayToObject(out, "message_s");
	stretch = cJSON_AddArrayToObject(out, "stretch");
	for (const cJSON *at = k_times->child; at; at = at->next) {
		double v[64], median;
		int n = 0;

		for (const cJSON *x = at->child; x && n < 64; x = x->next)
			if (cJSON_IsNumber(x) && x->valuedouble > 0)
				v[n++] = x->valuedouble;
		if (!n)
			return;
		median = hm_median(v, n);
		first = first > 0 ? first : median;
		cJSON_AddItemToArray(message, cJSON_CreateNumber(median));
		cJSON_AddItemToArray(stretch, cJSON_CreateNumber(median / first));
	}
}

cJSON *hm_calibration_network(const cJSON *raw, cJSON *record, const char *const *rank_name,
			   const char *const *rank_host, int nranks, double tolerance, struct hm_error *err)
{
	double t_s[NR_SCOPES] = { 0 }, t_w[NR_SCOPES] = { 0 }, core;
	int measured[NR_SCOPES], slowest = -1;
	cJSON *net, *between = cJSON_CreateObject(), *missing = cJSON_AddArrayToObject(record, "scopes_not_measured");

	if (!between || fit_network(raw, t_s, t_w, measured, cJSON_AddObjectToObject(record, "pingpong"), err)) {
		cJSON_Delete(between);
		return NULL;
	}
	core = measured[HM_LINK_SAME_PROCESSOR] ? t_w[HM_LINK_SAME_PROCESSOR] : 0;
	if (measured[HM_LINK_INTER_HOST]) {     /* the scope is the fastest hosts' link */
		struct hm_link l;

		if (!host_links(raw, rank_name, rank_host, nranks, tolerance, core, &l, between, record))
			t_s[HM_LINK_INTER_HOST] = l.t_s, t_w[HM_LINK_INTER_HOST] = l.t_w;
	}
	for (int c = 0; c < NR_SCOPES; c++)
		if (measured[c] && (slowest < 0 || t_w[c] > t_w[slowest]))
			slowest = c;
	net = cJSON_CreateObject();
	for (int c = 0; c < NR_SCOPES; c++) {
		cJSON *link = cJSON_AddObjectToObject(net, hm_link_scope_name((enum hm_link_scope)c));
		int from = measured[c] ? c : slowest;

		if (!measured[c])
			cJSON_AddItemToArray(missing, cJSON_CreateString(hm_link_scope_name((enum hm_link_scope)c)));
		link_fields(link, t_s[from], t_w[from], c == HM_LINK_SAME_PROCESSOR ? 0 : core);
	}
	for (const char *const *key = (const char *const[]){ "links", "pairs", NULL }; *key; key++)
		if (cJSON_HasObjectItem(between, *key))
			cJSON_AddItemToObject(net, *key, cJSON_DetachItemFromObject(between, *key));
	cJSON_Delete(between);
	pair_links(raw, t_w, core, rank_name, nranks, tolerance, net);
	card_record(raw, record);
	return net;
}

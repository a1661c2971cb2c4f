/* models/common/host_links.c - see host_links.h. */
#include "host_links.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void hm_host_links_bound(int H, const struct hm_host_pair *pairs, int n, double tol, double *w, int *by,
			 int *known)
{
	double least = INFINITY;

	for (int h = 0; h < H; h++)
		w[h] = INFINITY, by[h] = -1, known[h] = 0;
	for (int i = 0; i < n; i++) {
		const int ends[2] = { pairs[i].a, pairs[i].b };

		for (int e = 0; e < 2; e++)
			if (pairs[i].value < w[ends[e]])
				w[ends[e]] = pairs[i].value, by[ends[e]] = i;
		if (pairs[i].value < least)
			least = pairs[i].value;
	}
	for (int h = 0; h < H; h++)
		known[h] = by[h] >= 0 && w[h] <= least * (1 + tol);
	/* a pair at h's least, whose other end is faster by more than tol:
	 * the pair's pace is h's */
	for (int i = 0; i < n; i++) {
		const int ends[2] = { pairs[i].a, pairs[i].b };

		for (int e = 0; e < 2; e++) {
			int h = ends[e], other = ends[1 - e];

			if (pairs[i].value <= w[h] * (1 + tol) && w[other] * (1 + tol) < pairs[i].value)
				known[h] = 1;
		}
	}
}

int hm_link_schedule_init(struct hm_link_schedule *s, int H, int first_rounds, double tol)
{
	memset(s, 0, sizeof(*s));
	s->H = H, s->tol = tol;
	if (first_rounds < 1)   /* by default every pair of a small cluster */
		first_rounds = H <= HM_LINK_ALL_PAIRS_UP_TO ? H : HM_LINK_FIRST_ROUNDS;
	/* the tournament's rounds: H - 1 (H even) or H (odd, one host resting
	 * each round: two rounds reach every host) */
	if (H % 2 && first_rounds < 2)
		first_rounds = 2;
	s->first_rounds = first_rounds < (H % 2 ? H : H - 1) ? first_rounds : (H % 2 ? H : H - 1);
	s->pairs = malloc(((size_t)H * (size_t)H / 2 + 1) * sizeof(*s->pairs));
	s->tried = calloc((size_t)H * (size_t)H + 1, 1);
	s->w = malloc(((size_t)H + 1) * sizeof(double));
	s->by = malloc(((size_t)H + 1) * sizeof(int));
	s->known = malloc(((size_t)H + 1) * sizeof(int));
	s->busy = malloc((size_t)H + 1);
	s->slot_host = malloc(((size_t)H + 1) * sizeof(int));
	if (!s->pairs || !s->tried || !s->w || !s->by || !s->known || !s->busy || !s->slot_host) {
		hm_link_schedule_release(s);
		return -1;
	}
	/* the tournament's slots in a fixed shuffled order: host numbering
	 * follows racks and generations (every 4th node, the last 8), and the
	 * circle method's pairs (slots summing to 2r) would alias with it */
	{
		unsigned long long x = 0x9e3779b97f4a7c15ULL;

		for (int h = 0; h < H; h++)
			s->slot_host[h] = h;
		for (int h = H - 1; h > 0; h--) {
			int j, t;

			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
			j = (int)((x >> 33) % (unsigned long long)(h + 1));
			t = s->slot_host[h], s->slot_host[h] = s->slot_host[j], s->slot_host[j] = t;
		}
	}
	return 0;
}

void hm_link_schedule_release(struct hm_link_schedule *s)
{
	free(s->pairs), free(s->tried), free(s->w), free(s->by), free(s->known), free(s->busy), free(s->slot_host);
	memset(s, 0, sizeof(*s));
}

static void take(struct hm_link_schedule *s, struct hm_host_pair *out, int *k, int a, int b)
{
	s->tried[a * s->H + b] = s->tried[b * s->H + a] = 1;
	out[(*k)++] = (struct hm_host_pair){ a < b ? a : b, a < b ? b : a, 0 };
}

/* Round r of the round-robin tournament (the circle method): slot m is
 * fixed, the others turn; with H odd, slot m is a rest. */
static int tournament_round(struct hm_link_schedule *s, int r, struct hm_host_pair *out)
{
	int slots = s->H + s->H % 2, m = slots - 1, k = 0;

	const int *at = s->slot_host;

	if (m < s->H)
		take(s, out, &k, at[m], at[r]);
	for (int i = 1; i < slots / 2; i++)
		take(s, out, &k, at[(r + i) % m], at[(r - i + m) % m]);
	return k;
}

/* Hosts still only bounded, each paired with an untried host among the
 * fastest known, a host of those at most once per round. */
static int settling_round(struct hm_link_schedule *s, struct hm_host_pair *out)
{
	double least = INFINITY;
	int k = 0, H = s->H;

	hm_host_links_bound(H, s->pairs, s->n, s->tol, s->w, s->by, s->known);
	for (int h = 0; h < H; h++) {
		s->busy[h] = 0;
		if (s->known[h] && s->w[h] < least)
			least = s->w[h];
	}
	for (int u = 0; u < H; u++) {
		if (s->known[u])
			continue;
		for (int f = 0; f < H; f++)
			if (f != u && s->known[f] && s->w[f] <= least * (1 + s->tol) && !s->busy[f] &&
			    !s->tried[u * H + f]) {
				s->busy[f] = 1;
				take(s, out, &k, u, f);
				break;
			}
	}
	return k;
}

int hm_link_schedule_next(struct hm_link_schedule *s, struct hm_host_pair *out)
{
	if (s->H < 2)
		return 0;
	if (s->round < s->first_rounds)
		return tournament_round(s, s->round++, out);
	s->round++;
	return settling_round(s, out);
}

void hm_link_schedule_record(struct hm_link_schedule *s, int a, int b, double value)
{
	s->pairs[s->n++] = (struct hm_host_pair){ a, b, value };
}

int hm_link_schedule_rounds_left(struct hm_link_schedule *s)
{
	int bounded = 0, fastest = 0;
	double least = INFINITY;

	if (s->H < 2)
		return 0;
	if (s->round < s->first_rounds)
		return s->first_rounds - s->round + 1;
	hm_host_links_bound(s->H, s->pairs, s->n, s->tol, s->w, s->by, s->known);
	for (int h = 0; h < s->H; h++)
		if (s->known[h] && s->w[h] < least)
			least = s->w[h];
	for (int h = 0; h < s->H; h++) {
		bounded += !s->known[h];
		fastest += s->known[h] && s->w[h] <= least * (1 + s->tol);
	}
	return bounded ? (bounded + fastest - 1) / (fastest ? fastest : 1) : 0;
}

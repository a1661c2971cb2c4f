/* mapper/cli/hand_config.c - see hand_config.h. */
#include "hand_config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Parse LIST (the value of option 'opt', counts of 'what': "process",
 * "thread") into d[0..P-1]; 0 or -1 after a message naming 'cmd'. */
static int parse_counts(const char *cmd, const char *opt, const char *what, const char *list,
			const struct hm_platform *p, int *d, char *seen)
{
	int named = strchr(list, '=') != NULL, i = 0;
	const char *s = list;

	memset(d, 0, (size_t)p->nr_procs * sizeof(int));
	memset(seen, 0, (size_t)p->nr_procs);
	while (*s) {
		char item[300], *eq, *end;
		size_t len = strcspn(s, ",");
		long v;
		int idx = i;

		if (len == 0 || len >= sizeof(item)) {
			hm_say_error("%s: bad %s list near '%.20s'", cmd, opt, s);
			return -1;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		eq = strchr(item, '=');
		if (named != (eq != NULL)) {
			hm_say_error("%s: %s mixes 'NAME=COUNT' and plain counts", cmd, opt);
			return -1;
		}
		if (eq) {
			*eq = '\0';
			idx = hm_platform_find(p, item);
			if (idx < 0) {
				hm_say_error("%s: unknown processor '%s' in %s", cmd, item, opt);
				return -1;
			}
			if (seen[idx]++) {
				hm_say_error("%s: processor '%s' given twice in %s", cmd, item, opt);
				return -1;
			}
		} else if (i >= p->nr_procs) {
			hm_say_error("%s: %s has more than %d entries", cmd, opt, p->nr_procs);
			return -1;
		}
		errno = 0;
		v = strtol(eq ? eq + 1 : item, &end, 10);
		if (end == (eq ? eq + 1 : item) || *end || errno || v < 0 || v > HM_MAX_DEPTH) {
			hm_say_error("%s: %s: '%s' is not a %s count (0..%d)", cmd, opt, eq ? eq + 1 : item, what,
				     HM_MAX_DEPTH);
			return -1;
		}
		d[idx] = (int)v;
		i++;
		s += len;
		if (*s == ',' && *++s == '\0') {
			hm_say_error("%s: %s ends with ','", cmd, opt);
			return -1;
		}
	}
	if (!named && i != p->nr_procs) {
		hm_say_error("%s: %s has %d entries, the platform has %d processors", cmd, opt, i,
			     p->nr_procs);
		return -1;
	}
	return 0;
}

/* A decimal count 1..HM_MAX_DEPTH at *s (digits only); the end in *end. */
static int grid_side(const char *s, const char **end, int *out)
{
	long v = 0;

	*end = s;
	while (**end >= '0' && **end <= '9' && v <= HM_MAX_DEPTH)
		v = 10 * v + (*(*end)++ - '0');
	if (*end == s || v < 1 || v > HM_MAX_DEPTH)
		return -1;
	*out = (int)v;
	return 0;
}

/* "RxC" exactly: digits, one 'x' (or 'X'), digits, nothing more. */
static int parse_grid(const char *cmd, const char *text, int *r, int *c)
{
	const char *s;

	if (grid_side(text, &s, r) || (*s != 'x' && *s != 'X') || grid_side(s + 1, &s, c) || *s) {
		hm_say_error("%s: --grid expects RxC with R and C in 1..%d, not '%s'", cmd,
			     HM_MAX_DEPTH, text);
		return -1;
	}
	return 0;
}

int hm_hand_config_check(const char *cmd, struct hm_hand_config *hc)
{
	if ((hc->threads || hc->grid) && !hc->procs) {
		hm_say_error("%s: --threads and --grid go with --procs (the processes they describe)", cmd);
		return HM_EXIT_USAGE;
	}
	if (hc->grid && parse_grid(cmd, hc->grid, &hc->r, &hc->c))
		return HM_EXIT_USAGE;
	return HM_EXIT_OK;
}

struct hm_problem hm_hand_config_priced(const struct hm_hand_config *hc, const struct hm_problem *pb)
{
	struct hm_problem priced = *pb;

	if (hc->t)
		priced.platform = &hc->view.view;
	return priced;
}

/* 'one' into *res when it is the first or priced less; else released. */
static void keep_least(struct hm_result *res, struct hm_result *one, int *found)
{
	if (*found && one->eet >= res->eet) {
		hm_result_release(one);
		return;
	}
	if (*found)
		hm_result_release(res);
	*res = *one, *found = 1;
}

/* The grid given, at the candidate b the model prices least. */
static int best_block(const struct hm_problem *pb, const int *d, int r, int c, const char *name,
		      struct hm_result *res, struct hm_error *err)
{
	int k = hm_platform_block_count(pb->platform, pb->n), found = 0;

	for (int i = 0; i < k; i++) {
		struct hm_result one;

		if (hm_evaluate_config(pb, d, r, c, pb->platform->block_sizes[i], name, &one, err))
			continue;
		keep_least(res, &one, &found);
	}
	return found ? 0 : -1;
}

/* The block size given, on the grid of the processes the model prices
 * least (every r x c = D: b need not be a candidate). */
static int best_grid(const struct hm_problem *pb, const int *d, int b, const char *name, struct hm_result *res,
		     struct hm_error *err)
{
	long D = 0;
	int found = 0;

	for (int i = 0; i < pb->platform->nr_procs; i++)
		D += d[i];
	for (long r = 1; r <= D; r++) {
		struct hm_result one;

		if (D % r || hm_evaluate_config(pb, d, (int)r, (int)(D / r), b, name, &one, err))
			continue;
		keep_least(res, &one, &found);
	}
	return found ? 0 : -1;
}

/* --threads into hc->t and the thread view; an exit code. */
static int take_threads(const char *cmd, struct hm_hand_config *hc, const struct hm_platform *p, char *seen)
{
	struct hm_error err;

	hm_error_clear(&err);
	if (!(hc->t = malloc((size_t)p->nr_procs * sizeof(int))))
		return HM_EXIT_FAILURE;
	if (parse_counts(cmd, "--threads", "thread", hc->threads, p, hc->t, seen))
		return HM_EXIT_USAGE;
	for (int i = 0; i < p->nr_procs; i++)
		hc->t[i] += !hc->t[i];
	if (hm_thread_ranks_fit(p, hc->d, hc->t, &err) || hm_thread_view_build(&hc->view, p, hc->t, &err)) {
		hm_say_error("%s: --threads: %s", cmd, err.msg);
		return HM_EXIT_USAGE;
	}
	return HM_EXIT_OK;
}

int hm_hand_config_price(const char *cmd, struct hm_hand_config *hc, const struct hm_problem *pb,
			 const char *name, struct hm_result *res)
{
	const struct hm_platform *p = pb->platform;
	char *seen = malloc((size_t)p->nr_procs);
	struct hm_problem priced;
	struct hm_error err;
	int ret = HM_EXIT_OK, failed;

	hm_error_clear(&err);
	if (!seen || !(hc->d = malloc((size_t)p->nr_procs * sizeof(int))))
		ret = HM_EXIT_FAILURE;
	else if (parse_counts(cmd, "--procs", "process", hc->procs, p, hc->d, seen))
		ret = HM_EXIT_USAGE;
	else if (hc->threads)
		ret = take_threads(cmd, hc, p, seen);
	free(seen);
	if (ret)
		return ret;
	priced = hm_hand_config_priced(hc, pb);
	failed = hc->grid && pb->shape.b ? hm_evaluate_config(&priced, hc->d, hc->r, hc->c, pb->shape.b, name, res, &err) :
		 hc->grid ? best_block(&priced, hc->d, hc->r, hc->c, name, res, &err) :
		 pb->shape.b ? best_grid(&priced, hc->d, pb->shape.b, name, res, &err) :
		 hm_evaluate_counts(&priced, hc->d, name, res, &err);
	if (failed) {
		hm_say_error("%s: %s", cmd, err.msg[0] ? err.msg : "no block size fits that grid");
		return HM_EXIT_USAGE;
	}
	if (hc->t && (res->threads = malloc((size_t)p->nr_procs * sizeof(int))))
		memcpy(res->threads, hc->t, (size_t)p->nr_procs * sizeof(int));
	return hc->t && !res->threads ? HM_EXIT_FAILURE : HM_EXIT_OK;
}

void hm_hand_config_release(struct hm_hand_config *hc)
{
	free(hc->d);
	free(hc->t);
	hc->d = hc->t = NULL;
	if (hc->view.view.types)
		hm_thread_view_release(&hc->view);
}

/* search/methods.c - the registry of methods and modeled users, and the
 * one way to run any of them (hm_search). Adding a method is adding a row
 * to 'methods'; help texts and messages are made from these rows. */
#include "search.h"
#include "tree_search.h"
#include "exact.h"
#include "thread_search.h"
#include "models/platform/threads.h"
#include "models/util/rows.h"
#include "users.h"
#include "models/util/clock.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

volatile sig_atomic_t hm_search_interrupt;

/* Rows of the walks of tree_search.c and of the users of users.c. */
#define TREE_METHOD(name, summary, walk, proves) \
	{ name, summary, HM_METHOD_SEARCH, hm_tree_search_applies, hm_tree_search, walk, proves }
#define WALK_METHOD(name, summary, walk, proves) \
	{ name, summary, HM_METHOD_SEARCH, hm_tree_walk_applies, hm_tree_search, walk, proves }
#define USER(name, summary, user) \
	{ name, summary, HM_METHOD_USER, hm_user_applies, hm_user_search, user, 0 }

static const struct hm_method methods[] = {
	TREE_METHOD("BTM", "backtracking on the combinatorial tree, GET = EET, prune LET >= MEET",
		    HM_WALK_BTM, 1),
	TREE_METHOD("BGRM", "backtracking, GET by greedy descent from each node",
		    HM_WALK_BGRM, 1),
	TREE_METHOD("GRM", "backtracking with a greedy arithmetic LET (may miss the optimum)",
		    HM_WALK_GRM, 0),
	WALK_METHOD("GCTM", "greedy descent on the combinatorial tree to the depth limit",
		    HM_WALK_GCTM, 0),
	WALK_METHOD("GPTM", "greedy descent on the permutational tree to the depth limit",
		    HM_WALK_GPTM, 0),
	WALK_METHOD("exhaustive", "all multisets up to the depth limit (interchangeable processors merged): the model optimum",
		    HM_WALK_EXHAUSTIVE, 1),
	{ "exact", "the model optimum, by classes of interchangeable processors (scales to 100s)",
	  HM_METHOD_SEARCH, hm_exact_applies, hm_exact_search, 0, 1 },
	USER("GU", "greedy user: one process on every core", HM_USER_GU),
	USER("CU", "conservative user: one process per core of the fastest processors holding half the cores", HM_USER_CU),
	USER("EU", "expert user: the best of the fastest processor alone, CU's set and GU's set", HM_USER_EU),
	{ "HU", "HPL-habit user: one process per socket, all the socket's cores its BLAS threads",
	  HM_METHOD_USER, hm_hpl_user_applies, hm_user_search, HM_USER_HU, 0 },
};

#define NR_METHODS (int)(sizeof(methods) / sizeof(methods[0]))
_Static_assert(offsetof(struct hm_method, name) == 0, "a row starts with its name (rows.h)");

const struct hm_method *hm_method_find(const char *name)
{
	return hm_row_named(methods, NR_METHODS, sizeof(methods[0]), name);
}

const char *hm_method_nearest(const char *name)
{
	return hm_row_nearest(methods, NR_METHODS, sizeof(methods[0]), name);
}

const struct hm_method *const *hm_method_list(void)
{
	static const struct hm_method *list[NR_METHODS + 1];   /* NULL-terminated */

	if (!list[0])
		for (int i = 0; i < NR_METHODS; i++)
			list[i] = &methods[i];
	return list;
}

/* ctx: the kind listed */
static int method_name(const void *ctx, int i, char *out, size_t room)
{
	return methods[i].kind != *(const enum hm_method_kind *)ctx ? -1
	       : snprintf(out, room, "%s", methods[i].name);
}

const char *hm_method_names(enum hm_method_kind kind, char *buf, int size)
{
	return hm_join(buf, (size_t)size, NR_METHODS, ", ", method_name, &kind);
}

int hm_method_applies(const struct hm_method *m, const struct hm_problem *pb,
		      struct hm_error *err)
{
	return m->applies(pb, err);
}

int hm_search(const struct hm_method *m, const struct hm_problem *pb,
	      const struct hm_budget *budget, struct hm_result *res,
	      struct hm_error *err)
{
	double start = hm_now();

	memset(res, 0, sizeof(*res));
	if (m->applies(pb, err))
		return -1;
	/* the users keep their own thread rule; the searches price every split */
	if (hm_result_start(res, pb, err) ||
	    (m->kind == HM_METHOD_SEARCH && hm_platform_has_threads(pb->platform)
	     ? hm_thread_search(m, pb, budget, res, err) : m->run(m->variant, pb, budget, res, err))) {
		hm_result_release(res);
		return -2;
	}
	res->method = m->name;
	res->seconds = hm_now() - start;
	return 0;
}

/* mapper/cli/decide.c - run a search method or a modeled user by name, the
 * way 'plan', 'run' and 'compare' all decide. */
#include "cli.h"

int hm_method_check(const char *cmd, const char *name)
{
	char searches[256], users[64];
	const char *near;

	if (hm_method_find(name))
		return HM_EXIT_OK;
	near = hm_method_nearest(name);
	hm_say_error("%s%sunknown method '%s'%s%s%s (methods: %s; users: %s)", cmd ? cmd : "", cmd ? ": " : "",
		     name, HM_DID_YOU_MEAN(near), hm_method_names(HM_METHOD_SEARCH, searches, sizeof(searches)),
		     hm_method_names(HM_METHOD_USER, users, sizeof(users)));
	return HM_EXIT_USAGE;
}

int hm_run_named(const char *name, const struct hm_problem *pb,
		 const struct hm_budget *budget, struct hm_result *res)
{
	const struct hm_method *m = hm_method_find(name);
	struct hm_error err;

	hm_error_clear(&err);
	if (!m)
		return hm_method_check(NULL, name);
	switch (hm_search(m, pb, budget, res, &err)) {
	case 0:
		return HM_EXIT_OK;
	case -1:        /* the problem is refused */
		hm_say_error("%s: %s", m->name, err.msg);
		return HM_EXIT_USAGE;
	default:        /* it could not run */
		hm_say_error("%s: %s", m->name, err.msg);
		return HM_EXIT_FAILURE;
	}
}

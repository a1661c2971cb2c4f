/* mapper/decide.c - run a search method or a modeled user by name, the
 * way 'plan' and 'run' both decide. */
#include "cli.h"

#include <string.h>
#include <strings.h>

/* Run a method or a user by name; an exit code. */
int hm_run_named(const char *name, const struct hm_problem *pb,
		     const struct hm_budget *budget, struct hm_result *res)
{
	const struct hm_method *m = hm_method_find(name);
	struct hm_error err;
	int u;

	hm_error_clear(&err);
	if (m) {
		if (hm_search(m, pb, budget, res, &err)) {
			hm_cli_error("%s", err.msg);
			return HM_EXIT_USAGE;
		}
		return HM_EXIT_OK;
	}
	for (u = 0; u < HM_NR_USERS; u++)
		if (!strcasecmp(name, hm_user_name((enum hm_user)u))) {
			if (hm_user_plan((enum hm_user)u, pb, res, &err)) {
				hm_cli_error("%s", err.msg);
				return HM_EXIT_FAILURE;
			}
			return HM_EXIT_OK;
		}
	hm_cli_error("unknown method '%s' (BTM, BGRM, GRM, GCTM, GPTM, exhaustive, exact, GU, CU, EU)",
		     name);
	return HM_EXIT_USAGE;
}


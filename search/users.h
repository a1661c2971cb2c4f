/* search/users.h - the modeled users GU, CU, EU and HU as registry entries
 * (search/README.md): they choose d (and HU the threads) by a rule, the
 * model picks r x c and b. */
#ifndef HM_USERS_H
#define HM_USERS_H

#include "search.h"

enum hm_user { HM_USER_GU, HM_USER_CU, HM_USER_EU, HM_USER_HU };

/* Users ignore the depth limit; the rest of hm_problem_check holds. */
int hm_user_applies(const struct hm_problem *pb, struct hm_error *err);

/* HU also needs each processor's type to know ranks of as many threads
 * as a socket has cores. */
int hm_hpl_user_applies(const struct hm_problem *pb, struct hm_error *err);

/* The run() of a registry entry: 'user' is an enum hm_user. */
int hm_user_search(int user, const struct hm_problem *pb, const struct hm_budget *budget,
		   struct hm_result *res, struct hm_error *err);

#endif /* HM_USERS_H */

/* models/routine.c - see routine.h. */
#include "routine.h"

#include <strings.h>

static const char *const routine_names[HM_NR_ROUTINES] = { "lu", "gemm" };

const char *hm_routine_name(enum hm_routine r)
{
	return (unsigned)r < HM_NR_ROUTINES ? routine_names[r] : "?";
}

int hm_routine_parse(const char *name, enum hm_routine *out)
{
	int i;

	for (i = 0; i < HM_NR_ROUTINES; i++)
		if (!strcasecmp(name, routine_names[i])) {     /* names, as the commands' are: any case */
			*out = (enum hm_routine)i;
			return 0;
		}
	return -1;
}

/* mapper/launch/plan_values.h - the plan's values as a program sees them: as
 * placeholders in its arguments and input templates ({n}, {b}, ...) and
 * as environment variables of every rank (HETMAP_N, HETMAP_NB, ...).
 * One table defines both, and the help text (mapper/README.md, "Profiles
 * and plan values"). */
#ifndef HM_PLAN_VALUES_H
#define HM_PLAN_VALUES_H

#include "launcher.h"
#include "placement.h"

/* What a value may come from besides the plan. */
struct hm_run_values {
	const struct hm_placement *pl;
	int seed;               /* the built-in driver's matrix seed */
	const char *dir;        /* the job's directory (absolute) */
};

/* What a rendered text may grow to: a 1 MiB template of {dir} in a deep
 * directory would otherwise expand 600-fold (a 1 MiB input file has
 * never needed more than a few kilobytes of values). */
enum { HM_MAX_RENDERED_BYTES = 4 << 20 };

/* Render 'template' (a text or one argument): "{name}" becomes the value,
 * "{{" and "}}" become "{" and "}". The result (malloc'd), or NULL with
 * 'err' set: an unknown or unclosed placeholder, a result longer than
 * HM_MAX_RENDERED_BYTES, or no memory. 'what' names the template in
 * messages. */
char *hm_render(const char *template, const struct hm_run_values *v, const char *what,
		struct hm_error *err);

/* "NAME=VALUE" for every variable the ranks get, added to 'env'. */
void hm_plan_environment(struct hm_argv *env, const struct hm_run_values *v);

/* Lines "  {n}  HETMAP_N  the matrix order" for the help text. */
const char *hm_help_plan_values(void);

#endif /* HM_PLAN_VALUES_H */

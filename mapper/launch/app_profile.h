/* mapper/launch/app_profile.h - what hetmap knows about a program it launches
 * (mapper/README.md, "Profiles and plan values"): the input file it reads, rendered
 * from the plan; where it prints its result; how to read its own time,
 * its rate and its verdict; the grid order it uses. A table, one row per
 * program family; a program without a profile runs as well, with only
 * its wall time and exit status recorded. */
#ifndef HM_APP_PROFILE_H
#define HM_APP_PROFILE_H

#include <cJSON.h>
#include "placement.h"

/* MODELED: the simulated kernels computed nothing, so no result is judged
 * (wrappers/README.md, "Modeled kernels"). */
enum hm_verdict { HM_VERDICT_UNKNOWN, HM_VERDICT_PASSED, HM_VERDICT_FAILED, HM_VERDICT_SKIPPED,
		  HM_VERDICT_MODELED };

/* What a profile read from the program's output. */
struct hm_app_result {
	int found;              /* a result line was read */
	double seconds;         /* the program's own time; < 0 unknown */
	double tick;            /* the last digit it was printed to; 0 unknown */
	const char *measured_by;        /* what gave 'seconds' (program_time.h) */
	double gflops;          /* its rate; < 0 unknown */
	enum hm_verdict verdict;
	char note[256];         /* what the program said when it refused or failed */
	cJSON *raw;             /* the built-in driver's JSON line (owned) */
	int in_table;           /* reader state */
};

struct hm_app_profile {
	const char *name;
	const char *summary;
	const char *programs;           /* program base names that select it, space-separated */
	const char *input_name;         /* the input file rendered in the job's directory, or NULL */
	const char *input_template;     /* its text, with placeholders (plan_values.h) */
	const char *output_file;        /* read after the job; NULL: the program's stdout */
	const char *default_args;       /* arguments when none are given, or NULL */
	int column_major;               /* ranks fill the grid column by column */
	/* a work array compiled into the program: the bytes it holds per
	 * process, and the least a plan needs of it (0 / NULL: no limit) */
	double max_process_bytes;
	double (*process_bytes)(const struct hm_placement *pl);
	void (*read_line)(struct hm_app_result *r, const char *line);   /* NULL: reads nothing */
	const char *caveat;             /* said before each run, or NULL */
};

/* Profile by name (case-insensitive), or NULL. */
const struct hm_app_profile *hm_app_profile_find(const char *name);
/* The profile whose 'programs' lists the base name of 'program'; the
 * "none" profile if no other does. */
const struct hm_app_profile *hm_app_profile_for(const char *program);
/* "driver, hpl, hpcc, scalapack-test, none" and the help lines. */
const char *hm_app_profile_names(char *buf, int size);
const char *hm_help_app_profiles(void);

void hm_app_result_init(struct hm_app_result *r);
void hm_app_result_release(struct hm_app_result *r);
/* "passed", "failed", "skipped", "modeled", "unknown". */
const char *hm_verdict_name(enum hm_verdict v);

#endif /* HM_APP_PROFILE_H */

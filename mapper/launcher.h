/* mapper/launcher.h - launcher files and commands (README, "Launcher files").
 *
 * Each launcher writes one file that forces rank k onto the processor the
 * plan puts at grid position (k / c, k mod c), and the argument vector that
 * starts the ScaLAPACK driver with it. Argument vectors are executed
 * directly, never through a shell; the quoted one-line form is for people. */
#ifndef HM_LAUNCHER_H
#define HM_LAUNCHER_H

#include <stddef.h>
#include "placement.h"

/* A growable NULL-terminated argument vector of owned strings. */
struct hm_argv {
	char **v;
	int n, cap;
	int failed;     /* an allocation failed: the vector is incomplete */
};

void hm_argv_add(struct hm_argv *a, const char *s);
void hm_argv_addf(struct hm_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void hm_argv_free(struct hm_argv *a);
/* The vector as one line, each word quoted for a POSIX shell when needed. */
char *hm_argv_quoted(const struct hm_argv *a);

struct hm_launcher {
	const char *name;           /* "openmpi", "openmpi-seq", "mpich", "slurm" */
	const char *file_name;      /* written in the output directory */
	const char *summary;
	int runs;                   /* 'hetmap run' and 'calibrate' can drive it */
	/* the file's text (malloc'd), or NULL when out of memory */
	char *(*file_text)(const struct hm_placement *pl);
	/* the command up to (not including) the driver */
	void (*command)(struct hm_argv *a, const struct hm_placement *pl, const char *file);
};

/* Launcher by name (case-insensitive), or NULL. */
const struct hm_launcher *hm_launcher_find(const char *name);
/* The launchers' names, joined by 'sep' into buf (only those 'hetmap run'
 * drives when 'runnable_only'); for help texts and messages. */
const char *hm_launcher_names(int runnable_only, const char *sep, char *buf, int size);

/* The driver's arguments for the plan: DRIVER --routine R -n N -b B -r R -c C. */
void hm_driver_args(struct hm_argv *a, const struct hm_placement *pl, const char *driver);

/* Make directory 'dir' (one level, if missing) and write into it
 * plan.json (the placement's plan document), the launcher file and
 * 'command', all or none: on failure the files already there stay as
 * they were, and a directory made here is removed. 0, or -1 with 'err'. */
int hm_launch_dir_write(const char *dir, const struct hm_placement *pl,
			const struct hm_launcher *l, const char *driver, struct hm_error *err);

/* Path of program 'name' in the directory of the running executable (the
 * build or install directory), or 'name' itself when that is unknown. */
const char *hm_sibling_program(const char *name, char *buf, size_t size);

#endif /* HM_LAUNCHER_H */

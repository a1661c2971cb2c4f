/* mapper/launch/launcher_detect.h - find the launcher program and ask it what
 * it is ('PROGRAM --version'): the wrong MPI's mpirun is refused before
 * any job starts, and the syntax follows the version (Open MPI 4 and 5
 * differ). */
#ifndef HM_LAUNCHER_DETECT_H
#define HM_LAUNCHER_DETECT_H

#include <stddef.h>
#include "launcher.h"

struct hm_launcher_found {
	char program[4096];     /* as given, or the first candidate in PATH */
	int major;              /* 0 when not known */
	char version[128];      /* the line that names the version, or "" */
	int signal;             /* hetmap got this signal while asking: the probe was stopped */
	char failure[512];      /* why it could not say its version ("" when it did, or was not asked) */
};

/* 'given' (or NULL for the launcher's candidates). 'required': the
 * program must exist and say it is this launcher; otherwise (plans,
 * dry runs, files for another machine) a missing program is accepted
 * with major 0. 'major_given' > 0 skips asking. 0, or -1 with 'err'. */
int hm_launcher_detect(const struct hm_launcher *l, const char *given, int major_given,
		       int required, struct hm_launcher_found *found, struct hm_error *err);

#endif /* HM_LAUNCHER_DETECT_H */

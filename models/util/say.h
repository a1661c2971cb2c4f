/* models/util/say.h - what hetmap says to the person at the terminal, on
 * standard error, from whichever layer knows it: errors and warnings
 * always, progress unless -q, detail with -v. Standard output carries the
 * results and only mapper/cli/ writes it; every message goes through
 * here, so that one prefix and one verbosity (set by the command line's
 * -q and -v) hold for the engines below the command line too (a judge's
 * progress, a topology read, a launch). */
#ifndef HM_SAY_H
#define HM_SAY_H

/* The plural ending of a count's noun: "1 processor", "2 processors". */
#define HM_PLURAL(n) ((n) == 1 ? "" : "s")

#include "error.h"

/* 0 (-q) no progress, 1 progress (the default), 2 (-v) also detail such
 * as where each default came from. */
extern int hm_verbosity;

/* "hetmap: MSG" and a newline. */
void hm_say_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "hetmap: FILE: PATH: MSG" from an error value. */
void hm_say_report(const struct hm_error *err);
/* Progress, as written (the caller's prefix and newline), unless -q. */
void hm_say_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Detail, as written, with -v only. */
void hm_say_detail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* HM_SAY_H */

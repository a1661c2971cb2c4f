/* mapper/launch/spawn.h - run a launcher (mpirun) as a child, the way a
 * wrapper on a shared cluster must:
 *
 *  - from an argument vector, never through a shell;
 *  - in its own process group, so that stopping it reaches mpirun and its
 *    local ranks and nothing else of the user's;
 *  - its standard output streamed through us line by line (we echo it and
 *    let the caller pick out the driver's JSON line), standard error
 *    passed through untouched;
 *  - bounded by an optional timeout, also after the child closed its
 *    output; any catchable signal that would end hetmap (INT, TERM, HUP,
 *    QUIT, USR1, USR2, ALRM, ...) stops the child's group and its
 *    descendants (SIGTERM, then SIGKILL after a grace period), and the
 *    outcome says what happened. Only SIGKILL of hetmap itself leaves the
 *    job running: on_start tells the caller the group to name. */
#ifndef HM_SPAWN_H
#define HM_SPAWN_H

#include <stdio.h>

enum hm_spawn_status {
	HM_SPAWN_EXITED,        /* exit_code holds its status */
	HM_SPAWN_SIGNALED,      /* killed by signal 'signal' without us asking */
	HM_SPAWN_NOT_FOUND,     /* could not be executed: 'error' holds errno */
	HM_SPAWN_TIMEOUT,       /* we stopped it after the timeout */
	HM_SPAWN_INTERRUPTED,   /* we stopped it because we got 'signal' */
};

/* "exited", "signaled", "not_found", "timeout", "interrupted". */
const char *hm_spawn_status_name(enum hm_spawn_status s);

struct hm_spawn_result {
	enum hm_spawn_status status;
	int exit_code;
	int signal;
	int error;
	double seconds;         /* wall time from start to end */
};

struct hm_spawn_opts {
	double timeout;                 /* seconds; 0 = none */
	double grace;                   /* seconds between SIGTERM and SIGKILL */
	const char *const *env;         /* "NAME=VALUE" set in the child; NULL-terminated */
	FILE *echo;                     /* where to copy the child's stdout, or NULL */
	/* 1 for a line not to copy there (hetmap's own: the probe's, the
	 * span's); NULL: every line is copied */
	int (*hidden)(const char *line);
	/* called for each complete stdout line (without the newline) */
	void (*on_line)(const char *line, void *ctx);
	/* called once the child exists, with its pid (= its process group) */
	void (*on_start)(int pid);
	void *ctx;
	const char *cwd;                /* the child's working directory, or NULL */
	int stderr_too;                 /* the child's standard error read as its output too */
};

/* Run argv[0] (searched in PATH) with argv. Returns 0 with 'res' filled,
 * or -1 when the child could not even be set up (errno kept). */
int hm_spawn_run(char *const argv[], const struct hm_spawn_opts *opts,
		 struct hm_spawn_result *res);

/* For the work hetmap does itself between launches (its search, the
 * judge's simulations): catch the same signals, each setting
 * hm_search_interrupt (search.h: a search stops at its next check) once;
 * hm_stop_signal_caught() says which came first, 0 when none. The caller
 * then stops what it started, records, and exits 128 + N. A later
 * hm_spawn_run keeps its own handling, and leaves these in place. */
void hm_stop_signals_catch(void);
int hm_stop_signal_caught(void);

/* A one-line account: "exited with status 3", "timed out after 5 s", ... */
const char *hm_spawn_describe(const struct hm_spawn_result *res, const struct hm_spawn_opts *opts,
			      char *buf, size_t size);

/* The file exec would run for 'name', found as execvp finds it: 'name'
 * itself when it holds a '/', else the first entry of PATH (an empty one:
 * the current folder) holding an executable regular file of that name.
 * Its path into buf and HM_PROGRAM_OK; HM_PROGRAM_MISSING when there is
 * none; with a '/', HM_PROGRAM_NOT_REGULAR (a directory, a FIFO, a device)
 * or HM_PROGRAM_NOT_EXECUTABLE. Never opens the file (a FIFO would block). */
enum { HM_PROGRAM_OK, HM_PROGRAM_MISSING, HM_PROGRAM_NOT_REGULAR, HM_PROGRAM_NOT_EXECUTABLE };
int hm_program_path(const char *name, char *buf, size_t size);
/* The reason of a failed hm_program_path, in words. */
const char *hm_program_path_error(int status);

#endif /* HM_SPAWN_H */

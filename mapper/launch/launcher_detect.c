/* mapper/launch/launcher_detect.c - see launcher_detect.h. */
#define _GNU_SOURCE /* strcasestr */
#include "launcher_detect.h"
#include "spawn.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* 'name' in PATH (or as a path), into buf as given (a launcher found in
 * PATH is written by its name: run.sh finds it there too); 0 if found. */
static int in_path(const char *name, char *buf, size_t size)
{
	if (hm_program_path(name, buf, size) != HM_PROGRAM_OK)
		return -1;
	snprintf(buf, size, "%s", name);
	return 0;
}

struct capture {
	char text[4096];
	size_t len;
};

static void capture_line(const char *line, void *ctx)
{
	struct capture *c = ctx;
	int n = snprintf(c->text + c->len, sizeof(c->text) - c->len, "%s\n", line);

	if (n > 0 && c->len + (size_t)n < sizeof(c->text))
		c->len += (size_t)n;
}

/* The line holding one of the marks ("A|B") and the first number after it. */
static void read_version(const char *text, const char *marks, struct hm_launcher_found *f)
{
	const char *at = NULL, *line;

	for (const char *m = marks; *m && !at; m += strcspn(m, "|") + (m[strcspn(m, "|")] == '|')) {
		char one[64];

		snprintf(one, sizeof(one), "%.*s", (int)strcspn(m, "|"), m);
		at = strcasestr(text, one);
	}
	if (!at)
		return;
	for (line = at; line > text && line[-1] != '\n'; line--)
		;
	snprintf(f->version, sizeof(f->version), "%.*s", (int)strcspn(line, "\n"), line);
	while (*at && !isdigit((unsigned char)*at))
		at++;
	f->major = atoi(at);
	if (!strchr(f->version, '0' + f->major % 10) && *at)    /* the number is on a later line */
		snprintf(f->version, sizeof(f->version), "%.*s", (int)strcspn(at, "\n"), at);
}

int hm_launcher_detect(const struct hm_launcher *l, const char *given, int major_given,
		       int required, struct hm_launcher_found *f, struct hm_error *err)
{
	char candidates[256], *word, *save = NULL;
	struct capture cap = { "", 0 };
	/* its standard error too: what it says when it cannot say its version
	 * (srun without its configuration) is part of the answer, said once */
	struct hm_spawn_opts so = { .timeout = 20, .grace = 2, .on_line = capture_line, .ctx = &cap,
				    .stderr_too = 1 };
	struct hm_spawn_result res;
	char *argv[3];
	int found = -1;

	memset(f, 0, sizeof(*f));
	if (given) {
		char abs[PATH_MAX];

		found = in_path(given, f->program, sizeof(f->program));
		/* a relative path made absolute: the launcher runs in the
		 * launch directory, not here */
		snprintf(f->program, sizeof(f->program), "%s",
			 !found && strchr(given, '/') && given[0] != '/' && realpath(given, abs) ? abs : given);
	} else {
		snprintf(candidates, sizeof(candidates), "%s", l->programs);
		for (word = strtok_r(candidates, " ", &save); word && found;
		     word = strtok_r(NULL, " ", &save))
			found = in_path(word, f->program, sizeof(f->program));
		if (found)      /* the first candidate, for the command written */
			snprintf(f->program, sizeof(f->program), "%.*s", (int)strcspn(l->programs, " "),
				 l->programs);
	}
	if (found) {
		f->major = major_given;
		if (!required)
			return 0;
		return hm_error_set(err, "launcher '%s': %s '%s' not found (install %s, or give --mpirun PATH)",
				    l->name, given ? "program" : "none of", given ? given : l->programs,
				    l->package ? l->package : "it");
	}
	if (major_given > 0 || !l->version_mark) {
		f->major = major_given;
		return 0;
	}
	argv[0] = f->program, argv[1] = "--version", argv[2] = NULL;
	if (hm_spawn_run(argv, &so, &res) == 0 && res.status == HM_SPAWN_EXITED)
		read_version(cap.text, l->version_mark, f);
	else if (res.status == HM_SPAWN_INTERRUPTED) {
		f->signal = res.signal;
		return hm_error_set(err, "stopped by signal %d while asking '%s --version'", res.signal,
				    f->program);
	}
	/* a launcher that cannot even say its version (srun without its
	 * configuration) said why: its first line goes into the message */
	if (!f->version[0] && res.status == HM_SPAWN_EXITED && res.exit_code) {
		snprintf(f->failure, sizeof(f->failure), "'%s --version' failed with exit status %d%s%.*s",
			 f->program, res.exit_code, cap.len ? ": " : "", (int)strcspn(cap.text, "\n"), cap.text);
		if (required)
			return hm_error_set(err, "launcher '%s': %s", l->name, f->failure);
	}
	if (!f->version[0] && required)
		return hm_error_set(err, "launcher '%s': '%s --version' does not say '%s'%s%.*s (another "
				    "MPI's launcher? give --mpirun PATH)", l->name, f->program,
				    l->version_mark, cap.len ? "; it says: " : "",
				    (int)strcspn(cap.text, "\n"), cap.text);
	return 0;
}

/* mapper/cli/defaults.c - what a command uses when an option is not given
 * (cli.h, hm_default_platform): the environment, then a configuration
 * file, then what this machine tells. The table below is the one list of
 * settings: the configuration's keys, their variables, the help and the
 * manual's ENVIRONMENT and FILES come from it. */
#include "cli.h"
#include "models/util/fnv1a.h"
#include "models/util/nearest_name.h"
#include "models/util/read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef HM_SYSCONF_DIR
#define HM_SYSCONF_DIR "/etc"
#endif
#define SITE_CONFIG HM_SYSCONF_DIR "/hetmap/hetmap.conf"

struct setting {
	const char *key;        /* in the configuration file */
	const char *variable;   /* in the environment, before the file */
	const char *help;
	char *value;            /* from the file, owned */
};

static struct setting settings[] = {
	{ "platform", "HETMAP_PLATFORM", "the platform of plan, predict, compare and run without -p", NULL },
	{ "results", "HETMAP_RESULTS", "the results file 'run' appends to without --results", NULL },
};
#define NR_SETTINGS (int)(sizeof(settings) / sizeof(settings[0]))

static int config_status;       /* reading it: 0 (or no file), -1 it failed */
static int config_done;         /* it was read */
static char config_path[4096];  /* which */

/* An XDG base directory variable's value, or NULL: the specification
 * says a relative path is invalid and to be ignored (it would depend on
 * the folder the command runs in). */
static const char *xdg_dir(const char *variable)
{
	const char *v = getenv(variable);

	if (v && *v && *v != '/') {
		hm_say_detail("hetmap: %s=%s is not an absolute path: ignored, as the XDG base directory "
			      "specification says\n", variable, v);
		return NULL;
	}
	return v && *v ? v : NULL;
}

/* The configuration file: $HETMAP_CONFIG ("" for none), else the user's
 * ($XDG_CONFIG_HOME or ~/.config /hetmap/hetmap.conf), else the site's. */
static const char *config_file(char *buf, size_t size)
{
	const char *env = getenv("HETMAP_CONFIG"), *xdg = xdg_dir("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (env)
		return *env ? env : NULL;
	if (xdg)
		snprintf(buf, size, "%s/hetmap/hetmap.conf", xdg);
	else if (home && *home)
		snprintf(buf, size, "%s/.config/hetmap/hetmap.conf", home);
	else
		buf[0] = '\0';
	if (buf[0] && !access(buf, F_OK))
		return buf;
	return access(SITE_CONFIG, F_OK) ? NULL : SITE_CONFIG;
}

/* One "key = value" line (blank and '#' lines were skipped); 0, or -1
 * after a message. */
static int config_line(const char *path, long number, char *line)
{
	char *eq = strchr(line, '='), *key = line, *value, *end;
	const char *keys[NR_SETTINGS + 1], *near;

	if (!eq) {
		hm_say_error("%s: line %ld: expected 'key = value'", path, number);
		return -1;
	}
	*eq = '\0';
	value = eq + 1 + strspn(eq + 1, " \t");
	/* a blank then '#' starts a comment, as the manual says; "\#" is a '#' in a value */
	for (char *h = value; *h; h++)
		if (*h == '#' && h > value && (h[-1] == ' ' || h[-1] == '\t')) {
			*h = '\0';
			break;
		} else if (*h == '\\' && h[1] == '#') {
			memmove(h, h + 1, strlen(h));
		}
	for (end = eq; end > key && (end[-1] == ' ' || end[-1] == '\t'); end--)
		end[-1] = '\0';
	for (end = value + strlen(value); end > value && strchr(" \t\r\n", end[-1]); end--)
		end[-1] = '\0';
	key += strspn(key, " \t");
	for (int i = 0; i < NR_SETTINGS; i++) {
		keys[i] = settings[i].key;
		if (!strcmp(key, settings[i].key)) {
			if (!*value) {
				hm_say_error("%s: line %ld: '%s' has no value", path, number, key);
				return -1;
			}
			free(settings[i].value);        /* the last line of a key counts */
			settings[i].value = strdup(value);
			return settings[i].value ? 0 : -1;
		}
	}
	keys[NR_SETTINGS] = NULL;
	near = hm_nearest_name(key, keys);
	hm_say_error("%s: line %ld: unknown key '%s'%s%s%s", path, number, key,
		     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	return -1;
}

/* What makes a configuration line unreadable as text: NUL bytes (a UTF-16
 * file reads as text with a NUL after every letter) or, on the first
 * line, a byte-order mark other than UTF-8's. NULL when it is text. */
static const char *not_text(const char *line, size_t len, long number)
{
	static const struct { const char *bytes; size_t n; const char *what; } marks[] = {
		{ "\xff\xfe\0\0", 4, "a UTF-32 byte-order mark" }, { "\0\0\xfe\xff", 4, "a UTF-32 byte-order mark" },
		{ "\xff\xfe", 2, "a UTF-16 byte-order mark" }, { "\xfe\xff", 2, "a UTF-16 byte-order mark" },
	};

	for (size_t i = 0; number == 1 && i < sizeof(marks) / sizeof(marks[0]); i++)
		if (len >= marks[i].n && !memcmp(line, marks[i].bytes, marks[i].n))
			return marks[i].what;
	return memchr(line, '\0', len) ? "a NUL byte" : NULL;
}

/* Read the file once; 0, or -1 after a message (a broken file is an
 * error, never ignored). */
static int read_config(void)
{
	char buf[4096], *line = NULL;
	const char *path, *bad;
	size_t cap = 0, len;
	long number = 0;
	int ret = 0, got = 0;
	struct stat st;
	FILE *f;

	if (config_done)                /* once; a broken file stays broken for every key */
		return config_status;
	config_done = 1;
	if (!(path = config_file(buf, sizeof(buf))))
		return 0;
	snprintf(config_path, sizeof(config_path), "%s", path);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		errno = EISDIR, f = NULL;
	else
		f = fopen(path, "r");
	if (!f) {
		hm_say_error("configuration %s: %s", path, strerror(errno));
		return config_status = -1;
	}
	while (!ret && (got = hm_read_line(f, &line, &cap, &len)) > 0) {
		char *s = line + strspn(line, " \t");

		number++;
		if (number == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3))  /* UTF-8's mark: text */
			s = line + 3 + strspn(line + 3, " \t");
		if ((bad = not_text(line, len, number))) {
			hm_say_error("%s: line %ld: %s: the configuration is text (UTF-8), one 'key = value' a line",
				     path, number, bad);
			ret = -1;
		} else if (*s && *s != '#' && *s != '\n' && *s != '\r') {
			ret = config_line(path, number, s);
		}
	}
	if (!ret && got < 0) {
		hm_say_error("%s: line %ld: %s", path, number + 1, errno == ENOMEM ? "out of memory" :
			     errno == EFBIG ? "too long for a configuration line" : strerror(errno));
		ret = -1;
	}
	free(line);
	fclose(f);
	return config_status = ret;
}

/* The value of a setting: its variable, else the file's; NULL if neither. */
static int setting_value(const char *key, const char **value)
{
	*value = NULL;
	for (int i = 0; i < NR_SETTINGS; i++) {
		const char *env;

		if (strcmp(key, settings[i].key))
			continue;
		if ((env = getenv(settings[i].variable)) && *env) {
			*value = env;
			hm_say_detail("hetmap: %s %s (from %s)\n", key, env, settings[i].variable);
			return 0;
		}
		if (read_config())
			return -1;
		if ((*value = settings[i].value))
			hm_say_detail("hetmap: %s %s (from the configuration %s)\n", key, *value, config_path);
	}
	return 0;
}

/* mkdir -p: 0, or -1. */
static int make_dirs(char *dir)
{
	for (char *s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			*s = '/';
			return -1;
		}
		*s = '/';
	}
	return mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;
}

/* The cache where this machine's calibration is kept: $XDG_CACHE_HOME or
 * ~/.cache, /hetmap/NAME.json; the name says what was measured: the Slurm
 * allocation's nodes and CPUs, or this host. 0, or -1 with why into 'why'. */
static int cache_path(char *path, size_t size, char *why, size_t why_size)
{
	const char *xdg = xdg_dir("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *nodes = getenv("SLURM_JOB_NODELIST"), *cpus = getenv("SLURM_JOB_CPUS_PER_NODE");
	char dir[4096], name[300], host[256] = "";

	if (xdg)
		snprintf(dir, sizeof(dir), "%s/hetmap", xdg);
	else if (home && *home == '/')
		snprintf(dir, sizeof(dir), "%s/.cache/hetmap", home);
	else
		return snprintf(why, why_size, "neither XDG_CACHE_HOME nor HOME is an absolute path"), -1;
	if (nodes && *nodes) {
		uint64_t h = hm_fnv1a(HM_FNV1A_START, nodes, strlen(nodes));

		h = hm_fnv1a(h, cpus ? cpus : "", cpus ? strlen(cpus) : 0);
		snprintf(name, sizeof(name), "slurm-%016llx", (unsigned long long)h);
	} else {
		gethostname(host, sizeof(host) - 1);
		for (char *s = host; *s; s++)   /* a file name, whatever the host is called */
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_", *s))
				*s = '_';
		snprintf(name, sizeof(name), "host-%s", host);
	}
	if (make_dirs(dir))
		return snprintf(why, why_size, "cannot make %s: %s", dir, strerror(errno)), -1;
	if ((size_t)snprintf(path, size, "%s/%s.json", dir, name) >= size)
		return snprintf(why, why_size, "the path %s/%s.json is too long", dir, name), -1;
	return 0;
}

/* Where the default platform came from, for messages: "" when -p gave it. */
static char platform_source[4200];

const char *hm_default_platform_source(void)
{
	return platform_source;
}

/* The cache's lock, held while this machine is calibrated into it: two
 * first commands at once would each measure beside the other. The one
 * that finds it held says so and waits. The descriptor (closed by the
 * caller), or -1 when it cannot be had (then nothing is locked). */
static int lock_cache(const char *cmd, const char *cached)
{
	char path[4300];
	int fd;

	snprintf(path, sizeof(path), "%s.lock", cached);
	if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) {
		fprintf(stderr, "hetmap: %s: another hetmap is calibrating this machine into %s: waiting for it\n", cmd,
			cached);
		if (flock(fd, LOCK_EX)) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

int hm_default_platform(const char *cmd, const char **platform)
{
	static char cached[4096];
	/* a calibration in doubt is still this machine's, and better than a
	 * 2003 cluster's: kept, its doubt said (calibrate prints why) */
	char *argv[] = { "calibrate", "--accept-unreliable", "-o", cached, NULL };
	const char *value;
	char why[4300];
	int ret, lock;

	platform_source[0] = '\0';
	if (*platform)
		return HM_EXIT_OK;
	if (setting_value("platform", &value))
		return HM_EXIT_INPUT;
	if (value) {
		*platform = value;
		if (value == getenv("HETMAP_PLATFORM"))
			snprintf(platform_source, sizeof(platform_source), "named by HETMAP_PLATFORM");
		else
			snprintf(platform_source, sizeof(platform_source), "named by the configuration %s", config_path);
		return HM_EXIT_OK;
	}
	if (cache_path(cached, sizeof(cached), why, sizeof(why))) {
		hm_say_error("%s: no -p given and no cache for this machine's calibration: %s (give -p, or set "
			     "XDG_CACHE_HOME)", cmd, why);
		return HM_EXIT_USAGE;
	}
	*platform = cached;
	snprintf(platform_source, sizeof(platform_source), "this machine's calibration, cached");
	lock = lock_cache(cmd, cached);
	if (!access(cached, R_OK)) {
		hm_say_note("hetmap: %s: platform %s (this %s, calibrated earlier; -p or "
			"HETMAP_PLATFORM for another)\n", cmd, cached,
			getenv("SLURM_JOB_NODELIST") ? "allocation" : "machine");
		if (lock >= 0)
			close(lock);
		return HM_EXIT_OK;
	}
	/* said under -q too: a minute's silence and a file in the user's cache
	 * need their one line (the calibration's progress stays quiet) */
	fprintf(stderr, "hetmap: %s: no -p given: calibrating this %s once (about a minute a node type), kept in "
		"%s for the next commands (-p or HETMAP_PLATFORM for another platform; delete it to measure "
		"again)\n", cmd, getenv("SLURM_JOB_NODELIST") ? "Slurm allocation" : "machine", cached);
	if ((ret = cmd_calibrate(4, argv)))
		hm_say_error("%s: calibrating this machine failed (exit %d): give -p FILE", cmd, ret);
	if (lock >= 0)
		close(lock);
	return ret;
}

int hm_default_results(const char **results)
{
	const char *value;

	if (*results)
		return HM_EXIT_OK;
	if (setting_value("results", &value))
		return HM_EXIT_INPUT;
	if (!value)
		hm_say_detail("hetmap: results %s (no HETMAP_RESULTS, no configuration key)\n", HM_DEFAULT_RESULTS);
	*results = value ? value : HM_DEFAULT_RESULTS;
	return HM_EXIT_OK;
}

/* The variables hetmap reads: ENVIRONMENT in the manual (man_page.c). */
const char *hm_help_settings(void)
{
	static char text[2048];
	size_t len = 0;

	if (text[0])
		return text;
	len += (size_t)snprintf(text, sizeof(text), "HETMAP_CONFIG    the configuration file (\"\" for none; "
				"default $XDG_CONFIG_HOME/hetmap/hetmap.conf, else %s)\n", SITE_CONFIG);
	for (int i = 0; i < NR_SETTINGS && len < sizeof(text); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%-16s %s (key '%s' in the file)\n",
					settings[i].variable, settings[i].help, settings[i].key);
	if (len < sizeof(text))
		snprintf(text + len, sizeof(text) - len,
			 "XDG_CACHE_HOME   where the calibration of this machine or allocation is kept\n"
			 "                 (default ~/.cache; hetmap/host-NAME.json, slurm-HASH.json)\n"
			 "TMPDIR           where launch directories and the judge's simulations go without -o\n"
			 "HETMAP_HOST      the host name hetmap-probe reports (emulated clusters, tests)\n"
			 "HETMAP_PROGRESS_S  seconds between a modeled simulation's progress lines (default\n"
			 "                 10, 0 none); the judge reports every three of them\n"
			 "MALLOC_MMAP_THRESHOLD_  a modeled simulation's allocator threshold in bytes\n"
			 "                 (default 1048576: less memory; larger is faster, wrappers/README.md)\n"
			 "HETMAP_SMPI_PAYLOADS  'copy': the modeled driver copies large payloads too, as\n"
			 "                 SMPI does (slower, the same simulated time)\n");
	return text;
}

/* mapper/cli/defaults.c - what a command uses when an option is not given
 * (cli.h, hm_default_platform): the environment, then a configuration
 * file, then what this machine tells. The table below is the one list of
 * settings: the configuration's keys, their variables, the help and the
 * manual's ENVIRONMENT and FILES come from it. */
#include "cli.h"
#include "models/util/fnv1a.h"
#include "models/util/nearest_name.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The configuration file: $HETMAP_CONFIG ("" for none), else the user's
 * ($XDG_CONFIG_HOME or ~/.config /hetmap/hetmap.conf), else the site's. */
static const char *config_file(char *buf, size_t size)
{
	const char *env = getenv("HETMAP_CONFIG"), *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (env)
		return *env ? env : NULL;
	if (xdg && *xdg)
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

/* Read the file once; 0, or -1 after a message (a broken file is an
 * error, never ignored). */
static int read_config(void)
{
	char buf[4096], *line = NULL;
	const char *path;
	size_t cap = 0;
	long number = 0;
	int ret = 0;
	FILE *f;

	if (config_done)                /* once; a broken file stays broken for every key */
		return config_status;
	config_done = 1;
	if (!(path = config_file(buf, sizeof(buf))))
		return 0;
	snprintf(config_path, sizeof(config_path), "%s", path);
	if (!(f = fopen(path, "r"))) {
		hm_say_error("configuration %s: %s", path, strerror(errno));
		return config_status = -1;
	}
	while (!ret && getline(&line, &cap, f) > 0) {
		char *s = line + strspn(line, " \t");

		number++;
		if (*s && *s != '#' && *s != '\n' && *s != '\r')
			ret = config_line(path, number, s);
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
 * allocation's nodes and CPUs, or this host. */
static int cache_path(char *path, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char *nodes = getenv("SLURM_JOB_NODELIST"), *cpus = getenv("SLURM_JOB_CPUS_PER_NODE");
	char dir[4096], name[300], host[256] = "";

	if (xdg && *xdg)
		snprintf(dir, sizeof(dir), "%s/hetmap", xdg);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.cache/hetmap", home);
	else
		return -1;
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
	return make_dirs(dir) || (size_t)snprintf(path, size, "%s/%s.json", dir, name) >= size ? -1 : 0;
}

int hm_default_platform(const char *cmd, const char **platform)
{
	static char cached[4096];
	/* a calibration in doubt is still this machine's, and better than a
	 * 2003 cluster's: kept, its doubt said (calibrate prints why) */
	char *argv[] = { "calibrate", "--accept-unreliable", "-o", cached, NULL };
	const char *value;
	int ret;

	if (*platform)
		return HM_EXIT_OK;
	if (setting_value("platform", &value))
		return HM_EXIT_INPUT;
	if (value) {
		*platform = value;
		return HM_EXIT_OK;
	}
	if (cache_path(cached, sizeof(cached))) {
		hm_say_error("%s: no -p given and no cache directory for this machine's calibration "
			     "(set HOME or XDG_CACHE_HOME, or give -p)", cmd);
		return HM_EXIT_USAGE;
	}
	*platform = cached;
	if (!access(cached, R_OK)) {
		hm_say_note("hetmap: %s: platform %s (this %s, calibrated earlier; -p or "
			"HETMAP_PLATFORM for another)\n", cmd, cached,
			getenv("SLURM_JOB_NODELIST") ? "allocation" : "machine");
		return HM_EXIT_OK;
	}
	hm_say_note("hetmap: %s: no -p given: calibrating this %s once (about a minute a node type), kept in %s "
		"for the next commands (-p or HETMAP_PLATFORM for another platform; delete it to measure again)\n", cmd,
		getenv("SLURM_JOB_NODELIST") ? "Slurm allocation" : "machine", cached);
	if ((ret = cmd_calibrate(4, argv)))
		hm_say_error("%s: calibrating this machine failed (exit %d): give -p FILE", cmd, ret);
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
			 "                 (default 1048576: less memory; larger is faster, wrappers/README.md)\n");
	return text;
}

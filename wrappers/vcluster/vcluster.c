/* hetmap-vcluster: an emulated heterogeneous cluster on one Linux machine
 * (wrappers/vcluster/README.md has the facts it relies on).
 *
 *   hetmap-vcluster up DESC.json     create the virtual nodes
 *   hetmap-vcluster down [DESC.json] remove every virtual node (all of
 *                                    them when no description is given)
 *   hetmap-vcluster hosts DESC.json  print the --hosts list for calibrate
 *                                    (NODE:CPUS, a slot per CPU of its cpuset)
 *   hetmap-vcluster stat DESC.json   per node, one JSON line: CPU time
 *                                    used and time throttled since 'up'
 *   hetmap-vcluster agent [SSH-OPTIONS] HOST COMMAND...
 *                                    Open MPI's plm_rsh_agent: run the
 *                                    command "on" virtual node HOST
 *
 * A virtual node is a host name (an /etc/hosts alias of 127.0.1.x, so that
 * Open MPI treats it as remote and starts a daemon there through the
 * agent), a cgroup v1 'cpu' group with a CPU quota (its share of a core)
 * and a 'cpuset' group (the cores it may use), and a private session and
 * shared-memory directory. Every process the agent starts on HOST - the
 * Open MPI daemon, hence every rank placed on HOST - inherits them.
 *
 * Description:
 *   {"hetmap_vcluster": 1, "name": "ref4", "period_us": 20000,
 *    "nodes": [{"name": "vfast", "cpus": "0", "share": 1.0}, ...]}
 * 'share' is the fraction of one core each of its CPUs gives it; 'cpus' the
 * cpuset ("0", "1", "0-1": a node of as many cores, each 'share' of a core).
 * "emulation" (optional) says how a node gets its share: "quota", a CPU
 * quota of share x CPUs x period; "blas", no quota but every BLAS call of its
 * ranks stretched to 1/share of a core's speed (libhetmap-slowblas.so,
 * slowblas.c) and a CPU weight of 1024 x share.
 *
 * Everything created is tagged (cgroups named hetmap-vc-NODE, /etc/hosts
 * lines ending in "# hetmap-vcluster", /tmp/hetmap-vc/NODE), so 'down'
 * finds it without any state, also after a crash; 'up' undoes its own
 * work when a step fails. Exit codes: 0 ok, 2 bad description, 3 usage,
 * 4 the system refused (not root, no cgroup v1, ...). */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define CPU_ROOT "/sys/fs/cgroup/cpu"
#define CPUSET_ROOT "/sys/fs/cgroup/cpuset"
#define CPUACCT_ROOT "/sys/fs/cgroup/cpuacct"
#define SLOWBLAS "libhetmap-slowblas.so"
#define HOSTS_FILE "/etc/hosts"
#define HOSTS_MARK "# hetmap-vcluster"

#include "vc_description.h"
#include "vnet.h"
#include "vc_fail.h"
#include "core_locks.h"

#include <pthread.h>
#include <sys/mman.h>

static const char *const emulation_names[] = { "blas", "quota" };       /* enum emulation */

static int valid_name(const char *s)
{
	if (!*s || strlen(s) >= 48 || *s == '-' || *s == '.')
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-'))
			return 0;
	return 1;
}

static int valid_cpus(const char *s)
{
	return *s && strlen(s) < 60 && strspn(s, "0123456789,-") == strlen(s);
}

/* "link": {"rate": "100mbit", "delay": "50us"}: bits per second with
 * kbit/mbit/gbit, a delay in us or ms. 0, or -1 with 'why' set. */
static int load_link(const cJSON *link, struct vnode *v, const char **why)
{
	const cJSON *rate = cJSON_GetObjectItemCaseSensitive(link, "rate");
	const cJSON *delay = cJSON_GetObjectItemCaseSensitive(link, "delay");
	static const struct { const char *unit; double scale; } rates[] = {
		{ "kbit", 1e3 }, { "mbit", 1e6 }, { "gbit", 1e9 } };
	char *end;
	double x;

	*why = "link: {\"rate\": \"100mbit\" (kbit, mbit, gbit), \"delay\": \"50us\" (us, ms)}";
	if (!cJSON_IsObject(link) || (!rate && !delay))
		return -1;
	if (rate) {
		int ok = 0;

		if (!cJSON_IsString(rate) || !((x = strtod(rate->valuestring, &end)) > 0))
			return -1;
		for (int i = 0; i < 3; i++)
			if (!strcasecmp(end, rates[i].unit) && x * rates[i].scale >= 1e4 && x * rates[i].scale <= 1e11) {
				v->rate_bps = (long)(x * rates[i].scale);
				ok = 1;
			}
		if (!ok)
			return -1;
		snprintf(v->rate, sizeof(v->rate), "%ldbit", v->rate_bps);
	}
	if (delay) {
		if (!cJSON_IsString(delay) || !((x = strtod(delay->valuestring, &end)) > 0) ||
		    (strcmp(end, "us") && strcmp(end, "ms")) || strlen(delay->valuestring) >= sizeof(v->delay))
			return -1;
		snprintf(v->delay, sizeof(v->delay), "%s", delay->valuestring);
	}
	return 0;
}

static int load(const char *path, struct vcluster *vc)
{
	FILE *f = fopen(path, "rb");
	char text[65536];
	size_t len;
	cJSON *doc, *nodes, *e, *it;

	memset(vc, 0, sizeof(*vc));
	vc->period_us = 20000;  /* 10-20 ms shares smoothly (README.md here) */
	vc->emulation = VC_DEFAULT_EMULATION;
	if (!f) {
		fail("%s: cannot open", path);
		return VC_EXIT_DESC;
	}
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	if (!(doc = cJSON_Parse(text))) {
		fail("%s: not valid JSON", path);
		return VC_EXIT_DESC;
	}
#define BAD(...) do { fail(__VA_ARGS__); cJSON_Delete(doc); return VC_EXIT_DESC; } while (0)
	if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "hetmap_vcluster")))
		BAD("%s: missing \"hetmap_vcluster\": 1", path);
	it = cJSON_GetObjectItemCaseSensitive(doc, "name");
	snprintf(vc->name, sizeof(vc->name), "%s", cJSON_IsString(it) ? it->valuestring : "vcluster");
	if ((it = cJSON_GetObjectItemCaseSensitive(doc, "period_us"))) {
		if (!cJSON_IsNumber(it) || it->valuedouble < 1000 || it->valuedouble > 1000000)
			BAD("%s: period_us must be in [1000, 1000000]", path);
		vc->period_us = (long)it->valuedouble;
	}
	if ((it = cJSON_GetObjectItemCaseSensitive(doc, "emulation"))) {
		if (!cJSON_IsString(it) || (strcmp(it->valuestring, "blas") && strcmp(it->valuestring, "quota")))
			BAD("%s: emulation must be \"blas\" or \"quota\"", path);
		vc->emulation = !strcmp(it->valuestring, "quota") ? EMU_QUOTA : EMU_BLAS;
	}
	nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes");
	if (!cJSON_IsArray(nodes) || cJSON_GetArraySize(nodes) < 1 || cJSON_GetArraySize(nodes) > VC_MAX_NODES)
		BAD("%s: nodes: expected 1..%d virtual nodes", path, VC_MAX_NODES);
	cJSON_ArrayForEach(e, nodes) {
		struct vnode *v = &vc->nodes[vc->n];
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(e, "cpus");
		const cJSON *share = cJSON_GetObjectItemCaseSensitive(e, "share");

		if (!cJSON_IsString(name) || !valid_name(name->valuestring))
			BAD("%s: nodes[%d].name: lowercase letters, digits and '-', 1..47 characters", path, vc->n);
		if (!cJSON_IsString(cpus) || !valid_cpus(cpus->valuestring))
			BAD("%s: nodes[%d].cpus: a cpuset such as \"0\" or \"0-1\"", path, vc->n);
		if (!cJSON_IsNumber(share) || !(share->valuedouble > 0.01) || share->valuedouble > 64)
			BAD("%s: nodes[%d].share: a fraction of a core in (0.01, 64]", path, vc->n);
		snprintf(v->name, sizeof(v->name), "%s", name->valuestring);
		snprintf(v->cpus, sizeof(v->cpus), "%s", cpus->valuestring);
		v->share = share->valuedouble;
		if ((it = cJSON_GetObjectItemCaseSensitive(e, "link"))) {
			const char *why;

			if (load_link(it, v, &why))
				BAD("%s: nodes[%d].%s", path, vc->n, why);
		}
		for (int j = 0; j < vc->n; j++)
			if (!strcmp(vc->nodes[j].name, v->name))
				BAD("%s: node '%s' twice", path, v->name);
		vc->n++;
	}
#undef BAD
	cJSON_Delete(doc);
	return 0;
}

static int write_text(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int write_text(const char *path, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int fd, n, ok;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* cgroup files exist; our own (slowdown) are created */
	if ((fd = open(path, O_WRONLY | O_CLOEXEC | (strncmp(path, VC_TMP_ROOT, strlen(VC_TMP_ROOT)) ? 0 :
							    O_CREAT | O_TRUNC), 0644)) < 0)
		return -1;
	ok = write(fd, buf, (size_t)n) == n;
	return close(fd) == 0 && ok ? 0 : -1;
}

/* Read a whole small file into buf; 0 or -1. */
static int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Move every task of a group back to the root group, then remove it. */
static void remove_group(const char *root, const char *group)
{
	char path[512], tasks[65536], *save = NULL;

	snprintf(path, sizeof(path), "%s/%s/tasks", root, group);
	if (read_text(path, tasks, sizeof(tasks)) == 0) {
		char root_tasks[512];

		snprintf(root_tasks, sizeof(root_tasks), "%s/tasks", root);
		for (char *pid = strtok_r(tasks, "\n", &save); pid; pid = strtok_r(NULL, "\n", &save))
			write_text(root_tasks, "%s", pid);
	}
	snprintf(path, sizeof(path), "%s/%s", root, group);
	rmdir(path);
}

/* Rewrite /etc/hosts without our lines, plus 'extra' (may be ""). The
 * file is replaced in place (it may be a bind mount): read, then write. */
static int rewrite_hosts(const char *extra)
{
	static char text[1 << 20], out[1 << 20];
	size_t len = 0;
	char *save = NULL;
	FILE *f;

	if (read_text(HOSTS_FILE, text, sizeof(text)))
		return -1;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strstr(line, HOSTS_MARK))
			len += (size_t)snprintf(out + len, sizeof(out) - len, "%s\n", line);
	len += (size_t)snprintf(out + len, sizeof(out) - len, "%s", extra);
	if (!(f = fopen(HOSTS_FILE, "w")))
		return -1;
	if (fwrite(out, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static void remove_dir_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[1024];
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
			remove_dir_tree(sub);
		else
			unlink(sub);
	}
	closedir(d);
	rmdir(path);
}

/* How many CPUs a cpuset list ("0-1,3") names. */
static int count_cpus(const char *list)
{
	int n = 0;

	while (*list) {
		char *end;
		long a = strtol(list, &end, 10), b = a;

		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		n += b >= a ? (int)(b - a + 1) : 0;
		list = *end == ',' ? end + 1 : end + strlen(end);
	}
	return n;
}

/* VC_TMP_ROOT/NODE/cores: the node's cores as robust process-shared mutexes
 * (core_locks.h), for the BLAS emulation. 0, or -1 with errno. */
static int make_core_locks(const struct vnode *v)
{
	char path[600];
	struct hm_core_locks *l;
	pthread_mutexattr_t attr;
	int fd, n = count_cpus(v->cpus);

	snprintf(path, sizeof(path), "%s/%s/cores", VC_TMP_ROOT, v->name);
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		return -1;
	if (ftruncate(fd, sizeof(*l)) ||
	    (l = mmap(NULL, sizeof(*l), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		close(fd);
		return -1;
	}
	close(fd);
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
	l->n = n < 1 ? 1 : n > HM_MAX_CORE_LOCKS ? HM_MAX_CORE_LOCKS : n;
	for (int k = 0; k < l->n; k++)
		pthread_mutex_init(&l->core[k], &attr);
	pthread_mutexattr_destroy(&attr);
	return munmap(l, sizeof(*l));
}

/* Remove everything tagged as ours: groups, hosts lines, directories. */
static int down_all(void)
{
	static const char *const roots[] = { CPU_ROOT, CPUSET_ROOT, CPUACCT_ROOT };
	int ret = 0;

	for (int r = 0; r < 3; r++) {
		DIR *d = opendir(roots[r]);
		struct dirent *de;

		if (!d)
			continue;
		while ((de = readdir(d)))
			if (!strncmp(de->d_name, VC_NS_PREFIX, strlen(VC_NS_PREFIX)))
				remove_group(roots[r], de->d_name);
		closedir(d);
	}
	vnet_down();
	if (rewrite_hosts("")) {
		fail("cannot rewrite %s: %s", HOSTS_FILE, strerror(errno));
		ret = VC_EXIT_SYSTEM;
	}
	remove_dir_tree(VC_TMP_ROOT);
	return ret;
}

static int make_group(const char *root, const struct vnode *v, char *path, size_t size)
{
	snprintf(path, size, "%s/" VC_NS_PREFIX "%s", root, v->name);
	if (mkdir(path, 0755) < 0 && errno != EEXIST) {
		fail("cannot create %s: %s (root and cgroup v1 '%s' are needed)", path, strerror(errno),
		     strrchr(root, '/') + 1);
		return -1;
	}
	return 0;
}

static int up(const struct vcluster *vc)
{
	char hosts[8192] = "", path[512], file[600];
	size_t len = 0;

	if (access(CPU_ROOT "/tasks", W_OK) || access(CPUSET_ROOT "/tasks", W_OK)) {
		fail("cannot write %s and %s: run as root on a machine with cgroup v1 'cpu' and "
		     "'cpuset' controllers mounted", CPU_ROOT, CPUSET_ROOT);
		return VC_EXIT_SYSTEM;
	}
	mkdir(VC_TMP_ROOT, 0755);
	for (int i = 0; i < vc->n; i++) {
		const struct vnode *v = &vc->nodes[i];
		/* quota: a hard share of a core; blas: no quota, a weight for
		 * the CPU the node shares, and BLAS calls stretched */
		long quota = vc->emulation == EMU_QUOTA ?
			     (long)(v->share * count_cpus(v->cpus) * (double)vc->period_us) : -1;
		char mems[64] = "0";

		if (make_group(CPU_ROOT, v, path, sizeof(path)))
			goto undo;
		snprintf(file, sizeof(file), "%s/cpu.cfs_period_us", path);
		if (write_text(file, "%ld", vc->period_us))
			goto sys;
		snprintf(file, sizeof(file), "%s/cpu.cfs_quota_us", path);
		if (write_text(file, "%ld", quota))
			goto sys;
		snprintf(file, sizeof(file), "%s/cpu.shares", path);
		if (write_text(file, "%ld", (long)(1024 * v->share) > 2 ? (long)(1024 * v->share) : 2))
			goto sys;
		if (make_group(CPUACCT_ROOT, v, path, sizeof(path)))
			goto undo;
		if (make_group(CPUSET_ROOT, v, path, sizeof(path)))
			goto undo;
		read_text(CPUSET_ROOT "/cpuset.mems", mems, sizeof(mems));
		mems[strcspn(mems, "\n")] = '\0';
		snprintf(file, sizeof(file), "%s/cpuset.mems", path);
		if (write_text(file, "%s", mems))
			goto sys;
		snprintf(file, sizeof(file), "%s/cpuset.cpus", path);
		if (write_text(file, "%s", v->cpus)) {
			fail("cpuset '%s' of node '%s' refused: %s", v->cpus, v->name, strerror(errno));
			goto undo;
		}
		snprintf(path, sizeof(path), "%s/%s", VC_TMP_ROOT, v->name);
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			goto sys;
		snprintf(file, sizeof(file), "%s/%s/slowdown", VC_TMP_ROOT, v->name);
		if (vc->emulation == EMU_BLAS && (write_text(file, "%.6g", 1 / v->share) ||
						     make_core_locks(v)))
			goto sys;
		{
			char addr[64];

			/* own namespaces: the node's address on the bridge; else
			 * an alias of 127.0.1.x, remote to Open MPI */
			if (vnet_wanted(vc))
				vnet_address(i, addr, sizeof(addr));
			else
				snprintf(addr, sizeof(addr), "127.0.1.%d", i + 1);
			len += (size_t)snprintf(hosts + len, sizeof(hosts) - len, "%s %s %s\n", addr,
						v->name, HOSTS_MARK);
		}
		if (vc->emulation == EMU_QUOTA)
			printf("%-12s cpus %-5s share %.2f of a core (quota %ld / %ld us)\n", v->name,
			       v->cpus, v->share, quota, vc->period_us);
		else
			printf("%-12s cpus %-5s share %.2f of a core (BLAS calls %.3gx slower, weight %ld)\n",
			       v->name, v->cpus, v->share, 1 / v->share, (long)(1024 * v->share));
	}
	if (vnet_wanted(vc) && vnet_up(vc))
		goto undo;
	if (rewrite_hosts(hosts))
		goto sys;
	printf("vcluster %s is up: %d nodes, %s emulation; agent: --mca plm_rsh_agent <hetmap-vcluster-agent>\n",
	       vc->name, vc->n, emulation_names[vc->emulation]);
	return 0;
sys:
	fail("%s: %s", file[0] ? file : path, strerror(errno));
undo:
	down_all();
	return VC_EXIT_SYSTEM;
}

/* BLAS emulation: the node's slowdown (written by 'up') and the library
 * that applies it, beside this program, preloaded into what runs here. */
static int set_slowdown(const char *host)
{
	char path[600], factor[64] = "", self[512], lib[1200];
	const char *old = getenv("LD_PRELOAD");
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/slowdown", VC_TMP_ROOT, host);
	if (read_text(path, factor, sizeof(factor)))
		return 0;       /* quota emulation */
	factor[strcspn(factor, "\n")] = '\0';
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0) {
		fail("agent: cannot find my own directory");
		return -1;
	}
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(lib, sizeof(lib), "%s/" SLOWBLAS, self);
	if (access(lib, R_OK)) {
		fail("agent: %s is missing (build it: cmake --build build)", lib);
		return -1;
	}
	if (old && *old)
		snprintf(lib + strlen(lib), sizeof(lib) - strlen(lib), ":%s", old);
	setenv("HETMAP_SLOWDOWN", factor, 1);
	setenv("LD_PRELOAD", lib, 1);
	snprintf(path, sizeof(path), "%s/%s/cores", VC_TMP_ROOT, host);
	setenv("HETMAP_CORE_LOCKS", path, 1);
	return 0;
}

/* Open MPI calls AGENT [ssh options] HOST COMMAND...; the command is what
 * a remote shell would run (Open MPI's own daemon command line). */
static int agent(int argc, char **argv)
{
	char path[512], tmp[512], *cmd;
	size_t size = 1, len = 0;
	const char *host;
	int i = 0;

	while (i < argc && argv[i][0] == '-')
		i++;    /* ssh options (e.g. -x): nothing to do locally */
	if (i + 1 >= argc || !valid_name(argv[i])) {
		fail("agent: expected [ssh options] HOST COMMAND...");
		return VC_EXIT_USAGE;
	}
	host = argv[i++];
	snprintf(path, sizeof(path), CPU_ROOT "/" VC_NS_PREFIX "%s/tasks", host);
	if (write_text(path, "%d", (int)getpid())) {
		fail("agent: no virtual node '%s' (%s): is the vcluster up?", host, strerror(errno));
		return VC_EXIT_SYSTEM;
	}
	snprintf(path, sizeof(path), CPUSET_ROOT "/" VC_NS_PREFIX "%s/tasks", host);
	if (write_text(path, "%d", (int)getpid())) {
		fail("agent: cannot enter the cpuset of '%s': %s", host, strerror(errno));
		return VC_EXIT_SYSTEM;
	}
	snprintf(path, sizeof(path), CPUACCT_ROOT "/" VC_NS_PREFIX "%s/tasks", host);
	write_text(path, "%d", (int)getpid());  /* accounting only: 'stat' */
	if (set_slowdown(host) || vnet_enter(host))
		return VC_EXIT_SYSTEM;
	/* each node its own session and shared-memory directories: without
	 * them 2-12 % of launches failed (README.md here) */
	snprintf(tmp, sizeof(tmp), "%s/%s", VC_TMP_ROOT, host);
	setenv("TMPDIR", tmp, 1);
	setenv("OMPI_MCA_btl_vader_backing_directory", tmp, 1);
	setenv("HETMAP_HOST", host, 1);  /* what hetmap-probe reports */
	for (int k = i; k < argc; k++)
		size += strlen(argv[k]) + 1;
	if (!(cmd = malloc(size)))
		return 1;
	cmd[0] = '\0';
	for (int k = i; k < argc; k++)
		len += (size_t)sprintf(cmd + len, "%s%s", k > i ? " " : "", argv[k]);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	fail("agent: cannot run /bin/sh: %s", strerror(errno));
	return 1;
}

/* One JSON line per node of the description: CPU time used (cpuacct),
 * periods throttled and time throttled (cpu.stat), since 'up'. */
static int stat_nodes(const struct vcluster *vc)
{
	for (int i = 0; i < vc->n; i++) {
		char path[512], text[4096] = "", *at;
		double usage = 0, throttled = 0;
		long periods = 0, nr_throttled = 0;

		snprintf(path, sizeof(path), CPUACCT_ROOT "/" VC_NS_PREFIX "%s/cpuacct.usage", vc->nodes[i].name);
		if (read_text(path, text, sizeof(text))) {
			fail("no virtual node '%s': is the vcluster up?", vc->nodes[i].name);
			return VC_EXIT_SYSTEM;
		}
		usage = strtod(text, NULL) * 1e-9;
		snprintf(path, sizeof(path), CPU_ROOT "/" VC_NS_PREFIX "%s/cpu.stat", vc->nodes[i].name);
		if (read_text(path, text, sizeof(text)) == 0) {
			if ((at = strstr(text, "nr_periods ")))
				periods = strtol(at + 11, NULL, 10);
			if ((at = strstr(text, "nr_throttled ")))
				nr_throttled = strtol(at + 13, NULL, 10);
			if ((at = strstr(text, "throttled_time ")))
				throttled = strtod(at + 15, NULL) * 1e-9;
		}
		printf("{\"node\":\"%s\",\"share\":%g,\"cpu_s\":%.6f,\"periods\":%ld,"
		       "\"throttled_periods\":%ld,\"throttled_s\":%.6f}\n", vc->nodes[i].name,
		       vc->nodes[i].share, usage, periods, nr_throttled, throttled);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct vcluster vc;
	const char *cmd = argc > 1 ? argv[1] : "";
	int ret;

#ifdef VCLUSTER_AGENT_ONLY
	/* built as hetmap-vcluster-agent: Open MPI's plm_rsh_agent is one path */
	(void)cmd;
	return agent(argc - 1, argv + 1);
#endif
	if (!strcmp(cmd, "agent"))
		return agent(argc - 2, argv + 2);
	if (!strcmp(cmd, "down") && argc <= 3)
		return down_all();
	if (argc != 3 || (strcmp(cmd, "up") && strcmp(cmd, "hosts") && strcmp(cmd, "stat"))) {
		fprintf(stderr, "usage: hetmap-vcluster up DESC.json | down [DESC.json] | hosts DESC.json |\n"
				"       stat DESC.json | agent [SSH-OPTIONS] HOST COMMAND...\n");
		return VC_EXIT_USAGE;
	}
	if ((ret = load(argv[2], &vc)))
		return ret;
	if (!strcmp(cmd, "stat"))
		return stat_nodes(&vc);
	if (!strcmp(cmd, "hosts")) {
		for (int i = 0; i < vc.n; i++)
			printf("%s%s:%d", i ? "," : "", vc.nodes[i].name, count_cpus(vc.nodes[i].cpus));
		printf("\n");
		return 0;
	}
	down_all();     /* a clean start: leftovers of an earlier run go first */
	return up(&vc);
}

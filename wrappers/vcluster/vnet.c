/* wrappers/vcluster/vnet.c - real links between virtual nodes (vnet.h).
 *
 * When a node of the description has a "link" ({"rate": "100mbit",
 * "delay": "50us"}), every node gets a network namespace of its own
 * (hetmap-vc-NODE), joined to the machine by a veth pair whose outer end
 * is on one bridge (hetmap-vc-br, 10.77.0.254/24); node i is 10.77.0.(i+1)
 * and its host name resolves there. Open MPI between two nodes then
 * crosses two veth pairs and the bridge over TCP, not loopback or shared
 * memory. A link's rate is a token bucket (tc tbf) on both ends of the
 * node's veth pair, so traffic into and out of the node is shaped; its
 * delay is netem, which some kernels lack (then 'up' fails and says so).
 * The agent enters the node's namespace before starting Open MPI's daemon
 * there (vnet_enter). Commands are run from argument vectors, no shell. */
#define _GNU_SOURCE
#include "vnet.h"
#include "vc_fail.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BRIDGE "hetmap-vc-br"
#define NETNS_DIR "/var/run/netns"

int vnet_wanted(const struct vcluster *vc)
{
	for (int i = 0; i < vc->n; i++)
		if (vc->nodes[i].rate[0] || vc->nodes[i].delay[0])
			return 1;
	return 0;
}

const char *vnet_address(int i, char *addr, size_t size)
{
	snprintf(addr, size, "10.77.0.%d", i + 1);
	return addr;
}

/* Run argv (ip or tc); its error output shows when it fails. 0, or -1. */
static int run(const char *const *argv)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		char line[512] = "";
		size_t len = 0;

		for (int i = 0; argv[i] && len < sizeof(line); i++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s", i ? " " : "", argv[i]);
		fail("'%s' failed%s", line, WIFEXITED(status) && WEXITSTATUS(status) == 127 ?
		     " (is iproute2 installed?)" : "");
		return -1;
	}
	return 0;
}

/* argv run inside namespace 'ns' (ip netns exec NS ...), or as it is. */
static int run_in(const char *ns, const char *const *argv)
{
	const char *wrapped[40] = { "ip", "netns", "exec", ns };
	int n = 4;

	if (!ns)
		return run(argv);
	for (int i = 0; argv[i] && n < 39; i++)
		wrapped[n++] = argv[i];
	wrapped[n] = NULL;
	return run(wrapped);
}

/* The node's link on device 'dev' (in namespace 'ns', or the machine's
 * when NULL): netem for the delay, a token bucket for the rate (under
 * the netem when both). The bucket holds 4 ms of traffic (at least
 * 16 KiB): the kernel's timer granularity must not cap the rate. */
static int shape(const char *ns, const char *dev, const struct vnode *v)
{
	char burst[32];

	snprintf(burst, sizeof(burst), "%ld", v->rate_bps / 8 / 250 > 16384 ? v->rate_bps / 8 / 250 : 16384L);
	if (v->delay[0]) {
		const char *netem[] = { "tc", "qdisc", "add", "dev", dev, "root", "handle", "1:", "netem",
					"delay", v->delay, NULL };

		if (run_in(ns, netem)) {
			fail("node '%s': a link delay needs the kernel's netem qdisc (sch_netem), which "
			     "this kernel refused; rates alone need only tbf", v->name);
			return -1;
		}
	}
	if (v->rate[0]) {
		const char *tbf[20] = { "tc", "qdisc", "add", "dev", dev };
		int k = 5;

		if (v->delay[0])
			tbf[k++] = "parent", tbf[k++] = "1:1";
		else
			tbf[k++] = "root";
		tbf[k++] = "handle", tbf[k++] = "2:", tbf[k++] = "tbf", tbf[k++] = "rate";
		tbf[k++] = v->rate, tbf[k++] = "burst", tbf[k++] = burst;
		tbf[k++] = "latency", tbf[k++] = "50ms", tbf[k] = NULL;
		if (run_in(ns, tbf))
			return -1;
	}
	return 0;
}

int vnet_up(const struct vcluster *vc)
{
	const char *br_add[] = { "ip", "link", "add", BRIDGE, "type", "bridge", NULL };
	const char *br_addr[] = { "ip", "addr", "add", "10.77.0.254/24", "dev", BRIDGE, NULL };
	const char *br_up[] = { "ip", "link", "set", BRIDGE, "up", NULL };

	if (run(br_add) || run(br_addr) || run(br_up))
		return -1;
	for (int i = 0; i < vc->n; i++) {
		const struct vnode *v = &vc->nodes[i];
		char ns[96], outer[16], inner[16], addr[64], cidr[80];
		const char *add_ns[] = { "ip", "netns", "add", ns, NULL };
		const char *pair[] = { "ip", "link", "add", outer, "type", "veth", "peer", "name", inner, NULL };
		const char *move[] = { "ip", "link", "set", inner, "netns", ns, NULL };
		const char *attach[] = { "ip", "link", "set", outer, "master", BRIDGE, "up", NULL };
		const char *lo_up[] = { "ip", "link", "set", "lo", "up", NULL };
		const char *in_addr[] = { "ip", "addr", "add", cidr, "dev", inner, NULL };
		const char *in_up[] = { "ip", "link", "set", inner, "up", NULL };

		snprintf(ns, sizeof(ns), VC_NS_PREFIX "%s", v->name);
		snprintf(outer, sizeof(outer), "hvc%d", i);
		snprintf(inner, sizeof(inner), "hvc%dn", i);
		snprintf(cidr, sizeof(cidr), "%s/24", vnet_address(i, addr, sizeof(addr)));
		if (run(add_ns) || run(pair) || run(move) || run(attach) || run_in(ns, lo_up) ||
		    run_in(ns, in_addr) || run_in(ns, in_up) ||
		    ((v->rate[0] || v->delay[0]) && (shape(NULL, outer, v) || shape(ns, inner, v))))
			return -1;
	}
	return 0;
}

void vnet_down(void)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *de;
	const char *br_del[] = { "ip", "link", "del", BRIDGE, NULL };

	/* the veth pairs first, by their outer ends (hvcN): deleting one end
	 * removes both at once, where a namespace's links go asynchronously */
	while (d && (de = readdir(d))) {
		const char *del[] = { "ip", "link", "del", de->d_name, NULL };

		if (!strncmp(de->d_name, "hvc", 3) && de->d_name[3] >= '0' && de->d_name[3] <= '9' &&
		    de->d_name[strspn(de->d_name + 3, "0123456789") + 3] == '\0')
			run(del);
	}
	if (d)
		closedir(d);
	d = opendir(NETNS_DIR);
	while (d && (de = readdir(d))) {
		const char *del[] = { "ip", "netns", "del", de->d_name, NULL };

		if (!strncmp(de->d_name, VC_NS_PREFIX, strlen(VC_NS_PREFIX)))
			run(del);       /* its veth pair goes with it */
	}
	if (d)
		closedir(d);
	if (access("/sys/class/net/" BRIDGE, F_OK) == 0)
		run(br_del);
}

int vnet_enter(const char *host)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), NETNS_DIR "/" VC_NS_PREFIX "%s", host);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT ? 0 : -1;
	if (setns(fd, CLONE_NEWNET)) {
		fail("agent: cannot enter the network namespace of '%s': %s", host, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

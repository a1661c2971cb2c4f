/* experiments/vcluster/vcluster.h - a virtual cluster description, shared
 * by hetmap-vcluster (vcluster.c) and its network (vnet.c). */
#ifndef HM_VCLUSTER_H
#define HM_VCLUSTER_H

#include <stddef.h>

#define PREFIX "hetmap-vc-"
#define TMP_ROOT "/tmp/hetmap-vc"
#define MAX_NODES 64

enum { EXIT_DESC = 2, EXIT_USAGE = 3, EXIT_SYSTEM = 4 };

struct vnode {
	char name[64];
	char cpus[64];
	double share;
	char rate[32];          /* its link's bandwidth for tc ("100000000bit"), or "" */
	long rate_bps;
	char delay[32];         /* its link's added latency ("50us"), or "" */
};

enum emulation { EMU_BLAS, EMU_QUOTA };
#define DEFAULT_EMULATION EMU_BLAS     /* chosen by measurement: README, "The emulated cluster" */
static const char *const emulation_names[] = { "blas", "quota" };

struct vcluster {
	char name[64];
	long period_us;
	enum emulation emulation;
	struct vnode nodes[MAX_NODES];
	int n;
};


void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 1 if any node has a shaped link: then every node gets its own network
 * namespace (vnet.c). */
int vnet_wanted(const struct vcluster *vc);
/* Namespaces, veth pairs on one bridge, tc shaping; the address of node
 * i into addr. 0, or -1 after a message (the caller undoes with vnet_down). */
int vnet_up(const struct vcluster *vc);
const char *vnet_address(int i, char *addr, size_t size);
/* Remove every namespace and link tagged as ours. */
void vnet_down(void);
/* In the agent: enter HOST's namespace if it has one. 0, or -1. */
int vnet_enter(const char *host);

#endif /* HM_VCLUSTER_H */

/* wrappers/vcluster/vc_description.h - a virtual cluster's description, read by
 * hetmap-vcluster (vcluster.c) and used by its network (vnet.h). Its names
 * start VC_ / vc: it is built into programs of its own, beside hetmap's. */
#ifndef HM_VC_DESCRIPTION_H
#define HM_VC_DESCRIPTION_H

#include <stddef.h>

#define VC_NS_PREFIX "hetmap-vc-"
#define VC_TMP_ROOT "/tmp/hetmap-vc"
#define VC_MAX_NODES 64

enum { VC_EXIT_DESC = 2, VC_EXIT_USAGE = 3, VC_EXIT_SYSTEM = 4 };

struct vnode {
	char name[64];
	char cpus[64];
	double share;
	char rate[32];          /* its link's bandwidth for tc ("100000000bit"), or "" */
	long rate_bps;
	char delay[32];         /* its link's added latency ("50us"), or "" */
};

enum emulation { EMU_BLAS, EMU_QUOTA };
#define VC_DEFAULT_EMULATION EMU_BLAS     /* chosen by measurement: README.md, "Two emulations" */

struct vcluster {
	char name[64];
	long period_us;
	enum emulation emulation;
	struct vnode nodes[VC_MAX_NODES];
	int n;
};

#endif /* HM_VC_DESCRIPTION_H */

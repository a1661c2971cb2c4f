/* wrappers/vcluster/vnet.h - real links between virtual nodes (vnet.c):
 * a network namespace per node, veth pairs on one bridge, tc shaping. */
#ifndef HM_VNET_H
#define HM_VNET_H

#include <stddef.h>
#include "vc_description.h"

/* 1 if any node has a shaped link: then every node gets its own network
 * namespace. */
int vnet_wanted(const struct vcluster *vc);
/* Namespaces, veth pairs on one bridge, tc shaping; 0, or -1 after a
 * message (the caller undoes with vnet_down). */
int vnet_up(const struct vcluster *vc);
/* The address of node i, written into addr. */
const char *vnet_address(int i, char *addr, size_t size);
/* Remove every namespace and link tagged as ours. */
void vnet_down(void);
/* In the agent: enter HOST's namespace if it has one. 0, or -1. */
int vnet_enter(const char *host);

#endif /* HM_VNET_H */

/* mapper/calibrate/host_source.h - the hosts a command measures, from where a
 * cluster's user has them: a hostfile (Open MPI's 'host slots=N', MPICH's
 * 'host:N') or the Slurm allocation it runs in, as the "HOST:N,..." list
 * 'calibrate --hosts' takes. */
#ifndef HM_HOST_SOURCE_H
#define HM_HOST_SOURCE_H

#include "models/util/error.h"

#define HM_HOST_SLOTS_MAX 1024  /* one host's processors, however they are given */
#define HM_HOST_NAME_MAX 200    /* a host name's characters, its NUL included */

/* 0 if 'name' can be a listed host's (not empty, under HM_HOST_NAME_MAX,
 * hostname.h's characters), else -1 with 'err' saying why. */
int hm_check_listed_host(const char *name, struct hm_error *err);

/* The hosts of an Open MPI or MPICH hostfile, in order of first
 * appearance, each with its slots ('slots=N', or ':N', else 1), a host
 * listed again adding its slots (this machine's names, "localhost",
 * "127.0.0.1" and its host name, are one host); '#' starts a comment.
 * Each name is checked here (hostname.h), its line named when refused. *bare counts the
 * lines that give no count: MPICH reads one slot there, Open MPI the
 * node's cores, which only the node knows (the caller warns). A malloc'd
 * "HOST:N,..." list, or NULL with 'err' set (unreadable file, a bad line,
 * no host). */
char *hm_hosts_from_hostfile(const char *path, int *bare, struct hm_error *err);

/* The allocation's nodes with their CPUs (slurm_alloc.h) as a malloc'd
 * "HOST:N,..." list, or NULL with 'err' set. */
char *hm_hosts_from_slurm(struct hm_error *err);

#endif /* HM_HOST_SOURCE_H */

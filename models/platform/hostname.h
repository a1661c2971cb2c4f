/* models/platform/hostname.h - which host names hetmap accepts.
 *
 * Host names go into launcher files and mpirun's arguments: allow only
 * what DNS allows (letters, digits, '-', '.') plus '_', and no leading '-'
 * that mpirun could read as an option. */
#ifndef HM_HOSTNAME_H
#define HM_HOSTNAME_H

#include "models/util/error.h"

/* 0 if 'host' is acceptable, else -1 with the reason at 'path'. */
int hm_check_hostname(const char *host, const char *path, struct hm_error *err);

/* 1 if host names a and b are one machine: equal, or equal up to the
 * domain ("node07" and "node07.lab.org"). */
int hm_host_same(const char *a, const char *b);

/* 1 if 'host' names the machine called 'here' (its gethostname()): the same
 * up to the domain, "localhost" or "127.0.0.1", as Open MPI takes them
 * (wrappers/README.md, "Rank order"). Other loopback addresses are not:
 * the emulated cluster's nodes are aliases of 127.0.1.x. */
int hm_host_names(const char *host, const char *here);

/* 1 if host names a and b are one host to a launcher: the same name, or
 * both names of this machine ('here': localhost, 127.0.0.1, its name). */
int hm_host_one_machine(const char *a, const char *b, const char *here);

#endif /* HM_HOSTNAME_H */

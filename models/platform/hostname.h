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

#endif /* HM_HOSTNAME_H */

/* models/util/rows.h - the registries' tables (launchers, profiles,
 * methods, formats, ...): arrays of rows whose first field is the row's
 * name. One lookup and one way to list them, so that a registry's messages
 * and help texts are made from its rows. */
#ifndef HM_ROWS_H
#define HM_ROWS_H

#include <stddef.h>

/* The row of 'table' (n rows of 'stride' bytes, each starting with its
 * name as a const char *) whose name is 'name', case-insensitive; NULL if
 * none. */
const void *hm_row_named(const void *table, int n, size_t stride, const char *name);

/* The name of the row of 'table' a mistyped 'name' most likely meant
 * (nearest_name.h), or NULL. */
const char *hm_row_nearest(const void *table, int n, size_t stride, const char *name);

/* Items 0..n-1 of a table written into 'buf' (size bytes, always
 * terminated; what does not fit is cut), 'sep' between them: item(ctx, i,
 * out, room) writes item i as snprintf does and returns its length, or -1
 * to leave it out. Returns 'buf'. For lists and help texts made from the
 * registries' rows. */
const char *hm_join(char *buf, size_t size, int n, const char *sep,
		    int (*item)(const void *ctx, int i, char *out, size_t room), const void *ctx);

#endif /* HM_ROWS_H */

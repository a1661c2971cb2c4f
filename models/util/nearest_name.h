/* models/util/nearest_name.h - "did you mean ...?": the known name a typo
 * most likely meant, for unknown JSON keys, commands and options alike. */
#ifndef HM_NEAREST_NAME_H
#define HM_NEAREST_NAME_H

/* Edit distance (insertions, deletions, substitutions) between two short
 * strings, capped at 64. */
int hm_edit_distance(const char *a, const char *b);

/* The name of 'names' (NULL-terminated) nearest to 'name' when at most two
 * edits away and fewer edits than its length (so "x" does not suggest
 * "n"), else NULL. */
const char *hm_nearest_name(const char *name, const char *const *names);

#endif /* HM_NEAREST_NAME_H */

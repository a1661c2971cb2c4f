/* models/util/nearest_name.h - "did you mean ...?": the known name a typo
 * most likely meant, for unknown JSON keys, commands and options alike. */
#ifndef HM_NEAREST_NAME_H
#define HM_NEAREST_NAME_H

/* The name of 'names' (NULL-terminated) nearest to 'name' when at most two
 * edits away and fewer edits than its length (so "x" does not suggest
 * "n"), else NULL. */
const char *hm_nearest_name(const char *name, const char *const *names);

/* The words of a suggestion in a message, for "%s%s%s": " (did you mean
 * 'NEAR'?)", or nothing when 'near' is NULL. */
#define HM_DID_YOU_MEAN(near) (near) ? " (did you mean '" : "", (near) ? (near) : "", (near) ? "'?)" : ""

#endif /* HM_NEAREST_NAME_H */

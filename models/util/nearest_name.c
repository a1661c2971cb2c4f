/* models/util/nearest_name.c - see nearest_name.h. */
#include "nearest_name.h"

#include <string.h>

int hm_edit_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	int la = (int)strlen(a), lb = (int)strlen(b), row[MAX + 1];

	if (la > MAX || lb > MAX)
		return MAX;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int diag = row[0];

		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

const char *hm_nearest_name(const char *key, const char *const *allowed)
{
	const char *best = NULL;
	int best_d = 3;     /* at most two edits */

	for (const char *const *a = allowed; *a; a++) {
		int d = hm_edit_distance(key, *a);

		if (d < best_d && d < (int)strlen(*a)) {
			best_d = d;
			best = *a;
		}
	}
	return best;
}

/* models/util/nearest_name.c - see nearest_name.h. */
#include "nearest_name.h"

#include <ctype.h>
#include <string.h>

static int same_letter(char a, char b)
{
	return tolower((unsigned char)a) == tolower((unsigned char)b);
}

/* Edit distance (insertions, deletions, substitutions, and a swap of two
 * neighbours: "GPMT" is one edit from "GPTM") between two short strings,
 * letters compared without case (the registries' names are taken in any
 * case), capped at 64. Three rows of the table: the swap looks two back. */
static int hm_edit_distance(const char *a, const char *b)
{
	enum { MAX = 64 };
	int la = (int)strlen(a), lb = (int)strlen(b), rows[3][MAX + 1];
	int *two = rows[0], *prev = rows[1], *row = rows[2];

	if (la > MAX || lb > MAX)
		return MAX;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int *t = two;

		two = prev, prev = row, row = t;
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int best = prev[j - 1] + !same_letter(a[i - 1], b[j - 1]);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			if (i > 1 && j > 1 && same_letter(a[i - 1], b[j - 2]) && same_letter(a[i - 2], b[j - 1]) &&
			    two[j - 2] + 1 < best)
				best = two[j - 2] + 1;
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

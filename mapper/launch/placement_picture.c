/* mapper/launch/placement_picture.c - see placement_picture.h. The ranks
 * are grouped by processor once (a sort of their indices, O(D log D)), so
 * a plan of 128000 ranks draws as fast as one of two. */
#include "placement_picture.h"
#include "models/util/say.h"

#include <stdlib.h>
#include <string.h>

enum { CELL = 24, PER_LINE = 16 };

/* qsort has no context: the placement being drawn is here */
static const struct hm_placement *sorting;

/* Ranks by processor (host, then name), then by number. */
static int by_processor(const void *a, const void *b)
{
	const struct hm_rank_place *x = &sorting->ranks[*(const int *)a], *y = &sorting->ranks[*(const int *)b];
	int d = strcmp(x->host, y->host);

	if (!d)
		d = strcmp(x->processor, y->processor);
	return d ? d : *(const int *)a - *(const int *)b;
}

/* A processor's ranks: idx[start .. end - 1], the first of them 'first'. */
struct group {
	int start, end, first;
};

static int by_first_rank(const void *a, const void *b)
{
	return ((const struct group *)a)->first - ((const struct group *)b)->first;
}

static void draw_processor(FILE *f, const struct hm_placement *pl, const int *idx, const struct group *g)
{
	const struct hm_rank_place *p = &pl->ranks[g->first];
	int cores = p->cores < HM_PICTURE_CORES ? p->cores : HM_PICTURE_CORES, width = 1;
	static char cell[HM_PICTURE_CORES][CELL];

	for (int j = 0; j < cores; j++)
		cell[j][0] = '\0';
	for (int i = g->start; i < g->end; i++) {
		const struct hm_rank_place *r = &pl->ranks[idx[i]];

		for (int t = 0; t < r->threads; t++) {
			int j = r->core - r->slot + t;
			size_t len;

			if (j < 0 || j >= cores || (len = strlen(cell[j])) + 12 >= CELL)
				continue;
			snprintf(cell[j] + len, CELL - len, "%s%d", len ? "+" : "", idx[i]);
		}
	}
	for (int j = 0; j < cores; j++) {
		if (!cell[j][0])
			snprintf(cell[j], CELL, ".");
		width = (int)strlen(cell[j]) > width ? (int)strlen(cell[j]) : width;
	}
	fprintf(f, "  %s%s%s: %d core%s, %d rank%s", p->processor, strcmp(p->processor, p->host) ? " on " : "",
		strcmp(p->processor, p->host) ? p->host : "", p->cores, HM_PLURAL(p->cores), g->end - g->start,
		HM_PLURAL(g->end - g->start));
	if (p->threads > 1)
		fprintf(f, " of %d threads", p->threads);
	fprintf(f, "\n");
	for (int j = 0; j < cores; j++) {
		if (j % PER_LINE == 0)
			fprintf(f, "    cores %4d-%-4d |", j, (j + PER_LINE < cores ? j + PER_LINE : cores) - 1);
		fprintf(f, " %*s", width, cell[j]);
		if (j % PER_LINE == PER_LINE - 1 || j == cores - 1)
			fprintf(f, " |\n");
	}
	if (cores < p->cores)
		fprintf(f, "    (%d more cores not drawn)\n", p->cores - cores);
}

void hm_placement_picture(FILE *f, const struct hm_placement *pl)
{
	int *idx = malloc(sizeof(int) * (size_t)(pl->D ? pl->D : 1)), n = 0;
	struct group *groups = malloc(sizeof(struct group) * (size_t)(pl->D ? pl->D : 1));

	if (!idx || !groups) {
		fprintf(f, "(no picture: out of memory)\n");
		free(idx), free(groups);
		return;
	}
	for (int k = 0; k < pl->D; k++)
		idx[k] = k;
	sorting = pl;
	qsort(idx, (size_t)pl->D, sizeof(int), by_processor);
	for (int i = 0; i < pl->D; i++) {
		const struct hm_rank_place *r = &pl->ranks[idx[i]], *prev = i ? &pl->ranks[idx[i - 1]] : NULL;

		if (!prev || strcmp(r->host, prev->host) || strcmp(r->processor, prev->processor))
			groups[n++] = (struct group){ i, i + 1, idx[i] };
		else
			groups[n - 1].end = i + 1;
	}
	qsort(groups, (size_t)n, sizeof(groups[0]), by_first_rank);
	fprintf(f, "where the ranks go (the processors used; each core's ranks, '.' idle):\n");
	for (int g = 0; g < n && g < HM_PICTURE_PROCESSORS; g++)
		draw_processor(f, pl, idx, &groups[g]);
	if (n > HM_PICTURE_PROCESSORS)
		fprintf(f, "  (%d more processors not drawn)\n", n - HM_PICTURE_PROCESSORS);
	free(idx);
	free(groups);
}

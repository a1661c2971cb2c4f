/* models/model_scores.c - see model_scores.h. */
#include "model_scores.h"

#include <stdio.h>
#include <string.h>

/* models/evidence.tsv, embedded (models/embed_text.cmake) */
extern const char hm_model_evidence_tsv[];

/* One row "set kind model configurations mape spearman" into *sc when it
 * is model 'name''s; 1 when taken. */
static int read_row(const char *line, size_t len, const char *name, struct hm_model_score *sc)
{
	char row[512], kind[16], model[64];

	if (len >= sizeof(row) || line[0] == '#')
		return 0;
	memcpy(row, line, len);
	row[len] = '\0';
	if (sscanf(row, "%95[^\t]\t%15[^\t]\t%63[^\t]\t%d\t%lf\t%lf", sc->set, kind, model, &sc->configurations,
		   &sc->mape, &sc->spearman) != 6 || strcmp(model, name))
		return 0;
	sc->real = !strcmp(kind, "real");
	return 1;
}

int hm_model_scores(const char *name, struct hm_model_score *out, int max)
{
	int n = 0;

	for (int pass = 1; pass >= 0; pass--)   /* real sets first */
		for (const char *s = hm_model_evidence_tsv; *s && n < max;) {
			size_t len = strcspn(s, "\n");
			struct hm_model_score sc;

			if (read_row(s, len, name, &sc) && sc.real == pass)
				out[n++] = sc;
			s += len + (s[len] == '\n');
		}
	return n;
}

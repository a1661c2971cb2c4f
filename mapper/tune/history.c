/* mapper/tune/history.c - see history.h. */
#include "history.h"
#include "mapper/launch/record.h"
#include "models/platform/corrections.h"
#include "models/platform/threads.h"
#include "models/model.h"
#include "models/util/read_file.h"

#include <cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hm_history_init(struct hm_history *h, const struct hm_platform *p)
{
	memset(h, 0, sizeof(*h));
	h->P = p->nr_procs;
}

void hm_history_release(struct hm_history *h)
{
	for (int k = 0; k < h->n; k++)
		free(h->o[k].d);
	free(h->o);
	memset(h, 0, sizeof(*h));
}

/* An observation's processes and threads from a record's plan 'processes'
 * (processor names): 0, or -1 when a name is not one of p's. */
static int counts(const struct hm_platform *p, const cJSON *processes, int *d, int *threads)
{
	const cJSON *e;

	memset(d, 0, (size_t)p->nr_procs * sizeof(int));
	for (int i = 0; i < p->nr_procs; i++)
		threads[i] = 1;
	cJSON_ArrayForEach(e, processes) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "processor"));
		const cJSON *count = cJSON_GetObjectItemCaseSensitive(e, "count");
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "threads");
		int i = name ? hm_platform_find(p, name) : -1;

		if (i < 0 || !cJSON_IsNumber(count) || count->valuedouble < 1 || count->valuedouble > 1e6 ||
		    (t && (!cJSON_IsNumber(t) || t->valuedouble < 1 || t->valuedouble > HM_MAX_CORES)))
			return -1;
		d[i] = (int)count->valuedouble;
		threads[i] = t ? (int)t->valuedouble : 1;
	}
	return 0;
}

/* Room for one more observation with its counts. */
static struct hm_observation *more(struct hm_history *h)
{
	struct hm_observation *o;

	if (h->n == h->cap) {
		int cap = h->cap ? 2 * h->cap : 64;
		struct hm_observation *bigger = realloc(h->o, (size_t)cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		h->o = bigger, h->cap = cap;
	}
	o = &h->o[h->n];
	memset(o, 0, sizeof(*o));
	if (!(o->d = malloc(2 * (size_t)(h->P > 0 ? h->P : 1) * sizeof(int))))
		return NULL;
	o->threads = o->d + h->P;
	return o;
}

/* One record: kept, or counted as left out. 0, or -1 out of memory. */
static int take(struct hm_history *h, const struct hm_platform *p, const char *base, const cJSON *rec)
{
	struct hm_run_record r;
	struct hm_observation *o;
	const char *slash;

	h->records++;
	if (!hm_record_read(rec, &r) || !hm_record_is_measurement(&r)) {
		h->not_measured++;
		return 0;
	}
	if (!r.base_digest || strcmp(r.base_digest, base)) {
		h->other_platform++;
		return 0;
	}
	if (!(o = more(h)))
		return -1;
	if (counts(p, r.processes, o->d, o->threads) || hm_routine_parse(r.routine, &o->routine)) {
		free(o->d);
		h->other_platform++;
		return 0;
	}
	o->D = r.D, o->r = r.r, o->c = r.c, o->b = r.b;
	o->n = r.n, o->measured = r.measured;
	slash = r.program ? strrchr(r.program, '/') : NULL;
	snprintf(o->program, sizeof(o->program), "%s", slash ? slash + 1 : r.program ? r.program : "?");
	h->n++;
	return 0;
}

int hm_history_read(struct hm_history *h, const struct hm_platform *p, const char *path,
		    struct hm_error *err)
{
	FILE *f = fopen(path, "r");
	char base[32], *line = NULL;
	size_t cap = 0, len;
	long number = 0;
	int ret = 0, got;

	hm_error_clear(err);
	snprintf(err->file, sizeof(err->file), "%s", path);
	if (!f)
		return hm_error_set(err, "%s", strerror(errno));
	hm_digest_text(p->base_digest, base, sizeof(base));
	while (!ret && (got = hm_read_line(f, &line, &cap, &len)) > 0) {
		size_t zeros;
		const char *text = hm_line_after_zeros(line, len, &zeros);       /* a record after a crash's zeros is read */
		cJSON *rec;

		number++;
		if (!text) {
			h->unreadable++;
			continue;
		}
		if (text[strspn(text, " \t\r\n")] == '\0') {
			h->unreadable += zeros > 0;
			continue;
		}
		if (!(rec = cJSON_Parse(text)))
			h->unreadable++;
		else if (take(h, p, base, rec))
			ret = hm_error_set(err, "out of memory");
		cJSON_Delete(rec);
	}
	if (!ret && got < 0)
		ret = hm_error_set(err, "line %ld: %s", number + 1, errno == EFBIG ? "too long to be a record" :
				   errno == ENOMEM ? "out of memory" : strerror(errno));
	free(line);
	fclose(f);
	return ret;
}

double hm_observation_price(const struct hm_platform *p, const struct hm_model *m,
			    const struct hm_observation *o)
{
	struct hm_thread_view v;
	struct hm_prediction pred;
	struct hm_error err;
	const struct hm_platform *on = p;
	int threaded = hm_threads_used(o->d, o->threads, p->nr_procs);
	double t;

	hm_error_clear(&err);
	if (threaded) {
		if (hm_thread_view_build(&v, p, o->threads, &err))
			return 0;
		on = &v.view;
	}
	t = hm_predict(m, on, o->routine, o->n, o->d, o->r, o->c, o->b, &pred, &err) ? 0 : pred.total;
	if (threaded)
		hm_thread_view_release(&v);
	return t;
}

/* models/model.c - the registry of models, with each one's status, and
 * what the searches ask a model: its kernel block, its single-process SPs
 * and a whole prediction. */
#include "model.h"
#include "models/util/nearest_name.h"

#include <string.h>
#include <strings.h>

extern const struct hm_model hm_model_thesis;
extern const struct hm_model hm_model_grid;
extern const struct hm_model hm_model_ring;
extern const struct hm_model hm_model_panel;
extern const struct hm_model hm_model_card;

/* Each model's row says its status and its evidence (help, 'hetmap
 * models'); the order is the listing's. */
static const struct hm_model *const models[] = {
	&hm_model_panel,
	&hm_model_thesis,
	&hm_model_grid,
	&hm_model_ring,
	&hm_model_card,
	NULL,
};

static const char *const status_names[] = {
	[HM_MODEL_DEFAULT] = "default", [HM_MODEL_REFERENCE] = "reference",
	[HM_MODEL_CANDIDATE] = "candidate",
};

const char *hm_model_status_name(enum hm_model_status s)
{
	return (unsigned)s < sizeof(status_names) / sizeof(status_names[0]) ? status_names[s] : "?";
}


const struct hm_model *hm_model_find(const char *name)
{
	for (int i = 0; models[i]; i++)
		if (!strcasecmp(models[i]->name, name))
			return models[i];
	return NULL;
}

const char *hm_model_nearest(const char *name)
{
	enum { NR_MODELS = sizeof(models) / sizeof(models[0]) };     /* with its NULL */
	const char *names[NR_MODELS];

	for (int i = 0; i < NR_MODELS; i++)
		names[i] = models[i] ? models[i]->name : NULL;
	return hm_nearest_name(name, names);
}

const struct hm_model *hm_model_default(void)
{
	for (int i = 0; models[i]; i++)
		if (models[i]->status == HM_MODEL_DEFAULT)
			return models[i];
	return models[0];
}

const struct hm_model *const *hm_model_list(void)
{
	return models;
}

void hm_model_weights(const struct hm_model *m, enum hm_routine routine, double n, int r,
		      int c, int b, double w[HM_NR_SP])
{
	for (int j = 0; j < HM_NR_SP; j++) {
		double unit[HM_NR_SP] = { 0 };
		struct hm_sp sp;

		unit[j] = 1;
		hm_sp_from_vector(unit, &sp);
		w[j] = m->time(routine, n, r, c, b, &sp, NULL);
	}
}


int hm_model_kernel_block(const struct hm_model *m, enum hm_routine routine, int b)
{
	return m->kernel_block ? m->kernel_block(routine, b) : b;
}

int hm_model_sp_single(const struct hm_model *m, const struct hm_platform *p, int i, int b,
		       enum hm_routine routine, struct hm_sp *out)
{
	/* the rule for one process on i: its own kernels, no pair */
	const struct hm_proc_type *t = &p->types[p->procs[i].type];
	int kb = hm_model_kernel_block(m, routine, b);
	double c = hm_compute_factor(p, i, 1, routine);

	double v[HM_NR_SP] = { 0 };

	hm_type_comp_costs(t, kb, v);
	for (int j = 0; j < HM_NR_COMP_SP; j++)
		v[j] *= c;
	hm_sp_from_vector(v, out);
	return m->single_process ? m->single_process(p, i, routine, out) : 0;
}

void hm_model_sp(const struct hm_model *m, const struct hm_platform *p, const int *d, int b,
		 enum hm_routine routine, struct hm_sp *out)
{
	int used = -1, D = 0;

	for (int i = 0; i < p->nr_procs && D < 2; i++)
		if (d[i] > 0)
			used = i, D += d[i];
	if (D == 1 && m->single_process)
		hm_model_sp_single(m, p, used, b, routine, out);
	else
		hm_sp_effective(p, d, hm_model_kernel_block(m, routine, b), routine, out);
}

int hm_predict(const struct hm_model *m, const struct hm_platform *p,
	       enum hm_routine routine, double n, const int *d, int r, int c,
	       int b, struct hm_prediction *out, struct hm_error *err)
{
	struct hm_sp sp;
	long D = 0;
	int i;

	for (i = 0; i < p->nr_procs; i++) {
		if (d[i] < 0)
			return hm_error_set(err, "negative process count on '%s'", p->procs[i].name);
		D += d[i];
	}
	if (D == 0)
		return hm_error_set(err, "no process placed");
	if (r < 1 || c < 1 || (long)r * c != D)
		return hm_error_set(err, "grid %dx%d does not hold the %ld processes placed", r, c, D);
	if (b < 1 || !(n >= 1))
		return hm_error_set(err, "n and b must be positive");
	if (b > n)
		return hm_error_set(err, "block size %d exceeds the matrix order n = %g", b, n);
	hm_model_sp(m, p, d, b, routine, &sp);
	m->time(routine, n, r, c, b, &sp, out);
	return 0;
}

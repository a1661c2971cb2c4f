/* models/heterogeneity_rule.c - see heterogeneity_rule.h. */
#include "heterogeneity_rule.h"
#include "models/util/minmax.h"


void hm_sp_from_vector(const double v[HM_NR_SP], struct hm_sp *sp)
{
	sp->card_t_w = 0, sp->node_ranks = sp->node_senders = 0;
	sp->k3_dgemm = v[HM_SP_DGEMM], sp->k3_dtrsm = v[HM_SP_DTRSM], sp->k2_dgetf2 = v[HM_SP_DGETF2];
	sp->t_step = v[HM_SP_STEP], sp->k1_dswap = v[HM_SP_SWAP], sp->k1_dswap_aliased = v[HM_SP_SWAP_ALIASED];
	sp->t_s = v[HM_SP_TS], sp->t_w = v[HM_SP_TW];
}

void hm_sp_to_vector(const struct hm_sp *sp, double v[HM_NR_SP])
{
	v[HM_SP_DGEMM] = sp->k3_dgemm, v[HM_SP_DTRSM] = sp->k3_dtrsm, v[HM_SP_DGETF2] = sp->k2_dgetf2;
	v[HM_SP_STEP] = sp->t_step, v[HM_SP_SWAP] = sp->k1_dswap, v[HM_SP_SWAP_ALIASED] = sp->k1_dswap_aliased;
	v[HM_SP_TS] = sp->t_s, v[HM_SP_TW] = sp->t_w;
}

void hm_type_comp_costs(const struct hm_proc_type *ty, int kb, double k[HM_NR_COMP_SP])
{
	k[HM_SP_DGEMM] = hm_table_at(&ty->k3_dgemm, kb);
	k[HM_SP_DTRSM] = hm_table_at(&ty->k3_dtrsm, kb);
	k[HM_SP_DGETF2] = hm_table_at(&ty->k2_dgetf2, kb);
	k[HM_SP_STEP] = ty->column_step;
	k[HM_SP_SWAP] = ty->k1_dswap;
	k[HM_SP_SWAP_ALIASED] = ty->k1_dswap_aliased;
}

_Static_assert(HM_NR_ROUTINES == HM_NR_STACKED, "a stacking factor per routine");

double hm_type_compute_factor(const struct hm_proc_type *ty, int cores, int d,
			      enum hm_routine routine)
{
	int f = hm_share_factor(d, cores);
	double c = f > 1 ? f * ty->stacked[routine] : f;

	return c * hm_type_busy_scale(ty, cores, d);
}

double hm_compute_factor(const struct hm_platform *p, int i, int d, enum hm_routine routine)
{
	const struct hm_processor *pr = &p->procs[i];

	return hm_type_compute_factor(&p->types[pr->type], pr->cores, d, routine);
}

void hm_sp_effective(const struct hm_platform *p, const int *d, int b, enum hm_routine routine,
		     struct hm_sp *out)
{
	double v[HM_NR_SP] = { 0 }, k[HM_NR_COMP_SP], card = 0;
	int i, j, most = 0, senders = 0;

	for (i = 0; i < p->nr_procs; i++) {
		const struct hm_proc_type *t;
		double c;

		if (d[i] <= 0)
			continue;
		t = &p->types[p->procs[i].type];
		c = hm_compute_factor(p, i, d[i], routine);
		most = d[i] > most ? d[i] : most;
		senders = hm_max_int(senders, hm_min_int(d[i], p->procs[i].cores));
		hm_type_comp_costs(t, b, k);
		for (int s = 0; s < HM_NR_COMP_SP; s++)
			v[s] = hm_max(v[s], c * k[s]);
		/* pairs (i, j), j >= i; (i, i) exists only with two processes on i */
		for (j = i; j < p->nr_procs; j++) {
			struct hm_link l;
			int m;

			if (d[j] <= 0 || (j == i && d[i] < 2))
				continue;
			l = hm_platform_link(p, i, j);
			m = hm_share_factor(d[i], p->procs[i].cores);
			if (hm_share_factor(d[j], p->procs[j].cores) > m)
				m = hm_share_factor(d[j], p->procs[j].cores);
			v[HM_SP_TS] = hm_max(v[HM_SP_TS], m * l.t_s);
			v[HM_SP_TW] = hm_max(v[HM_SP_TW], hm_link_word_cost(l, m));
			if (p->procs[i].host_id != p->procs[j].host_id)
				card = hm_max(card, hm_max(p->procs[i].card_t_w, p->procs[j].card_t_w));
		}
	}
	hm_sp_from_vector(v, out);
	out->card_t_w = card, out->node_ranks = most, out->node_senders = senders;
}

double hm_bytes_per_process(enum hm_routine routine, double n, int D)
{
	double matrices = routine == HM_ROUTINE_GEMM ? 3.0 : 1.0;

	return 1.05 * matrices * 8.0 * n * n / D;
}

int hm_memory_fits(const struct hm_platform *p, enum hm_routine routine,
		   double n, const int *d)
{
	int i, D = 0;

	for (i = 0; i < p->nr_procs; i++)
		D += d[i];
	for (i = 0; i < p->nr_procs; i++)
		if (d[i] > 0 && p->procs[i].memory > 0 &&
		    d[i] * hm_bytes_per_process(routine, n, D) > p->procs[i].memory)
			return 0;
	return 1;
}

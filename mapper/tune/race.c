/* mapper/tune/race.c - see race.h. */
#include "race.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hm_race_init(struct hm_race *r, int n)
{
	size_t m = (size_t)(n > 0 ? n : 1);        /* no candidate still allocates */

	memset(r, 0, sizeof(*r));
	r->n = n;
	r->t = malloc(m * sizeof(*r->t));
	r->racing = calloc(m, sizeof(int));
	r->runs = calloc(m, sizeof(int));
	r->fate = calloc(m, sizeof(*r->fate));
	if (!r->t || !r->racing || !r->runs || !r->fate) {
		hm_race_release(r);
		return -1;
	}
	for (int c = 0; c < n; c++) {
		r->racing[c] = 1;
		for (int j = 0; j < HM_RACE_MAX_ROUNDS; j++)
			r->t[c][j] = NAN;
	}
	return 0;
}

void hm_race_release(struct hm_race *r)
{
	free(r->t), free(r->racing), free(r->runs), free(r->fate);
	memset(r, 0, sizeof(*r));
}

void hm_race_record(struct hm_race *r, int c, int round, double seconds, const char *why)
{
	if (c < 0 || c >= r->n || round < 0 || round >= HM_RACE_MAX_ROUNDS)
		return;
	r->runs[c]++;
	if (seconds > 0 && isfinite(seconds)) {
		r->t[c][round] = seconds;
		return;
	}
	r->racing[c] = 0;
	snprintf(r->fate[c], sizeof(r->fate[c]), "failed: %s", why ? why : "no time");
}

double hm_race_mean(const struct hm_race *r, int c, int *k)
{
	double sum = 0;
	int m = 0;

	for (int j = 0; j < HM_RACE_MAX_ROUNDS; j++)
		if (!isnan(r->t[c][j]))
			sum += log(r->t[c][j]), m++;
	if (k)
		*k = m;
	return m ? exp(sum / m) : NAN;
}

int hm_race_leader(const struct hm_race *r)
{
	int best = -1;
	double least = INFINITY;

	for (int c = 0; c < r->n; c++) {
		double m = r->racing[c] ? hm_race_mean(r, c, NULL) : NAN;

		if (!isnan(m) && m < least)
			least = m, best = c;
	}
	return best;
}

int hm_race_left(const struct hm_race *r)
{
	int n = 0;

	for (int c = 0; c < r->n; c++)
		n += r->racing[c];
	return n;
}

double hm_t95(int nu)
{
	static const double t[] = { 0, 6.314, 2.920, 2.353, 2.132, 2.015, 1.943, 1.895, 1.860, 1.833,
				    1.812, 1.796, 1.782, 1.771, 1.761, 1.753, 1.746, 1.740, 1.734,
				    1.729, 1.725, 1.721, 1.717, 1.714, 1.711, 1.708, 1.706, 1.703,
				    1.701, 1.699, 1.697 };

	if (nu < 1)
		return INFINITY;
	if (nu <= 30)
		return t[nu];
	return nu <= 40 ? 1.684 : nu <= 60 ? 1.671 : nu <= 120 ? 1.658 : 1.645;
}

/* Candidate c's paired log differences with the leader L: their mean
 * into *mean, their sum of squared deviations returned, their count
 * into *k. */
static double paired(const struct hm_race *r, int c, int L, double *mean, int *k)
{
	double x[HM_RACE_MAX_ROUNDS], sum = 0, ss = 0;
	int m = 0;

	for (int j = 0; j < HM_RACE_MAX_ROUNDS; j++)
		if (!isnan(r->t[c][j]) && !isnan(r->t[L][j]))
			sum += x[m++] = log(r->t[c][j] / r->t[L][j]);
	*k = m;
	*mean = m ? sum / m : 0;
	for (int i = 0; i < m; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	return ss;
}

/* The pooled spread s and its degrees of freedom over the racing
 * candidates' pairs with the leader L; nu 0 when there is none. */
static double pooled(const struct hm_race *r, int L, int *nu)
{
	double ss = 0, mean;

	*nu = 0;
	for (int c = 0; c < r->n; c++) {
		int k;

		if (c == L || !r->racing[c])
			continue;
		ss += paired(r, c, L, &mean, &k);
		*nu += k > 1 ? k - 1 : 0;
	}
	return *nu ? sqrt(ss / *nu) : 0;
}

int hm_race_settled(const struct hm_race *r, double tolerance)
{
	int L = hm_race_leader(r), nu, others = 0;
	double s, mean;

	if (L < 0 || hm_race_left(r) < 2)
		return 0;
	s = pooled(r, L, &nu);
	if (nu < 1)
		return 0;
	for (int c = 0; c < r->n; c++) {
		int k;

		if (c == L || !r->racing[c])
			continue;
		others++;
		paired(r, c, L, &mean, &k);
		if (k < 2 || mean + hm_t95(nu) * s / sqrt(k) >= log(1 + tolerance))
			return 0;
	}
	return others > 0;
}

int hm_race_eliminate(struct hm_race *r)
{
	int L = hm_race_leader(r), nu, dropped = 0;
	double s, mean;

	if (L < 0)
		return 0;
	s = pooled(r, L, &nu);
	if (nu < 1)
		return 0;
	for (int c = 0; c < r->n; c++) {
		double bound;
		int k;

		if (c == L || !r->racing[c])
			continue;
		paired(r, c, L, &mean, &k);
		bound = hm_t95(nu) * s / sqrt(k > 0 ? k : 1);
		if (k > 0 && mean > bound) {
			r->racing[c] = 0;
			dropped++;
			snprintf(r->fate[c], sizeof(r->fate[c]),
				 "dropped after %d runs: %.1f %% slower than the leader, beyond the spread (%.1f %%)",
				 r->runs[c], 100 * (exp(mean) - 1), 100 * (exp(bound) - 1));
		}
	}
	return dropped;
}

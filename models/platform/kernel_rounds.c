/* models/platform/kernel_rounds.c - see kernel_rounds.h. */
#include "kernel_rounds.h"
#include "models/util/median.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_SAMPLES = 4096 };

/* Each b on its own: its median, notch and spread. */
static void unpaired(const double *const *samples, const int *n, int nbs, struct hm_kernel_rounds *out)
{
	static double v[MAX_SAMPLES];

	out->level_notch = 0;
	for (int b = 0; b < nbs; b++) {
		int m = n[b] < MAX_SAMPLES ? n[b] : MAX_SAMPLES;

		memcpy(v, samples[b], (size_t)m * sizeof(double));
		out->shape_notch[b] = hm_relative_notch(v, m, &out->k[b]);
		out->spread[b] = (v[m - 1] - v[0]) / out->k[b];
		out->level_notch = fmax(out->level_notch, out->shape_notch[b]);
	}
}

void hm_kernel_rounds(const double *const *samples, const int *n, int nbs, struct hm_kernel_rounds *out)
{
	static double level[MAX_SAMPLES], ratio[MAX_SAMPLES];
	int rounds = n[0], same = rounds >= 3 && rounds <= MAX_SAMPLES;
	double level_median;

	memset(out, 0, sizeof(*out));
	for (int b = 1; b < nbs; b++)
		same &= n[b] == rounds;
	unpaired(samples, n, nbs, out);     /* the spreads; and the values when not paired */
	if (!same || nbs < 2)
		return;
	out->paired = 1;
	for (int i = 0; i < rounds; i++) {
		double log_sum = 0;

		for (int b = 0; b < nbs; b++)
			log_sum += log(samples[b][i]);
		level[i] = exp(log_sum / nbs);
	}
	for (int b = 0; b < nbs; b++) {
		double shape;

		for (int i = 0; i < rounds; i++)
			ratio[i] = samples[b][i] / level[i];
		out->shape_notch[b] = hm_relative_notch(ratio, rounds, &shape);
		out->k[b] = shape;  /* times the level's median, below */
	}
	out->level_notch = hm_relative_notch(level, rounds, &level_median);
	for (int b = 0; b < nbs; b++)
		out->k[b] *= level_median;
}

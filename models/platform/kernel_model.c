/* models/platform/kernel_model.c - see kernel_model.h.
 *
 * The fit is Lawson and Hanson's active-set method for non-negative least
 * squares, on at most five terms: the normal equations of the free terms are
 * solved directly. The columns are scaled to unit norm first (m n k and 1
 * differ by ten orders of magnitude). */
#include "kernel_model.h"

#include <math.h>
#include <string.h>

static const char *const dgemm_terms[] = { "mnk", "mn", "mk", "nk", "1", NULL };
static const char *const dtrsm_terms[] = { "ttr", "tr", "tt", "1", NULL };
static const char *const dger_terms[] = { "mn", "m", "n", "1", NULL };

const char *hm_kernel_name(enum hm_kernel k)
{
	return (unsigned)k < HM_NR_KERNELS ? hm_kernel_names()[k] : "?";
}

const char *const *hm_kernel_term_names(enum hm_kernel k)
{
	return k == HM_KERNEL_DGEMM ? dgemm_terms : k == HM_KERNEL_DTRSM ? dtrsm_terms : dger_terms;
}

double hm_kernel_seconds(const struct hm_kernel_model *m, enum hm_kernel k, double x, double y, double z)
{
	double term[HM_KERNEL_MAX_TERMS], t = 0;
	int nt = hm_kernel_terms(k, x, y, z, term);

	for (int i = 0; i < nt && i < m->nterms; i++)
		t += m->c[i] * term[i];
	return t;
}

enum { N = HM_KERNEL_MAX_TERMS };

/* Least squares on the free columns (free_[j]) of the n x nt system whose
 * normal equations are G z = h: z[j] for the free ones, 0 for the others.
 * 0, or -1 when the free columns are dependent. */
static int solve_free(const double G[N][N], const double *h, const int *free_, int nt, double *z)
{
	double M[N][N + 1];
	int idx[N], nf = 0;

	for (int j = 0; j < nt; j++) {
		z[j] = 0;
		if (free_[j])
			idx[nf++] = j;
	}
	for (int a = 0; a < nf; a++) {
		for (int b = 0; b < nf; b++)
			M[a][b] = G[idx[a]][idx[b]];
		M[a][nf] = h[idx[a]];
	}
	for (int col = 0; col < nf; col++) {         /* Gauss-Jordan, partial pivoting */
		int piv = col;

		for (int r = col + 1; r < nf; r++)
			if (fabs(M[r][col]) > fabs(M[piv][col]))
				piv = r;
		if (fabs(M[piv][col]) < 1e-14)
			return -1;
		for (int c = 0; c <= nf; c++) {
			double t = M[col][c];

			M[col][c] = M[piv][c], M[piv][c] = t;
		}
		for (int r = 0; r < nf; r++) {
			double f = M[r][col] / M[col][col];

			if (r != col)
				for (int c = col; c <= nf; c++)
					M[r][c] -= f * M[col][c];
		}
	}
	for (int a = 0; a < nf; a++)
		z[idx[a]] = M[a][nf] / M[a][a];
	return 0;
}

int hm_kernel_fit(enum hm_kernel k, const double (*shape)[3], const double *seconds, int count,
		  struct hm_kernel_model *out)
{
	double G[N][N] = { { 0 } }, h[N] = { 0 }, scale[N] = { 0 }, x[N] = { 0 }, z[N], w[N];
	int free_[N] = { 0 }, nt = 0;

	memset(out, 0, sizeof(*out));
	for (int i = 0; i < count; i++) {               /* column norms of the weighted rows */
		double t[N];

		nt = hm_kernel_terms(k, shape[i][0], shape[i][1], shape[i][2], t);
		for (int j = 0; j < nt; j++)
			scale[j] += t[j] * t[j] / (seconds[i] * seconds[i]);
	}
	if (count < nt || nt == 0)
		return -1;
	for (int j = 0; j < nt; j++)
		scale[j] = scale[j] > 0 ? 1 / sqrt(scale[j]) : 1;
	for (int i = 0; i < count; i++) {               /* normal equations, rows / seconds */
		double t[N];

		hm_kernel_terms(k, shape[i][0], shape[i][1], shape[i][2], t);
		for (int a = 0; a < nt; a++) {
			for (int b = 0; b < nt; b++)
				G[a][b] += t[a] * scale[a] * t[b] * scale[b] / (seconds[i] * seconds[i]);
			h[a] += t[a] * scale[a] / seconds[i];
		}
	}
	for (int iter = 0; iter < 3 * N; iter++) {
		int best = -1;

		for (int j = 0; j < nt; j++) {              /* w = h - G x: the gradient */
			w[j] = h[j];
			for (int c = 0; c < nt; c++)
				w[j] -= G[j][c] * x[c];
			if (!free_[j] && w[j] > 1e-12 && (best < 0 || w[j] > w[best]))
				best = j;
		}
		if (best < 0)
			break;
		free_[best] = 1;
		for (;;) {
			double alpha = 1;
			int bounded = 0;

			if (solve_free(G, h, free_, nt, z)) {
				free_[best] = 0;
				break;
			}
			for (int j = 0; j < nt; j++)
				if (free_[j] && z[j] <= 0) {
					double a = x[j] / (x[j] - z[j]);

					if (a < alpha)
						alpha = a;
					bounded = 1;
				}
			if (!bounded) {
				memcpy(x, z, sizeof(x));
				break;
			}
			for (int j = 0; j < nt; j++) {
				x[j] += alpha * (z[j] - x[j]);
				if (free_[j] && x[j] <= 1e-15)
					free_[j] = 0, x[j] = 0;
			}
		}
	}
	out->nterms = nt;
	for (int j = 0; j < nt; j++)
		out->c[j] = x[j] > 0 ? x[j] * scale[j] : 0;
	return 0;
}

/* mapper/tune/learn.c - see learn.h. */
#include "learn.h"
#include "models/platform/corrections.h"
#include "models/util/json_read.h"
#include "models/util/median.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PARAMS 16
#define MAX_ITERATIONS 60
#define STEP 1e-4               /* numerical derivative, in log factor */
/* A weak prior on every log factor, N(0, PRIOR^2), against runs whose
 * log error spreads by sigma (the one-factor fit's): a factor beyond e or
 * 1/e must earn it. Without it a term the runs barely see (dtrsm's share
 * of a small LU) takes any value at all, and predicts nonsense at
 * another n. */
#define PRIOR 1.0

enum param_kind { COMPUTE, THREADS, COMM };

/* One parameter: the log of a factor on a kind of term, of one type or of
 * all (-1), of one phase or of all (-1: compute). */
struct param {
	enum param_kind kind;
	int type, phase;
};

/* A term set being fitted. */
struct fit {
	struct hm_platform *p;
	const struct hm_model *m;
	const struct hm_history *h;
	struct param par[MAX_PARAMS];
	int k;
	struct hm_factors f;            /* scratch: theta's factors */
	double *r, *r2, *J;             /* residuals, trial residuals, (N + k) x k: the runs', then the prior's */
	double data_ss;                 /* the runs' sum of squares at the last residuals() */
	double prior_weight;            /* sigma / PRIOR: a prior row's weight against a run's */
};

/* theta's factors into f->f. */
static void factors(struct fit *f, const double *theta)
{
	int T = f->p->nr_types;

	for (int i = 0; i < T * HM_NR_PHASES; i++)
		f->f.compute[i] = 1;
	for (int ty = 0; ty < T; ty++)
		f->f.threads[ty] = 1;
	f->f.comm = 1;
	for (int j = 0; j < f->k; j++) {
		double x = exp(theta[j]);

		if (f->par[j].kind == COMM)
			f->f.comm = x;
		for (int ty = 0; f->par[j].kind != COMM && ty < T; ty++) {
			if (f->par[j].type >= 0 && f->par[j].type != ty)
				continue;
			if (f->par[j].kind == THREADS)
				f->f.threads[ty] *= x;
			for (int ph = 0; f->par[j].kind == COMPUTE && ph < HM_NR_PHASES; ph++)
				if (f->par[j].phase < 0 || f->par[j].phase == ph)
					f->f.compute[ty * HM_NR_PHASES + ph] *= x;
		}
	}
}

/* Residuals log(measured / predicted) under theta into r[0..N-1], the
 * prior's theta sigma / PRIOR into r[N..N+k-1]; their sum of squares (the runs'
 * alone into f->data_ss), or INFINITY when a run cannot be priced. */
static double residuals(struct fit *f, const double *theta, double *r)
{
	double ss = 0;
	int bad = 0, N = f->h->n;

	factors(f, theta);
	hm_platform_scale(f->p, &f->f, 0);
	for (int i = 0; i < f->h->n; i++) {
		double t = hm_observation_price(f->p, f->m, &f->h->o[i]);

		bad |= !(t > 0);
		r[i] = t > 0 ? log(f->h->o[i].measured / t) : 0;
		ss += r[i] * r[i];
	}
	hm_platform_scale(f->p, &f->f, 1);
	f->data_ss = ss;
	for (int j = 0; j < f->k; j++) {
		r[N + j] = theta[j] * f->prior_weight;
		ss += r[N + j] * r[N + j];
	}
	return bad ? INFINITY : ss;
}

/* Solve A x = b (k x k, A overwritten) by Gauss-Jordan with pivoting;
 * inverse of A into inv when not NULL. 0, or -1 when singular. */
static int solve(double *A, double *b, int k, double *inv)
{
	double I[MAX_PARAMS * MAX_PARAMS];

	for (int i = 0; i < k * k; i++)
		I[i] = i / k == i % k;
	for (int c = 0; c < k; c++) {
		int piv = c;

		for (int i = c + 1; i < k; i++)
			if (fabs(A[i * k + c]) > fabs(A[piv * k + c]))
				piv = i;
		if (!(fabs(A[piv * k + c]) > 1e-12))
			return -1;
		for (int j = 0; j < k; j++) {
			double t = A[c * k + j];

			A[c * k + j] = A[piv * k + j], A[piv * k + j] = t;
			t = I[c * k + j], I[c * k + j] = I[piv * k + j], I[piv * k + j] = t;
		}
		{
			double t = b[c];

			b[c] = b[piv], b[piv] = t;
		}
		for (int i = 0; i < k; i++) {
			double q;

			if (i == c)
				continue;
			q = A[i * k + c] / A[c * k + c];
			for (int j = 0; j < k; j++)
				A[i * k + j] -= q * A[c * k + j], I[i * k + j] -= q * I[c * k + j];
			b[i] -= q * b[c];
		}
	}
	for (int c = 0; c < k; c++) {
		b[c] /= A[c * k + c];
		for (int j = 0; inv && j < k; j++)
			inv[c * k + j] = I[c * k + j] / A[c * k + c];
	}
	return 0;
}

/* J = d r / d theta at theta (r given), by forward differences. */
static int jacobian(struct fit *f, const double *theta, const double *r)
{
	double t[MAX_PARAMS];
	int N = f->h->n + f->k;

	memcpy(t, theta, (size_t)f->k * sizeof(double));
	for (int j = 0; j < f->k; j++) {
		t[j] += STEP;
		if (!isfinite(residuals(f, t, f->r2)))
			return -1;
		t[j] = theta[j];
		for (int i = 0; i < N; i++)
			f->J[i * f->k + j] = (f->r2[i] - r[i]) / STEP;
	}
	return 0;
}

/* J^T J (k x k) and J^T r. */
static void normal_equations(const struct fit *f, const double *r, double *A, double *g)
{
	int N = f->h->n + f->k, k = f->k;

	for (int a = 0; a < k; a++) {
		g[a] = 0;
		for (int i = 0; i < N; i++)
			g[a] += f->J[i * k + a] * r[i];
		for (int b = 0; b < k; b++) {
			A[a * k + b] = 0;
			for (int i = 0; i < N; i++)
				A[a * k + b] += f->J[i * k + a] * f->J[i * k + b];
		}
	}
}

static double clamp_log(double x)
{
	double lo = log(HM_CORRECTION_MIN), hi = log(HM_CORRECTION_MAX);

	return x < lo ? lo : x > hi ? hi : x;
}

/* Leave out the parameters no run depends on (a phase the platform
 * charges nothing, a thread factor of a type no run gave threads):
 * their column of the Jacobian at theta = 0 is zero. */
static void drop_unused(struct fit *f)
{
	double theta[MAX_PARAMS] = { 0 };
	int N = f->h->n, kept = 0;

	if (!f->k || !isfinite(residuals(f, theta, f->r)) || jacobian(f, theta, f->r))
		return;
	for (int j = 0; j < f->k; j++) {
		double norm = 0;

		for (int i = 0; i < N; i++)
			norm += f->J[i * f->k + j] * f->J[i * f->k + j];
		if (norm > 1e-12)
			f->par[kept++] = f->par[j];
	}
	f->k = kept;
}

/* Levenberg-Marquardt from theta = 0: the runs' sum of squares at the
 * least of runs and prior together, theta and the standard errors of its
 * entries (se) filled; INFINITY when the set cannot be fitted. */
static double least_squares(struct fit *f, double *theta, double *se)
{
	double A[MAX_PARAMS * MAX_PARAMS], g[MAX_PARAMS], d[MAX_PARAMS], trial[MAX_PARAMS];
	double inv[MAX_PARAMS * MAX_PARAMS], lambda = 1e-3, ss;
	int N = f->h->n, k = f->k;

	memset(theta, 0, (size_t)k * sizeof(double));
	ss = residuals(f, theta, f->r);
	for (int it = 0; it < MAX_ITERATIONS && k > 0 && isfinite(ss); it++) {
		double better;

		if (jacobian(f, theta, f->r))
			return INFINITY;
		normal_equations(f, f->r, A, g);
		for (int a = 0; a < k; a++)
			if (!(A[a * k + a] > 1e-12))    /* a term no run depends on */
				return INFINITY;
		for (;;) {
			double M[MAX_PARAMS * MAX_PARAMS];

			memcpy(M, A, sizeof(double) * (size_t)(k * k));
			for (int a = 0; a < k; a++)
				M[a * k + a] *= 1 + lambda, d[a] = -g[a];
			/* r = log m - log T falls as theta's factors grow: J < 0; d solves (M) d = -J^T r */
			if (solve(M, d, k, NULL))
				return INFINITY;
			for (int a = 0; a < k; a++)
				trial[a] = clamp_log(theta[a] + d[a]);
			better = residuals(f, trial, f->r2);
			if (better < ss || lambda > 1e8)
				break;
			lambda *= 10;
		}
		if (!(better < ss))
			break;
		memcpy(theta, trial, (size_t)k * sizeof(double));
		memcpy(f->r, f->r2, (size_t)(N + k) * sizeof(double));
		lambda = lambda > 1e-7 ? lambda / 10 : lambda;
		if (ss - better < 1e-12 * (ss > 1e-300 ? ss : 1)) {
			ss = better;
			break;
		}
		ss = better;
	}
	for (int a = 0; a < k; a++)
		se[a] = 0;
	if (!isfinite(ss = residuals(f, theta, f->r)))
		return INFINITY;
	ss = f->data_ss;
	if (k > 0 && N > k && !jacobian(f, theta, f->r)) {
		normal_equations(f, f->r, A, g);
		if (!solve(A, g, k, inv))
			for (int a = 0; a < k; a++)
				se[a] = sqrt(fabs(inv[a * k + a]) * ss / (N - k));
	}
	return ss;
}

/* Akaike's criterion corrected for N runs, k factors and the spread. */
static double aicc(double rss, int N, int k)
{
	int q = k + 1;

	if (N - q - 1 < 1 || !isfinite(rss))
		return INFINITY;
	return N * log((rss > 1e-300 ? rss : 1e-300) / N) + 2.0 * q + 2.0 * q * (q + 1) / (N - q - 1);
}

/* What the runs can tell apart: types used, types run with threads, runs of two processes. */
struct coverage {
	int *used, *threaded;           /* per type */
	int nused, nthreaded, multi;
	int lu_sizes;                   /* distinct n of the LU runs, counted up to 2 */
	double lu_n;
};

static void cover(const struct hm_platform *p, const struct hm_history *h, struct coverage *c)
{
	for (int i = 0; i < h->n; i++) {
		const struct hm_observation *o = &h->o[i];

		c->multi |= o->D > 1;
		if (o->routine == HM_ROUTINE_LU && c->lu_sizes < 2 && (!c->lu_sizes || o->n != c->lu_n))
			c->lu_n = o->n, c->lu_sizes++;
		for (int q = 0; q < p->nr_procs; q++) {
			int ty = p->procs[q].type;

			if (!o->d[q])
				continue;
			c->used[ty] = 1;
			if (o->threads[q] > 1)
				c->threaded[ty] = 1;
		}
	}
	for (int ty = 0; ty < p->nr_types; ty++)
		c->nused += c->used[ty], c->nthreaded += c->threaded[ty];
}

/* The term sets (learn.h), in the order tried. per_type: -1 no compute
 * factor, 0 one, 1 one per type used, 2 one per phase; threads: 0 none,
 * 1 one, 2 one per type run with threads. */
static const struct { const char *name; int per_type, comm, threads; } term_sets[HM_LEARN_MAX_SETS] = {
	{ "none", -1, 0, 0 },
	{ "compute", 0, 0, 0 },
	{ "compute, communication", 0, 1, 0 },
	{ "compute per type", 1, 0, 0 },
	{ "compute per type, communication", 1, 1, 0 },
	{ "compute, threads", 0, 0, 1 },
	{ "compute, communication, threads", 0, 1, 1 },
	{ "compute per type, communication, threads per type", 1, 1, 2 },
	{ "phases, communication", 2, 1, 0 },
	{ "phases, communication, threads", 2, 1, 1 },
};

const char *hm_learn_term_sets(const char *sep, char *buf, size_t size)
{
	buf[0] = '\0';
	for (int s = 0; s < HM_LEARN_MAX_SETS; s++)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", s ? sep : "", term_sets[s].name);
	return buf;
}

/* Term set s as parameters into f; 0, or -1 when the runs cannot support it. */
static int term_set(struct fit *f, const struct coverage *c, int s, char *name, size_t size)
{
	const struct hm_platform *p = f->p;

	snprintf(name, size, "%s", term_sets[s].name);
	f->k = 0;
	/* at one n, a configuration's phases keep their shares whatever its grid
	 * and b: their factors cannot be told apart from one another, and
	 * fitted anyway they describe that n only */
	if ((term_sets[s].per_type == 1 && c->nused < 2) || (term_sets[s].per_type == 2 && c->lu_sizes < 2) ||
	    (term_sets[s].comm && !c->multi) || (term_sets[s].threads && !c->nthreaded) ||
	    (term_sets[s].threads == 2 && c->nthreaded < 2 && c->nused < 2))
		return -1;
	if (term_sets[s].per_type == 0)
		f->par[f->k++] = (struct param){ COMPUTE, -1, -1 };
	for (int ty = 0; term_sets[s].per_type == 1 && ty < p->nr_types && f->k < MAX_PARAMS - 2; ty++)
		if (c->used[ty])
			f->par[f->k++] = (struct param){ COMPUTE, ty, -1 };
	for (int ph = 0; term_sets[s].per_type == 2 && ph < HM_NR_PHASES; ph++)
		f->par[f->k++] = (struct param){ COMPUTE, -1, ph };
	if (term_sets[s].comm)
		f->par[f->k++] = (struct param){ COMM, -1, -1 };
	if (term_sets[s].threads == 1)
		f->par[f->k++] = (struct param){ THREADS, -1, -1 };
	for (int ty = 0; term_sets[s].threads == 2 && ty < p->nr_types && f->k < MAX_PARAMS; ty++)
		if (c->threaded[ty])
			f->par[f->k++] = (struct param){ THREADS, ty, -1 };
	return 0;
}

/* The factors of theta into l, with their standard errors. */
static void keep(struct fit *f, const double *theta, const double *se, struct hm_learned *l)
{
	int T = f->p->nr_types;

	factors(f, theta);
	memcpy(l->f.compute, f->f.compute, (size_t)T * HM_NR_PHASES * sizeof(double));
	memcpy(l->f.threads, f->f.threads, (size_t)T * sizeof(double));
	l->f.comm = f->f.comm;
	for (int i = 0; i < T * (HM_NR_PHASES + 1); i++)
		l->se.compute[i] = 0;
	l->se.comm = 0;
	for (int j = 0; j < f->k; j++)
		for (int ty = 0; ty < T; ty++) {
			if (f->par[j].kind == COMM)
				l->se.comm = se[j];
			else if (f->par[j].type >= 0 && f->par[j].type != ty)
				continue;
			else if (f->par[j].kind == THREADS)
				l->se.threads[ty] = se[j];
			for (int ph = 0; f->par[j].kind == COMPUTE && ph < HM_NR_PHASES; ph++)
				if (f->par[j].phase < 0 || f->par[j].phase == ph)
					l->se.compute[ty * HM_NR_PHASES + ph] = se[j];
		}
}

void hm_learned_release(struct hm_learned *l)
{
	hm_factors_release(&l->f);
	hm_factors_release(&l->se);
	memset(l, 0, sizeof(*l));
}

int hm_learn(struct hm_platform *p, const struct hm_model *m, const struct hm_history *h,
	     struct hm_learned *out, struct hm_error *err)
{
	int N = h->n, T = p->nr_types, best = 0, ret = 0, one_n, i;
	struct coverage c = { 0 };
	struct fit f = { .p = p, .m = m, .h = h };
	double theta[MAX_PARAMS], se[MAX_PARAMS], least = INFINITY;

	memset(out, 0, sizeof(*out));
	if (N < 3)
		return hm_error_set(err, "%d measured run%s of this platform: at least 3 are needed to learn from",
				    N, N == 1 ? "" : "s");
	f.r = malloc((size_t)(N + MAX_PARAMS) * (2 + MAX_PARAMS) * sizeof(double));
	c.used = calloc(2 * (size_t)T + 1, sizeof(int));
	if (hm_factors_init(&out->f, p) || hm_factors_init(&out->se, p) || hm_factors_init(&f.f, p) || !f.r ||
	    !c.used) {
		ret = hm_error_set(err, "out of memory");
		goto out;
	}
	out->runs = N;
	f.r2 = f.r + N + MAX_PARAMS, f.J = f.r2 + N + MAX_PARAMS;
	c.threaded = c.used + T;
	cover(p, h, &c);
	for (int s = 0; s < HM_LEARN_MAX_SETS; s++) {
		double rss;

		out->sets[s].aicc = INFINITY;
		out->sets[s].parameters = -1;
		if (term_set(&f, &c, s, out->sets[s].terms, sizeof(out->sets[s].terms)))
			continue;
		drop_unused(&f);
		out->sets[s].parameters = f.k;
		rss = least_squares(&f, theta, se);
		/* the one-factor fit, unweighted, measures the runs' spread for the others' prior */
		if (s == 1 && isfinite(rss))
			f.prior_weight = sqrt(fmax(rss / (N > 1 ? N - 1 : 1), 1e-4)) / PRIOR;
		out->sets[s].rss = rss;
		out->sets[s].aicc = aicc(rss, N, f.k);
		if (out->sets[s].aicc < least || s == 0) {
			least = out->sets[s].aicc;
			best = s;
			keep(&f, theta, se, out);
		}
	}
	out->nr_sets = HM_LEARN_MAX_SETS;
	snprintf(out->terms, sizeof(out->terms), "%s", out->sets[best].terms);
	/* one n: a factor that corrects this n's error may not correct another's
	 * (experiments/README.md, "Tuning by real runs": LU learned at 3000 erred
	 * more at 6000 than the model alone) */
	for (one_n = 1, i = 1; i < N && one_n; i++)
		one_n = h->o[i].n == h->o[0].n;
	if (one_n)
		snprintf(out->caveat, sizeof(out->caveat), "every run at n = %.0f: the factors correct this n; "
			 "at another n they may err more than the model alone", h->o[0].n);
	hm_learn_score(p, m, h, NULL, &out->mape_before, &out->spearman_before);
	out->configurations = hm_learn_score(p, m, h, out, &out->mape_after, &out->spearman_after);
out:
	hm_factors_release(&f.f);
	free(f.r), free(c.used);
	if (ret)
		hm_learned_release(out);
	return ret;
}

/* Runs of one problem (routine, n, program): their configurations are ranked together. */
static int same_group(const struct hm_observation *a, const struct hm_observation *b)
{
	return a->routine == b->routine && a->n == b->n && !strcmp(a->program, b->program);
}

/* Runs of one configuration in one group: comparable, one median. */
static int same_config(const struct hm_observation *a, const struct hm_observation *b, int P)
{
	return same_group(a, b) && a->r == b->r && a->c == b->c && a->b == b->b &&
	       !memcmp(a->d, b->d, (size_t)P * sizeof(int)) && !memcmp(a->threads, b->threads, (size_t)P * sizeof(int));
}

/* Average ranks of x[0..n-1] into rank[]. */
static void ranks(const double *x, int n, double *rank)
{
	for (int i = 0; i < n; i++) {
		int below = 0, equal = 0;

		for (int j = 0; j < n; j++)
			below += x[j] < x[i], equal += x[j] == x[i];
		rank[i] = below + (equal + 1) / 2.0;
	}
}

static double spearman(const double *a, const double *b, int n)
{
	double *ra = malloc(2 * (size_t)n * sizeof(double)), *rb, ma = 0, sab = 0, saa = 0, sbb = 0;

	if (!ra)
		return NAN;
	rb = ra + n;
	ranks(a, n, ra), ranks(b, n, rb);
	for (int i = 0; i < n; i++)
		ma += ra[i] / n;
	for (int i = 0; i < n; i++)
		sab += (ra[i] - ma) * (rb[i] - ma), saa += (ra[i] - ma) * (ra[i] - ma), sbb += (rb[i] - ma) * (rb[i] - ma);
	free(ra);
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : NAN;
}

int hm_learn_score(struct hm_platform *p, const struct hm_model *m, const struct hm_history *h,
		   const struct hm_learned *l, double *mape, double *spearman_mean)
{
	int N = h->n, nc = 0, groups = 0;
	int *rep = malloc((size_t)(N > 0 ? N : 1) * 2 * sizeof(int)), *group;
	double *meas = malloc((size_t)(N > 0 ? N : 1) * 4 * sizeof(double)), *pred, *runs, *rho_x;
	double err = 0, rho = 0;

	*mape = *spearman_mean = NAN;
	if (!rep || !meas || !N) {
		free(rep), free(meas);
		return -1;
	}
	group = rep + N, pred = meas + N, runs = pred + N, rho_x = runs + N;
	if (l)
		hm_platform_scale(p, &l->f, 0);
	/* one entry per configuration: its runs' median and its price */
	for (int i = 0; i < N; i++) {
		int k = 0, m_runs = 0;

		while (k < nc && !same_config(&h->o[rep[k]], &h->o[i], h->P))
			k++;
		if (k < nc)
			continue;
		rep[nc] = i;
		for (int j = i; j < N; j++)
			if (same_config(&h->o[j], &h->o[i], h->P))
				runs[m_runs++] = h->o[j].measured;
		meas[nc] = hm_median(runs, m_runs);
		pred[nc] = hm_observation_price(p, m, &h->o[i]);
		err += pred[nc] > 0 ? fabs(pred[nc] - meas[nc]) / meas[nc] : 1;
		nc++;
	}
	if (l)
		hm_platform_scale(p, &l->f, 1);
	*mape = 100 * err / nc;
	/* Spearman per group of 3 configurations or more */
	for (int k = 0; k < nc; k++)
		group[k] = -1;
	for (int k = 0; k < nc; k++) {
		int n = 0;

		if (group[k] >= 0)
			continue;
		for (int j = k; j < nc; j++)
			if (group[j] < 0 && same_group(&h->o[rep[j]], &h->o[rep[k]])) {
				group[j] = k;
				runs[n] = meas[j], rho_x[n] = pred[j], n++;
			}
		if (n >= 3) {
			double r = spearman(runs, rho_x, n);

			if (!isnan(r))
				rho += r, groups++;
		}
	}
	*spearman_mean = groups ? rho / groups : NAN;
	free(rep), free(meas);
	return nc;
}

void hm_learned_apply(struct hm_platform *p, const struct hm_learned *l)
{
	char text[sizeof(p->corrections_note)];

	hm_platform_scale(p, &l->f, 0);
	snprintf(p->corrections_note, sizeof(p->corrections_note), "learned from %d runs (%s): %s", l->runs, l->terms,
		 hm_factors_text(p, &l->f, text, sizeof(text)));
}

#define MAX_PLATFORM_DOC ((size_t)16 << 20)

int hm_learn_load_base(const char *path, struct hm_platform **p, cJSON **doc, struct hm_error *err)
{
	cJSON *corr;
	char *text;
	uint64_t base = 0;
	int ret;

	*p = NULL, *doc = NULL;
	if (hm_platform_load(path, p, err))
		return -1;
	base = (*p)->base_digest;
	hm_platform_free(*p);
	*p = NULL;
	/* its document, to write a corrected copy of (a built-in platform's too) */
	if (!strncmp(path, "builtin:", 8)) {
		if (!(*doc = cJSON_Parse(hm_platform_builtin_json(path + 8))))
			return hm_error_set(err, "out of memory");
	} else if (!(*doc = hm_json_read_file(path, MAX_PLATFORM_DOC, err))) {
		return -1;
	}
	/* the values as measured: the file without its corrections */
	if ((corr = cJSON_DetachItemFromObjectCaseSensitive(*doc, "corrections")))
		cJSON_Delete(corr);
	if (!(text = cJSON_PrintUnformatted(*doc))) {
		cJSON_Delete(*doc);
		*doc = NULL;
		return hm_error_set(err, "out of memory");
	}
	ret = hm_platform_load_buffer(text, strlen(text), path, p, err);
	free(text);
	if (ret) {
		cJSON_Delete(*doc);
		*doc = NULL;
		return -1;
	}
	(*p)->base_digest = base;
	return 0;
}

/* {"TYPE": factor} of the types whose factor f[ty] is not 1, or NULL when none. */
static cJSON *per_type_json(const struct hm_platform *p, const double *f)
{
	cJSON *o = NULL;

	for (int ty = 0; ty < p->nr_types; ty++) {
		double v = f[ty];

		if (v == 1)
			continue;
		if (!o)
			o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, p->types[ty].name, v);
	}
	return o;
}

/* The standard errors as {"what TYPE": se} where learned. */
static cJSON *errors_json(const struct hm_platform *p, const struct hm_learned *l)
{
	cJSON *se = cJSON_CreateObject();
	char key[320];

	for (int ty = 0; ty < p->nr_types; ty++) {
		for (int ph = 0; ph < HM_NR_PHASES; ph++)
			if (l->se.compute[ty * HM_NR_PHASES + ph] > 0) {
				snprintf(key, sizeof(key), "%s %s", hm_phase_name(ph), p->types[ty].name);
				cJSON_AddNumberToObject(se, key, l->se.compute[ty * HM_NR_PHASES + ph]);
			}
		if (l->se.threads[ty] > 0) {
			snprintf(key, sizeof(key), "threads %s", p->types[ty].name);
			cJSON_AddNumberToObject(se, key, l->se.threads[ty]);
		}
	}
	if (l->se.comm > 0)
		cJSON_AddNumberToObject(se, "communication", l->se.comm);
	return se;
}

void hm_learn_scores_json(cJSON *o, double mape_before, double mape_after, double rho_before, double rho_after)
{
	cJSON_AddNumberToObject(o, "mape_before_percent", mape_before);
	cJSON_AddNumberToObject(o, "mape_after_percent", mape_after);
	if (!isnan(rho_before))
		cJSON_AddNumberToObject(o, "spearman_before", rho_before);
	if (!isnan(rho_after))
		cJSON_AddNumberToObject(o, "spearman_after", rho_after);
}

cJSON *hm_learned_json(const struct hm_platform *p, const struct hm_learned *l, const char *model,
		       const char *const *sources, int nsources)
{
	cJSON *o = cJSON_CreateObject(), *learned, *sets, *files, *e;
	char digest[32];

	if (!o)
		return NULL;
	cJSON_AddStringToObject(o, "base_digest", hm_digest_text(p->base_digest, digest, sizeof(digest)));
	/* a type whose phases share one factor says it once, as compute */
	for (int ty = 0; ty < p->nr_types; ty++) {
		const double *c = l->f.compute + (size_t)ty * HM_NR_PHASES;
		int same = 1;

		for (int ph = 1; ph < HM_NR_PHASES; ph++)
			same &= c[ph] == c[0];
		for (int ph = 0; ph < HM_NR_PHASES && c[0] != 1; ph++) {
			const char *key = same ? "compute" : hm_phase_name(ph);
			cJSON *at = cJSON_GetObjectItemCaseSensitive(o, key);

			if (c[ph] == 1 || (same && ph))
				continue;
			if (!at)
				at = cJSON_AddObjectToObject(o, key);
			cJSON_AddNumberToObject(at, p->types[ty].name, c[ph]);
		}
	}
	if ((e = per_type_json(p, l->f.threads)))
		cJSON_AddItemToObject(o, "threads", e);
	cJSON_AddNumberToObject(o, "communication", l->f.comm);
	learned = cJSON_AddObjectToObject(o, "learned");
	cJSON_AddStringToObject(learned, "model", model);
	cJSON_AddStringToObject(learned, "terms", l->terms);
	if (l->caveat[0])
		cJSON_AddStringToObject(learned, "caveat", l->caveat);
	cJSON_AddNumberToObject(learned, "runs", l->runs);
	cJSON_AddNumberToObject(learned, "configurations", l->configurations);
	files = cJSON_AddArrayToObject(learned, "from");
	for (int i = 0; i < nsources; i++)
		cJSON_AddItemToArray(files, cJSON_CreateString(sources[i]));
	cJSON_AddItemToObject(learned, "standard_errors_of_log", errors_json(p, l));
	hm_learn_scores_json(learned, l->mape_before, l->mape_after, l->spearman_before, l->spearman_after);
	sets = cJSON_AddArrayToObject(learned, "term_sets");
	for (int s = 0; s < l->nr_sets; s++) {
		if (l->sets[s].parameters < 0)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "terms", l->sets[s].terms);
		cJSON_AddNumberToObject(e, "parameters", l->sets[s].parameters);
		if (isfinite(l->sets[s].aicc))
			cJSON_AddNumberToObject(e, "aicc", l->sets[s].aicc);
		else
			cJSON_AddNullToObject(e, "aicc");
		cJSON_AddItemToArray(sets, e);
	}
	return o;
}

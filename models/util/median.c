/* models/util/median.c - see median.h. */
#include "median.h"

#include <math.h>
#include <stdlib.h>

int hm_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double hm_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), hm_cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double hm_relative_notch(double *v, int n, double *median)
{
	*median = hm_median(v, n);
	return n > 1 ? 1.58 * (v[(3 * n) / 4] - v[n / 4]) / sqrt(n) / *median : 0;
}

/* models/util/median.h - the median of measured samples and how well it is
 * known: what every fit of a calibration reads its samples with. */
#ifndef HM_MEDIAN_H
#define HM_MEDIAN_H

/* qsort's comparison of doubles, ascending. */
int hm_cmp_double(const void *a, const void *b);

/* The median of v[0 .. n-1], n >= 1 (sorts v). */
double hm_median(double *v, int n);

/* The relative notch of v[0 .. n-1] (sorts v): 1.58 IQR / sqrt(n) / median,
 * the half-width of a box plot's 95 % notch relative to the median (0 for
 * one sample); the median into *median. */
double hm_relative_notch(double *v, int n, double *median);

#endif /* HM_MEDIAN_H */

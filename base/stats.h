/* Summary statistics of repetitions. */
#ifndef PMUCAL_STATS_H
#define PMUCAL_STATS_H
#include <stddef.h>

struct stats {
    size_t n;
    double min, max, median, mad, mean, stddev;
};

/* x is not modified. n == 0 gives all-NaN statistics. */
struct stats stats_of(const double *x, size_t n);
double stats_median(const double *x, size_t n);
/* x in ascending order, in place. */
void stats_sort(double *x, size_t n);
/* The q-quantile (0..1) of n values, interpolated between neighbouring order statistics; NaN for n 0. */
double stats_quantile(const double *x, size_t n, double q);
/* The rank r (1 = the extremes) such that the r-th smallest and the r-th largest of n values hold
 * their population's median with probability at least `coverage`, whatever its distribution:
 * 1 - 2 P(Binomial(n, 1/2) < r). The largest such r; 1 (the range) where even the extremes fall
 * short (under 6 values at 95%). For n up to 1074 (2^-n is a double's last); beyond, 1. */
int stats_median_rank(size_t n, double coverage);
/* Relative spread the protocol quotes: MAD / median (0 when the median is 0). */
double stats_rel_mad(const struct stats *s);

/* Two-sided p-value of the Mann-Whitney U test that a and b come from one distribution: exact
 * (the no-ties distribution, U with mid-ranks) up to 20 values a side, else the normal
 * approximation with the tie correction. 1 when every value is the same; NaN when a side is empty. */
double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif

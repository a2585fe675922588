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
/* Relative spread the protocol quotes: MAD / median (0 when the median is 0). */
double stats_rel_mad(const struct stats *s);

#endif

#include "stats.h"
#include "util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

double stats_median(const double *x, size_t n)
{
    if (!n)
        return NAN;
    double *s = xmalloc(n * sizeof(*s));
    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    double m = median_sorted(s, n);
    free(s);
    return m;
}

struct stats stats_of(const double *x, size_t n)
{
    struct stats st = {.n = n, .min = NAN, .max = NAN, .median = NAN, .mad = NAN, .mean = NAN, .stddev = NAN};
    if (!n)
        return st;
    double *s = xmalloc(n * sizeof(*s));
    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    st.min = s[0];
    st.max = s[n - 1];
    st.median = median_sorted(s, n);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    st.mean = sum / n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (s[i] - st.mean) * (s[i] - st.mean);
    st.stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
    for (size_t i = 0; i < n; i++)
        s[i] = fabs(s[i] - st.median);
    qsort(s, n, sizeof(*s), cmp_double);
    st.mad = median_sorted(s, n);
    free(s);
    return st;
}

double stats_rel_mad(const struct stats *s)
{
    return s->median != 0 ? s->mad / fabs(s->median) : 0;
}

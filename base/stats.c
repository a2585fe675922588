#include "base/stats.h"
#include "base/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_sort(double *x, size_t n)
{
    qsort(x, n, sizeof(*x), cmp_double);
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

double stats_quantile(const double *x, size_t n, double q)
{
    if (!n)
        return NAN;
    double *s = xmalloc(n * sizeof(*s));
    memcpy(s, x, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    /* Linear between the order statistics around rank q(n-1): q 0 is the minimum, 0.5 the median. */
    double rank = (q < 0 ? 0 : q > 1 ? 1 : q) * (double)(n - 1), f = floor(rank);
    size_t i = (size_t)f;
    double v = i + 1 < n ? s[i] + (rank - f) * (s[i + 1] - s[i]) : s[i];
    free(s);
    return v;
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

/* Arrangements of m + n values (no ties) whose U is u, for every u: f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u). */
static double mw_lower_tail(size_t m, size_t n, double u)
{
    size_t umax = m * n;
    /* f[j][u] for the current i (rows by n), rolled over m. */
    double *f = xcalloc((n + 1) * (umax + 1), sizeof(*f)), *g = xcalloc((n + 1) * (umax + 1), sizeof(*g));
    for (size_t j = 0; j <= n; j++)
        f[j * (umax + 1)] = 1;   /* i = 0: U = 0 only */
    for (size_t i = 1; i <= m; i++) {
        memset(g, 0, (n + 1) * (umax + 1) * sizeof(*g));
        g[0] = 1;                /* j = 0: U = 0 only */
        for (size_t j = 1; j <= n; j++)
            for (size_t v = 0; v <= i * j; v++)
                g[j * (umax + 1) + v] = (v >= j ? f[j * (umax + 1) + v - j] : 0) + g[(j - 1) * (umax + 1) + v];
        double *t = f;
        f = g;
        g = t;
    }
    double total = 0, tail = 0;
    for (size_t v = 0; v <= umax; v++) {
        total += f[n * (umax + 1) + v];
        if ((double)v <= u + 1e-9)
            tail += f[n * (umax + 1) + v];
    }
    free(f);
    free(g);
    return tail / total;
}

double stats_mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
    if (!na || !nb)
        return NAN;
    /* U of a: pairs where a wins, ties count a half (mid-ranks). */
    double u = 0;
    size_t ties = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            u += a[i] > b[j] ? 1 : a[i] == b[j] ? (ties++, 0.5) : 0;
    double mn = (double)na * (double)nb;
    if (ties == na * nb)
        return 1;   /* every value the same: nothing to tell apart */
    double umin = u < mn - u ? u : mn - u;
    if (na <= 20 && nb <= 20) {
        double p = 2 * mw_lower_tail(na, nb, floor(umin));
        return p > 1 ? 1 : p;
    }
    /* Large samples: the normal approximation with the tie correction over the pooled values. */
    size_t n = na + nb;
    double *all = xmalloc(n * sizeof(*all));
    memcpy(all, a, na * sizeof(*a));
    memcpy(all + na, b, nb * sizeof(*b));
    qsort(all, n, sizeof(*all), cmp_double);
    double tsum = 0;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        while (k < n && all[k] == all[i])
            k++;
        double t = (double)(k - i);
        tsum += t * t * t - t;
        i = k;
    }
    free(all);
    double var = mn / 12 * ((double)n + 1 - tsum / ((double)n * ((double)n - 1)));
    if (var <= 0)
        return 1;
    double z = (fabs(u - mn / 2) - 0.5) / sqrt(var);
    return z <= 0 ? 1 : erfc(z / sqrt(2));
}

int stats_median_rank(size_t n, double coverage)
{
    /* below: P(Binomial(n, 1/2) < r + 1), built up one term C(n, r) / 2^n at a time */
    if (n > 1074)
        return 1;
    double term = ldexp(1.0, -(int)n), below = term;
    int r = 1;
    for (size_t k = 1; 2 * (k + 1) <= n; k++) {
        term *= (double)(n - k + 1) / (double)k;
        below += term;
        if (1 - 2 * below < coverage)
            break;
        r = (int)k + 1;
    }
    return r;
}

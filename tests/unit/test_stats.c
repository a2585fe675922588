#include "base/stats.h"
#include "tap.h"

static const struct {
    int line;
    double x[8];
    int n;
    double min, median, mad, mean, stddev;
} rows[] = {
    {__LINE__, {3}, 1, 3, 3, 0, 3, 0},
    {__LINE__, {1, 2, 3, 4, 100}, 5, 1, 3, 1, 22, 43.617656},
    {__LINE__, {4, 1, 3, 2}, 4, 1, 2.5, 1, 2.5, 1.2909944},
    {__LINE__, {5, 5, 5, 5, 5, 5}, 6, 5, 5, 0, 5, 0},
    {__LINE__, {-2, 2, -1, 1}, 4, -2, 0, 1.5, 0, 1.8257419},
};

/* Mann-Whitney two-sided p: exact values from the U distribution (e.g. 2/C(10,5) at full separation). */
static const struct {
    int line;
    double a[6], b[6];
    int na, nb;
    double p;
} mw[] = {
    {__LINE__, {1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 5, 5, 2.0 / 252},
    {__LINE__, {6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}, 5, 5, 2.0 / 252},
    {__LINE__, {1, 1, 1, 1, 1}, {1.05, 1.05, 1.05, 1.05, 1.05}, 5, 5, 2.0 / 252},
    {__LINE__, {1, 2, 3}, {4, 5, 6}, 3, 3, 0.1},
    {__LINE__, {1, 3, 5, 7, 9}, {2, 4, 6, 8, 10}, 5, 5, 0.6904762},
    {__LINE__, {7, 7, 7, 7, 7}, {7, 7, 7, 7, 7}, 5, 5, 1},
};

/* The order statistics that hold a median: coverage 1 - 2 P(Binomial(n, 1/2) < r), worked by hand
 * (n 9, r 2: 1 - 2 (1 + 9) / 512 = 0.961; r 3: 1 - 2 (1 + 9 + 36) / 512 = 0.820). */
static const struct {
    int line;
    size_t n;
    double coverage;
    int rank;
} ranks[] = {
    {__LINE__, 1, 0.95, 1},  {__LINE__, 5, 0.95, 1},  /* the extremes of five: 0.9375, the best there is */
    {__LINE__, 8, 0.95, 1},                           /* the 2nd and 7th of eight: 0.930 */
    {__LINE__, 9, 0.95, 2},  {__LINE__, 11, 0.95, 2}, /* the 3rd of eleven: 0.935 */
    {__LINE__, 12, 0.95, 3}, {__LINE__, 15, 0.95, 4}, /* fifteen: 0.965; the 5th: 0.882 */
    {__LINE__, 20, 0.95, 6}, {__LINE__, 9, 0.80, 3},  {__LINE__, 9, 0.83, 2},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(ranks) / sizeof(ranks[0]); i++) {
        int r = stats_median_rank(ranks[i].n, ranks[i].coverage);
        CHECK(r == ranks[i].rank, ranks[i].line, "%zu values at %.2f: rank %d (want %d)", ranks[i].n,
              ranks[i].coverage, r, ranks[i].rank);
    }
    double x[] = {3, -1, 2.5, 2.5, 0};
    stats_sort(x, 5);
    CHECK(x[0] == -1 && x[1] == 0 && x[2] == 2.5 && x[3] == 2.5 && x[4] == 3, __LINE__, "sorted: %g %g %g %g %g",
          x[0], x[1], x[2], x[3], x[4]);
    for (unsigned i = 0; i < sizeof(mw) / sizeof(mw[0]); i++)
        CHECK_NEAR(stats_mann_whitney_p(mw[i].a, (size_t)mw[i].na, mw[i].b, (size_t)mw[i].nb), mw[i].p, 1e-6,
                   mw[i].line, "Mann-Whitney p");
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct stats s = stats_of(rows[i].x, (size_t)rows[i].n);
        CHECK_NEAR(s.min, rows[i].min, 1e-9, rows[i].line, "min");
        CHECK_NEAR(s.median, rows[i].median, 1e-9, rows[i].line, "median");
        CHECK_NEAR(s.mad, rows[i].mad, 1e-9, rows[i].line, "MAD");
        CHECK_NEAR(s.mean, rows[i].mean, 1e-9, rows[i].line, "mean");
        CHECK_NEAR(s.stddev, rows[i].stddev, 1e-6, rows[i].line, "stddev");
    }
    struct stats empty = stats_of(NULL, 0);
    CHECK(isnan(empty.median), __LINE__, "no samples give a NaN median, not 0");
    return done_testing();
}

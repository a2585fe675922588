#include "microkernels/prefetch_check.h"
#include <math.h>
#include <stdio.h>

/* The fastest timing and how far the next fastest is from it: a window another task preempted is
 * only slower, so the two fastest say what the walk costs and how well it is known. */
static void min_spread(const double *x, int n, double *min, double *spread)
{
    double lo = INFINITY, next = INFINITY;
    for (int i = 0; i < n; i++)
        if (x[i] < lo)
            next = lo, lo = x[i];
        else if (x[i] < next)
            next = x[i];
    *min = lo;
    *spread = lo > 0 && isfinite(next) ? (next - lo) / lo : INFINITY;
}

bool prefetch_withholds(const double *order_ns, const double *random_ns, int n, char *why, size_t len)
{
    double o, r, so, sr;
    min_spread(order_ns, n, &o, &so);
    min_spread(random_ns, n, &r, &sr);
    double noise = fmax(PREFETCH_MARGIN, 3 * fmax(so, sr));
    if (!(n > 0 && o > 0 && r > 0)) {
        snprintf(why, len, "the walks could not be timed, so the order is not shown to defeat the prefetchers");
        return true;
    }
    if (!isfinite(noise)) {
        snprintf(why, len, "%.1f ns a load in this order against %.1f ns in a random walk, one window each: the "
                 "noise is unknown, so the order is not shown to defeat the prefetchers", o, r);
        return true;
    }
    /* Slower than a random walk beyond the noise is not the level either: lines the prefetchers
     * brought push the data out, or the order maps onto too few sets (issue 47: 512 cycles a load
     * at 8M in block order on a Zen 5 guest, 52 in a random walk). */
    bool won = o < r * (1 - noise), lost = o > r * (1 + noise), told = noise <= PREFETCH_MAX_NOISE;
    snprintf(why, len, "%.1f ns a load in this order against %.1f ns in a random walk of the same size (fastest of "
             "%d windows each, the next fastest %.0f%% and %.0f%% slower): %s", o, r, n, 100 * so, 100 * sr,
             won ? "the prefetchers follow this order, so its latency is not the level's"
             : lost ? "slower than a random walk beyond the noise (prefetched lines pushing the data out, or set "
                      "conflicts), so its latency is not the level's"
             : told ? "no prefetcher gains or losses beyond the noise"
                    : "the fastest windows spread too far to tell (preempted or disturbed windows), so the order is "
                      "not shown to measure the level");
    return won || lost || !told;
}

#include "latency_levels.h"
#include "stats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A plateau's points stay within this factor of its first point; a knee rises past it. */
#define PLATEAU_SPREAD 1.6
/* Neighbouring plateaus closer than this are one level (an L3 that rises as it fills, a memory
 * curve climbing with TLB misses); levels differ by 2.3x or more (L1 4-5 cycles, L2 12-17,
 * L3 40-80, memory 200+). */
#define LEVEL_STEP 1.8
/* A plateau spans at least half an octave. */
#define PLATEAU_MIN_OCTAVES 0.5

uint64_t latency_cache_like(double bytes)
{
    if (bytes < 1)
        return 0;
    static const double shapes[] = {1.0, 1.5, 2.0};
    double p2 = exp2(floor(log2(bytes))), best = p2;
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
        if (fabs(log(p2 * shapes[i] / bytes)) < fabs(log(best / bytes)))
            best = p2 * shapes[i];
    return (uint64_t)best;
}

static double median_of(const double *v, int from, int to)
{
    return stats_median(v + from, (size_t)(to - from + 1));
}

struct span {
    int from, to;
};

/* Plateaus of a non-decreasing curve: runs within PLATEAU_SPREAD of their first point spanning
 * half an octave, then neighbours less than LEVEL_STEP apart merged (with the points between). */
static int find_plateaus(const uint64_t *b, const double *c, int n, struct span *out, int max)
{
    int k = 0;
    for (int s = 0; s < n;) {
        int e = s;
        while (e + 1 < n && c[e + 1] <= c[s] * PLATEAU_SPREAD)
            e++;
        if (e > s && log2((double)b[e] / (double)b[s]) >= PLATEAU_MIN_OCTAVES - 0.01) {
            if (k && median_of(c, s, e) < LEVEL_STEP * median_of(c, out[k - 1].from, out[k - 1].to))
                out[k - 1].to = e;
            else if (k < max)
                out[k++] = (struct span){s, e};
        }
        s = e + 1;
    }
    return k;
}

int latency_levels_detect(const struct latency_point *p, int n, struct latency_levels *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof(*out));
    if (n < 4) {
        snprintf(why, whylen, "%d points: a curve needs at least 4", n);
        return -1;
    }
    uint64_t *b = malloc(sizeof(*b) * (size_t)n);
    double *c = malloc(sizeof(*c) * (size_t)n), *ns = malloc(sizeof(*ns) * (size_t)n);
    for (int i = 0; i < n; i++)
        b[i] = p[i].bytes, c[i] = p[i].cycles, ns[i] = p[i].ns;
    for (int i = n - 2; i >= 0; i--) {
        if (c[i + 1] < c[i])
            c[i] = c[i + 1];
        if (ns[i + 1] < ns[i])
            ns[i] = ns[i + 1];
    }
    struct span sp[LATENCY_MAX_PLATEAUS];
    int k = find_plateaus(b, c, n, sp, LATENCY_MAX_PLATEAUS);
    for (int i = 0; i + 1 < k; i++)
        if (median_of(ns, sp[i].from, sp[i].to) >= LATENCY_DRAM_NS) {
            sp[i].to = sp[k - 1].to;
            k = i + 1;
        }
    for (int i = 0; i < k; i++) {
        struct latency_plateau *pl = &out->plateau[i];
        pl->first = b[sp[i].from];
        pl->last = b[sp[i].to];
        pl->cycles = median_of(c, sp[i].from, sp[i].to);
        pl->ns = median_of(ns, sp[i].from, sp[i].to);
        pl->lo = c[sp[i].from];
        pl->hi = c[sp[i].to];
    }
    /* Capacity: where the curve is halfway from this level's latency to the next one's: half the
     * loads miss there (log-interpolated between the points around it). */
    for (int i = 0; i + 1 < k; i++) {
        double mid = (out->plateau[i].cycles + out->plateau[i + 1].cycles) / 2;
        for (int j = sp[i].from + 1; j <= sp[i + 1].to; j++)
            if (c[j] >= mid) {
                double f = c[j] > c[j - 1] ? (mid - c[j - 1]) / (c[j] - c[j - 1]) : 0;
                double x = exp(log((double)b[j - 1]) + f * (log((double)b[j]) - log((double)b[j - 1])));
                out->plateau[i].crossing = (uint64_t)x;
                out->plateau[i].boundary = latency_cache_like(x);
                break;
            }
    }
    out->nplateaus = k;
    out->memory = k >= 2 && out->plateau[k - 1].ns >= LATENCY_DRAM_NS;
    out->ncaches = out->memory ? k - 1 : k;
    free(b);
    free(c);
    free(ns);
    if (k < 2) {
        snprintf(why, whylen, "%d plateau%s in %d points from %llu to %llu bytes: no level boundary to read", k,
                 k == 1 ? "" : "s", n, (unsigned long long)p[0].bytes, (unsigned long long)p[n - 1].bytes);
        return -1;
    }
    return 0;
}

const struct latency_plateau *latency_level_plateau(const struct latency_levels *lv, int l)
{
    if (l == 4)
        return lv->memory ? &lv->plateau[lv->ncaches] : NULL;
    return l >= 1 && l <= lv->ncaches && l <= 3 ? &lv->plateau[l - 1] : NULL;
}

static int level_number(const struct latency_levels *lv, int plateau)
{
    return lv->memory && plateau == lv->ncaches ? 4 : plateau + 1;
}

int latency_level_of_cycles(const struct latency_levels *lv, double cycles)
{
    if (!lv->nplateaus || !(cycles > 0))
        return 0;
    int best = 0;
    for (int i = 1; i < lv->nplateaus; i++)
        if (fabs(log(cycles / lv->plateau[i].cycles)) < fabs(log(cycles / lv->plateau[best].cycles)))
            best = i;
    return level_number(lv, best);
}

int latency_level_of_size(const struct latency_levels *lv, uint64_t bytes)
{
    for (int i = 0; i < lv->ncaches; i++)
        if (lv->plateau[i].boundary && bytes <= lv->plateau[i].boundary)
            return level_number(lv, i);
    return lv->memory ? 4 : 0;
}

#include "host/latency_levels.h"
#include "base/util.h"
#include "base/stats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Levels are the latencies the curve dwells at: the modes of its latency, each point weighted by
 * the octaves it stands for, smoothed over a factor of 1.25. A mode needs half an octave of
 * weight; knees rise quickly and weigh little. Modes closer than LEVEL_STEP are one level (an L3
 * that slows as it fills); levels differ by 2.3x or more (L1 4-5 cycles, L2 12-17, L3 40-80,
 * memory 200+). */
#define KERNEL_WIDTH 0.22      /* ln(1.25) */
#define MODE_MIN_OCTAVES 0.5
#define LEVEL_STEP 1.8

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

/* Octaves point i stands for: half the distance to each neighbour on a log scale. */
static double weight(const uint64_t *b, int n, int i)
{
    double lo = i ? log2((double)b[i] / (double)b[i - 1]) : 0, hi = i + 1 < n ? log2((double)b[i + 1] / (double)b[i]) : 0;
    if (!i)
        lo = hi;
    if (i + 1 == n)
        hi = lo;
    return (lo + hi) / 2;
}

static double density(const uint64_t *b, const double *c, int n, double y)
{
    double d = 0;
    for (int i = 0; i < n; i++) {
        double z = (y - log(c[i])) / KERNEL_WIDTH;
        d += weight(b, n, i) * exp(-z * z / 2);
    }
    return d;
}

/* The modes of the latency (cycles), fastest first. */
static int find_modes(const uint64_t *b, const double *c, int n, double *mode, int max)
{
    double lo = log(c[0]) - 1, hi = log(c[n - 1]) + 1, step = 0.01;
    int k = 0;
    double prev = density(b, c, n, lo - step), cur = density(b, c, n, lo);
    for (double y = lo; y <= hi && k < max; y += step) {
        double next = density(b, c, n, y + step);
        if (cur >= prev && cur > next && cur >= MODE_MIN_OCTAVES) {
            if (k && exp(y) < LEVEL_STEP * mode[k - 1]) {
                /* One level: keep the mode that weighs more. */
                if (cur > density(b, c, n, log(mode[k - 1])))
                    mode[k - 1] = exp(y);
            } else {
                mode[k++] = exp(y);
            }
        }
        prev = cur;
        cur = next;
    }
    return k;
}

bool latency_point_ok(const struct latency_point *p, bool measured, char *why, size_t whylen)
{
    char field[64];
    double lo = measured ? -LATENCY_MAX_CYCLES : LATENCY_MIN_CYCLES;
    snprintf(field, sizeof(field), "the point at %llu bytes: cycles", (unsigned long long)p->bytes);
    if (!number_in((double)p->bytes, 1, LATENCY_MAX_BYTES, "bytes", why, whylen) ||
        !number_in(p->cycles, lo, LATENCY_MAX_CYCLES, field, why, whylen))
        return false;
    snprintf(field, sizeof(field), "the point at %llu bytes: ns", (unsigned long long)p->bytes);
    return number_in(p->ns, lo, LATENCY_MAX_CYCLES, field, why, whylen);
}

int latency_levels_detect(const struct latency_point *p, int n, struct latency_levels *out, char *why, size_t whylen)
{
    memset(out, 0, sizeof(*out));
    if (n < 4) {
        snprintf(why, whylen, "%d points: a curve needs at least 4", n);
        return -1;
    }
    /* The modes are searched on a log scale in fixed steps: a point of 0 or infinite latency
     * would make that scale infinite (and the search endless). */
    for (int i = 0; i < n; i++)
        if (!latency_point_ok(&p[i], false, why, whylen))
            return -1;
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
    double mode[LATENCY_MAX_PLATEAUS];
    int k = find_modes(b, c, n, mode, LATENCY_MAX_PLATEAUS);
    /* Each point belongs to the nearest mode (log scale); a plateau spans its points. */
    int from[LATENCY_MAX_PLATEAUS], to[LATENCY_MAX_PLATEAUS];
    for (int i = 0; i < k; i++)
        from[i] = -1, to[i] = -1;
    for (int j = 0; j < n; j++) {
        int best = 0;
        for (int i = 1; i < k; i++)
            if (fabs(log(c[j] / mode[i])) < fabs(log(c[j] / mode[best])))
                best = i;
        if (k && from[best] < 0)
            from[best] = j;
        if (k)
            to[best] = j;
    }
    for (int i = 0; i < k; i++) {
        struct latency_plateau *pl = &out->plateau[i];
        pl->first = b[from[i]];
        pl->last = b[to[i]];
        pl->cycles = mode[i];
        pl->ns = median_of(ns, from[i], to[i]);
        pl->lo = c[from[i]];
        pl->hi = c[to[i]];
    }
    /* Capacity: where the curve has come LATENCY_CAPACITY_FRACTION of the way to the next plateau's
     * latency (log-interpolated between the points around it). */
    for (int i = 0; i + 1 < k; i++) {
        double at = out->plateau[i].cycles + LATENCY_CAPACITY_FRACTION * (out->plateau[i + 1].cycles - out->plateau[i].cycles);
        for (int j = from[i] + 1; j <= to[i + 1]; j++)
            if (c[j] >= at) {
                double f = c[j] > c[j - 1] ? (at - c[j - 1]) / (c[j] - c[j - 1]) : 0;
                double x = exp(log((double)b[j - 1]) + f * (log((double)b[j]) - log((double)b[j - 1])));
                out->plateau[i].crossing = (uint64_t)x;
                out->plateau[i].boundary = latency_cache_like(x);
                break;
            }
    }
    /* Memory begins at the first plateau at memory latency, or at a fourth (pmucal models three
     * cache levels; a VM's share of a busy L3 shows as a plateau between L3 and memory). It
     * spans every plateau after that (slower still: TLB misses) and has the latency of the
     * first one at memory latency. A plateau that could be either, with a far slower one after
     * it, is a slow cache: the Emerald Rapids guest's L3 at 43.5 ns, memory at 134.5. */
    int at_memory = -1;
    for (int i = 0; i < k && at_memory < 0; i++) {
        bool slow_cache = out->plateau[i].ns < LATENCY_MEMORY_SURE_NS &&
                          out->plateau[k - 1].cycles >= LATENCY_MEMORY_STEP * out->plateau[i].cycles;
        if (out->plateau[i].ns >= LATENCY_DRAM_NS && !slow_cache)
            at_memory = i;
    }
    int memory = at_memory >= 0 && at_memory < 3 ? at_memory : k > 3 ? 3 : -1;
    if (memory >= 0 && k >= 2) {
        struct latency_plateau *m = &out->plateau[memory];
        const struct latency_plateau *slow = &out->plateau[at_memory >= 0 ? at_memory : memory];
        m->cycles = slow->cycles;
        m->ns = slow->ns;
        m->last = out->plateau[k - 1].last;
        m->hi = out->plateau[k - 1].hi;
        m->crossing = m->boundary = 0;
        k = memory + 1;
    }
    out->memory = memory >= 0 && k >= 2;
    out->ncaches = out->memory ? k - 1 : k;
    out->nplateaus = k;
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

int latency_curve_check(const struct latency_point *p, int n, const struct latency_point *again, int nagain,
                        char *why, size_t whylen)
{
    if (n < 4) {
        snprintf(why, whylen, "%d points: a curve needs at least 4", n);
        return -1;
    }
    int top = 0;   /* the slowest point so far: a later one may not fall below it beyond noise */
    for (int i = 0; i < n; i++) {
        if (!(p[i].cycles >= LATENCY_L1_FLOOR_CYCLES)) {
            snprintf(why, whylen, "%.2f cycles per load at %llu bytes is below the %.0f cycles no x86 core's L1 "
                     "answers in: the measurement made it up", p[i].cycles, (unsigned long long)p[i].bytes,
                     LATENCY_L1_FLOOR_CYCLES);
            return -1;
        }
        if (p[i].cycles < p[top].cycles * (1 - LATENCY_CURVE_NOISE)) {
            snprintf(why, whylen, "not monotone: %.2f cycles per load at %llu bytes, then %.2f at %llu bytes (%.0f%% "
                     "less, beyond the %.0f%% noise): a larger working set is never faster", p[top].cycles,
                     (unsigned long long)p[top].bytes, p[i].cycles, (unsigned long long)p[i].bytes,
                     100 * (1 - p[i].cycles / p[top].cycles), 100 * LATENCY_CURVE_NOISE);
            return -1;
        }
        if (p[i].cycles > p[top].cycles)
            top = i;
    }
    if (!again)
        return 0;
    struct latency_levels a, b;
    char w[200];
    if (latency_levels_detect(p, n, &a, w, sizeof(w)) || latency_levels_detect(again, nagain, &b, w, sizeof(w))) {
        snprintf(why, whylen, "no levels to compare between the halves: %s", w);
        return -1;
    }
    if (a.ncaches != b.ncaches) {
        snprintf(why, whylen, "the levels do not repeat: %d cache levels in one half of the sweeps, %d in the other",
                 a.ncaches, b.ncaches);
        return -1;
    }
    for (int l = 0; l < a.ncaches; l++) {
        double x = a.plateau[l].cycles, y = b.plateau[l].cycles;
        if (fabs(x - y) > LATENCY_CURVE_REPEAT * fmin(x, y)) {
            snprintf(why, whylen, "L%d does not repeat: its plateau is %.2f cycles in one half and %.2f in the other "
                     "(more than %.0f%% apart)", l + 1, x, y, 100 * LATENCY_CURVE_REPEAT);
            return -1;
        }
    }
    return 0;
}

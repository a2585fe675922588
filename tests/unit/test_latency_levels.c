/* Level detection on synthetic latency curves (one row a machine shape) and on a curve recorded
 * on the Zen 5 VM of issue 14; each row names the capacities detection must find. */
#include "base/rng.h"
#include "host/latency_levels.h"
#include "tap.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

#define K 1024ull
#define M (1024 * K)

/* A machine shape: up to three cache levels (capacity, latency at the start of its plateau, its
 * latency when full: an L3 of a VM rises as it fills), memory latency, how soft the knees are
 * (octaves), the clock, and upward noise (a fraction of points slowed 2-10x by another task). */
struct shape {
    int line;
    const char *what;
    uint64_t cap[3];
    double lat[3], full[3], dram, soft, ghz, noisy;
    uint64_t top;
    uint64_t want[3];     /* capacities detection must report (0: no such level) */
    int ncaches;
};

static const struct shape rows[] = {
    {__LINE__, "Zen 5 VM (48K, 1M, an L3 rising 40->110 cycles up to 4M, memory 400)", {48 * K, 1 * M, 4 * M},
     {4.2, 14.7, 40}, {4.2, 16, 110}, 400, 0.12, 3.7, 0, 32 * M, {48 * K, 1 * M, 4 * M}, 3},
    {__LINE__, "Zen 4 (32K, 1M, 32M, memory 80 ns)", {32 * K, 1 * M, 32 * M}, {4, 14, 50}, {4, 14, 55}, 400, 0.1, 5.0, 0,
     256 * M, {32 * K, 1 * M, 32 * M}, 3},
    {__LINE__, "Intel server (48K, 2M, 24M: slow L3, soft knees)", {48 * K, 2 * M, 24 * M}, {5, 16, 70}, {5, 17, 90},
     450, 0.2, 2.5, 0, 256 * M, {48 * K, 2 * M, 24 * M}, 3},
    /* the guest of 2026-11-29: an L3 slower than 40 ns (113-125 cycles at 2.79 GHz) that was taken
     * for memory, and its 12 size=L3 cases skipped "no L3" */
    {__LINE__, "Emerald Rapids VM (48K, 2M, an L3 at 41-45 ns usable to 6M, memory 150 ns)", {48 * K, 2 * M, 6 * M},
     {5, 16, 113}, {5, 17, 125}, 420, 0.15, 2.79, 0, 64 * M, {48 * K, 2 * M, 6 * M}, 3},
    {__LINE__, "no L3 (32K, 2M, memory)", {32 * K, 2 * M, 0}, {4, 18, 0}, {4, 19, 0}, 300, 0.1, 3.0, 0, 64 * M,
     {32 * K, 2 * M, 0}, 2},
    {__LINE__, "Zen 5 VM, noisy: a quarter of the points slowed 2-10x in each of 3 sweeps", {48 * K, 1 * M, 4 * M},
     {4.2, 14.7, 40}, {4.2, 16, 110}, 400, 0.12, 3.7, 0.25, 32 * M, {48 * K, 1 * M, 4 * M}, 3},
    {__LINE__, "Zen 4, noisy", {32 * K, 1 * M, 32 * M}, {4, 14, 50}, {4, 14, 55}, 400, 0.1, 5.0, 0.25, 256 * M,
     {32 * K, 1 * M, 32 * M}, 3},
};

/* The latency of one level's plateau at size s: from lat when it starts to full at capacity. */
static double on_level(const struct shape *sh, int l, double s)
{
    double start = l ? (double)sh->cap[l - 1] : 4096;
    double f = (log(s) - log(start)) / (log((double)sh->cap[l]) - log(start));
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return sh->lat[l] * pow(sh->full[l] / sh->lat[l], f);
}

/* Half the loads miss at the capacity: a logistic step in log size, centred there. */
static double latency(const struct shape *sh, double s)
{
    int n = 0;
    while (n < 3 && sh->cap[n])
        n++;
    double lat = on_level(sh, 0, s);
    for (int l = 0; l < n; l++) {
        double next = l + 1 < n ? on_level(sh, l + 1, s) : sh->dram;
        double miss = 1 / (1 + exp(-(log2(s) - log2((double)sh->cap[l])) / (sh->soft / 4)));
        lat = lat * (1 - miss) + next * miss;
    }
    return lat;
}

static int sweep(const struct shape *sh, struct latency_point *p, int max, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    int n = 0;
    for (int i = 0; n < max; i++) {
        uint64_t b = (uint64_t)(4096.0 * pow(2.0, i / 4.0)) / 64 * 64;
        if (b > sh->top)
            break;
        double best = INFINITY;
        for (int rep = 0; rep < (sh->noisy > 0 ? 3 : 1); rep++) {
            double v = latency(sh, (double)b);
            if ((double)rng_below(&r, 1000) < 1000 * sh->noisy)
                v *= 2 + (double)rng_below(&r, 800) / 100;
            best = v < best ? v : best;
        }
        p[n++] = (struct latency_point){b, best, best / sh->ghz};
    }
    return n;
}

/* Recorded on the Zen 5 VM while six other jobs shared its two CPUs: pmucal's geometry
 * sweep, minimum of three sweeps (bytes, cycles, ns per load). Its L3 held about 8M then (the
 * host's L3 is shared with other guests); points up to 5x slow remain even as minima. */
static const struct latency_point zen5_vm[] = {
#include "zen5_vm_curve.inc"
};

static void expect(int line, const char *what, const struct latency_levels *lv, int rc, const char *why,
                   const uint64_t *want, int ncaches)
{
    CHECK(rc == 0, line, "%s: detected (%s)", what, rc ? why : "ok");
    CHECK(lv->ncaches == ncaches && lv->memory, line, "%s: %d cache levels and memory (got %d%s)", what, ncaches,
          lv->ncaches, lv->memory ? " and memory" : ", no memory");
    for (int l = 0; l < ncaches; l++)
        CHECK(lv->plateau[l].boundary == want[l], line, "%s: L%d capacity %llu (got %llu, crossing at %llu)", what,
              l + 1, (unsigned long long)want[l], (unsigned long long)lv->plateau[l].boundary,
              (unsigned long long)lv->plateau[l].crossing);
    for (int l = 1; l < ncaches; l++)
        CHECK(latency_level_of_size(lv, want[l - 1] / 2) == l && latency_level_of_size(lv, want[l] / 2) == l + 1 &&
                  latency_level_plateau(lv, l)->cycles < latency_level_plateau(lv, l + 1)->cycles,
              line, "%s: half of L%d lies in L%d, half of L%d in L%d, and L%d is faster", what, l, l, l + 1, l + 1, l);
    const struct latency_plateau *mem = latency_level_plateau(lv, 4);
    CHECK(mem && latency_level_of_cycles(lv, mem->cycles * 1.2) == 4 &&
              latency_level_of_cycles(lv, latency_level_plateau(lv, 1)->cycles) == 1,
          line, "%s: memory's latency classifies as memory, L1's as L1", what);
}

int main(void)
{
    struct latency_point p[160];
    char why[200];
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        int n = sweep(&rows[i], p, 160, 7 + i);
        struct latency_levels lv;
        int rc = latency_levels_detect(p, n, &lv, why, sizeof(why));
        expect(rows[i].line, rows[i].what, &lv, rc, why, rows[i].want, rows[i].ncaches);
    }
    struct latency_levels lv;
    static const uint64_t zen5_want[3] = {48 * K, 1 * M, 8 * M};
    int rc = latency_levels_detect(zen5_vm, (int)(sizeof(zen5_vm) / sizeof(zen5_vm[0])), &lv, why, sizeof(why));
    expect(__LINE__, "recorded Zen 5 VM curve", &lv, rc, why, zen5_want, 3);

    /* Memory at 90 ns, then TLB misses at 240 ns from 96M: the 90 ns plateau is memory, not a slow
     * L3 with memory after it (only a plateau under 60 ns can be that). */
    struct latency_point tlb[80];
    int nt = 0;
    for (uint64_t b = 4096; b <= 1024 * M; b *= 2)
        tlb[nt] = (struct latency_point){b, b <= 32 * K ? 4 : b <= 1 * M ? 14 : b <= 96 * M ? 270 : 720, 0},
        tlb[nt].ns = tlb[nt].cycles / 3, nt++;
    rc = latency_levels_detect(tlb, nt, &lv, why, sizeof(why));
    CHECK(rc == 0 && lv.ncaches == 2 && lv.memory && fabs(latency_level_plateau(&lv, 4)->ns - 90) < 1, __LINE__,
          "memory at 90 ns before a 240 ns TLB plateau: 2 caches and memory at 90 ns (got %d caches, memory %s, %.0f ns)",
          lv.ncaches, lv.memory ? "yes" : "no", lv.memory ? latency_level_plateau(&lv, 4)->ns : NAN);

    /* Curves with nothing to read fail with a reason, never a made-up level. */
    static const struct latency_point flat[] = {{4096, 4, 1}, {8192, 4, 1}, {16384, 4.1, 1}, {32768, 4, 1}, {65536, 4, 1}};
    rc = latency_levels_detect(flat, 5, &lv, why, sizeof(why));
    CHECK(rc == -1 && strstr(why, "1 plateau"), __LINE__, "a flat curve has no boundary: %s", why);
    rc = latency_levels_detect(flat, 3, &lv, why, sizeof(why));
    CHECK(rc == -1 && strstr(why, "at least 4"), __LINE__, "three points are too few: %s", why);
    static const struct {
        int line;
        double in;
        uint64_t out;
    } like[] = {{__LINE__, 50.4 * K, 48 * K}, {__LINE__, 930 * K, 1 * M}, {__LINE__, 1.3 * M, 1536 * K},
                {__LINE__, 4.4 * M, 4 * M}, {__LINE__, 5.6 * M, 6 * M}, {__LINE__, 30 * M, 32 * M}};
    for (unsigned i = 0; i < sizeof(like) / sizeof(like[0]); i++)
        CHECK(latency_cache_like(like[i].in) == like[i].out, like[i].line, "%.0f bytes round to %llu (got %llu)",
              like[i].in, (unsigned long long)like[i].out, (unsigned long long)latency_cache_like(like[i].in));

    /* A curve is checked before it is cached or used (latency_curve_check): every clean shape
     * passes with a second half of other noise-free sweeps; a point below the L1 floor, one far
     * below a smaller working set's, or a second half whose levels differ fails, saying which. */
    struct latency_point q[160];
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        if (rows[i].noisy > 0)
            continue;
        int n = sweep(&rows[i], p, 160, 7 + i), m = sweep(&rows[i], q, 160, 99 + i);
        rc = latency_curve_check(p, n, q, m, why, sizeof(why));
        CHECK(rc == 0, rows[i].line, "%s: a clean curve passes its checks%s%s", rows[i].what, rc ? ": " : "",
              rc ? why : "");
    }
    int n = sweep(&rows[0], p, 160, 7);
    static const struct {
        int line;
        int at;               /* the point changed (index) */
        double times;         /* its cycles multiplied by this (first half), or */
        double l3_again;      /* the second half's L3 points multiplied by this */
        const char *says;
    } bad[] = {
        {__LINE__, 2, 0.15, 1, "below the 2 cycles"},   /* issue 25: 0.57 cycles at 5.7 KB */
        {__LINE__, 30, 3.0, 1, "not monotone"},          /* a point three times too slow, then the curve falls back */
        {__LINE__, -1, 1, 1.4, "L3 does not repeat"},    /* an L3 40% slower in the second half */
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        memcpy(q, p, sizeof(q[0]) * (size_t)n);
        struct latency_point r[160];
        memcpy(r, p, sizeof(r[0]) * (size_t)n);
        if (bad[i].at >= 0)
            r[bad[i].at].cycles *= bad[i].times;
        for (int k = 0; k < n; k++)
            if (q[k].bytes > 1 * M && q[k].bytes <= 4 * M)
                q[k].cycles *= bad[i].l3_again, q[k].ns *= bad[i].l3_again;
        rc = latency_curve_check(r, n, q, n, why, sizeof(why));
        CHECK(rc == -1 && strstr(why, bad[i].says), bad[i].line, "fails: %s", rc ? why : "(passed)");
    }
    return done_testing();
}

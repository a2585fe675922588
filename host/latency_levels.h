/* Cache levels read off a load-latency curve: plateaus (a level's latency, flat over its sizes),
 * the knees between them, and each level's capacity. Pure functions of the points, so the
 * detection is tested on synthetic curves and re-run on a recorded one. */
#ifndef PMUCAL_LATENCY_LEVELS_H
#define PMUCAL_LATENCY_LEVELS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One point: a working set walked with random dependent loads, its best (minimum) latency. */
struct latency_point {
    uint64_t bytes;
    double cycles, ns;   /* per load */
};
/* A point's bounds, whatever the machine: working sets of 1 byte to 1 PiB, latencies of a
 * thousandth of a cycle (or ns) to 1e9. */
#define LATENCY_MAX_BYTES 0x1p50
#define LATENCY_MIN_CYCLES 1e-3
#define LATENCY_MAX_CYCLES 1e9
/* A point within those bounds (and finite); false with why naming the field. A measured point
 * (as the cache keeps it) may be as low as -LATENCY_MAX_CYCLES: on a busy host timing noise can
 * exceed a latency, and such a curve yields no levels rather than an error; a curve given as input
 * (PMUCAL_CURVE_FILE) and one levels are read from need positive latencies. */
bool latency_point_ok(const struct latency_point *p, bool measured, char *why, size_t whylen);

/* A capacity (a cache's, a TLB's) is where this fraction of the way from a level's latency to
 * the next one's is reached: caches and TLBs that do not replace by strict LRU lose some hits
 * before they are full (the Zen L2 is a third of the way up at its capacity; this Golden Cove
 * guest's STLB a quarter at 1792 of its 2048 pages) and keep some beyond it. */
#define LATENCY_CAPACITY_FRACTION 0.4

#define LATENCY_MAX_PLATEAUS 6
/* Under this a plateau is a cache, never memory: x86 L3s answer in 10-45 ns (the largest server
 * meshes; the Emerald Rapids guest of 2026-11-29 in 41-45), local DRAM in 60-150 ns. At or above
 * it and under LATENCY_MEMORY_SURE_NS a plateau may be either, so the ns alone do not decide: */
#define LATENCY_DRAM_NS 40.0
#define LATENCY_MEMORY_SURE_NS 60.0
/* memory answers at least this much slower than any cache before it (the Emerald Rapids guest's
 * curve: L3 43.5 ns, memory 134.5, 3.1x; Golden Cove client 28.8 -> 129.6, 4.5x; Zen 5 11.5 ->
 * 140), so a plateau between the two thresholds with one this much slower after it is a cache. A
 * VM's L3 shared with its neighbours (part hits, part memory) lies within it of memory and counts
 * as memory; a plateau at LATENCY_MEMORY_SURE_NS or more is memory, whatever follows (slower
 * still: TLB misses). */
#define LATENCY_MEMORY_STEP 2.5

struct latency_plateau {
    uint64_t first, last;     /* sizes of its first and last points */
    double cycles, ns;        /* its latency: the mode (cycles), the median of its points (ns) */
    double lo, hi;            /* the smallest and largest latency of its points (cycles) */
    uint64_t boundary;        /* capacity, rounded to a cache-like size (2^k, 1.25*2^k, 1.5*2^k); 0 for memory */
    uint64_t crossing;        /* the size where the curve has come 40% of the way to the next plateau */
};

struct latency_levels {
    int nplateaus;
    int ncaches;              /* cache levels found: plateau[0..ncaches-1] are L1, L2 (, L3) */
    bool memory;              /* plateau[ncaches] is memory: the first at LATENCY_DRAM_NS or more,
                               * unless it is under LATENCY_MEMORY_SURE_NS with one LATENCY_MEMORY_STEP
                               * slower after it (later ones, slower still from TLB misses, are
                               * merged into it) */
    struct latency_plateau plateau[LATENCY_MAX_PLATEAUS];
};

/* Reads the levels off n points sorted by size. Each point's latency is a minimum over
 * repetitions; interference only ever adds latency and the true curve never falls with size,
 * so a point is first lowered to the smallest latency at any larger size. 0, or -1 with why
 * (fewer than 4 points, no two plateaus). */
int latency_levels_detect(const struct latency_point *p, int n, struct latency_levels *out, char *why, size_t whylen);
/* No x86 core has answered a load from L1 to a dependent use in fewer than 2 cycles (the Pentium
 * 4's integer loads; every core since takes 3-5), so no point of a curve and no cache level's
 * latency can be below it. */
#define LATENCY_L1_FLOOR_CYCLES 2.0
/* A curve is used (and cached) only when it is trustworthy: every point at least the L1 floor,
 * monotone within LATENCY_CURVE_NOISE (no point that much below a smaller working set's), and,
 * given a second half of sweeps (again), the same cache levels in both with plateaus within
 * LATENCY_CURVE_REPEAT. A curve measured under load fails these rather than moving a level
 * (issue 25: 0.57 cycles at 5.7 KB, and size=L3 became 2M, in DRAM). 0, or -1 with why. */
#define LATENCY_CURVE_NOISE 0.15
#define LATENCY_CURVE_REPEAT 0.10
int latency_curve_check(const struct latency_point *p, int n, const struct latency_point *again, int nagain,
                        char *why, size_t whylen);
/* The level (1 = L1 ...; 4 = memory) whose plateau a latency in cycles is nearest to, on a log
 * scale; 0 when nothing was detected. */
int latency_level_of_cycles(const struct latency_levels *lv, double cycles);
/* The level a working set of this size lives in: the first whose capacity holds it; 4 beyond
 * the last cache when memory was reached, else 0 (not measured that far). */
int latency_level_of_size(const struct latency_levels *lv, uint64_t bytes);
/* The plateau of level l (1.., 4 = memory), or NULL. */
const struct latency_plateau *latency_level_plateau(const struct latency_levels *lv, int l);
/* The nearest cache-like size on a log scale: 2^k, 1.25*2^k or 1.5*2^k, the shapes real caches
 * have (32K, 48K, 1M, 1.25M, 1.5M, 32M, 96M). */
uint64_t latency_cache_like(double bytes);

#endif

/* Warm-cache misses of cyclic walks on the machine the sim source simulates, so that a model's
 * d1.miss.warm and ll.miss.warm follow what valgrind's callgrind does (3.19: callgrind/sim.c,
 * cachegrind/cg_arch.c), not what a default geometry happens to allow. That machine:
 * - three caches, I1, D1 and one last level LL (--I1/--D1/--LL); nothing between D1 and LL;
 * - each set-associative with true LRU replacement: a hit moves the line to most recent, a miss
 *   puts it there and drops the least recent of its set;
 * - set = (virtual address / line) & (sets - 1): valgrind refuses a set count that is not a power
 *   of two, and sizes above 2^31 - 1 bytes (sim_machine makes or leaves out such levels);
 * - reads and writes alike (write-allocate, no write-back simulated); an access straddling two
 *   lines looks both up;
 * - LL is looked up only on a miss in D1 (or I1): a D1 hit leaves LL's recency order alone, and
 *   a line LL drops may stay in D1. LL's misses are those of the stream of D1's misses, not of the
 *   walk itself, which is why a level is given the one above it here;
 * - all caches empty when instrumentation starts (once per case), warm after that.
 * So in a periodic walk D1 is in its steady state after one lap, and LL, fed by D1's then periodic
 * misses, after two: a model's warm-up covers two laps, and loops of whole laps see exactly its
 * misses per lap wherever they start. Elsewhere (a real host) these are the misses such a machine
 * with the host's D1 and last level would have. */
#ifndef PMUCAL_LRU_H
#define PMUCAL_LRU_H
#include "host/topo.h"
#include <stdint.h>

/* Walks that visit each of their lines once per lap: in a set holding more of the walk's lines
 * than it has ways, every one of them misses every lap (the others in between evict it); in the
 * others none does. Add each distinct line once, in any order. A level given the level above it
 * (LL below D1) counts only the lines that miss the level above; fill that one first. */
struct lru_count {
    uint64_t sets, ways, line;
    uint32_t *lines_in_set;
    const struct lru_count *above;
};
void lru_count_init(struct lru_count *lc, const struct cache_level *c, const struct lru_count *above);
void lru_count_add(struct lru_count *lc, uintptr_t addr);
/* n consecutive lines from addr's (a contiguous array read line by line). */
void lru_count_add_lines(struct lru_count *lc, uintptr_t addr, uint64_t n);
/* The lines that miss every lap; frees the counters (take a level's before the one above it). */
uint64_t lru_count_misses(struct lru_count *lc);
/* A once-a-lap walk's misses per lap in t's D1 and its last level (seeing D1's misses; none
 * where t has no level with a size): add(lc, walk) adds the walk's lines to one level. */
void lru_count_walk(const struct topo *t, void (*add)(struct lru_count *lc, const void *walk), const void *walk,
                    uint64_t *d1_misses, uint64_t *ll_misses);
/* The same, with each level's lines at the edge: in sets that hold them all with fewer than
 * spare ways to spare (LRU_EDGE_WAYS, below, or more for a walk that reads other lines of its own
 * as it goes), where a foreign line turns hits into misses. */
void lru_count_walk_edges(const struct topo *t, void (*add)(struct lru_count *lc, const void *walk), const void *walk,
                          unsigned spare, uint64_t misses[2], uint64_t edges[2]);

/* The instruction side: a straight run of code, each of its lines fetched once a lap in address
 * order (a loop around straight-line code) or in any other order the same every lap (a chain of
 * jumps: under LRU a set's misses depend only on how many of its lines the lap fetches), through
 * t's L1I (its L1D where hwloc gives none) and, seeing the L1I's misses, its last level; misses
 * and edges as lru_count_walk_edges's. The last level is unified: this counts the code's own
 * lines there, as if no data shared it. */
void lru_count_code(const struct topo *t, uintptr_t addr, uint64_t lines, unsigned spare, uint64_t misses[2],
                    uint64_t edges[2]);

/* Any periodic walk (lines visited several times a lap, in any order) through D1 and, seeing
 * D1's misses, LL (NULL: none): each one's misses in one lap of the steady state, simulated, and
 * its hits at the edge: a line found with fewer than LRU_EDGE_WAYS ways of its set to spare (all
 * the others used by other lines since its last use). A few lines touched between loops (the measuring harness's)
 * turn such hits into misses, the more the nearer the edge: a set the walk fills exactly misses
 * on every one of its lines for a lap after one foreign line. Counts built on edge hits depend on
 * the harness, not on the model. */
#define LRU_EDGE_WAYS 2
/* Beyond this many ways a level is not simulated line by line here (an unknown associativity makes
 * the whole cache one set), nor given to callgrind, whose set lookup is as linear. */
#define LRU_SIM_MAX_WAYS 256
struct lru_lap {
    uint64_t misses[2];      /* [0] D1, [1] LL */
    uint64_t edge_hits[2];
    /* Given a window of w accesses (0 < w < n): the fewest and most misses any w consecutive
     * accesses of the steady lap have, from any start (the lap read cyclically). A measured loop
     * shorter than a lap sees its window's misses, not the lap's share, where they bunch up. */
    uint64_t window_lo[2], window_hi[2];
};
void lru_lap_misses(void *const *addrs, uint64_t n, const struct cache_level *d1, const struct cache_level *ll,
                    uint64_t window, struct lru_lap *lap);
/* The fewest iterations of `per_iter` steps each that walk a ring of n elements whole laps. */
static inline uint64_t lru_lap_iters(uint64_t n, uint64_t per_iter)
{
    uint64_t a = n, b = per_iter;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? n / a : 1;
}

#endif

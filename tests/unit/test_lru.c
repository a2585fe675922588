/* core/lru.c: the misses callgrind's caches have on periodic walks (lru.h states that machine).
 * Tiny caches, line numbers as addresses: LRU within a set, LL fed by D1's misses only, the steady
 * state's lap, and hits at the edge (a set filled exactly). */
#include "core/lru.h"
#include "tap.h"
#include <stdint.h>

#define LINE 64
#define MAX_WALK 16

/* D1 and LL, each as lines and ways. */
struct machine {
    uint64_t d1_lines;
    int d1_ways;
    uint64_t ll_lines;
    int ll_ways;
};

static struct cache_level cache(uint64_t lines, int ways)
{
    return (struct cache_level){.level = 1, .size = lines * LINE, .linesize = LINE, .ways = ways, .sharing_pus = 1};
}

/* lru_lap_misses: one lap of line numbers (-1 ends it). */
static const struct {
    int line;
    const char *what;
    struct machine m;
    int walk[MAX_WALK];
    uint64_t d1_miss, ll_miss, d1_edge, ll_edge;
} laps[] = {
    {__LINE__, "3 lines cycling through one 2-way D1 set miss every lap; LL holds them, 1 way to spare",
     {4, 2, 8, 4}, {0, 2, 4, -1}, 3, 0, 0, 3},
    {__LINE__, "LL sees D1's misses only: A hits D1 and never refreshes LL, so B C D fit LL's 3 ways (seeing every "
     "load it would miss all three); in a 2-way D1 every hit is at the edge", {4, 2, 3, 3}, {0, 1, 0, 3, 0, 5, -1},
     3, 0, 3, 3},
    {__LINE__, "a ring within D1, 2 lines in each 4-way set: no misses, 2 ways to spare, LL never looked up",
     {8, 4, 16, 4}, {0, 1, 2, 3, -1}, 0, 0, 0, 0},
    {__LINE__, "a set filled exactly: every hit at the edge (no way to spare)", {8, 2, 16, 4}, {0, 4, -1}, 0, 0, 2, 0},
    {__LINE__, "LL overflowing: 5 lines of one LL set of 4 ways all miss both", {2, 1, 8, 4}, {0, 2, 4, 6, 8, -1},
     5, 5, 0, 0},
    {__LINE__, "a 1-way D1: set 0's two lines miss, set 1's one hits at the edge; LL of unknown ways (0) is one set",
     {2, 1, 2, 0}, {0, 1, 2, -1}, 2, 0, 1, 2},
    {__LINE__, "LL of unknown ways beyond 256 lines: not simulated, none of the 3 lines misses it (smaller), D1 by "
     "size too", {2, 1, 1024, 0}, {0, 1, 2, -1}, 3, 0, 0, 0},
};

/* lru_lap_misses with a window: the fewest and most misses of any `window` consecutive accesses of
 * the steady lap, read cyclically. */
static const struct {
    int line;
    const char *what;
    struct machine m;
    int walk[MAX_WALK];
    uint64_t window, d1_lo, d1_hi, ll_lo, ll_hi;
} windows[] = {
    {__LINE__, "one 2-way D1 set: 0 0 0 0 1 2 3 misses 1 0 0 0 1 1 1; windows of 3 read 0 (0 0 0) to 3 (1 2 3); "
     "LL holds all four", {2, 2, 8, 4}, {0, 0, 0, 0, 1, 2, 3, -1}, 3, 0, 3, 0, 0},
    {__LINE__, "evenly missed: 3 lines through a 1-way D1 and a 2-way LL miss both at every access", {1, 1, 2, 2},
     {0, 1, 2, -1}, 2, 2, 2, 2, 2},
    {__LINE__, "a window of a whole lap or more is not one: nothing is reported", {2, 2, 8, 4}, {0, 1, 2, -1}, 3,
     0, 0, 0, 0},
};

/* lru_count: once-a-lap walks of lines [0, n), added line by line or as a range. */
static const struct {
    int line;
    const char *what;
    struct machine m;
    uint64_t n;
    uint64_t d1_miss, ll_miss;
} counts[] = {
    {__LINE__, "D1 2 sets of 3: set 0 (0 2 4 6) overflows, set 1 (1 3 5) fits; LL 4 sets of 1 sees 0 2 4 6 only",
     {6, 3, 4, 1}, 7, 4, 4},
    {__LINE__, "LL one set of 4 ways (a set count D1's does not divide): 3 of 5 lines reach it and fit",
     {4, 2, 4, 4}, 5, 3, 0},
    {__LINE__, "all within D1: LL sees nothing", {8, 2, 16, 4}, 6, 0, 0},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(laps) / sizeof(laps[0]); i++) {
        void *walk[MAX_WALK];
        uint64_t n = 0;
        while (laps[i].walk[n] >= 0)
            walk[n] = (void *)(uintptr_t)((uint64_t)laps[i].walk[n] * LINE + 8), n++;
        struct cache_level d1 = cache(laps[i].m.d1_lines, laps[i].m.d1_ways);
        struct cache_level ll = cache(laps[i].m.ll_lines, laps[i].m.ll_ways);
        struct lru_lap lap;
        lru_lap_misses(walk, n, &d1, &ll, 0, &lap);
        CHECK(lap.misses[0] == laps[i].d1_miss && lap.misses[1] == laps[i].ll_miss && lap.edge_hits[0] ==
              laps[i].d1_edge && lap.edge_hits[1] == laps[i].ll_edge, laps[i].line,
              "%s: misses D1 %llu LL %llu, edge hits D1 %llu LL %llu (want %llu %llu, %llu %llu)", laps[i].what,
              (unsigned long long)lap.misses[0], (unsigned long long)lap.misses[1],
              (unsigned long long)lap.edge_hits[0], (unsigned long long)lap.edge_hits[1],
              (unsigned long long)laps[i].d1_miss, (unsigned long long)laps[i].ll_miss,
              (unsigned long long)laps[i].d1_edge, (unsigned long long)laps[i].ll_edge);
    }
    for (unsigned i = 0; i < sizeof(windows) / sizeof(windows[0]); i++) {
        void *walk[MAX_WALK];
        uint64_t n = 0;
        while (windows[i].walk[n] >= 0)
            walk[n] = (void *)(uintptr_t)((uint64_t)windows[i].walk[n] * LINE), n++;
        struct cache_level d1 = cache(windows[i].m.d1_lines, windows[i].m.d1_ways);
        struct cache_level ll = cache(windows[i].m.ll_lines, windows[i].m.ll_ways);
        struct lru_lap lap;
        lru_lap_misses(walk, n, &d1, &ll, windows[i].window, &lap);
        CHECK(lap.window_lo[0] == windows[i].d1_lo && lap.window_hi[0] == windows[i].d1_hi &&
              lap.window_lo[1] == windows[i].ll_lo && lap.window_hi[1] == windows[i].ll_hi, windows[i].line,
              "%s: windows of %llu read D1 %llu-%llu LL %llu-%llu misses (want %llu-%llu, %llu-%llu)", windows[i].what,
              (unsigned long long)windows[i].window, (unsigned long long)lap.window_lo[0],
              (unsigned long long)lap.window_hi[0], (unsigned long long)lap.window_lo[1],
              (unsigned long long)lap.window_hi[1], (unsigned long long)windows[i].d1_lo,
              (unsigned long long)windows[i].d1_hi, (unsigned long long)windows[i].ll_lo,
              (unsigned long long)windows[i].ll_hi);
    }
    for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
        for (int range = 0; range < 2; range++) {
            struct cache_level d1 = cache(counts[i].m.d1_lines, counts[i].m.d1_ways);
            struct cache_level ll = cache(counts[i].m.ll_lines, counts[i].m.ll_ways);
            struct lru_count c1, cl;
            lru_count_init(&c1, &d1, NULL);
            if (range)
                lru_count_add_lines(&c1, 0, counts[i].n);
            else
                for (uint64_t k = 0; k < counts[i].n; k++)
                    lru_count_add(&c1, k * LINE);
            lru_count_init(&cl, &ll, &c1);
            if (range)
                lru_count_add_lines(&cl, 0, counts[i].n);
            else
                for (uint64_t k = 0; k < counts[i].n; k++)
                    lru_count_add(&cl, k * LINE);
            uint64_t ll_miss = lru_count_misses(&cl), d1_miss = lru_count_misses(&c1);
            CHECK(d1_miss == counts[i].d1_miss && ll_miss == counts[i].ll_miss, counts[i].line,
                  "%s (%s): misses D1 %llu LL %llu (want %llu %llu)", counts[i].what,
                  range ? "lru_count_add_lines" : "lru_count_add", (unsigned long long)d1_miss,
                  (unsigned long long)ll_miss, (unsigned long long)counts[i].d1_miss,
                  (unsigned long long)counts[i].ll_miss);
        }
    return done_testing();
}

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

/* lru_count_code: a straight run of code lines through the L1I (the L1D where there is none) and
 * the last level, as a loop around straight-line code fetches them. */
static const struct {
    int line;
    const char *what;
    uint64_t i1_lines;   /* 0: no L1I, the L1D (8 lines, 2-way) stands in */
    int i1_ways;
    uint64_t code_lines, i1_miss, ll_miss, i1_edge;
} code_runs[] = {
    {__LINE__, "8 lines in a 16-line 4-way L1I: 2 a set, 2 ways to spare", 16, 4, 8, 0, 0, 0},
    {__LINE__, "16 lines fill the L1I exactly: no miss, every line at the edge", 16, 4, 16, 0, 0, 16},
    {__LINE__, "17 lines: the one set of 5 misses all 5, the others at the edge", 16, 4, 17, 5, 0, 12},
    {__LINE__, "no L1I: the L1D's 8 lines, 2-way, stand in: 9 lines overfill one set of 3", 0, 0, 9, 3, 0, 6},
    {__LINE__, "40 lines through a 16-line L1I and a 32-line 4-way LL: all miss the L1I, 8 LL sets of 5",
     16, 4, 40, 40, 40, 0},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(code_runs) / sizeof(code_runs[0]); i++) {
        struct topo t = {0};
        t.data[1] = cache(8, 2);
        t.data[2] = cache(32, 4);
        t.data[2].level = 2;
        if (code_runs[i].i1_lines)
            t.l1i = cache(code_runs[i].i1_lines, code_runs[i].i1_ways);
        uint64_t misses[2], edges[2];
        lru_count_code(&t, 0, code_runs[i].code_lines, 1, misses, edges);
        CHECK(misses[0] == code_runs[i].i1_miss && misses[1] == code_runs[i].ll_miss && edges[0] == code_runs[i].i1_edge,
              code_runs[i].line, "%s: misses I1 %llu LL %llu, I1 lines at the edge %llu (want %llu %llu %llu)",
              code_runs[i].what, (unsigned long long)misses[0], (unsigned long long)misses[1],
              (unsigned long long)edges[0], (unsigned long long)code_runs[i].i1_miss,
              (unsigned long long)code_runs[i].ll_miss, (unsigned long long)code_runs[i].i1_edge);
    }
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

/* measure_window_figures: every timing window is converted at the core clock of the reference trips
 * around it, so a clock that moves between windows leaves each window's cycles true; a trip cut by
 * preemption (it reads low) is outvoted by the window's other trip; a window whose trips both read
 * a tenth below the repetition's fastest, or whose zero-iteration control was hit, is dropped.
 * measure_witness_figures: the trips' witnesses reach the case with their splits, so a witness's
 * fastest reading is one taken with its clock references agreeing. */
#include "core/measure.h"
#include "tap.h"
#include <math.h>
#include <string.h>

#define W 16
#define ITERS 100

static const struct {
    int line;
    double ratio_first, ratio_rest;   /* core cycles per tick: trips 0..7, then 8..16 */
    int cut[2];                       /* trips read at a third of the clock (preempted); -1 none */
    int hit_zero;                     /* the window whose zero-iteration control was hit; -1 none */
    int want_dropped;
    const char *what;
} rows[] = {
    {__LINE__, 1.5, 1.5, {-1, -1}, -1, 0, "a steady clock"},
    /* The host's boost moved the clock 7% within the repetition: 1500 core cycles a window either side. */
    {__LINE__, 1.5, 1.4, {-1, -1}, -1, 0, "a clock that moved between windows"},
    {__LINE__, 1.5, 1.5, {3, -1}, -1, 0, "one cut trip: its windows take the other"},
    {__LINE__, 1.5, 1.5, {5, 6}, -1, 1, "both trips of window 5 cut: dropped"},
    {__LINE__, 1.5, 1.5, {-1, -1}, 9, 1, "window 9's control hit: dropped"},
};

/* Two repetitions of W windows, their W + 1 trips each: repetition 0 at 1.2 core cycles a tick,
 * repetition 1 at 1.25 with its trip 3 cut (it reads 0.4: readings convert at the repetition's
 * fastest trip, not their own). A load of the witness takes 5 cycles and a no-op 0.175; the trips
 * in off[] (two of repetition 0 and the last of all) read what the row says, with their references
 * split_off apart, the rest split_rest apart (the Emerald Rapids guest's: 4 cycles a load where its
 * references read 0.7-16% apart). */
static const struct {
    int line;
    double split_off, split_rest;
    double load_off, front_off;    /* what the off[] trips read, cycles a load and a no-op */
    double want_whole, want_front_fastest;
    const char *what;
} witness[] = {
    {__LINE__, 0.012, 0.001, 4.0, 0.160, 5, 0.175,
     "trips reading fast where their references disagreed: the whole and the fastest are the agreeing ones'"},
    {__LINE__, 0.012, 0.012, 4.0, 0.160, 4, 0.160, "no trip agreeing: the fastest of all"},
    {__LINE__, 0.001, 0.001, 5.3, 0.190, 5, 0.175, "every trip agreeing: slower ones are just slower"},
};

static void witness_rows(void)
{
    enum { N = 2 * (W + 1) };
    const int off[] = {2, 9, N - 1};
    for (size_t i = 0; i < sizeof(witness) / sizeof(witness[0]); i++) {
        double trip[N], split[N], loads[N], fronts[N];
        for (int t = 0; t < N; t++) {
            double clock = t <= W ? 1.2 : 1.25, load = 5, front = 0.175;
            split[t] = witness[i].split_rest;
            for (size_t k = 0; k < sizeof(off) / sizeof(off[0]); k++)
                if (off[k] == t)
                    split[t] = witness[i].split_off, load = witness[i].load_off, front = witness[i].front_off;
            trip[t] = t == W + 1 + 3 ? 0.4 : clock;
            loads[t] = load / clock, fronts[t] = front / clock;
        }
        struct measurement m;
        memset(&m, 0, sizeof(m));
        m.reps = 2;
        measure_witness_figures(&m, trip, split, loads, fronts, W);
        CHECK_NEAR(m.load_whole, witness[i].want_whole, 1e-9, witness[i].line, witness[i].what);
        CHECK_NEAR(m.load_median, 5, 1e-9, witness[i].line, witness[i].what);
        CHECK_NEAR(m.front_fastest, witness[i].want_front_fastest, 1e-9, witness[i].line, witness[i].what);
        CHECK_NEAR(m.clock_split, witness[i].split_rest, 1e-12, witness[i].line, witness[i].what);
    }
}

int main(void)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        double zero[W], full[W], trip[W + 1];
        for (int t = 0; t <= W; t++)
            trip[t] = t < 8 ? rows[i].ratio_first : rows[i].ratio_rest;
        /* 15 core cycles an iteration in every window, in ticks at the clock of window w (its trip
         * before it: window 7 ends where the clock moved, so its trip after it reads the new one and the
         * higher, its own, is taken). */
        for (int w = 0; w < W; w++) {
            zero[w] = w == rows[i].hit_zero ? 50000 : 200;
            full[w] = 200 + 15.0 * ITERS / trip[w];
        }
        for (int k = 0; k < 2; k++)
            if (rows[i].cut[k] >= 0)
                trip[rows[i].cut[k]] /= 3;
        struct measurement m;
        memset(&m, 0, sizeof(m));
        m.reps = 1;
        m.window_iters = ITERS;
        measure_window_figures(&m, zero, full, trip, W);
        CHECK_NEAR(m.cycles[0], 15, 1e-9, rows[i].line, rows[i].what);
        CHECK(m.windows == W && m.windows_dropped == rows[i].want_dropped, rows[i].line,
              "%s: %d of %d windows dropped, want %d", rows[i].what, m.windows_dropped, m.windows,
              rows[i].want_dropped);
        CHECK_NEAR(m.window_median, 15, 1e-9, rows[i].line, rows[i].what);
    }
    witness_rows();
    return done_testing();
}

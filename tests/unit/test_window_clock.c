/* measure_window_figures: every timing window is converted at the core clock of the reference trips
 * around it, so a clock that moves between windows leaves each window's cycles true; a trip cut by
 * preemption (it reads low) is outvoted by the window's other trip; a window whose trips both read
 * a tenth below the repetition's fastest, or whose zero-iteration control was hit, is dropped. */
#include "core/measure.h"
#include "tap.h"
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
    return done_testing();
}

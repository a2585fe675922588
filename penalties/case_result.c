/* A measurement into a calibration's case result, the one conversion both a measured case
 * (calibrate_run.c) and a case read back from its record (calibrate_resume.c) go through. */
#include "core/measure.h"
#include "penalties/penalty_fit.h"
#include <math.h>
#include <stdio.h>

void case_result_fill(struct case_result *r, const struct measurement *m, const struct quantities *q,
                      double tsc_hz, const char *label, const char *detail)
{
    double ghz = m->core_per_tsc * tsc_hz / 1e9;
    r->reps = m->reps;
    for (int i = 0; i < m->reps; i++) {
        r->cycles[i] = m->cycles[i];
        r->ns[i] = m->cycles[i] / ghz;
        r->ghz[i] = ghz;
    }
    r->iters = m->iters;
    r->disturbed = m->noisy;
    r->clock_moved = m->clock_moved;
    r->window_q = m->window_q;
    r->window_median = m->window_median;
    r->windows = m->windows;
    r->windows_dropped = m->windows_dropped;
    /* From the repetitions' figure, which stands even when every window was dropped. */
    r->window_seconds = m->windows ? m->cycle_stat.median * (double)m->window_iters / (ghz * 1e9) : 0;
    r->clock_split = m->clock_split;
    r->load_whole = m->load_whole;
    r->load_median = m->load_median;
    r->front_fastest = m->front_fastest;
    r->front_median = m->front_median;
    r->ratio_before = m->ratio_before;
    r->ratio_after = m->ratio_after;
    r->q = *q;
    snprintf(r->label, sizeof(r->label), "%s", label);
    snprintf(r->detail, sizeof(r->detail), "%s", detail);
    if (m->nevents > 1) {
        const struct event_spec *ev = m->events[1];
        r->event.counted = !ev->unsupported;
        r->event.per_iter = ev->unsupported ? NAN : m->stat[1].median;
        snprintf(r->event.why, sizeof(r->event.why), "%s", ev->unsupported ? ev->unsupported : "");
    }
}

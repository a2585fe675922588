#include "penalties/fit.h"
#include "base/rng.h"
#include "base/stats.h"
#include "base/util.h"
#include "host/clock.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


void case_result_free(struct case_result *r)
{
    free(r->text);
    free(r->key);
    memset(r, 0, sizeof(*r));
}

struct fit fit_penalty(const double *x, int nx, const double *y, int ny, double delta, unsigned seed)
{
    struct fit f;
    struct stats sx = stats_of(x, (size_t)nx);
    double my = ny ? stats_median(y, (size_t)ny) : 0;
    f.value = (sx.median - my) / delta;
    f.rel_mad = stats_rel_mad(&sx);
    enum { B = 2000 };
    double *boot = xmalloc(B * sizeof(double)), bx[MEASURE_MAX_REPS], by[MEASURE_MAX_REPS];
    struct rng r;
    rng_seed(&r, seed);
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < nx; i++)
            bx[i] = x[rng_below(&r, (uint64_t)nx)];
        for (int i = 0; i < ny; i++)
            by[i] = y[rng_below(&r, (uint64_t)ny)];
        boot[b] = (stats_median(bx, (size_t)nx) - (ny ? stats_median(by, (size_t)ny) : 0)) / delta;
    }
    stats_sort(boot, B);
    f.lo = boot[(int)(0.025 * B)];
    f.hi = boot[(int)(0.975 * B) - 1];
    free(boot);
    return f;
}

void choose_occurrences(double model_issue, double model_control, const struct event_count *issue,
                        const struct event_count *control, const char *event, struct occurrences *out)
{
    memset(out, 0, sizeof(*out));
    out->issue = model_issue;
    out->control = model_control;
    if (!event) {
        snprintf(out->reason, sizeof(out->reason), "the recipe names no event for this PMU");
        return;
    }
    const struct event_count *missing = !issue->counted ? issue : control && control->asked && !control->counted ? control : NULL;
    if (missing) {
        snprintf(out->reason, sizeof(out->reason), "%s not counted: %s", event, missing->why[0] ? missing->why : "not measured");
        return;
    }
    double counted_control = control && control->asked ? control->per_iter : 0;
    double model_delta = model_issue - model_control, counted_delta = issue->per_iter - counted_control;
    if (!(fabs(counted_delta - model_delta) <= 0.10 * fabs(model_delta))) {
        snprintf(out->reason, sizeof(out->reason), "%s counted %.4g more per iteration than the control, the model "
                 "%.4g: not validated, the model's count is used", event, counted_delta, model_delta);
        return;
    }
    out->issue = issue->per_iter;
    out->control = counted_control;
    out->from_event = true;
    snprintf(out->reason, sizeof(out->reason), "%s counted %.4g more per iteration than the control, the model %.4g: "
             "validated, its counts are used", event, counted_delta, model_delta);
}

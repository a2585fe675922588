/* The penalty fit with its interval (the JSON reader has its own test, test_jread). */
#include "penalties/fit.h"
#include "tap.h"
#include <stdio.h>
#include <string.h>

int main(void)
{
    /* Penalty = (median issue - median control) / delta; a constant sample has a point interval. */
    double x[] = {10, 10, 10, 10, 10}, y[] = {4, 4, 4, 4, 4};
    struct fit f = fit_penalty(x, 5, y, 5, 2, 1);
    CHECK_NEAR(f.value, 3, 1e-12, __LINE__, "constant samples: value");
    CHECK(f.lo == 3 && f.hi == 3, __LINE__, "constant samples: interval [%g, %g]", f.lo, f.hi);
    f = fit_penalty(x, 5, NULL, 0, 4, 1);
    CHECK_NEAR(f.value, 2.5, 1e-12, __LINE__, "no control: whole cost per occurrence");
    /* One wild repetition of seven moves the median little but widens the interval. */
    double z[] = {20, 20.2, 19.8, 20.1, 19.9, 20, 80};
    f = fit_penalty(z, 7, NULL, 0, 1, 1);
    CHECK_NEAR(f.value, 20, 1e-12, __LINE__, "median ignores the outlier");
    CHECK(f.lo >= 19.8 && f.hi <= 80 && f.lo <= 20 && f.hi >= 20, __LINE__, "interval [%g, %g] holds the median", f.lo, f.hi);
    /* Occurrences: the event's counts once they agree with the model, else the model, with why. */
    static const struct {
        int line;
        double model_i, model_c;
        bool counted_i, counted_c, has_control;
        double ev_i, ev_c;
        bool want_event;
        const char *why;
    } occ[] = {
        {__LINE__, 16, 0, true, true, true, 16.2, 0.1, true, "validated"},
        {__LINE__, 16, 0, true, true, true, 12.0, 0.0, false, "not validated"},
        {__LINE__, 4, 0, false, true, true, 0, 0, false, "not counted: no hardware PMU"},
        {__LINE__, 4, 0, true, false, true, 4, 0, false, "not counted: no hardware PMU"},
        {__LINE__, 8192, 0, true, false, false, 8100, 0, true, "validated"},
        {__LINE__, 1, 0, true, true, true, 0, 0, false, "not validated"},
    };
    for (size_t i = 0; i < sizeof(occ) / sizeof(occ[0]); i++) {
        struct event_count ei = {.asked = true, .counted = occ[i].counted_i, .per_iter = occ[i].ev_i},
                           ec = {.asked = occ[i].has_control, .counted = occ[i].counted_c, .per_iter = occ[i].ev_c};
        snprintf(ei.why, sizeof(ei.why), "no hardware PMU");
        snprintf(ec.why, sizeof(ec.why), "no hardware PMU");
        struct occurrences o;
        choose_occurrences(occ[i].model_i, occ[i].model_c, &ei, occ[i].has_control ? &ec : NULL, "EV", &o);
        CHECK(o.from_event == occ[i].want_event && strstr(o.reason, occ[i].why) &&
                  o.issue == (occ[i].want_event ? occ[i].ev_i : occ[i].model_i),
              occ[i].line, "occurrences from %s: %s", o.from_event ? "the event" : "the model", o.reason);
    }
    struct occurrences none;
    choose_occurrences(4, 0, &(struct event_count){0}, NULL, NULL, &none);
    CHECK(!none.from_event && none.issue == 4 && strstr(none.reason, "names no event"), __LINE__, "no event: %s",
          none.reason);
    return done_testing();
}

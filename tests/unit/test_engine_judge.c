/* engine_judge on a measurement whose group did not hold its counters all the time: counts of
 * part of the runs (multiplexed) or none (never scheduled) are reported so, never judged as the
 * PMU's silent zero and never scaled; the same zeros from a group that ran throughout are the
 * silent zero. The emulated N1 shows both with real counters (tests/72-emu-n1.t, hog and pin). */
#include "core/source.h"
#include "tap.h"
#include "validate/engine.h"
#include <string.h>

#define N 1000   /* iterations per run */

static const struct {
    int line;
    double count;                /* count(N) of every repetition; count(0) is 0 */
    uint64_t enabled, running;   /* ns */
    enum verdict_kind want;
    const char *says;
} rows[] = {
    {__LINE__, 0, 8000000, 8000000, V_NOT_OK, SILENT_ZERO},
    {__LINE__, 18000, 8000000, 8000000, V_OK, NULL},
    /* The emulated N1 beside six events of another user: 34 us of 80 ms, every read 0. */
    {__LINE__, 0, 79996352, 34384, V_NOT_OK, "the group was multiplexed (running 34384 of 79996352 ns)"},
    /* Right counts of a multiplexed group are not comparable either, and are not scaled. */
    {__LINE__, 18000, 8000000, 4000000, V_NOT_OK, "not comparable and never scaled"},
    {__LINE__, 0, 7906288, 0, V_NOT_OK, "the group was never scheduled (time_running 0 of 7906288 ns)"},
};

int main(void)
{
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_INST] = 18;
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct engine e;
        memset(&e, 0, sizeof(e));
        e.src = source_find("perf");
        CHECK(e.src && ruleset_parse(&e.rules, "E inst exact", "test") == 0, rows[i].line, "the perf source and a rule");
        struct event_spec ev = {.name = "E", .programmable = true};
        struct event_spec *evs[1] = {&ev};
        struct measurement m;
        memset(&m, 0, sizeof(m));
        m.events = evs;
        m.nevents = 1;
        m.iters = N;
        m.reps = 3;
        for (int r = 0; r < 3; r++) {
            m.raw[0][r][0] = rows[i].count;
            m.per_iter[0][r] = rows[i].count / N;
        }
        m.stat[0] = stats_of(m.per_iter[0], 3);
        m.time_enabled = rows[i].enabled;
        m.time_running = rows[i].running;
        m.multiplexed = rows[i].running < rows[i].enabled;
        struct verdict v;
        engine_judge(&e, &m, &q, &v);
        bool says = !rows[i].says || strstr(v.reason, rows[i].says);
        bool zero_named = strstr(v.reason, SILENT_ZERO) != NULL;
        CHECK(v.kind == rows[i].want && says && (zero_named == (rows[i].running == rows[i].enabled && !rows[i].count)),
              rows[i].line, "%.0f a run, running %llu of %llu ns: verdict %s (%s)", rows[i].count,
              (unsigned long long)rows[i].running, (unsigned long long)rows[i].enabled, verdict_name[v.kind], v.reason);
        ruleset_free(&e.rules);
    }
    return done_testing();
}

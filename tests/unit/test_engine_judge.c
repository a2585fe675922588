/* engine_judge on a measurement whose group did not hold its counters all the time: counts of
 * part of the runs (multiplexed) or none (never scheduled) are reported so, never judged as the
 * PMU's silent zero and never scaled; the same zeros from a group that ran throughout are the
 * silent zero. The emulated N1 shows both with real counters (tests/72-emu-n1.t, hog and pin).
 * A team's reading (the perf source sums its threads' groups) takes the times of its least
 * scheduled thread, so one member multiplexed or never scheduled gives the team that verdict. */
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

/* A team of two counting the model's 18000 a run between them: each member's enabled and running
 * ns, as group_reading_take_times receives them, and the team's verdict. */
static const struct {
    int line;
    uint64_t enabled[2], running[2];
    uint64_t want_enabled, want_running;
    enum verdict_kind want;
    const char *says;
} teams[] = {
    {__LINE__, {8000000, 7900000}, {8000000, 7900000}, 8000000, 8000000, V_OK, NULL},   /* both ran throughout */
    {__LINE__, {8000000, 7900000}, {8000000, 0}, 7900000, 0, V_NOT_OK, "never scheduled"},   /* member 1 never ran */
    {__LINE__, {8000000, 7900000}, {4000000, 7900000}, 8000000, 4000000, V_NOT_OK, "multiplexed"},   /* member 0 */
    {__LINE__, {8000000, 8000000}, {6000000, 2000000}, 8000000, 2000000, V_NOT_OK, "running 2000000 of"},
    {__LINE__, {8000000, 0}, {8000000, 0}, 8000000, 8000000, V_OK, NULL},   /* a member with no time enabled */
};

/* engine_judge of one event, the model's inst (18 an iteration) under an exact rule. */
static void judge(int line, double count, uint64_t enabled, uint64_t running, struct verdict *v)
{
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_INST] = 18;
    struct engine e;
    memset(&e, 0, sizeof(e));
    e.src = source_find("perf");
    CHECK(e.src && ruleset_parse(&e.rules, "E inst exact", "test") == 0, line, "the perf source and a rule");
    struct event_spec ev = {.name = "E", .programmable = true};
    struct event_spec *evs[1] = {&ev};
    struct measurement m;
    memset(&m, 0, sizeof(m));
    m.events = evs;
    m.nevents = 1;
    m.iters = N;
    m.reps = 3;
    for (int r = 0; r < 3; r++) {
        m.raw[0][r][0] = count;
        m.per_iter[0][r] = count / N;
    }
    m.stat[0] = stats_of(m.per_iter[0], 3);
    m.time_enabled = enabled;
    m.time_running = running;
    m.multiplexed = running < enabled;
    engine_judge(&e, &m, &q, v);
    ruleset_free(&e.rules);
}

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct verdict v;
        judge(rows[i].line, rows[i].count, rows[i].enabled, rows[i].running, &v);
        bool says = !rows[i].says || strstr(v.reason, rows[i].says);
        bool zero_named = strstr(v.reason, SILENT_ZERO) != NULL;
        CHECK(v.kind == rows[i].want && says && (zero_named == (rows[i].running == rows[i].enabled && !rows[i].count)),
              rows[i].line, "%.0f a run, running %llu of %llu ns: verdict %s (%s)", rows[i].count,
              (unsigned long long)rows[i].running, (unsigned long long)rows[i].enabled, verdict_name[v.kind], v.reason);
    }
    for (unsigned i = 0; i < sizeof(teams) / sizeof(teams[0]); i++) {
        struct group_reading r = {.time_enabled = 1, .time_running = 1};   /* what member 0 overwrites */
        for (unsigned k = 0; k < 2; k++)
            group_reading_take_times(&r, k, teams[i].enabled[k], teams[i].running[k]);
        struct verdict v;
        judge(teams[i].line, N * 18, r.time_enabled, r.time_running, &v);
        CHECK(r.time_enabled == teams[i].want_enabled && r.time_running == teams[i].want_running &&
              v.kind == teams[i].want && (!teams[i].says || strstr(v.reason, teams[i].says)), teams[i].line,
              "a team (members running %llu of %llu and %llu of %llu ns): running %llu of %llu ns, verdict %s (%s)",
              (unsigned long long)teams[i].running[0], (unsigned long long)teams[i].enabled[0],
              (unsigned long long)teams[i].running[1], (unsigned long long)teams[i].enabled[1],
              (unsigned long long)r.time_running, (unsigned long long)r.time_enabled, verdict_name[v.kind], v.reason);
    }
    return done_testing();
}

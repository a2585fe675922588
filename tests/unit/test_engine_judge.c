/* measure_schedule_judge and engine_judge on a measurement whose group did not hold its counters
 * all the time: counts of part of the measured loops (multiplexed) or none (never scheduled) are reported so, never judged as the
 * PMU's silent zero and never scaled; the same zeros from a group that ran throughout are the
 * silent zero. The emulated N1 shows both with real counters (tests/72-arch-emu-n1.t, hog and pin).
 * A team's reading (the perf source sums its threads' groups) takes the times of its least
 * scheduled thread, so one member multiplexed or never scheduled gives the team that verdict. */
#include "core/measure.h"
#include "core/source.h"
#include "tap.h"
#include "validate/engine.h"
#include <string.h>

#define N 1000   /* iterations per loop */

/* Per loop (ns): enabled and running with iterations and without, and the spread of the latter's
 * running: a group that ran throughout has them equal; a multiplexed one held the counters longer
 * with iterations; one never scheduled held them as long without (the kernel's attempts). */
struct per_loop {
    double enabled_iters, enabled_zero, running_iters, running_zero, spread;
    uint64_t iters;   /* a loop's iterations, N where 0 */
};
#define THROUGHOUT {2600000, 20000, 2600000, 20000, 100, 0}

static const struct {
    int line;
    double count;                /* count(N) of every repetition; count(0) is 0 */
    uint64_t enabled, running;   /* ns, the group's whole */
    struct per_loop loop;
    enum verdict want;
    const char *says;
} rows[] = {
    {__LINE__, 0, 8000000, 8000000, THROUGHOUT, VERDICT_NOT_OK, SILENT_ZERO},
    {__LINE__, 18000, 8000000, 8000000, THROUGHOUT, VERDICT_OK, NULL},
    /* The emulated N1 beside six CPU-wide events of another user (tests/72-arch-emu-n1.t, hog): 38 us
     * of 80 ms, every read 0, and a loop held the counters as long with 1110290 iterations as
     * with none (6379 and 6373 ns, as measured): the kernel's attempts to schedule the group,
     * never the code's time. Enabled per loop: 18 instructions an iteration at 1 ns each under
     * -icount, beside about 31 us of a zero-iteration loop. */
    {__LINE__, 0, 80163344, 38256, {20016220, 31000, 6379, 6373, 32, 0}, VERDICT_NOT_OK,
     "the group was never scheduled (time_running 38256 of 80163344 ns, none while the code executed: 6379 ns a loop with "
     "iterations, 6373 ns without)"},
    /* Half the time with iterations: multiplexed; right counts are not comparable, never scaled. */
    {__LINE__, 18000, 8000000, 4000000, {2600000, 20000, 1300000, 10000, 2000, 0}, VERDICT_NOT_OK,
     "the group was multiplexed (running 4000000 of 8000000 ns): other users shared the PMU's counters; counts are "
     "of part of the measured loops, not comparable and never scaled"},
    {__LINE__, 0, 8000000, 4000000, {2600000, 20000, 1300000, 10000, 2000, 0}, VERDICT_NOT_OK, "the group was multiplexed"},
    {__LINE__, 0, 7906288, 0, {2600000, 20000, 0, 0, 0, 0}, VERDICT_NOT_OK,
     "the group was never scheduled (time_running 0 of 7906288 ns): it counted nothing of the measured loops"},
    /* The edge: one iteration takes 1000 ns; held that much longer with iterations is no execution of
     * the code (never scheduled), a nanosecond more is part of one (multiplexed). */
    {__LINE__, 0, 8000000, 30000, {1010000, 10000, 6000, 5000, 64, 0}, VERDICT_NOT_OK, "the group was never scheduled"},
    {__LINE__, 0, 8000000, 30000, {1010000, 10000, 6001, 5000, 64, 0}, VERDICT_NOT_OK, "the group was multiplexed"},
    /* The emulated N1 beside a busy host (make test, a loop on CPU 1): 7 INST_RETIRED led by
     * hardware, 22656 ns a loop without iterations, two 16-ns timer ticks more with 111105 of 18
     * instructions (2 ms): a tick's noise, never an execution of the code. */
    {__LINE__, 0, 8210928, 135936, {2020000, 20000, 22688, 22656, 0, 111105}, VERDICT_NOT_OK, "the group was never scheduled"},
    /* A thousandth of the code's time and a ns more: the group held the counters during the code. */
    {__LINE__, 0, 8000000, 30000, {2010000, 10000, 7000, 5000, 64, 100000}, VERDICT_NOT_OK, "the group was never scheduled"},
    {__LINE__, 0, 8000000, 30000, {2010000, 10000, 7001, 5000, 64, 100000}, VERDICT_NOT_OK, "the group was multiplexed"},
    /* The zero-iteration loops' own spread is the other bound. */
    {__LINE__, 0, 8000000, 30000, {1010000, 10000, 7500, 5000, 2500, 0}, VERDICT_NOT_OK, "the group was never scheduled"},
};

/* A team of two counting the model's 18000 a loop between them: each member's enabled and running
 * ns, as group_reading_take_times receives them, and the team's verdict. */
static const struct {
    int line;
    uint64_t enabled[2], running[2];
    uint64_t want_enabled, want_running;
    enum verdict want;
    const char *says;
} teams[] = {
    {__LINE__, {8000000, 7900000}, {8000000, 7900000}, 8000000, 8000000, VERDICT_OK, NULL},   /* both ran throughout */
    {__LINE__, {8000000, 7900000}, {8000000, 0}, 7900000, 0, VERDICT_NOT_OK, "never scheduled"},   /* member 1 never ran */
    {__LINE__, {8000000, 7900000}, {4000000, 7900000}, 8000000, 4000000, VERDICT_NOT_OK, "multiplexed"},   /* member 0 */
    {__LINE__, {8000000, 8000000}, {6000000, 2000000}, 8000000, 2000000, VERDICT_NOT_OK, "running 2000000 of"},
    {__LINE__, {8000000, 0}, {8000000, 0}, 8000000, 8000000, VERDICT_OK, NULL},   /* a member with no time enabled */
};

/* engine_judge of one event, the model's inst (18 an iteration) under an exact rule. */
static void judge(int line, double count, uint64_t enabled, uint64_t running, const struct per_loop *loop,
                  struct event_verdict *v)
{
    struct quantities q;
    quantities_unstated(&q);
    q.v[Q_INST] = 18;
    struct engine eng;
    memset(&eng, 0, sizeof(eng));
    eng.src = source_find("perf");
    CHECK(eng.src && ruleset_parse(&eng.rules, "E inst exact", "test") == 0, line, "the perf source and a rule");
    struct event_spec ev = {.name = "E", .programmable = true};
    struct event_spec *evs[1] = {&ev};
    struct measurement m;
    memset(&m, 0, sizeof(m));
    m.events = evs;
    m.nevents = 1;
    m.iters = loop->iters ? loop->iters : N;
    m.reps = 3;
    for (int r = 0; r < 3; r++) {
        m.raw[0][r][0] = count;
        m.per_iter[0][r] = count / (double)m.iters;
    }
    m.stat[0] = stats_of(m.per_iter[0], 3);
    m.time_enabled = enabled;
    m.time_running = running;
    m.enabled_iters = loop->enabled_iters, m.enabled_zero = loop->enabled_zero;
    m.running_iters = loop->running_iters, m.running_zero = loop->running_zero;
    m.running_zero_spread = loop->spread;
    measure_schedule_judge(&m);
    engine_judge(&eng, &m, &q, v);
    ruleset_free(&eng.rules);
}

int main(void)
{
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct event_verdict v;
        judge(rows[i].line, rows[i].count, rows[i].enabled, rows[i].running, &rows[i].loop, &v);
        bool says = !rows[i].says || strstr(v.reason, rows[i].says);
        bool zero_named = strstr(v.reason, SILENT_ZERO) != NULL;
        CHECK(v.kind == rows[i].want && says && (zero_named == (rows[i].running == rows[i].enabled && !rows[i].count)),
              rows[i].line, "%.0f a loop, running %llu of %llu ns: verdict %s (%s)", rows[i].count,
              (unsigned long long)rows[i].running, (unsigned long long)rows[i].enabled, verdict_name(v.kind), v.reason);
    }
    for (unsigned i = 0; i < sizeof(teams) / sizeof(teams[0]); i++) {
        struct group_reading r = {.time_enabled = 1, .time_running = 1};   /* what member 0 overwrites */
        for (unsigned k = 0; k < 2; k++)
            group_reading_take_times(&r, k, teams[i].enabled[k], teams[i].running[k]);
        /* The team's share of each loop as its whole's: counters shared with other users while the
         * code ran, or never while it ran where the least scheduled member never ran. */
        double share = r.time_enabled ? (double)r.time_running / (double)r.time_enabled : 1;
        struct per_loop loop = {2600000, 20000, 2600000 * share, 20000 * share, 100, 0};
        struct event_verdict v;
        judge(teams[i].line, N * 18, r.time_enabled, r.time_running, &loop, &v);
        CHECK(r.time_enabled == teams[i].want_enabled && r.time_running == teams[i].want_running &&
              v.kind == teams[i].want && (!teams[i].says || strstr(v.reason, teams[i].says)), teams[i].line,
              "a team (members running %llu of %llu and %llu of %llu ns): running %llu of %llu ns, verdict %s (%s)",
              (unsigned long long)teams[i].running[0], (unsigned long long)teams[i].enabled[0],
              (unsigned long long)teams[i].running[1], (unsigned long long)teams[i].enabled[1],
              (unsigned long long)r.time_running, (unsigned long long)r.time_enabled, verdict_name(v.kind), v.reason);
    }
    return done_testing();
}

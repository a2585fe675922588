/* One case's measurements on stdout as 'pmucal run' shows them (validate/case_table.h). */
#include "validate/case_table.h"
#include "base/json.h"
#include "host/clock.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>

/* Events whose rule says 'not ok', added to the count at eng->arg. */
static void count_not_ok(struct engine *eng, const struct measurement *m, const struct quantities *q)
{
    int *not_ok = eng->arg;
    for (int k = 0; k < m->nevents; k++) {
        const struct event_spec *ev = m->events[k];
        const struct rule *r = ev->unsupported ? NULL : ruleset_find(&eng->rules, ev);
        if (r && engine_check_event(eng, r, ev, &m->stat[k], q, m->iters).kind == VERDICT_NOT_OK)
            (*not_ok)++;
    }
}

void case_print_table(struct engine *eng, const struct case_ *c, const struct measurement *m,
                        const struct quantities *q)
{
    count_not_ok(eng, m, q);
    const struct clock_info *ci = clock_get();
    printf("%s  [%s]\n", c->label, c->detail);
    if (eng->src->real_time)
        printf("  source %s, %d repetitions x %llu iterations, CPU %d, core clock %.3f GHz (TSC %.3f GHz x %.4f; "
               "%.4f before, %.4f after)\n", eng->src->name, m->reps, (unsigned long long)m->iters, topo_current_cpu(),
               ci->tsc_hz * m->core_per_tsc / 1e9, ci->tsc_hz / 1e9, m->core_per_tsc, m->ratio_before, m->ratio_after);
    else
        printf("  source %s, %d repetitions x %llu iterations (simulated: no timing)\n", eng->src->name, m->reps,
               (unsigned long long)m->iters);
    printf("  %-36s %14s %14s %10s %14s  %s\n", "event", "per iteration", "min", "MAD", "expected", "rule");
    for (int k = 0; k < m->nevents; k++) {
        const struct event_spec *ev = m->events[k];
        if (ev->unsupported) {
            printf("  %-36s %14s  %s\n", ev->name, "-", ev->unsupported);
            continue;
        }
        const struct rule *r = ruleset_find(&eng->rules, ev);
        struct event_verdict v = engine_check_event(eng, r, ev, &m->stat[k], q, m->iters);
        char expected[32] = "", rule[512] = "", tol[32];
        if (r && !isnan(v.expected))
            snprintf(expected, sizeof(expected), "%.4f", v.expected);
        /* A count beside no expected value says why: the model's reason, the source's, or no rule. */
        if (v.kind == VERDICT_SKIP || v.kind == VERDICT_INFO)
            snprintf(rule, sizeof(rule), "not judged: %s", v.reason);
        else if (r)
            snprintf(rule, sizeof(rule), "%s %s%s", r->expr_text, tolerance_text(r, tol, sizeof(tol)),
                     v.kind == VERDICT_OK ? "  ok" : v.kind == VERDICT_NOT_OK ? "  NOT OK" : "");
        printf("  %-36s %14.4f %14.4f %10.4f %14s  %s\n", ev->name, m->stat[k].median, m->stat[k].min,
               m->stat[k].mad, expected, rule);
    }
    const struct stats *cs = &m->cycle_stat;
    if (!eng->src->real_time) {
        fflush(stdout);
        return;
    }
    printf("  %-36s %14.4f %14.4f %10.4f\n", "core cycles (TSC x ratio)", cs->median, cs->min, cs->mad);
    if (m->windows)
        printf("  windows: %d of %llu iterations, %d dropped (a long zero-iteration control); cycles per iteration "
               "p%.0f %.4f, median %.4f, p90 %.4f\n", m->windows, (unsigned long long)m->window_iters,
               m->windows_dropped, 100 * MEASURE_WINDOW_QUANTILE, m->window_q, m->window_median, m->window_p90);
    if (m->windows && m->clock_split > MEASURE_CLOCK_SPLIT_MAX)
        printf("  the clock references read %.2f%% apart (dependent adds against multiplies): another hardware "
               "thread held this core's units, so these cycles are not the core's own; calibrate leaves such cases "
               "out\n", 100 * m->clock_split);
    double share = quantity_stated(q, Q_LD_ALL) ? clock_load_share(m->load_whole, m->load_median, q->v[Q_LD_ALL],
                                                                    cs->median) : NAN;
    if (m->windows && share > MEASURE_LOAD_SHARE_MAX)
        printf("  the load witness (dependent loads of one line) read %.2f cycles a load against its own whole %.0f "
               "beside the windows: another hardware thread shared this core's load unit, which could have added "
               "%.1f%% to these cycles; calibrate leaves such cases out (judged against the smallest whole two "
               "of its run's cases told alone)\n", m->load_median, m->load_whole, 100 * share);
    enum quantity_id per = c->kernel->per;
    if (c->kernel->per_name && quantity_stated(q, per) && q->v[per] > 0)
        printf("  cycles per %s: %.3f (median; min %.3f, MAD %.3f), %.3f ns\n", c->kernel->per_name,
               cs->median / q->v[per], cs->min / q->v[per], cs->mad / q->v[per], cs->median / q->v[per] / (ci->tsc_hz * m->core_per_tsc) * 1e9);
    if (quantity_stated(q, Q_BYTES_READ) && quantity_stated(q, Q_BYTES_WRITTEN) &&
        q->v[Q_BYTES_READ] + q->v[Q_BYTES_WRITTEN] > 0 && cs->median > 0) {
        double bytes = q->v[Q_BYTES_READ] + q->v[Q_BYTES_WRITTEN];
        printf("  bandwidth: %.2f bytes per cycle, %.2f GB/s (loads and stores of the kernel's instructions)\n",
               bytes / cs->median, bytes / cs->median * ci->tsc_hz * m->core_per_tsc / 1e9);
    }
    if (m->redone || m->noisy || m->multiplexed)
        printf("  note: %d repetitions redone for noise%s%s\n", m->redone, m->noisy ? "; noise remained" : "",
               m->never_scheduled ? "; the group was NEVER SCHEDULED (it counted nothing of the measured loops)"
               : m->multiplexed   ? "; the group was MULTIPLEXED"
                                  : "");
    fflush(stdout);
    /* 'run' measures one case: its report follows the first group only. */
    static bool reported;
    if (c->kernel->report && !reported) {
        reported = true;
        c->kernel->report((struct case_ *)c, &m->cycle_stat, m->core_per_tsc * clock_get()->tsc_hz / 1e9, q);
    }
}

void case_print_json(struct engine *eng, const struct case_ *c, const struct measurement *m, const struct quantities *q)
{
    count_not_ok(eng, m, q);
    struct json j;
    json_init(&j);
    measurement_json(&j, eng, c, 0, m, q, NULL, NULL, NULL);
    json_write_line(&j, stdout);
    json_free(&j);
}

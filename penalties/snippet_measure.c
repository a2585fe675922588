/* Each snippet measured into its rows (penalties/snippet_measure.h). */
#include "penalties/snippet_measure.h"
#include "base/stop.h"
#include "base/util.h"
#include "generators/snippet.h"
#include "host/clock.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The engine's hook: the measurement into the row at eng->arg. */
static void take(struct engine *eng, const struct case_ *c, const struct measurement *m, const struct quantities *q)
{
    struct code_row *r = eng->arg;
    r->copies = q->v[Q_COPIES];
    r->inst = q->v[Q_INST];
    if (eng->src->real_time && m->reps && r->copies > 0) {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < m->reps; i++)
            lo = fmin(lo, m->cycles[i]), hi = fmax(hi, m->cycles[i]);
        r->cycles = m->cycle_stat.median / r->copies, r->lo = lo / r->copies, r->hi = hi / r->copies;
        const struct clock_info *ci = clock_get();
        if (!ci->trusted)
            r->status = PENALTY_WITHHELD, snprintf(r->reason, sizeof(r->reason), "the core clock is not trusted here: %s", ci->why);
        else if (m->windows && m->clock_split > MEASURE_CLOCK_SPLIT_MAX)
            r->status = PENALTY_WITHHELD, snprintf(r->reason, sizeof(r->reason), "the clock references read %.2f%% apart: "
                                             "another hardware thread held this core's units", 100 * m->clock_split);
        else if ((hi - lo) > 0.05 * m->cycle_stat.median)
            r->status = PENALTY_UNSTABLE, snprintf(r->reason, sizeof(r->reason), "the repetitions spread %.3f..%.3f (over "
                                             "5%%): the host is busy; measure again", r->lo, r->hi);
        else
            r->status = PENALTY_OK;
    } else if (!eng->src->real_time) {   /* its counts are judged below; no cycles to publish */
        r->status = PENALTY_WITHHELD;
        snprintf(r->reason, sizeof(r->reason), "no timing under the %s source: counts only", eng->src->name);
    }
    for (int k = 0; k < m->nevents && r->nev < CODE_ROW_EVENTS; k++) {
        const struct event_spec *ev = m->events[k];
        const struct rule *rule = ev->unsupported ? NULL : ruleset_find(&eng->rules, ev);
        struct event_verdict v = rule ? check_event(rule, ev, &m->stat[k], q, eng->src->exact_floor,
                                                    eng->src->slack_per_loop / (double)m->iters)
                                      : (struct event_verdict){.kind = VERDICT_SKIP};
        if (!rule && ev->unsupported)
            continue;
        snprintf(r->ev[r->nev].name, sizeof(r->ev[0].name), "%s", ev->name);
        r->ev[r->nev].measured = m->stat[k].median;
        r->ev[r->nev].expected = v.expected;
        /* An info rule's count is shown, not judged: a skip here. */
        r->ev[r->nev].verdict = v.kind == VERDICT_OK || v.kind == VERDICT_NOT_OK ? v.kind : VERDICT_SKIP;
        if (v.kind == VERDICT_NOT_OK && r->status != PENALTY_NOT_OK)   /* a wrong count outranks any timing */
            r->status = PENALTY_NOT_OK, snprintf(r->reason, sizeof(r->reason), "%s counts %.4f, the model %.4f", ev->name,
                                           m->stat[k].median, v.expected);
        r->nev++;
    }
    (void)c;
}

static void measure_row(struct engine *eng, struct event_spec *events, int nevents, const struct snippet_entry *se,
                        struct code_row *r)
{
    char *args[8];
    int na = 0;
    args[na++] = xasprintf("asm=%s", se->text);
    args[na++] = xasprintf("mode=%s", r->mode);
    if (se->init)
        args[na++] = xasprintf("init=%s", se->init);
    if (se->chain)
        args[na++] = xasprintf("chain=%s", se->chain);
    if (se->expect)
        args[na++] = xasprintf("expect=%s", se->expect);
    if (se->copies)
        args[na++] = xasprintf("copies=%s", se->copies);
    struct case_ *c = case_new(kernel_find("code"), na, args);
    for (int i = 0; i < na; i++)
        free(args[i]);
    r->status = PENALTY_ERROR;
    if (!c) {
        snprintf(r->reason, sizeof(r->reason), "line %d: the options do not fit the code kernel (see the message above)",
                 se->line);
        return;
    }
    eng->arg = r;
    int rc = engine_case(eng, c, events, nevents);
    if (r->status == PENALTY_ERROR) {
        const char *why = snippet_last_problem();
        if (c->skip[0])
            r->status = PENALTY_SKIP, snprintf(r->reason, sizeof(r->reason), "%s", c->skip);
        else
            snprintf(r->reason, sizeof(r->reason), "%s", why[0] ? why : rc == CASE_INTERRUPTED ? "interrupted"
                                                                                                   : "not measured");
    }
    case_free(c);
}

int snippet_rows_measure(struct engine *eng, struct event_spec *events, int nevents, const struct snippet_entry *ents,
                         int nent, const struct uarch *host, struct code_row **out)
{
    eng->on_measurement = take;
    struct code_row *rows = xcalloc((size_t)nent * 2, sizeof(*rows));
    int nrows = 0;
    for (int i = 0; i < nent && !stop_requested(); i++)
        for (int m = 0; m < 2; m++) {
            if (!(ents[i].modes & (m ? SNIPPET_THROUGHPUT : SNIPPET_LATENCY)))
                continue;
            struct code_row *r = &rows[nrows++];
            r->name = ents[i].name, r->text = ents[i].text, r->line = ents[i].line;
            r->mode = m ? "throughput" : "latency";
            r->cycles = r->lo = r->hi = r->copies = r->inst = NAN;
            measure_row(eng, events, nevents, &ents[i], r);
            r->ref = host ? snippet_reference(host->name, r->name, r->mode) : NULL;
            r->deviation = r->ref && !isnan(r->cycles) ? reference_deviation(r->ref, r->cycles) : NAN;
        }
    *out = rows;
    return nrows;
}

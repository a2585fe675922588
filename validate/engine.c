#include "validate/engine.h"
#include "arch/isa.h"
#include "base/stop.h"
#include "base/util.h"
#include "events/vendor.h"
#include "host/clock.h"
#include "host/cpuload.h"
#include "host/topo.h"
#include "runs/record.h"
#include "validate/schedule.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char engine_default_events[] =
    "instructions,branches,branch-misses,cycles,page-faults,cpu-migrations,context-switches";

int engine_resolve_events(const struct source *src, const struct evlist *l, struct event_spec **out, int *n)
{
    struct event_spec *ev = xcalloc((size_t)(l->n ? l->n : 1), sizeof(*ev));
    for (int i = 0; i < l->n; i++) {
        char err[512];
        if (src->resolve(l->name[i], &ev[i], err, sizeof(err))) {
            if (!strcmp(l->where[i], "-e"))
                pm_error("%s", err);
            else
                pm_error("%s: %s", l->where[i], err);
            engine_free_events(ev, i + 1);
            return -1;
        }
        ev[i].group = l->group ? l->group[i] : 0;
    }
    *out = ev;
    *n = l->n;
    return 0;
}

struct event_spec *engine_copy_events(const struct event_spec *events, int n)
{
    struct event_spec *ev = xcalloc((size_t)(n ? n : 1), sizeof(*ev));
    for (int k = 0; k < n; k++) {
        ev[k] = events[k];
        ev[k].name = xstrdup(events[k].name);
        ev[k].canonical = events[k].canonical ? xstrdup(events[k].canonical) : NULL;
        ev[k].unsupported = events[k].unsupported ? xstrdup(events[k].unsupported) : NULL;
    }
    return ev;
}

void engine_free_events(struct event_spec *ev, int n)
{
    for (int i = 0; i < n; i++)
        event_spec_clear(&ev[i]);
    free(ev);
}

void measurement_json(struct json *j, const struct engine *eng, const struct case_ *c, int group,
                      const struct measurement *m, const struct quantities *q, const char *part,
                      const char *learned, const struct event_verdict *vs)
{
    const struct record_head h = {.c = c, .key = eng->record_key, .source = eng->src->name, .group = group,
                                  .part = part, .learned = learned};
    struct record_verdict rv[GROUP_MAX_EVENTS];
    for (int k = 0; vs && k < m->nevents && k < GROUP_MAX_EVENTS; k++)
        rv[k] = (struct record_verdict){vs[k].kind, vs[k].tolerance[0] ? vs[k].tolerance : NULL,
                                        vs[k].measured, vs[k].expected, vs[k].allowed, vs[k].reason};
    record_json(j, &h, m, q, vs ? rv : NULL);
}

static struct event_summary *summary_of(struct engine *eng, const char *name)
{
    for (int i = 0; i < eng->nsum; i++)
        if (!strcmp(eng->sum[i].name, name))
            return &eng->sum[i];
    eng->sum = xrealloc(eng->sum, sizeof(*eng->sum) * (size_t)(eng->nsum + 1));
    struct event_summary *s = &eng->sum[eng->nsum++];
    memset(s, 0, sizeof(*s));
    s->name = xstrdup(name);
    return s;
}

static void summarize(struct engine *eng, const char *event, const char *label, enum verdict kind, const char *why)
{
    struct event_summary *s = summary_of(eng, event);
    switch (kind) {
    case VERDICT_OK: s->ok++; break;
    case VERDICT_NOT_OK: {
        s->not_ok++;
        s->silent_zero += why && strstr(why, SILENT_ZERO) != NULL;
        char *f = s->fails ? xasprintf("%s; %s", s->fails, label) : xstrdup(label);
        free(s->fails);
        s->fails = f;
        break;
    }
    case VERDICT_SKIP:
        s->skip++;
        if (!s->skip_reason && why)
            s->skip_reason = xstrdup(why);
        break;
    case VERDICT_TODO: s->todo++; break;
    case VERDICT_INFO: s->info++; break;
    }
}

/* Why a group's counts are not of whole loops: it never held its counters while the iterations ran
 * (measure.h: never_scheduled) or held them part of the time (multiplexed). "" when it ran throughout. One wording for the verdicts and
 * for the split that follows. */
static const char *unscheduled(const struct measurement *m, char *buf, size_t n)
{
    if (m->never_scheduled && m->time_running == 0)
        snprintf(buf, n, "the group was never scheduled (time_running 0 of %llu ns)",
                 (unsigned long long)m->time_enabled);
    else if (m->never_scheduled)
        snprintf(buf, n, "the group was never scheduled (time_running %llu of %llu ns, none while the code executed: "
                 "%.0f ns a loop with iterations, %.0f ns without)", (unsigned long long)m->time_running,
                 (unsigned long long)m->time_enabled, m->running_iters, m->running_zero);
    else if (m->multiplexed)
        snprintf(buf, n, "the group was multiplexed (running %llu of %llu ns)", (unsigned long long)m->time_running,
                 (unsigned long long)m->time_enabled);
    else
        buf[0] = 0;
    return buf;
}

struct event_verdict engine_check_event(const struct engine *eng, const struct rule *r, const struct event_spec *ev,
                                        const struct stats *st, const struct quantities *q, uint64_t iters)
{
    struct event_verdict v = check_event(r, ev, st, q, eng->src->exact_floor, eng->src->slack_per_loop / (double)iters);
    const char *why = r ? NULL : source_unjudged_why(eng->src, ev->canonical ? ev->canonical : ev->name);
    if (why && v.kind == VERDICT_INFO)
        snprintf(v.reason, sizeof(v.reason), "%s", why);
    return v;
}

void engine_judge(const struct engine *eng, const struct measurement *m, const struct quantities *q,
                  struct event_verdict *out)
{
    for (int k = 0; k < m->nevents; k++) {
        const struct event_spec *ev = m->events[k];
        const struct rule *r = ruleset_find(&eng->rules, ev);
        struct event_verdict v = engine_check_event(eng, r, ev, &m->stat[k], q, m->iters);
        /* A 'none' rule (switches, migrations) broken while the measurement's own detectors saw
         * another task in every repetition after its redos: the host's load, not a defect of the
         * event; withheld, as calibrate withholds a figure the load made. Broken on a quiet run, it
         * stays not ok (a count that is not the event's). */
        if (r && r->tol == TOL_NONE && v.kind == VERDICT_NOT_OK && m->noisy) {
            size_t len = strlen(v.reason);
            snprintf(v.reason + len, sizeof(v.reason) - len, " (another task held the CPU throughout, as the "
                     "detectors saw: the counts beside it are not the kernel's alone)");
            v.kind = VERDICT_SKIP;
        }
        double threads = quantity_stated(q, Q_THREADS) && q->v[Q_THREADS] > 1 ? q->v[Q_THREADS] : 1;
        double most = source_zero_most(eng->src, ev->canonical ? ev->canonical : ev->name, threads);
        struct raw_limits lim = {.exact_floor = eng->src->exact_floor, .slack_per_loop = eng->src->slack_per_loop,
                                 .deterministic = eng->src->deterministic, .zero_most = most,
                                 .team_extra = isnan(most) ? 0 : most - source_zero_most(eng->src, ev->canonical ? ev->canonical : ev->name, 1)};
        /* A group that did not hold its counters all the time (never scheduled, or multiplexed
         * with other users of the PMU) counted part of the measured loops or none: its zeros are not the
         * PMU's, and its counts are never scaled up to a whole. */
        bool never_ran = m->never_scheduled, shared = m->multiplexed;
        if (!ev->unsupported && !shared &&
            !(ev->programmable && check_silent_zero(&v, r, (const double(*)[2])m->raw[k], m->reps, m->iters)))
            check_raw(&v, r, (const double(*)[2])m->raw[k], m->per_iter[k], m->reps, m->iters, &lim);
        /* An erratum (from the rule, or the vendor table) turns a failure into a TODO, not a failed run. */
        const struct vendor_event *vev = eng->vt && !ev->unsupported ? vendor_match(eng->vt, ev) : NULL;
        const char *erratum = r && r->erratum ? r->erratum : vev && vev->errata ? vev->errata : NULL;
        if (v.kind == VERDICT_NOT_OK && erratum && !m->multiplexed) {
            char *why = xasprintf("erratum %s: %s", erratum, v.reason);
            snprintf(v.reason, sizeof(v.reason), "%.*s", (int)sizeof(v.reason) - 1, why);
            free(why);
            v.kind = VERDICT_TODO;
        }
        if (shared && !ev->unsupported && (v.kind == VERDICT_OK || v.kind == VERDICT_NOT_OK || v.kind == VERDICT_TODO)) {
            char state[256];
            v.kind = VERDICT_NOT_OK;
            if (never_ran)
                snprintf(v.reason, sizeof(v.reason), "%s: %s: it counted nothing of the measured loops; the counters were never "
                         "free for it (another user held them, or the group has more events than counters)", ev->name,
                         unscheduled(m, state, sizeof(state)));
            else
                snprintf(v.reason, sizeof(v.reason), "%s: %s: other users shared the PMU's counters; counts are of "
                         "part of the measured loops, not comparable and never scaled", ev->name,
                         unscheduled(m, state, sizeof(state)));
        }
        out[k] = v;
    }
}

void engine_report(struct engine *eng, const char *label, const struct measurement *m, const struct event_verdict *vs)
{
    for (int k = 0; k < m->nevents; k++) {
        const struct event_spec *ev = m->events[k];
        const struct event_verdict *v = &vs[k];
        char desc[768];
        switch (v->kind) {
        case VERDICT_OK:
        case VERDICT_NOT_OK:   /* the reason says what was compared */
            snprintf(desc, sizeof(desc), "%s :: %s", label, v->reason);
            tap_point(eng->tap, v->kind, desc, NULL);
            break;
        case VERDICT_SKIP:
        case VERDICT_TODO:
            snprintf(desc, sizeof(desc), "%s :: %s", label, ev->name);
            tap_point(eng->tap, v->kind, desc, v->reason);
            break;
        case VERDICT_INFO:
            snprintf(desc, sizeof(desc), "%s :: %s measured %.4f per iteration", label, ev->name, v->measured);
            tap_point(eng->tap, VERDICT_INFO, desc, v->reason);
            break;
        }
        summarize(eng, ev->name, label, v->kind, v->reason);
    }
}

static void skip_all(struct engine *eng, const struct case_ *c, struct event_spec *events, int n, const char *why,
                     bool failed)
{
    if (!eng->tap)
        return;
    for (int k = 0; k < n; k++) {
        char desc[768];
        snprintf(desc, sizeof(desc), "%s :: %s", c->label, events[k].name);
        tap_point(eng->tap, failed ? VERDICT_NOT_OK : VERDICT_SKIP, desc, why);
        summarize(eng, events[k].name, c->label, failed ? VERDICT_NOT_OK : VERDICT_SKIP, why);
    }
}

static void record(struct engine *eng, const struct case_ *c, int g, const struct measurement *m,
                   const struct quantities *q, const char *part, const char *learned)
{
    struct event_verdict *vs = xcalloc((size_t)(m->nevents ? m->nevents : 1), sizeof(*vs));
    engine_judge(eng, m, q, vs);
    if (eng->dir) {
        struct json j;
        json_init(&j);
        measurement_json(&j, eng, c, g, m, q, part[0] ? part : NULL, learned, vs);
        if (record_line_append(eng->dir->measurements, &j)) {
            pm_error("cannot append to %s/measurements.ndjson: %s; the run stops, the records before stay",
                     eng->dir->path, strerror(errno));
            eng->write_failed = true;
            json_free(&j);
            free(vs);
            return;
        }
        json_free(&j);
    }
    eng->measurements++;
    if (eng->tap)
        engine_report(eng, c->label, m, vs);
    for (int k = 0; k < m->nevents && eng->judged; k++)
        eng->judged[m->events[k] - eng->case_events] = true;
    free(vs);
    if (eng->on_measurement)
        eng->on_measurement(eng, c, m, q);
}

/* A group that opened but did not hold its counters is measured again in parts; what it read stays
 * in the TAP as comments, each event with the engine's verdict on it (never scheduled or
 * multiplexed: never the PMU's zeros, never scaled) and its first repetition's raw counts. The
 * parts' lines are the verdicts. */
static void report_split(struct engine *eng, const struct case_ *c, const struct measurement *m,
                         const struct quantities *q, const char *part)
{
    if (!eng->tap)
        return;
    struct event_verdict *vs = xcalloc((size_t)(m->nevents ? m->nevents : 1), sizeof(*vs));
    char state[256];
    engine_judge(eng, m, q, vs);
    unscheduled(m, state, sizeof(state));
    for (int k = 0; k < m->nevents; k++)
        if (!m->events[k]->unsupported)   /* an event without a rule: the group's state alone */
            tap_comment(eng->tap, "split %s%s%s :: %s%s%s; raw counts of repetition 1: %.0f (%llu iterations), %.0f (0); "
                        "not judged: measured again in parts", c->label, part[0] ? " part " : "", part,
                        vs[k].kind == VERDICT_NOT_OK ? vs[k].reason : m->events[k]->name, vs[k].kind == VERDICT_NOT_OK ? "" : ": ",
                        vs[k].kind == VERDICT_NOT_OK ? "" : state, m->raw[k][0][0], (unsigned long long)m->iters, m->raw[k][0][1]);
    free(vs);
}

static bool no_free_counter(const struct event_spec *ev)
{
    return ev->unsupported && !strncmp(ev->unsupported, "no free counter", 15);
}

/* Measure one group; when it could not be scheduled as a whole (it never ran, it was multiplexed,
 * or members found no free counter) learn that, split it in two and measure each half. */
static int measure_part(struct engine *eng, struct case_ *c, int g, struct event_spec **ev, int n,
                        const struct quantities *q, struct measurement *m, const char *part, const char *learned)
{
    int rc = measure_group(eng->src, c, ev, n, &eng->mopts, m);
    if (rc != CASE_OK)
        return rc;
    int counting = 0, crowded = 0;
    for (int k = 0; k < n; k++) {
        counting += ev[k]->programmable && !ev[k]->unsupported;
        crowded += no_free_counter(ev[k]);
    }
    char why[256] = "";
    if (counting + crowded >= 2) {
        if (crowded)
            snprintf(why, sizeof(why), "%d of %d events found no free counter", crowded, n);
        else
            unscheduled(m, why, sizeof(why));
    }
    if (!why[0]) {
        record(eng, c, g, m, q, part, learned);
        return CASE_OK;
    }
    sched_learn(&eng->learned, ev, n, why);
    pm_note("%s: group %d%s%s: %s; split and retried", c->label, g, part[0] ? " part " : "", part, why);
    if (!crowded)
        report_split(eng, c, m, q, part);
    for (int k = 0; k < n; k++)
        if (no_free_counter(ev[k])) {
            free(ev[k]->unsupported);
            ev[k]->unsupported = NULL;
        }
    /* Halves by programmable events; events without a counter stay with the first half. */
    struct event_spec *half[2][GROUP_MAX_EVENTS];
    int hn[2] = {0, 0}, prog = 0, total = 0;
    for (int k = 0; k < n; k++)
        total += ev[k]->programmable;
    for (int k = 0; k < n; k++) {
        int h = ev[k]->programmable ? (prog++ < (total + 1) / 2 ? 0 : 1) : 0;
        half[h][hn[h]++] = ev[k];
    }
    int learned_before = eng->learned.n;
    for (int h = 0; h < 2 && rc == CASE_OK; h++) {
        if (!hn[h])
            continue;
        char sub[64];
        snprintf(sub, sizeof(sub), "%s%s%d/2", part, part[0] ? "." : "", h + 1);
        rc = measure_part(eng, c, g, half[h], hn[h], q, m, sub, why);
    }
    /* Both halves ran as they were: later groups keep to that size, so no case opens a group only
     * to see it fail the same way (the set above is kept too, for the record). */
    int half_size = (total + 1) / 2;
    if (rc == CASE_OK && eng->learned.n == learned_before && half_size >= 1 &&
        (!eng->group_cap || half_size < eng->group_cap))
        eng->group_cap = half_size;
    return rc;
}

void engine_summary(struct engine *eng)
{
    if (!eng->tap)
        return;
    tap_comment(eng->tap, "per-event summary (%d events):", eng->nsum);
    for (int i = 0; i < eng->nsum; i++) {
        const struct event_summary *s = &eng->sum[i];
        int cases = s->ok + s->not_ok + s->skip + s->todo + s->info;
        if (s->not_ok && s->silent_zero == s->not_ok)
            tap_comment(eng->tap, "  %-40s FAILS in %d of %d cases, each a silent zero: the PMU's defect (the event "
                        "opens and counts nothing where the model expects counts): %s", s->name, s->not_ok, cases, s->fails);
        else if (s->not_ok && s->silent_zero)
            tap_comment(eng->tap, "  %-40s FAILS in %d of %d cases (%d of them silent zeros: opens, counts nothing): %s",
                        s->name, s->not_ok, cases, s->silent_zero, s->fails);
        else if (s->not_ok)
            tap_comment(eng->tap, "  %-40s FAILS in %d of %d cases: %s", s->name, s->not_ok, cases, s->fails);
        else if (s->ok && !s->todo && !s->skip)
            tap_comment(eng->tap, "  %-40s passes in all %d cases", s->name, s->ok);
        else if (s->ok || s->todo)
            tap_comment(eng->tap, "  %-40s passes in %d, todo (erratum) in %d, skipped in %d of %d cases", s->name,
                        s->ok, s->todo, s->skip, cases);
        else if (s->skip && !s->info)
            tap_comment(eng->tap, "  %-40s skipped in all %d cases: %s", s->name, s->skip,
                        s->skip_reason ? s->skip_reason : "");
        else
            tap_comment(eng->tap, "  %-40s never expected (no rule, or an info rule): 'pmucal classify RUN' explains it",
                        s->name);
    }
    for (int i = 0; i < eng->learned.n; i++) {
        char names[1024] = "";
        for (char **p = eng->learned.sets[i]; *p; p++)
            snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", names[0] ? "," : "", *p);
        tap_comment(eng->tap, "learned: {%s} cannot be measured as one group: %s", names, eng->learned.why[i]);
    }
    if (eng->group_cap && eng->group_cap < eng->group_size)
        tap_comment(eng->tap, "learned: groups of at most %d programmable events were measured; later groups kept to that",
                    eng->group_cap);
}

void engine_free(struct engine *eng)
{
    for (int i = 0; i < eng->nsum; i++) {
        free(eng->sum[i].name);
        free(eng->sum[i].fails);
        free(eng->sum[i].skip_reason);
    }
    free(eng->sum);
    eng->sum = NULL;
    eng->nsum = 0;
    sched_learned_free(&eng->learned);
    ruleset_free(&eng->rules);
}

int engine_case(struct engine *eng, struct case_ *c, struct event_spec *events, int n)
{
    /* The command's CPU (--cpu, else the least loaded of the affinity mask) for every case that
     * does not name its own. */
    int cpu = eng->cpu;
    if (cpu < 0 && eng->src->real_time)   /* the least loaded CPU, chosen once */
        cpu = eng->cpu = cpuload_chosen();
    else if (cpu < 0) {   /* a simulated count: any CPU; its record names the mask's first */
        int first[1];
        cpu = topo_cpus(first, 1) ? first[0] : 0;
    }
    case_adopt_cpu(c, cpu, eng->pair_given ? eng->second_cpu : -1);
    /* A simulated count is the same on any CPU: unless one was named, the case runs where the
     * scheduler puts it, whatever an earlier case's setup bound the thread to. Bound to the mask's
     * first CPU it waited behind whatever ran there (the parameter sweep took twice its CPU time
     * in wall time beside a job pinned to CPU 0). */
    if (!eng->src->real_time && eng->cpu < 0 && !case_given(c, "run_cpu"))
        topo_unbind_thread();
    else if (topo_bind_thread(kernel_has_param(c->kernel, "run_cpu") ? case_run_cpu(c) : cpu))
        return CASE_ERROR;
    c->isa_limits = eng->src->isa_limits;
    c->isa_limits_by = eng->src->name;
    c->simple_predictor = eng->src->simple_predictor;
    c->iters_fixed = eng->mopts.iters;
    int setup = case_setup(c);
    if (stop_requested()) {   /* stopped while setting up (seconds for large cases) */
        c->kernel->teardown(c);
        return CASE_INTERRUPTED;
    }
    const struct assembler *code = setup == CASE_OK && c->kernel->code ? c->kernel->code(c) : NULL;
    if (code && eng->src->max_code_bytes && code->len > eng->src->max_code_bytes) {
        snprintf(c->skip, sizeof(c->skip), "%s of generated code is more than the %s source executes in reasonable time "
                 "(%s); measure it with another source", fmt_size(code->len), eng->src->name,
                 fmt_size(eng->src->max_code_bytes));
        setup = CASE_SKIP;
    }
    if (setup == CASE_SKIP) {
        if (!eng->tap)   /* 'pmucal run': say it, or the command looks like it did nothing */
            pm_note("%s: SKIP %s", c->label, c->skip);
        skip_all(eng, c, events, n, c->skip, false);
        c->kernel->teardown(c);
        return CASE_OK;
    }
    if (setup == CASE_ERROR && eng->setup_refusal_skips) {
        char why[600];
        snprintf(why, sizeof(why), "refused by the kernel's setup: %s", pm_last_error());
        eng->refused++;
        skip_all(eng, c, events, n, why, false);
        c->kernel->teardown(c);
        return CASE_OK;
    }
    if (setup != CASE_OK) {
        eng->failures++;
        if (eng->tap)   /* the not ok lines carry no reason: say it once */
            tap_comment(eng->tap, "%s: setup failed: %s", c->label, pm_last_error());
        skip_all(eng, c, events, n, "setup failed", true);
        c->kernel->teardown(c);
        return CASE_ERROR;
    }
    struct quantities q;
    case_model(c, &q);
    /* A source that counts by simulating bounds the work of a loop by the model's instructions. */
    uint64_t cap = eng->src->max_inst_per_loop;
    if (cap && !eng->user_iters && eng->mopts.iters && quantity_stated(&q, Q_INST) &&
        q.v[Q_INST] * (double)eng->mopts.iters > (double)cap) {
        c->iters = q.v[Q_INST] >= (double)cap ? 1 : (uint64_t)((double)cap / q.v[Q_INST]);
        pm_note("%s: %llu iterations under %s (%.0f instructions each)", c->label, (unsigned long long)c->iters,
                eng->src->name, q.v[Q_INST]);
    }

    struct sched_info *info = xcalloc((size_t)(n ? n : 1), sizeof(*info));
    for (int k = 0; k < n; k++)
        schedule_info(&events[k], eng->pmu, eng->vt, eng->ncounters, &info[k]);
    struct schedule s;
    int size = eng->group_cap && eng->group_cap < eng->group_size ? eng->group_cap : eng->group_size;
    schedule_build(events, info, n, size, eng->ncounters, &eng->learned, &s);
    struct measurement *m = xmalloc(sizeof(*m));
    eng->case_events = events;
    eng->judged = xcalloc((size_t)(n ? n : 1), sizeof(*eng->judged));
    int rc = CASE_OK;   /* the measurement's, not the setup's: a setup that failed returned above */
    for (int g = 0; g < s.ngroups && rc == CASE_OK; g++) {
        struct event_spec *ptr[GROUP_MAX_EVENTS];
        int k = 0;
        for (int j = 0; j < s.count[g] && k < GROUP_MAX_EVENTS; j++)
            ptr[k++] = &events[s.order[s.start[g] + j]];
        rc = measure_part(eng, c, g, ptr, k, &q, m, "", NULL);
        if (rc == CASE_ERROR && c->failed[0]) {
            /* The case's code faulted or never ended: every event not yet judged fails with it. */
            if (!eng->tap)
                pm_error("%s: %s", c->label, c->failed);
            else
                tap_comment(eng->tap, "%s: %s", c->label, c->failed);
            for (int j = s.start[g]; j < s.start[s.ngroups - 1] + s.count[s.ngroups - 1]; j++)
                if (!eng->judged[s.order[j]])   /* a half of a split group may have its lines */
                    skip_all(eng, c, &events[s.order[j]], 1, c->failed, true);
        }
    }
    free(eng->judged);
    eng->judged = NULL;
    eng->case_events = NULL;
    free(info);
    free(m);
    schedule_free(&s);
    c->kernel->teardown(c);
    if (rc == CASE_ERROR)
        eng->failures++;
    return rc;
}

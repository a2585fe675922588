#include "engine.h"
#include "clock.h"
#include "schedule.h"
#include "topo.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char engine_default_events[] =
    "instructions,branches,branch-misses,cycles,page-faults,cpu-migrations,context-switches";

int engine_resolve_events(const struct source *src, const char *list, struct event_spec **out, int *n)
{
    int count;
    char **names = split_list(list, ',', &count);
    if (!count) {
        pm_error("the event list '%s' names no event; give -e EVENT[,EVENT...]", list);
        free_list(names);
        return -1;
    }
    struct event_spec *ev = xcalloc((size_t)count, sizeof(*ev));
    for (int i = 0; i < count; i++) {
        char err[512];
        if (src->resolve(names[i], &ev[i], err, sizeof(err))) {
            pm_error("%s", err);
            engine_free_events(ev, i + 1);
            free_list(names);
            return -1;
        }
    }
    free_list(names);
    *out = ev;
    *n = count;
    return 0;
}

void engine_free_events(struct event_spec *ev, int n)
{
    for (int i = 0; i < n; i++)
        event_spec_clear(&ev[i]);
    free(ev);
}

static void stats_json(struct json *j, const char *key, const struct stats *s)
{
    json_object_begin(j, key);
    json_number(j, "median", s->median);
    json_number(j, "min", s->min);
    json_number(j, "max", s->max);
    json_number(j, "mad", s->mad);
    json_number(j, "mean", s->mean);
    json_number(j, "stddev", s->stddev);
    json_object_end(j);
}

void measurement_json(struct json *j, const struct engine *e, const struct case_ *c, int group,
                      const struct measurement *m, const struct quantities *q)
{
    json_object_begin(j, NULL);
    json_string(j, "case", c->label);
    json_string(j, "kernel", c->kernel->name);
    json_object_begin(j, "params");
    for (int i = 0; c->kernel->params[i].name; i++)
        json_string(j, c->kernel->params[i].name, c->value[i]);
    json_object_end(j);
    json_string(j, "detail", c->detail);
    json_string(j, "source", e->src->name);
    json_int(j, "group", group);
    json_int(j, "cpu", case_run_cpu(c));
    json_uint(j, "iters", m->iters);
    json_int(j, "repetitions", m->reps);
    json_array_begin(j, "events");
    for (int k = 0; k < m->nevents; k++) {
        const struct event_spec *ev = m->events[k];
        json_object_begin(j, NULL);
        json_string(j, "name", ev->name);
        json_string(j, "canonical", ev->canonical);
        json_object_begin(j, "attr");
        json_uint(j, "type", ev->type);
        json_uint(j, "config", ev->config);
        json_uint(j, "config1", ev->config1);
        json_uint(j, "config2", ev->config2);
        json_object_end(j);
        json_string(j, "unsupported", ev->unsupported);
        if (!ev->unsupported) {
            json_array_begin(j, "per_iter");
            for (int r = 0; r < m->reps; r++)
                json_number(j, NULL, m->per_iter[k][r]);
            json_array_end(j);
            json_array_begin(j, "raw");
            for (int r = 0; r < m->reps; r++) {
                json_array_begin(j, NULL);
                json_number(j, NULL, m->raw[k][r][0]);
                json_number(j, NULL, m->raw[k][r][1]);
                json_array_end(j);
            }
            json_array_end(j);
            stats_json(j, "stats", &m->stat[k]);
        }
        json_object_end(j);
    }
    json_array_end(j);
    json_object_begin(j, "cycles");
    json_string(j, "source", "tsc");
    json_number(j, "core_per_tsc", m->core_per_tsc);
    json_number(j, "ratio_before", m->ratio_before);
    json_number(j, "ratio_after", m->ratio_after);
    json_array_begin(j, "per_iter");
    for (int r = 0; r < m->reps; r++)
        json_number(j, NULL, m->cycles[r]);
    json_array_end(j);
    stats_json(j, "stats", &m->cycle_stat);
    json_object_end(j);
    if (!isnan(m->fixed_stat[FIXED_CYCLES].median) || !isnan(m->fixed_stat[FIXED_INSTRUCTIONS].median)) {
        json_object_begin(j, "fixed");
        for (int k = 0; k < FIXED_COUNT; k++)
            stats_json(j, fixed_name[k], &m->fixed_stat[k]);
        json_object_end(j);
    }
    json_object_begin(j, "noise");
    for (int k = 0; k < NOISE_COUNT; k++) {
        json_array_begin(j, noise_name[k]);
        for (int r = 0; r < m->reps; r++)
            json_number(j, NULL, m->noise[k][r]);
        json_array_end(j);
    }
    json_int(j, "redone", m->redone);
    json_bool(j, "noisy", m->noisy);
    json_object_end(j);
    json_uint(j, "time_enabled", m->time_enabled);
    json_uint(j, "time_running", m->time_running);
    json_bool(j, "multiplexed", m->multiplexed);
    json_object_begin(j, "model");
    for (int i = 0; i < Q_COUNT; i++)
        if (quantity_stated(q, (enum quantity_id)i))
            json_number(j, quantity_name((enum quantity_id)i), q->v[i]);
    json_object_end(j);
    json_object_end(j);
}

static void verdicts(struct engine *e, const struct case_ *c, const struct measurement *m, const struct quantities *q)
{
    for (int k = 0; k < m->nevents; k++) {
        const struct event_spec *ev = m->events[k];
        const struct rule *r = ruleset_find(&e->rules, ev);
        struct verdict v = check_event(r, ev, &m->stat[k], q, e->src->exact_floor);
        char desc[768];
        if (m->multiplexed && v.kind == V_OK)
            v.kind = V_NOT_OK, snprintf(v.reason, sizeof(v.reason), "%s: the group was multiplexed "
                                        "(running %llu of %llu ns); counts are not comparable", ev->name,
                                        (unsigned long long)m->time_running, (unsigned long long)m->time_enabled);
        switch (v.kind) {
        case V_OK:
        case V_NOT_OK:
            snprintf(desc, sizeof(desc), "%s :: %s", c->label, v.reason);
            tap_point(e->tap, v.kind == V_OK ? TAP_OK : TAP_NOT_OK, desc, NULL);
            break;
        case V_SKIP:
            snprintf(desc, sizeof(desc), "%s :: %s", c->label, ev->name);
            tap_point(e->tap, TAP_SKIP, desc, v.reason);
            break;
        case V_TODO:
            snprintf(desc, sizeof(desc), "%s :: %s", c->label, ev->name);
            tap_point(e->tap, TAP_TODO, desc, v.reason);
            break;
        case V_INFO:
            e->tap->info++;
            tap_comment(e->tap, "info %s :: %s measured %.4f per iteration (%s)", c->label, ev->name, v.measured,
                        v.reason);
            break;
        }
    }
}

static void skip_all(struct engine *e, const struct case_ *c, struct event_spec *events, int n, const char *why,
                     bool failed)
{
    if (!e->tap)
        return;
    for (int k = 0; k < n; k++) {
        char desc[768];
        snprintf(desc, sizeof(desc), "%s :: %s", c->label, events[k].name);
        tap_point(e->tap, failed ? TAP_NOT_OK : TAP_SKIP, desc, why);
    }
}

int engine_case(struct engine *e, struct case_ *c, struct event_spec *events, int n)
{
    if (topo_bind_thread(case_run_cpu(c)))
        return MEASURE_FAILED;
    c->isa_limits = e->src->isa_limits;
    c->isa_limits_by = e->src->name;
    int rc = c->kernel->setup(c);
    if (rc == KERNEL_SKIP) {
        if (!e->tap)   /* 'pmucal run': say it, or the command looks like it did nothing */
            pm_note("%s: SKIP %s", c->label, c->skip);
        skip_all(e, c, events, n, c->skip, false);
        c->kernel->teardown(c);
        return MEASURE_OK;
    }
    if (rc != KERNEL_OK) {
        e->failures++;
        skip_all(e, c, events, n, "setup failed", true);
        c->kernel->teardown(c);
        return MEASURE_FAILED;
    }
    struct quantities q;
    quantities_unstated(&q);
    c->kernel->model(c, &q);

    struct schedule s;
    schedule_groups(events, n, e->group_size, &s);
    struct measurement *m = xmalloc(sizeof(*m));
    for (int g = 0; g < s.ngroups && rc == MEASURE_OK; g++) {
        struct event_spec *ptr[GROUP_MAX_EVENTS];
        for (int k = 0; k < s.count[g]; k++)
            ptr[k] = &events[s.start[g] + k];
        rc = measure_group(e->src, c, ptr, s.count[g], &e->mopts, m);
        if (rc != MEASURE_OK)
            break;
        if (e->dir) {
            struct json j;
            json_init(&j);
            measurement_json(&j, e, c, g, m, &q);
            if (json_write_line(&j, e->dir->measurements))
                pm_error("cannot append to %s/measurements.ndjson", e->dir->path);
            json_free(&j);
        }
        e->measurements++;
        if (e->tap)
            verdicts(e, c, m, &q);
        if (e->on_measurement)
            e->on_measurement(e, c, m, &q);
    }
    free(m);
    schedule_free(&s);
    c->kernel->teardown(c);
    if (rc == MEASURE_FAILED)
        e->failures++;
    return rc;
}

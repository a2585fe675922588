#include "runs/record.h"
#include "base/util.h"
#include "core/team.h"
#include "host/clock.h"
#include "host/topo.h"
#include <errno.h>
#include <math.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the writer ---- */

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

static void verdict_json(struct json *j, const struct record_verdict *v)
{
    json_object_begin(j, "verdict");
    json_string(j, "kind", verdict_name(v->kind));
    json_string(j, "tolerance", v->tolerance);
    json_number(j, "measured", v->measured);
    json_number(j, "expected", v->expected);
    json_number(j, "allowed", v->allowed);
    json_string(j, "reason", v->reason);
    json_object_end(j);
}

void record_json(struct json *j, const struct record_head *h, const struct measurement *m,
                 const struct quantities *q, const struct record_verdict *vs)
{
    const struct case_ *c = h->c;
    json_object_begin(j, NULL);
    json_string(j, "case", c->label);
    if (h->key)
        json_string(j, "key", h->key);
    json_string(j, "kernel", c->kernel->name);
    json_object_begin(j, "params");
    for (int i = 0; c->kernel->params[i].name; i++)
        json_string(j, c->kernel->params[i].name, c->value[i]);
    json_object_end(j);
    json_string(j, "detail", c->detail);
    json_string(j, "source", h->source);
    json_int(j, "group", h->group);
    json_string(j, "part", h->part);         /* "1/2" when a group was split and retried */
    json_string(j, "learned", h->learned);   /* why it was split */
    json_int(j, "cpu", topo_current_cpu());   /* the measuring thread is bound to one CPU: where it ran */
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
        json_bool(j, "exclude_user", ev->exclude_user);
        json_bool(j, "exclude_kernel", !ev->count_kernel);
        if (ev->uncore[0])   /* counted CPU-wide on every instance of this unit in the socket */
            json_string(j, "uncore", ev->uncore);
        json_object_end(j);
        json_string(j, "unsupported", ev->unsupported);
        if (ev->leads)   /* a perf {a,b,c} group's leader: the event the kernel's group hangs on */
            json_bool(j, "leader", true);
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
        if (vs)
            verdict_json(j, &vs[k]);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_begin(j, "cycles");
    json_string(j, "source", "tsc");
    json_number(j, "core_per_tsc", m->core_per_tsc);
    json_number(j, "tsc_hz", clock_get()->tsc_hz);   /* with core_per_tsc: the clock, so ns come back exactly */
    json_number(j, "ratio_before", m->ratio_before);
    json_number(j, "ratio_after", m->ratio_after);
    json_int(j, "clock_redone", m->clock_redone);
    json_bool(j, "clock_moved", m->clock_moved);
    if (m->windows) {   /* how per_iter was formed: a low quantile of short windows (measure.h) */
        json_object_begin(j, "windows");
        json_int(j, "count", m->windows);
        json_int(j, "dropped", m->windows_dropped);
        json_int(j, "iters", (int64_t)m->window_iters);
        json_number(j, "quantile", MEASURE_WINDOW_QUANTILE);
        json_number(j, "q", m->window_q);
        json_number(j, "median", m->window_median);
        json_number(j, "p90", m->window_p90);
        json_number(j, "clock_split", m->clock_split);
        if (!isnan(m->load_whole)) {
            json_number(j, "load_whole", m->load_whole);
            json_number(j, "load_median", m->load_median);
        }
        if (!isnan(m->front_fastest)) {
            json_number(j, "front_fastest", m->front_fastest);
            json_number(j, "front_median", m->front_median);
        }
        json_object_end(j);
    }
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
    json_bool(j, "never_scheduled", m->never_scheduled);
    if (m->multiplexed) {   /* what never_scheduled was judged on (measure.h) */
        json_object_begin(j, "per_loop_ns");
        json_number(j, "enabled_iters", m->enabled_iters);
        json_number(j, "enabled_zero", m->enabled_zero);
        json_number(j, "running_iters", m->running_iters);
        json_number(j, "running_zero", m->running_zero);
        json_number(j, "running_zero_spread", m->running_zero_spread);
        json_object_end(j);
    }
    json_object_begin(j, "model");
    for (int i = 0; i < Q_COUNT; i++)
        if (quantity_stated(q, (enum quantity_id)i))
            json_number(j, quantity_name((enum quantity_id)i), q->v[i]);
    json_object_end(j);
    if (q->unstated_why)   /* why the model leaves quantities out here: a replay says it again */
        json_string(j, "model_unstated_why", q->unstated_why);
    json_object_end(j);
}

/* ---- the reader ---- */

static void read_numbers(const struct jvalue *arr, double *out, int max, int *n)
{
    *n = 0;
    for (int i = 0; arr && arr->type == J_ARRAY && i < arr->n && *n < max; i++)
        out[(*n)++] = arr->items[i].type == J_NUMBER ? arr->items[i].num : NAN;
}

static int measurement_from_record(const struct jvalue *rec, struct measurement *m, struct event_spec *ev,
                                   struct quantities *q)
{
    const struct jvalue *evs = jget(rec, "events");
    memset(m, 0, sizeof(*m));
    if (!evs || evs->type != J_ARRAY)
        return -1;
    m->iters = (uint64_t)jget_num(rec, "iters", 0);
    m->reps = (int)jget_num(rec, "repetitions", 0);
    m->time_enabled = (uint64_t)jget_num(rec, "time_enabled", 0);
    m->time_running = (uint64_t)jget_num(rec, "time_running", 0);
    const struct jvalue *mux = jget(rec, "multiplexed");
    m->multiplexed = mux && mux->type == J_BOOL && mux->b;
    /* Records before never_scheduled was written knew only time_running 0. */
    const struct jvalue *never = jget(rec, "never_scheduled");
    m->never_scheduled = never && never->type == J_BOOL ? never->b : m->time_enabled > 0 && m->time_running == 0;
    if (!m->iters || m->reps < 1 || m->reps > MEASURE_MAX_REPS || evs->n > GROUP_MAX_EVENTS)
        return -1;
    m->nevents = evs->n;
    for (int k = 0; k < evs->n; k++) {
        const struct jvalue *e = &evs->items[k], *a = jget(e, "attr");
        struct event_spec *s = &ev[k];
        memset(s, 0, sizeof(*s));
        s->name = xstrdup(jget_str(e, "name", "?"));
        s->canonical = jstr(jget(e, "canonical")) ? xstrdup(jstr(jget(e, "canonical"))) : NULL;
        s->unsupported = jstr(jget(e, "unsupported")) ? xstrdup(jstr(jget(e, "unsupported"))) : NULL;
        s->type = (uint32_t)jget_num(a, "type", 0);
        s->config = (uint64_t)jget_num(a, "config", 0);
        s->config1 = (uint64_t)jget_num(a, "config1", 0);
        s->config2 = (uint64_t)jget_num(a, "config2", 0);
        s->count_kernel = jget(a, "exclude_kernel") && !jget(a, "exclude_kernel")->b;
        s->exclude_user = jget(a, "exclude_user") && jget(a, "exclude_user")->b;
        const char *unit = jstr(jget(a, "uncore"));   /* a stored run's: only a name that fits is kept */
        if (unit && strlen(unit) < sizeof(s->uncore) && unit[strspn(unit, "abcdefghijklmnopqrstuvwxyz0123456789_")] == '\0')
            snprintf(s->uncore, sizeof(s->uncore), "%s", unit);
        m->events = NULL;
        int n;
        read_numbers(jget(e, "per_iter"), m->per_iter[k], MEASURE_MAX_REPS, &n);
        if (!s->unsupported && n != m->reps)
            return -1;
        const struct jvalue *raw = jget(e, "raw");
        for (int r = 0; raw && raw->type == J_ARRAY && r < raw->n && r < m->reps; r++) {
            double pair[2];
            read_numbers(&raw->items[r], pair, 2, &n);
            m->raw[k][r][0] = n == 2 ? pair[0] : NAN;
            m->raw[k][r][1] = n == 2 ? pair[1] : NAN;
        }
        m->stat[k] = stats_of(m->per_iter[k], (size_t)(s->unsupported ? 0 : m->reps));
    }
    /* Cycles, the clock they were scaled by, noise and fixed counters, as record_json wrote them. */
    const struct jvalue *cyc = jget(rec, "cycles"), *noise = jget(rec, "noise"), *fixed = jget(rec, "fixed");
    int n;
    read_numbers(jget(cyc, "per_iter"), m->cycles, MEASURE_MAX_REPS, &n);
    m->cycle_stat = stats_of(m->cycles, (size_t)(n == m->reps ? n : 0));
    m->core_per_tsc = jget_num(cyc, "core_per_tsc", NAN);
    m->ratio_before = jget_num(cyc, "ratio_before", NAN);
    m->ratio_after = jget_num(cyc, "ratio_after", NAN);
    m->clock_redone = (int)jget_num(cyc, "clock_redone", 0);
    m->clock_moved = jget(cyc, "clock_moved") && jget(cyc, "clock_moved")->b;
    const struct jvalue *win = jget(cyc, "windows");
    m->windows = (int)jget_num(win, "count", 0);
    m->windows_dropped = (int)jget_num(win, "dropped", 0);
    m->window_iters = (uint64_t)jget_num(win, "iters", 0);
    m->window_q = jget_num(win, "q", NAN);
    m->window_median = jget_num(win, "median", NAN);
    m->window_p90 = jget_num(win, "p90", NAN);
    m->clock_split = jget_num(win, "clock_split", NAN);
    m->load_whole = jget_num(win, "load_whole", NAN);   /* not told by a pmucal before the witness */
    m->load_median = jget_num(win, "load_median", NAN);
    m->front_fastest = jget_num(win, "front_fastest", NAN);   /* not told before the front-end witness */
    m->front_median = jget_num(win, "front_median", NAN);
    for (int k = 0; k < NOISE_COUNT; k++) {
        read_numbers(jget(noise, noise_name[k]), m->noise[k], MEASURE_MAX_REPS, &n);
        for (int r = n; r < m->reps; r++)
            m->noise[k][r] = NAN;
    }
    m->redone = (int)jget_num(noise, "redone", 0);
    m->noisy = jget(noise, "noisy") && jget(noise, "noisy")->b;
    for (int k = 0; k < FIXED_COUNT; k++) {
        /* Only their statistics are stored. */
        const struct jvalue *st = jget(fixed, fixed_name[k]);
        for (int r = 0; r < m->reps; r++)
            m->fixed[k][r] = NAN;
        m->fixed_stat[k] = (struct stats){.n = st ? (size_t)m->reps : 0, .min = jget_num(st, "min", NAN),
                                          .max = jget_num(st, "max", NAN), .median = jget_num(st, "median", NAN),
                                          .mad = jget_num(st, "mad", NAN), .mean = jget_num(st, "mean", NAN),
                                          .stddev = jget_num(st, "stddev", NAN)};
    }
    quantities_unstated(q);
    const struct jvalue *model = jget(rec, "model");
    for (int i = 0; model && model->type == J_OBJECT && i < model->n; i++) {
        int id = quantity_lookup(model->keys[i]);
        if (id >= 0 && model->items[i].type == J_NUMBER)
            q->v[id] = model->items[i].num;
    }
    q->unstated_why = jget_str(rec, "model_unstated_why", NULL);   /* lives as long as the record */
    return 0;
}

int record_measurement(const struct jvalue *rec, struct record_measurement *r)
{
    memset(r->ev, 0, sizeof(r->ev));
    int rc = measurement_from_record(rec, &r->m, r->ev, &r->q);
    for (int k = 0; k < GROUP_MAX_EVENTS; k++)
        r->ptr[k] = &r->ev[k];
    r->m.events = r->ptr;
    return rc;
}

void record_measurement_clear(struct record_measurement *r)
{
    for (int k = 0; k < GROUP_MAX_EVENTS; k++)
        event_spec_clear(&r->ev[k]);
    r->m.nevents = 0;
}

/* ---- the file, line by line ---- */

/* Every number of a record that is converted to an integer, in range when present (the others are
 * doubles, used as such; which members a reader needs is its own check: record_measurement
 * wants iters and repetitions, classify and cpi only the statistics). false with err naming it. */
static bool record_check(const struct jvalue *rec, char *err, size_t n)
{
    double x;
    const struct jvalue *evs = jget(rec, "events");
    if (!jget_in(rec, "iters", 1, MEASURE_MAX_ITERS, true, 0, &x, err, n) ||
        !jget_in(rec, "repetitions", 1, MEASURE_MAX_REPS, true, 0, &x, err, n) ||
        !jget_in(rec, "time_enabled", 0, NUM_U64_MAX, true, 0, &x, err, n) ||
        !jget_in(rec, "time_running", 0, NUM_U64_MAX, true, 0, &x, err, n) ||
        !jget_in(jget(rec, "cycles"), "clock_redone", 0, INT32_MAX, true, 0, &x, err, n) ||
        !jget_in(jget(rec, "noise"), "redone", 0, INT32_MAX, true, 0, &x, err, n) ||
        !jget_in(jget(rec, "model"), "threads", 1, TEAM_MAX, true, 1, &x, err, n))
        return false;
    /* The windows' counts are converted too, and their references' split and the load witness's
     * readings decide whether calibrate keeps a run: the split a relative difference, never negative
     * (a trip cut short reads a few times apart); the witnesses in cycles a load and a no-op. */
    const struct jvalue *win = jget(jget(rec, "cycles"), "windows");
    if (!jget_in(win, "count", 0, MEASURE_MAX_REPS * MEASURE_WINDOWS, true, 0, &x, err, n) ||
        !jget_in(win, "dropped", 0, MEASURE_MAX_REPS * MEASURE_WINDOWS, true, 0, &x, err, n) ||
        !jget_in(win, "iters", 0, MEASURE_MAX_ITERS, true, 0, &x, err, n) ||
        !jget_in(win, "clock_split", 0, 1e3, true, 0, &x, err, n) ||
        !jget_in(win, "load_whole", 1, 1e4, true, 1, &x, err, n) ||
        !jget_in(win, "load_median", 0, 1e6, true, 0, &x, err, n) ||
        !jget_in(win, "front_fastest", 1e-6, 1e4, true, 1, &x, err, n) ||
        !jget_in(win, "front_median", 0, 1e6, true, 0, &x, err, n))
        return false;
    static const char *const attr[] = {"type", "config", "config1", "config2"};
    for (int k = 0; k < evs->n; k++)
        for (size_t i = 0; i < ARRAY_SIZE(attr); i++)
            if (!jget_in(jget(&evs->items[k], "attr"), attr[i], 0, i ? NUM_U64_MAX : UINT32_MAX, true, 0, &x, err, n))
                return false;
    /* A stored verdict is one pmucal writes: compare and replay rank and judge it as such. */
    for (int k = 0; k < evs->n; k++) {
        const struct jvalue *v = jget(&evs->items[k], "verdict");
        const char *name = jstr(jget(v, "kind"));
        enum verdict kind;
        if (v && !verdict_parse(name, &kind)) {
            snprintf(err, n, "event %d: verdict.kind '%.40s' is none of ok, not ok, skip, todo, info", k + 1,
                     name ? name : "(missing)");
            return false;
        }
    }
    return true;
}

bool record_event_verdict(const struct jvalue *ev, enum verdict *v)
{
    return verdict_parse(jstr(jget(jget(ev, "verdict"), "kind")), v);
}

/* The next line's bounds into l, and the line parsed when it is not blank and not too long: the
 * walk the readers of both kinds of records share; is_record then says whether it is one. */
static bool line_next(const char *text, size_t size, struct record_line *l,
                      bool (*is_record)(struct record_line *l))
{
    size_t at = l->at + l->len;
    if (at >= size)
        return false;
    const char *nl = memchr(text + at, '\n', size - at);
    *l = (struct record_line){.at = at, .len = nl ? (size_t)(nl - (text + at)) + 1 : size - at,
                              .lineno = l->lineno + 1, .cut = !nl};
    l->blank = l->len == 1 && nl;
    if (l->blank)
        return true;
    if (l->len > RECORD_LINE_MAX) {
        /* Parsed, such a line would take some 20 times its size in memory. */
        snprintf(l->err, sizeof(l->err), "a line of %zu bytes; a measurement record is at most %d MiB", l->len,
                 RECORD_LINE_MAX >> 20);
        l->parsed = l->invalid = true;
        return true;
    }
    l->rec = jread_parse(text + at, l->len, l->err, sizeof(l->err));
    l->parsed = l->rec != NULL;
    if (l->rec && !is_record(l)) {
        jread_free(l->rec);
        l->rec = NULL;
    }
    return true;
}

static bool measurement_line(struct record_line *l)
{
    const struct jvalue *evs = jget(l->rec, "events");
    if (!jstr(jget(l->rec, "case")) || !evs || evs->type != J_ARRAY)
        return false;
    l->invalid = !record_check(l->rec, l->err, sizeof(l->err));
    return !l->invalid;
}

bool record_line_next(const char *text, size_t size, struct record_line *l)
{
    return line_next(text, size, l, measurement_line);
}

/* What compare and --resume read of a sampling record must be there, finite and in range. */
static bool sample_line(struct record_line *l)
{
    const struct jvalue *v = l->rec;
    double period = jget_num(v, "period", NAN), count = jget_num(v, "count", NAN),
           samples = jget_num(v, "samples", NAN), level = jget_num(v, "precise_ip", NAN);
    l->invalid = strcmp(jget_str(v, "kind", ""), "sample") || !jstr(jget(v, "case")) || !jstr(jget(v, "event")) ||
                 !(period >= 1 && period <= 1e15) || !(count >= 0 && count <= 1e19) ||
                 !(samples >= 0 && samples <= 1e15) || !(level >= 0 && level <= 3) ||
                 level != floor(level);
    if (l->invalid)
        snprintf(l->err, sizeof(l->err), "not a sampling record (\"kind\": \"sample\" with case, event, a whole "
                 "precise_ip 0..3, a period of at least 1 and finite count and samples)");
    return !l->invalid;
}

bool sample_line_next(const char *text, size_t size, struct record_line *l)
{
    return line_next(text, size, l, sample_line);
}

int record_line_append(FILE *f, const struct json *j)
{
    long before = ftell(f);
    if (!json_write_line(j, f))
        return 0;
    int err = errno;
    __fpurge(f);   /* the unwritten rest must not reach the file later */
    clearerr(f);
    if (before >= 0 && ftruncate(fileno(f), before) == 0)
        fseek(f, before, SEEK_SET);
    errno = err;
    return -1;
}

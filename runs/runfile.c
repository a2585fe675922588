#include "runs/runfile.h"
#include "base/util.h"
#include "runs/rundir.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int measurements_read(const char *nd, struct jvalue ***recs, int *nrec)
{
    char err[512];
    size_t size;
    char *text = read_file_bounded(nd, INPUT_FILE_MAX, &size, err, sizeof(err));
    *recs = NULL;
    *nrec = 0;
    if (!text) {
        pm_error("cannot read %s; give a run folder written by 'pmucal validate' or 'pmucal calibrate'", err);
        return -1;
    }
    int lineno = 0, rc = 0;
    for (char *line = text, *next; line < text + size; line = next) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        next = nl ? nl + 1 : text + size;
        size_t len = (size_t)(next - line);
        lineno++;
        if (len == 1 && line[0] == '\n')
            continue;
        struct jvalue *rec = jread_parse(line, len, err, sizeof(err));
        if (!rec || !jstr(jget(rec, "case")) || !jget(rec, "events") || jget(rec, "events")->type != J_ARRAY) {
            if (rec)
                pm_error("%s:%d: a measurement needs \"case\" and an \"events\" array", nd, lineno);
            else
                pm_error("%s:%d: %s (each line must be one JSON object)", nd, lineno, err);
            jread_free(rec);
            rc = -1;
            break;
        }
        *recs = xrealloc(*recs, sizeof(**recs) * (size_t)(*nrec + 1));
        (*recs)[(*nrec)++] = rec;
    }
    free(text);
    return rc;
}

void measurements_free(struct jvalue **recs, int nrec)
{
    for (int i = 0; i < nrec; i++)
        jread_free(recs[i]);
    free(recs);
}

int runfile_load(struct runfile *r, const char *path)
{
    memset(r, 0, sizeof(*r));
    r->path = xstrdup(path);
    char *nd = xasprintf("%s/measurements.ndjson", path);
    int rc = -1;
    r->manifest = manifest_load(path);
    if (r->manifest) {
        r->status = jget_str(r->manifest, "status", "unknown");
        rc = measurements_read(nd, &r->rec, &r->nrec);
    }
    free(nd);
    return rc;
}

void runfile_free(struct runfile *r)
{
    measurements_free(r->rec, r->nrec);
    jread_free(r->manifest);
    free(r->path);
    memset(r, 0, sizeof(*r));
}

bool runfile_complete(const struct runfile *r, char *why, size_t n)
{
    return manifest_complete(r->manifest, why, n);
}

const char *runfile_fact(const struct runfile *r, const char *dotted, char *buf, size_t n)
{
    const struct jvalue *v = r->manifest;
    char *copy = xstrdup(dotted);
    for (char *tok = strtok(copy, "."); tok && v; tok = strtok(NULL, "."))
        v = jget(v, tok);
    free(copy);
    if (!v || v->type == J_NULL)
        return NULL;
    if (v->type == J_STRING)
        snprintf(buf, n, "%s", v->str);
    else if (v->type == J_NUMBER)
        snprintf(buf, n, "%g", v->num);
    else if (v->type == J_BOOL)
        snprintf(buf, n, "%s", v->b ? "true" : "false");
    else
        return NULL;
    return buf;
}

static void read_numbers(const struct jvalue *arr, double *out, int max, int *n)
{
    *n = 0;
    for (int i = 0; arr && arr->type == J_ARRAY && i < arr->n && *n < max; i++)
        out[(*n)++] = arr->items[i].type == J_NUMBER ? arr->items[i].num : NAN;
}

int measurement_from_record(const struct jvalue *rec, struct measurement *m, struct event_spec *ev, struct quantities *q)
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
    /* Cycles, the clock they were scaled by, noise and fixed counters, as measurement_json wrote them. */
    const struct jvalue *cyc = jget(rec, "cycles"), *noise = jget(rec, "noise"), *fixed = jget(rec, "fixed");
    int n;
    read_numbers(jget(cyc, "per_iter"), m->cycles, MEASURE_MAX_REPS, &n);
    m->cycle_stat = stats_of(m->cycles, (size_t)(n == m->reps ? n : 0));
    m->core_per_tsc = jget_num(cyc, "core_per_tsc", NAN);
    m->ratio_before = jget_num(cyc, "ratio_before", NAN);
    m->ratio_after = jget_num(cyc, "ratio_after", NAN);
    m->clock_redone = (int)jget_num(cyc, "clock_redone", 0);
    m->clock_moved = jget(cyc, "clock_moved") && jget(cyc, "clock_moved")->b;
    m->cpu_share = jget_num(cyc, "cpu_share", 1);
    m->share_before = jget_num(cyc, "cpu_share_before", NAN);
    m->share_after = jget_num(cyc, "cpu_share_after", NAN);
    m->cpu_shared = jget(cyc, "cpu_shared") && jget(cyc, "cpu_shared")->b;
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
    return 0;
}

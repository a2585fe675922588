/* A run diff (validate/run_diff.h) written out: TAP for a reader, one JSON document for a script,
 * and the comparison of two sampling runs, which has its own points. */
#include "base/json.h"
#include "base/util.h"
#include "validate/run_diff.h"
#include "validate/sample_compare.h"
#include <stdio.h>
#include <string.h>

const char *const compare_side_name[2] = {"BASE", "NEW"};

static const char *result_of(const struct cmp_point *p)
{
    return !p->side[0].ev ? "only_new" : !p->side[1].ev ? "only_base" : p->regression ? "changed"
         : p->flags & CMP_IMPROVED ? "improved" : "same";
}

static void side_json(struct json *j, const char *key, const struct cmp_side *s)
{
    json_object_begin(j, key);
    if (s->ev) {
        json_number(j, "median", s->median);
        json_number(j, "mad", s->mad);
        json_int(j, "n", s->n);
        json_string(j, "verdict", s->judged ? verdict_name(s->verdict) : NULL);
        json_string(j, "unsupported", s->unsupported);
    }
    json_object_end(j);
}

void compare_write_json(const struct runfile *r[2], const struct cmp_opts *o, const struct cmp_result *c,
                        const struct cmp_kernel *k, bool incomplete)
{
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    for (int s = 0; s < 2; s++) {
        json_object_begin(&j, s ? "new" : "base");
        json_string(&j, "path", r[s]->path);
        json_string(&j, "status", r[s]->status);
        json_string(&j, "source", jget_str(r[s]->manifest, "source", NULL));
        json_string(&j, "started", jget_str(r[s]->manifest, "started", jget_str(r[s]->manifest, "date", NULL)));
        json_string(&j, "hostname", jget_str(r[s]->manifest, "hostname", NULL));
        json_object_end(&j);
    }
    json_array_begin(&j, "facts");
    for (const char *const *f = compare_facts; *f; f++) {
        char b0[256], b1[256];
        const char *v0 = runfile_fact(r[0], *f, b0, sizeof(b0)), *v1 = runfile_fact(r[1], *f, b1, sizeof(b1));
        if ((v0 || v1) && (!v0 || !v1 || strcmp(v0, v1))) {
            json_object_begin(&j, NULL);
            json_string(&j, "fact", *f);
            json_string(&j, "base", v0);
            json_string(&j, "new", v1);
            json_object_end(&j);
        }
    }
    json_array_end(&j);
    json_bool(&j, "incomplete", incomplete);
    json_object_begin(&j, "kernel_pmu");
    json_bool(&j, "base_described", k->described[0]);
    json_bool(&j, "new_described", k->described[1]);
    json_int(&j, "regressions", k->regressions);
    json_array_begin(&j, "changes");
    for (int i = 0; i < k->n; i++) {   /* by index: k->ch is NULL with no change (no arithmetic on it) */
        const struct cmp_kchange *ch = &k->ch[i];
        json_object_begin(&j, NULL);
        json_string(&j, "what", ch->what);
        json_string(&j, "name", ch->name);
        json_string(&j, "change", ch->change);
        json_string(&j, "base", ch->base[0] || strcmp(ch->change, "added") ? ch->base : NULL);
        json_string(&j, "new", ch->new_[0] || strcmp(ch->change, "removed") ? ch->new_ : NULL);
        json_bool(&j, "regression", ch->regression);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_end(&j);
    json_number(&j, "threshold_percent", 100 * o->threshold);
    json_number(&j, "alpha", o->alpha);
    json_array_begin(&j, "points");
    for (int i = 0; i < c->n; i++) {
        const struct cmp_point *p = &c->pt[i];
        json_object_begin(&j, NULL);
        json_string(&j, "case", p->label);
        json_string(&j, "event", p->event);
        json_string(&j, "result", result_of(p));
        json_bool(&j, "regression", p->regression);
        json_array_begin(&j, "flags");
        for (int f = 0; f < CMP_NFLAGS; f++)
            if (p->flags & (1u << f))
                json_string(&j, NULL, compare_flag_name[f]);
        json_array_end(&j);
        json_string(&j, "why", p->why[0] ? p->why : NULL);
        json_number(&j, "delta", p->delta);
        json_number(&j, "relative", p->relative);
        json_number(&j, "p", p->p);
        json_number(&j, "threshold", p->threshold);
        side_json(&j, "base", &p->side[0]);
        side_json(&j, "new", &p->side[1]);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_array_begin(&j, "events");
    for (int i = 0; i < c->nev; i++) {
        const struct cmp_event *e = &c->ev[i];
        json_object_begin(&j, NULL);
        json_string(&j, "event", e->event);
        json_int(&j, "cases", e->cases);
        json_int(&j, "regressions", e->regressions);
        json_int(&j, "improvements", e->improvements);
        json_array_begin(&j, "where");
        for (const struct cmp_point *p = c->pt; p < c->pt + c->n; p++)
            if (p->regression && !strcmp(p->event, e->event))
                json_string(&j, NULL, p->label);
        json_array_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_object_begin(&j, "summary");
    json_int(&j, "points", c->n);
    json_int(&j, "regressions", c->regressions + k->regressions);
    json_int(&j, "improvements", c->improvements);
    json_int(&j, "only_base", c->only[0]);
    json_int(&j, "only_new", c->only[1]);
    json_object_end(&j);
    json_object_end(&j);
    json_write_line(&j, stdout);
    json_free(&j);
}

/* The kernel's PMU description first: a driver, event or format bit gone is named before any count. */
static void print_kernel_tap(struct tap *t, const struct cmp_kernel *k)
{
    if (!k->described[0] || !k->described[1]) {
        if (k->described[0] || k->described[1])
            tap_point(t, VERDICT_SKIP, "Linux kernel PMU :: description", k->described[0] ? "described in BASE only (NEW's pmucal is older)"
                                                                               : "described in NEW only (BASE's pmucal is older)");
        return;
    }
    if (!k->n)
        tap_comment(t, "Linux kernel PMU: the same description (driver, counters, events, format, caps, perf_user_access)");
    for (int i = 0; i < k->n; i++) {   /* by index: k->ch is NULL with no change (no arithmetic on it) */
        const struct cmp_kchange *ch = &k->ch[i];
        char desc[640];
        if (!strcmp(ch->change, "added"))
            snprintf(desc, sizeof(desc), "Linux kernel PMU :: %s %s added: %s", ch->what, ch->name, ch->new_);
        else if (!strcmp(ch->change, "removed"))
            snprintf(desc, sizeof(desc), "Linux kernel PMU :: %s %s removed (was %s)", ch->what, ch->name, ch->base);
        else
            snprintf(desc, sizeof(desc), "Linux kernel PMU :: %s %s changed: %s -> %s", ch->what, ch->name, ch->base, ch->new_);
        tap_point(t, ch->regression ? VERDICT_NOT_OK : VERDICT_OK, desc, NULL);
    }
}

void compare_write_tap(const struct runfile *r[2], const struct cmp_result *c, const struct cmp_kernel *k,
                       const char *const incomplete_why[2])
{
    struct tap t = {.out = stdout};
    for (int s = 0; s < 2; s++)
        tap_comment(&t, "%-4s %s (%s, source %s, started %s)", compare_side_name[s], r[s]->path, r[s]->status,
                    jget_str(r[s]->manifest, "source", "?"),
                    jget_str(r[s]->manifest, "started", jget_str(r[s]->manifest, "date", "?")));
    int differ = 0;
    for (const char *const *f = compare_facts; *f; f++) {
        char b0[256], b1[256];
        const char *v0 = runfile_fact(r[0], *f, b0, sizeof(b0)), *v1 = runfile_fact(r[1], *f, b1, sizeof(b1));
        if ((v0 || v1) && (!v0 || !v1 || strcmp(v0, v1)))
            differ++, tap_comment(&t, "changed: %s: %s -> %s", *f, v0 ? v0 : "(none)", v1 ? v1 : "(none)");
    }
    if (!differ)
        tap_comment(&t, "same host, versions, source and settings");
    for (int s = 0; s < 2; s++)
        if (incomplete_why[s])
            tap_comment(&t, "WARNING: %s is incomplete (%s): what it lacks is SKIP, not a change", compare_side_name[s],
                        incomplete_why[s]);
    print_kernel_tap(&t, k);
    for (int i = 0; i < c->n; i++) {
        const struct cmp_point *p = &c->pt[i];
        char desc[1024];
        if ((!p->side[0].ev || !p->side[1].ev) && !p->regression) {
            snprintf(desc, sizeof(desc), "%s :: %s", p->label, p->event);
            tap_point(&t, VERDICT_SKIP, desc, p->side[0].ev ? "measured in BASE only" : "measured in NEW only");
        } else if (p->why[0]) {
            snprintf(desc, sizeof(desc), "%s :: %s %s", p->label, p->event, p->why);
            tap_point(&t, p->regression ? VERDICT_NOT_OK : VERDICT_OK, desc, NULL);
        } else {
            snprintf(desc, sizeof(desc), "%s :: %s same: %.4f -> %.4f per iteration (p=%.2g)", p->label, p->event,
                     p->side[0].median, p->side[1].median, p->p);
            tap_point(&t, VERDICT_OK, desc, NULL);
        }
    }
    tap_comment(&t, "per-event summary:");
    for (int i = 0; i < c->nev; i++) {
        const struct cmp_event *e = &c->ev[i];
        if (e->regressions)
            tap_comment(&t, "  %-40s CHANGED in %d of %d cases: %s", e->event, e->regressions, e->cases, e->where);
        else if (e->improvements)
            tap_comment(&t, "  %-40s improved in %d of %d cases", e->event, e->improvements, e->cases);
        else
            tap_comment(&t, "  %-40s same in all %d cases", e->event, e->cases);
    }
    tap_plan(&t);
    tap_comment(&t, "summary: %d points, %d regressions, %d improvements, %d in BASE only, %d in NEW only; "
                "Linux kernel PMU: %d changes, %d regressions", c->n, c->regressions, c->improvements, c->only[0], c->only[1],
                k->n, k->regressions);
}


/* Two runs of pmucal sample have their own comparison (validate/sample_compare.h): the exit
 * status, or -1 when they are not both sampling runs (the rest of compare then takes them, or
 * refuses them naming what they are). */
int compare_sampling(char *const paths[2], const struct cmp_opts *o, bool allow_incomplete, bool json_or_html)
{
    struct jvalue *m[2] = {NULL, NULL}, **recs[2] = {NULL, NULL};
    int n[2] = {0, 0}, status = -1;
    for (int s = 0; s < 2; s++) {
        char err[512];
        m[s] = manifest_read(paths[s], err, sizeof(err));
        const char *cmd = m[s] ? runfile_command(m[s]) : NULL;
        if (!cmd || strcmp(cmd, "sample"))
            goto out;
    }
    status = 2;
    if (json_or_html) {
        pm_error("compare --json and --html do not take runs of 'pmucal sample' yet: give neither");
        goto out;
    }
    for (int s = 0; s < 2; s++) {
        char why[256];
        if (!allow_incomplete && !manifest_complete(m[s], why, sizeof(why))) {
            pm_error("%s %s: %s; compare refuses an incomplete run; give --allow-incomplete to compare what it holds",
                     compare_side_name[s], paths[s], why);
            goto out;
        }
        if (sample_records_read(paths[s], &recs[s], &n[s]))
            goto out;
    }
    struct tap t = {.out = stdout};
    for (int s = 0; s < 2; s++)
        tap_comment(&t, "%-4s %s (pmucal sample, started %s)", compare_side_name[s], paths[s], jget_str(m[s], "started", "?"));
    int regressions = sample_compare(&t, recs[0], n[0], recs[1], n[1], o->alpha, o->threshold,
                                     compare_same_command(m[0], m[1]));
    if (regressions >= 0) {
        tap_plan(&t);
        tap_comment(&t, "summary: %d points, %d regressions", t.n, regressions);
        status = regressions ? 1 : 0;
    }
out:
    for (int s = 0; s < 2; s++) {
        measurements_free(recs[s], n[s]);
        jread_free(m[s]);
    }
    return status;
}

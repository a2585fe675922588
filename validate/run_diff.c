#include "validate/run_diff.h"
#include "base/stats.h"
#include "base/util.h"
#include "core/source.h"
#include "runs/record.h"
#include "validate/rules.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const compare_flag_name[CMP_NFLAGS] = {"count", "verdict", "encoding", "support", "improved", "info",
                                                   "intercept"};

const char *const compare_facts[] = {
    "hostname", "cpu.id", "cpu.brand", "cpu.microcode", "pmu.libpfm4_pmu", "pmu.hardware_usable",
    "software.linux_kernel", "software.perf", "software.libpfm4", "software.libpfm4_api", "software.hwloc",
    "software.pmucal", "software.pmucal_commit", "source", "repetitions", "group_size", "events", "pmu_option",
    "rule_file", "expect", "vendor_json", "linux_kernel.package", "linux_kernel.flavour", "linux_kernel.cmdline",
    NULL,
};

/* The source's per-iteration slack, as the run recorded it (older runs: as this build knows it);
 * its slack per counted loop into *per_loop. */
static double run_floor(const struct runfile *r, double iters, double *per_loop)
{
    const struct jvalue *m = r->manifest;
    double exact = jget_num(m, "source_exact_floor", NAN), slack = jget_num(m, "source_slack_per_loop", NAN);
    if (isnan(exact) || isnan(slack)) {
        const char *name = jget_str(m, "source", "perf");
        char base[64];
        snprintf(base, sizeof(base), "%.*s", (int)strcspn(name, ":"), name);
        const struct source *s = source_find(base);
        exact = s ? s->exact_floor : 0;
        slack = s ? s->slack_per_loop : 0;
    }
    *per_loop = slack;
    return exact + (iters > 0 ? slack / iters : 0);
}

static struct cmp_point *point_of(struct cmp_result *r, const char *label, const char *event)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->pt[i].label, label) && !strcmp(r->pt[i].event, event))
            return &r->pt[i];
    r->pt = xgrow(r->pt, sizeof(*r->pt), r->n);
    struct cmp_point *p = &r->pt[r->n++];
    memset(p, 0, sizeof(*p));
    p->label = label;
    p->event = event;
    p->delta = p->relative = p->p = p->threshold = NAN;
    return p;
}

static void collect(const struct runfile *run, int side, struct cmp_result *r)
{
    for (int i = 0; i < run->nrec; i++) {
        const struct jvalue *rec = run->rec[i], *evs = jget(rec, "events");
        const char *label = jstr(jget(rec, "case"));
        double iters = jget_num(rec, "iters", 0);
        for (int k = 0; k < evs->n; k++) {
            const struct jvalue *ev = &evs->items[k];
            const char *name = jstr(jget(ev, "name"));
            if (!name)
                continue;
            struct cmp_point *p = point_of(r, label, name);
            struct cmp_side *s = &p->side[side];
            if (s->ev)   /* the first record of a (case, event) speaks for it */
                continue;
            s->ev = ev;
            s->unsupported = jstr(jget(ev, "unsupported"));
            s->judged = record_event_verdict(ev, &s->verdict);
            s->floor = run_floor(run, iters, &s->slack);
            const struct jvalue *x = jget(ev, "per_iter"), *raw = jget(ev, "raw");
            for (int j = 0; x && x->type == J_ARRAY && j < x->n && s->n < MEASURE_MAX_REPS; j++)
                if (x->items[j].type == J_NUMBER) {
                    const struct jvalue *pair = raw && raw->type == J_ARRAY && j < raw->n ? &raw->items[j] : NULL;
                    s->c0[s->n] = pair && pair->type == J_ARRAY && pair->n == 2 ? jnum(&pair->items[1], NAN) : NAN;
                    s->x[s->n++] = x->items[j].num;
                }
            s->c0_median = stats_median(s->c0, (size_t)s->n);
            struct stats st = stats_of(s->x, (size_t)s->n);
            s->median = st.median;
            s->mad = st.mad;
        }
    }
}

static void say(struct cmp_point *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct cmp_point *p, const char *fmt, ...)
{
    size_t len = strlen(p->why);
    if (len && len < sizeof(p->why) - 2)
        snprintf(p->why + len, sizeof(p->why) - len, "; "), len += 2;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->why + len, sizeof(p->why) - len, fmt, ap);
    va_end(ap);
}

/* How bad a side's verdict is: -1 none to rank (not judged, or skipped). */
static int verdict_rank(const struct cmp_side *s)
{
    static const int rank[VERDICTS] = {[VERDICT_OK] = 0, [VERDICT_INFO] = 0, [VERDICT_TODO] = 1, [VERDICT_NOT_OK] = 2,
                                       [VERDICT_SKIP] = -1};
    return s->judged ? rank[s->verdict] : -1;
}

static void attr_text(const struct jvalue *ev, char *buf, size_t n)
{
    const struct jvalue *a = jget(ev, "attr");
    snprintf(buf, n, "type %.0f config %#llx config1 %#llx config2 %#llx%s%s", jget_num(a, "type", -1),
             (unsigned long long)jget_num(a, "config", 0), (unsigned long long)jget_num(a, "config1", 0),
             (unsigned long long)jget_num(a, "config2", 0), jget(a, "exclude_user") && jget(a, "exclude_user")->b
             ? " exclude_user" : "", jget(a, "exclude_kernel") && jget(a, "exclude_kernel")->b ? " exclude_kernel" : "");
}

static void judge(struct cmp_point *p, const struct cmp_opts *o)
{
    struct cmp_side *a = &p->side[0], *b = &p->side[1];
    if (!a->ev || !b->ev)
        return;
    char ta[160], tb[160];
    attr_text(a->ev, ta, sizeof(ta));
    attr_text(b->ev, tb, sizeof(tb));
    if (strcmp(ta, tb)) {
        p->flags |= CMP_ENCODING;
        say(p, "encoding changed: %s, was %s", tb, ta);
    }
    if (!a->unsupported && b->unsupported) {
        p->flags |= CMP_SUPPORT;
        say(p, "now unsupported: %s", b->unsupported);
    } else if (a->unsupported && !b->unsupported) {
        p->flags |= CMP_IMPROVED;
        say(p, "now counted (was unsupported: %s)", a->unsupported);
    }
    int ra = verdict_rank(a), rb = verdict_rank(b);
    if (ra >= 0 && rb > ra) {
        p->flags |= CMP_VERDICT;
        const char *reason = jget_str(jget(b->ev, "verdict"), "reason", "");
        say(p, "verdict %s -> %s: %s", verdict_name(a->verdict), verdict_name(b->verdict), reason);
    } else if (rb >= 0 && ra > rb) {
        p->flags |= CMP_IMPROVED;
        say(p, "verdict %s -> %s", verdict_name(a->verdict), verdict_name(b->verdict));
    }
    if (a->n && b->n && !a->unsupported && !b->unsupported) {
        p->delta = b->median - a->median;
        p->relative = a->median != 0 ? p->delta / fabs(a->median) : p->delta != 0 ? INFINITY : 0;
        p->p = stats_mann_whitney_p(a->x, (size_t)a->n, b->x, (size_t)b->n);
        double floor_ = a->floor > b->floor ? a->floor : b->floor;
        p->threshold = fmax(o->threshold * fabs(a->median), floor_);
        /* Below 5 repetitions a side the test cannot reach 1%: then the ranges must not overlap. */
        bool separated = a->n >= 5 && b->n >= 5 ? p->p < o->alpha : false;
        if (a->n < 5 || b->n < 5) {
            struct stats sa = stats_of(a->x, (size_t)a->n), sb = stats_of(b->x, (size_t)b->n);
            separated = sa.max < sb.min || sb.max < sa.min;
        }
        /* An "info" rule says the event is not a count to hold (time, cycles): its change is said, not flagged. */
        bool info = !strcmp(jget_str(jget(a->ev, "verdict"), "tolerance", ""), "info") ||
                    !strcmp(jget_str(jget(b->ev, "verdict"), "tolerance", ""), "info");
        if (separated && fabs(p->delta) > p->threshold) {
            p->flags |= info ? CMP_INFO : CMP_COUNT;
            say(p, "%scount %+.2f%%: %.4f -> %.4f per iteration (p=%.2g; beyond %.4f: %g%% or the source's floor, "
                "and the repetitions' noise)", info ? "info rule, not a regression: " : "", 100 * p->relative,
                a->median, b->median, p->p, p->threshold, 100 * o->threshold);
        }
        /* What each measurement counts beyond its iterations (the harness, or a tool around it): a
         * change past a run's own fixed cost is what the per-iteration counts cannot show. */
        double d0 = b->c0_median - a->c0_median;
        double tol0 = fmax(FIXED_COST_EVENTS + fmax(a->slack, b->slack),
                           o->threshold * fmax(fabs(a->c0_median), fabs(b->c0_median)));
        double p0 = stats_mann_whitney_p(a->c0, (size_t)a->n, b->c0, (size_t)b->n);
        bool moved0 = a->n >= 5 && b->n >= 5 ? p0 < o->alpha : true;
        if (fabs(d0) > tol0 && moved0) {
            p->flags |= info ? CMP_INFO : CMP_INTERCEPT;
            say(p, "%sthe zero-iteration loop counts %.0f -> %.0f per measurement (beyond %.0f)",
                info ? "info rule, not a regression: " : "", a->c0_median, b->c0_median, tol0);
        }
    }
    p->regression = (p->flags & (CMP_COUNT | CMP_VERDICT | CMP_ENCODING | CMP_SUPPORT | CMP_INTERCEPT)) != 0;
}

static void summarize(struct cmp_result *r)
{
    for (int i = 0; i < r->n; i++) {
        const struct cmp_point *p = &r->pt[i];
        struct cmp_event *e = NULL;
        for (int k = 0; k < r->nev && !e; k++)
            if (!strcmp(r->ev[k].event, p->event))
                e = &r->ev[k];
        if (!e) {
            r->ev = xrealloc(r->ev, sizeof(*r->ev) * (size_t)(r->nev + 1));
            e = &r->ev[r->nev++];
            memset(e, 0, sizeof(*e));
            e->event = p->event;
        }
        if ((!p->side[0].ev || !p->side[1].ev) && !p->regression)
            continue;
        e->cases++;
        e->improvements += !p->regression && (p->flags & CMP_IMPROVED);
        if (p->regression && ++e->regressions)
            snprintf(e->where + strlen(e->where), sizeof(e->where) - strlen(e->where), "%s%s",
                     e->where[0] ? "; " : "", p->label);
    }
}

bool compare_same_command(const struct jvalue *base_manifest, const struct jvalue *new_manifest)
{
    const struct jvalue *a = jget(base_manifest, "command"), *b = jget(new_manifest, "command");
    if (!a || !b || a->type != J_ARRAY || b->type != J_ARRAY || a->n != b->n || a->n < 2)
        return false;
    for (int i = 0; i < a->n; i++)
        if (!jstr(&a->items[i]) || !jstr(&b->items[i]) || strcmp(jstr(&a->items[i]), jstr(&b->items[i])))
            return false;
    char why[256];
    return manifest_complete(new_manifest, why, sizeof(why));
}

void compare_runs(const struct runfile *base, const struct runfile *new_, const struct cmp_opts *o,
                  struct cmp_result *out)
{
    memset(out, 0, sizeof(*out));
    collect(base, 0, out);
    collect(new_, 1, out);
    bool same = compare_same_command(base->manifest, new_->manifest);
    for (int i = 0; i < out->n; i++) {
        struct cmp_point *p = &out->pt[i];
        if (same && p->side[0].ev && !p->side[1].ev) {
            p->flags |= CMP_SUPPORT;
            p->regression = true;
            say(p, "no longer measured: NEW ran the same command to completion and recorded nothing for it "
                   "(its TAP says why)");
        }
        judge(p, o);
        out->regressions += p->regression;
        out->improvements += !p->regression && (p->flags & CMP_IMPROVED);
        out->only[0] += p->side[0].ev && !p->side[1].ev;
        out->only[1] += !p->side[0].ev && p->side[1].ev;
    }
    summarize(out);
}

void compare_free(struct cmp_result *r)
{
    free(r->pt);
    free(r->ev);
    memset(r, 0, sizeof(*r));
}

/* ---- the kernel's description of its PMU ---- */

/* One change; b NULL: added, n NULL: removed. */
static void kchange(struct cmp_kernel *k, const char *what, const char *name, const char *b, const char *n,
                    bool regression)
{
    k->ch = xrealloc(k->ch, sizeof(*k->ch) * (size_t)(k->n + 1));
    struct cmp_kchange *c = &k->ch[k->n++];
    memset(c, 0, sizeof(*c));
    snprintf(c->what, sizeof(c->what), "%s", what);
    snprintf(c->name, sizeof(c->name), "%s", name);
    snprintf(c->base, sizeof(c->base), "%s", b ? b : "");
    snprintf(c->new_, sizeof(c->new_), "%s", n ? n : "");
    /* Names and values come from a run folder, which anyone may have made: no control character
     * may break a TAP line. */
    char *text[] = {c->name, c->base, c->new_};
    for (int i = 0; i < 3; i++)
        for (char *t = text[i]; *t; t++)
            *t = (unsigned char)*t < 0x20 || *t == 0x7f ? '?' : *t;
    c->change = !b ? "added" : !n ? "removed" : "changed";
    c->regression = regression;
    k->regressions += regression;
}

/* A scalar of both sides by key as text (NULL where absent); true when they differ. */
struct kpair {
    char b[256], n[256];
    const char *vb, *vn;
};
static bool kdiffer(struct kpair *p, const struct jvalue *ob, const struct jvalue *on, const char *key)
{
    p->vb = runfile_scalar(jget(ob, key), p->b, sizeof(p->b));
    p->vn = runfile_scalar(jget(on, key), p->n, sizeof(p->n));
    return (p->vb || p->vn) && (!p->vb || !p->vn || strcmp(p->vb, p->vn));
}

/* One sysfs folder of both (events, format, caps): a file removed or with other contents is a
 * regression (an event or field a tool names is gone or moved), one added is said. */
static void kfolder(struct cmp_kernel *k, const struct jvalue *pb, const struct jvalue *pn, const char *folder)
{
    const struct jvalue *fb = jget(pb, folder), *fn = jget(pn, folder);
    int nb = fb && fb->type == J_OBJECT ? fb->n : 0, nn = fn && fn->type == J_OBJECT ? fn->n : 0;
    struct kpair v;
    for (int i = 0; i < nb; i++) {
        bool gone = !jget(fn, fb->keys[i]);
        if (kdiffer(&v, fb, fn, fb->keys[i]) || gone)
            kchange(k, folder, fb->keys[i], v.vb ? v.vb : "", gone ? NULL : v.vn ? v.vn : "", true);
    }
    for (int i = 0; i < nn; i++)
        if (!jget(fb, fn->keys[i])) {
            kdiffer(&v, fb, fn, fn->keys[i]);
            kchange(k, folder, fn->keys[i], NULL, v.vn ? v.vn : "", false);
        }
}

void compare_kernel(const struct jvalue *base_manifest, const struct jvalue *new_manifest, struct cmp_kernel *k)
{
    memset(k, 0, sizeof(*k));
    const struct jvalue *kb = jget(base_manifest, "linux_kernel"), *kn = jget(new_manifest, "linux_kernel");
    k->described[0] = kb && kb->type == J_OBJECT;
    k->described[1] = kn && kn->type == J_OBJECT;
    if (!k->described[0] || !k->described[1])
        return;
    const struct jvalue *pb = jget(kb, "pmu"), *pn = jget(kn, "pmu");
    struct kpair v;
    if (kdiffer(&v, pb, pn, "name"))
        kchange(k, "driver", "core PMU", v.vb, v.vn, v.vb != NULL);
    /* Fewer counters (or none) is a regression, more is said. */
    if (kdiffer(&v, pb, pn, "counters"))
        kchange(k, "counters", "counters", v.vb, v.vn, v.vb && (!v.vn || atof(v.vn) < atof(v.vb)));
    /* The perf type is dynamic on arm64 (an order of registration): said, never a regression. */
    if (kdiffer(&v, pb, pn, "type") && v.vb && v.vn)
        kchange(k, "type", "perf type", v.vb, v.vn, false);
    if (kdiffer(&v, pb, pn, "cpus") && v.vb && v.vn)
        kchange(k, "cpus", "cpus", v.vb, v.vn, true);
    if (kdiffer(&v, kb, kn, "perf_user_access"))
        kchange(k, "sysctl", "perf_user_access", v.vb, v.vn, v.vb != NULL);
    kfolder(k, pb, pn, "events");
    kfolder(k, pb, pn, "format");
    kfolder(k, pb, pn, "caps");
}

void compare_kernel_free(struct cmp_kernel *k)
{
    free(k->ch);
    memset(k, 0, sizeof(*k));
}

int compare_has_points(const struct runfile *base, const struct runfile *new_, const struct cmp_result *c,
                       const struct cmp_kernel *k)
{
    int both = c->n - c->only[0] - c->only[1];
    if (both || c->regressions || (k && k->n))
        return 0;
    /* Nothing measured in both runs (two sweeps of other seeds, other --case lists): a header
     * saying "same settings" over no point would read as a pass. */
    pm_error("%s and %s have no (case, event) measured in both (%d in BASE only, %d in NEW only): there is "
             "nothing to compare; compare two runs of the same cases", base->path, new_->path, c->only[0],
             c->only[1]);
    return -1;
}

int compare_same_kind(const struct runfile *base, const struct runfile *new_)
{
    const char *kind[2] = {runfile_command(base->manifest), runfile_command(new_->manifest)};
    if (kind[0] && kind[1] && !strcmp(kind[0], kind[1]))
        return 0;
    /* A validate run's cases and a calibration's points share no meaning: every point would be
     * "in one run only", and a comparison of nothing is no result. */
    pm_error("BASE %s was made by 'pmucal %s', NEW %s by 'pmucal %s': compare takes two runs of one kind (two of "
             "'pmucal validate', or two of 'pmucal calibrate'); give a BASE of the same kind", base->path,
             kind[0] ? kind[0] : "?", new_->path, kind[1] ? kind[1] : "?");
    return -1;
}

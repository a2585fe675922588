#include "validate/classifier.h"
#include "base/jread.h"
#include "base/json.h"
#include "base/util.h"
#include "runs/classify_status.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct ccase {
    char *label;
    struct quantities q;
};

struct cevent {
    char *name;
    double *y;            /* per case, NaN when not measured there */
};

struct data {
    struct ccase *c;
    int nc;
    struct cevent *e;
    int ne;
};

struct candidate {
    int nterms;
    int q[2];
    double coef[2];
    double ssr, r2, worst;
    int worst_case;
};

static int find_case(struct data *d, const char *label, const struct jvalue *model)
{
    for (int i = 0; i < d->nc; i++)
        if (!strcmp(d->c[i].label, label))
            return i;
    d->c = xrealloc(d->c, sizeof(*d->c) * (size_t)(d->nc + 1));
    struct ccase *c = &d->c[d->nc];
    c->label = xstrdup(label);
    quantities_unstated(&c->q);
    for (int k = 0; model && model->type == J_OBJECT && k < model->n; k++) {
        int id = quantity_lookup(model->keys[k]);
        if (id >= 0 && model->items[k].type == J_NUMBER)
            c->q.v[id] = model->items[k].num;
    }
    for (int i = 0; i < d->ne; i++) {
        d->e[i].y = xrealloc(d->e[i].y, sizeof(double) * (size_t)(d->nc + 1));
        d->e[i].y[d->nc] = NAN;
    }
    return d->nc++;
}

static struct cevent *find_event(struct data *d, const char *name)
{
    for (int i = 0; i < d->ne; i++)
        if (!strcmp(d->e[i].name, name))
            return &d->e[i];
    d->e = xrealloc(d->e, sizeof(*d->e) * (size_t)(d->ne + 1));
    struct cevent *e = &d->e[d->ne++];
    e->name = xstrdup(name);
    e->y = xmalloc(sizeof(double) * (size_t)(d->nc ? d->nc : 1));
    for (int i = 0; i < d->nc; i++)
        e->y[i] = NAN;
    return e;
}

static int load(struct data *d, const char *run)
{
    struct jvalue **recs;
    int nrec, rc = measurements_read(run, &recs, &nrec);
    for (int r = 0; !rc && r < nrec; r++) {
        const struct jvalue *events = jget(recs[r], "events");
        int ci = find_case(d, jstr(jget(recs[r], "case")), jget(recs[r], "model"));
        for (int k = 0; k < events->n; k++) {
            const struct jvalue *ev = &events->items[k];
            const char *name = jstr(jget(ev, "name"));
            double y = jnum(jget(jget(ev, "stats"), "median"), NAN);
            if (!name || jstr(jget(ev, "unsupported")) || isnan(y))
                continue;
            struct cevent *e = find_event(d, name);
            if (isnan(e->y[ci]))
                e->y[ci] = y;
        }
    }
    measurements_free(recs, nrec);
    if (!rc && !d->nc) {
        pm_error("%s/measurements.ndjson holds no measurements", run);
        rc = -1;
    }
    return rc;
}

/* Residuals and R² of a candidate over the cases where y was measured. */
static void score(const struct data *d, const double *y, struct candidate *f)
{
    double mean = 0, sst = 0;
    int n = 0;
    for (int i = 0; i < d->nc; i++)
        if (!isnan(y[i]))
            mean += y[i], n++;
    mean /= n ? n : 1;
    f->ssr = 0, f->worst = -1, f->worst_case = -1;
    for (int i = 0; i < d->nc; i++) {
        if (isnan(y[i]))
            continue;
        double pred = 0;
        for (int t = 0; t < f->nterms; t++)
            pred += f->coef[t] * d->c[i].q.v[f->q[t]];
        double r = y[i] - pred;
        f->ssr += r * r;
        sst += (y[i] - mean) * (y[i] - mean);
        if (fabs(r) > f->worst)
            f->worst = fabs(r), f->worst_case = i;
    }
    /* Centred R²; where y does not vary across cases, a candidate is either exact or not. */
    if (sst > 1e-12 * (mean * mean + 1))
        f->r2 = 1 - f->ssr / sst;
    else
        f->r2 = f->ssr <= 1e-9 * (mean * mean + 1) * n ? 1 : 0;
}

static bool usable(const struct data *d, const double *y, int q)
{
    for (int i = 0; i < d->nc; i++)
        if (!isnan(y[i]) && isnan(d->c[i].q.v[q]))
            return false;
    return true;
}

/* Better: smaller residual; on a tie (collinear quantities in this run), the coefficient nearest 1. */
static bool better(const struct candidate *a, const struct candidate *b, double scale)
{
    if (b->nterms == 0)
        return true;
    double tol = 1e-9 * (scale + 1);
    if (a->ssr < b->ssr - tol)
        return true;
    if (a->ssr > b->ssr + tol)
        return false;
    double da = 0, db = 0;
    for (int t = 0; t < a->nterms; t++)
        da += fabs(log(a->coef[t] > 0 ? a->coef[t] : 1e-9));
    for (int t = 0; t < b->nterms; t++)
        db += fabs(log(b->coef[t] > 0 ? b->coef[t] : 1e-9));
    return da < db - 1e-9;
}

static void describe(const struct candidate *f, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int t = 0; t < f->nterms; t++)
        snprintf(buf + strlen(buf), n - strlen(buf), "%s%.3f x %s", t ? " + " : "", f->coef[t],
                 quantity_name((enum quantity_id)f->q[t]));
}

struct result {
    struct candidate single, pair, best;
    char alternatives[512];   /* other single quantities that explain it exactly as well */
    int zero_cases;           /* cases where every quantity but iter is zero and the event counts */
    char zero_list[512];
    int measured;
    const struct rule *rule;
    int rule_fail;
    char rule_worst[512];
    enum classify_status status;
    char explanation[256];
};

static void classify_event(const struct data *d, const struct cevent *e, const struct classify_opts *o,
                           struct result *r)
{
    memset(r, 0, sizeof(*r));
    const double *y = e->y;
    double scale = 0;
    for (int i = 0; i < d->nc; i++)
        if (!isnan(y[i]))
            r->measured++, scale += y[i] * y[i];
    /* Singles: c = <x,y>/<x,x>, clamped at 0. */
    for (int q = 0; q < Q_COUNT; q++) {
        if (!usable(d, y, q))
            continue;
        double xy = 0, xx = 0;
        for (int i = 0; i < d->nc; i++)
            if (!isnan(y[i]))
                xy += d->c[i].q.v[q] * y[i], xx += d->c[i].q.v[q] * d->c[i].q.v[q];
        if (xx <= 0)
            continue;
        struct candidate f = {.nterms = 1, .q = {q}, .coef = {xy / xx > 0 ? xy / xx : 0}};
        score(d, y, &f);
        if (better(&f, &r->single, scale))
            r->single = f;
    }
    /* Pairs: the 2x2 normal equations; a negative coefficient means the optimum is on a single.
     * Two terms explain any two cases exactly: a pair needs at least four to mean something. */
    for (int a = 0; a < Q_COUNT && r->measured >= 4; a++)
        for (int b = a + 1; b < Q_COUNT; b++) {
            if (!usable(d, y, a) || !usable(d, y, b))
                continue;
            double aa = 0, ab = 0, bb = 0, ay = 0, by = 0;
            for (int i = 0; i < d->nc; i++) {
                if (isnan(y[i]))
                    continue;
                double xa = d->c[i].q.v[a], xb = d->c[i].q.v[b];
                aa += xa * xa, ab += xa * xb, bb += xb * xb, ay += xa * y[i], by += xb * y[i];
            }
            double det = aa * bb - ab * ab;
            if (fabs(det) <= 1e-9 * (aa * bb + 1))
                continue;   /* collinear in this run: a pair says nothing a single does not */
            double ca = (ay * bb - by * ab) / det, cb = (aa * by - ab * ay) / det;
            if (ca < 1e-6 || cb < 1e-6)
                continue;
            struct candidate f = {.nterms = 2, .q = {a, b}, .coef = {ca, cb}};
            score(d, y, &f);
            if (better(&f, &r->pair, scale))
                r->pair = f;
        }
    /* Alternatives: other quantities that explain the counts exactly as well (collinear here). */
    if (r->single.nterms)
        for (int q = 0; q < Q_COUNT; q++) {
            if (q == r->single.q[0] || !usable(d, y, q))
                continue;
            double xy = 0, xx = 0;
            for (int i = 0; i < d->nc; i++)
                if (!isnan(y[i]))
                    xy += d->c[i].q.v[q] * y[i], xx += d->c[i].q.v[q] * d->c[i].q.v[q];
            if (xx <= 0 || xy <= 0)
                continue;
            struct candidate f = {.nterms = 1, .q = {q}, .coef = {xy / xx}};
            score(d, y, &f);
            if (f.ssr <= r->single.ssr + 1e-9 * (scale + 1) && strlen(r->alternatives) < 400) {
                char t[96];
                describe(&f, t, sizeof(t));
                snprintf(r->alternatives + strlen(r->alternatives), sizeof(r->alternatives) - strlen(r->alternatives),
                         "%s%s", r->alternatives[0] ? "; " : "", t);
            }
        }
    /* Counts where every stated quantity (but iter) is zero: nothing the model knows explains them. */
    for (int i = 0; i < d->nc; i++) {
        if (isnan(y[i]) || fabs(y[i]) <= o->floor)
            continue;
        bool all_zero = true;
        for (int q = 0; q < Q_COUNT && all_zero; q++)
            if (q != Q_ITER && quantity_stated(&d->c[i].q, (enum quantity_id)q) && d->c[i].q.v[q] != 0)
                all_zero = false;
        if (all_zero) {
            r->zero_cases++;
            if (strlen(r->zero_list) < 400)
                snprintf(r->zero_list + strlen(r->zero_list), sizeof(r->zero_list) - strlen(r->zero_list),
                         "%s%s (%.4f)", r->zero_list[0] ? "; " : "", d->c[i].label, y[i]);
        }
    }
    /* The best explanation: a single when it explains the counts (R² >= 0.999), else a pair
     * that does. */
    bool silent = true;
    for (int i = 0; i < d->nc; i++)
        if (!isnan(y[i]) && fabs(y[i]) > o->floor)
            silent = false;
    if (silent) {
        snprintf(r->explanation, sizeof(r->explanation), "counts nothing (0 in every case)");
    } else if (r->single.nterms && r->single.r2 >= 0.999) {
        r->best = r->single;
    } else if (r->pair.nterms && r->pair.r2 >= 0.999) {
        r->best = r->pair;
    } else {
        snprintf(r->explanation, sizeof(r->explanation), "unexplained");
        const struct candidate *f = r->pair.nterms && r->pair.r2 > r->single.r2 ? &r->pair : &r->single;
        if (f->nterms)
            r->best = *f;   /* kept for its R² and worst residual; not claimed as the answer */
    }
    if (r->best.nterms && !r->explanation[0])
        describe(&r->best, r->explanation, sizeof(r->explanation));
    /* The rule, case by case, with the checker's own tolerance logic. */
    if (o->rules) {
        struct event_spec spec = {.name = e->name};
        r->rule = ruleset_find(o->rules, &spec);
        if (r->rule && r->rule->tol != TOL_INFO) {
            double worst = -1;
            for (int i = 0; i < d->nc; i++) {
                if (isnan(y[i]))
                    continue;
                struct stats st = {.median = y[i], .min = y[i]};
                struct event_verdict v = check_event(r->rule, &spec, &st, &d->c[i].q, o->floor, 0);
                if (v.kind == VERDICT_NOT_OK) {
                    r->rule_fail++;
                    double dev = fabs(v.measured - v.expected);
                    if (dev > worst) {
                        worst = dev;
                        snprintf(r->rule_worst, sizeof(r->rule_worst), "%s: measured %.4f, rule says %.4f",
                                 d->c[i].label, v.measured, v.expected);
                    }
                }
            }
        }
    }
    bool judged = r->rule && r->rule->tol != TOL_INFO;
    if (silent && !r->zero_cases)
        r->status = judged && r->rule_fail ? CLASSIFY_SUSPECT : CLASSIFY_SILENT;
    else if (!r->best.nterms || !strcmp(r->explanation, "unexplained"))
        /* the rule holds everywhere even if no simple candidate does */
        r->status = judged && !r->rule_fail && !r->zero_cases ? CLASSIFY_CLEAN : CLASSIFY_UNEXPLAINED;
    else if (r->zero_cases || (judged && r->rule_fail))
        r->status = CLASSIFY_SUSPECT;
    else if (judged)
        r->status = CLASSIFY_CLEAN;
    else
        r->status = r->best.nterms == 1 && fabs(r->best.coef[0] - 1) <= 0.005 ? CLASSIFY_CLEAN : CLASSIFY_SUSPECT;
}

static void result_json(struct json *j, const struct data *d, const struct cevent *e, const struct result *r)
{
    json_object_begin(j, NULL);
    json_string(j, "event", e->name);
    json_int(j, "cases", r->measured);
    json_string(j, "status", classify_status_name(r->status));
    json_string(j, "explanation", r->explanation);
    if (r->best.nterms) {
        json_array_begin(j, "terms");
        for (int t = 0; t < r->best.nterms; t++) {
            json_object_begin(j, NULL);
            json_string(j, "quantity", quantity_name((enum quantity_id)r->best.q[t]));
            json_number(j, "coefficient", r->best.coef[t]);
            json_object_end(j);
        }
        json_array_end(j);
        json_number(j, "r2", r->best.r2);
        json_number(j, "worst_residual", r->best.worst);
        json_string(j, "worst_case", r->best.worst_case >= 0 ? d->c[r->best.worst_case].label : NULL);
    }
    json_string(j, "also_explained_by", r->alternatives[0] ? r->alternatives : NULL);
    json_string(j, "counts_where_every_quantity_is_zero", r->zero_cases ? r->zero_list : NULL);
    if (r->rule) {
        char tol[32];
        json_object_begin(j, "rule");
        json_string(j, "expression", r->rule->expr_text);
        json_string(j, "tolerance", tolerance_text(r->rule, tol, sizeof(tol)));
        json_string(j, "where", r->rule->where);
        json_int(j, "failing_cases", r->rule_fail);
        json_string(j, "worst", r->rule_fail ? r->rule_worst : NULL);
        json_object_end(j);
    }
    json_object_end(j);
}

static void table_line(FILE *f, const struct data *d, const struct cevent *e, const struct result *r)
{
    char fitinfo[160] = "";
    if (r->best.nterms)
        snprintf(fitinfo, sizeof(fitinfo), "R2 %.6f, worst residual %.4f (%s)", r->best.r2, r->best.worst,
                 r->best.worst_case >= 0 ? d->c[r->best.worst_case].label : "-");
    fprintf(f, "%-11s %-40s %-36s %s\n", classify_status_name(r->status), e->name, r->explanation, fitinfo);
    if (r->rule && r->rule->tol != TOL_INFO) {
        if (r->rule_fail)
            fprintf(f, "%-11s %-40s rule '%s' fails in %d of %d cases; worst %s\n", "", "", r->rule->expr_text,
                    r->rule_fail, r->measured, r->rule_worst);
        else
            fprintf(f, "%-11s %-40s rule '%s' holds in all %d cases\n", "", "", r->rule->expr_text, r->measured);
    }
    if (r->zero_cases)
        fprintf(f, "%-11s %-40s counts where every quantity is zero: %s\n", "", "", r->zero_list);
    if (r->alternatives[0] && r->best.nterms == 1)
        fprintf(f, "%-11s %-40s equally well (collinear in this run): %s\n", "", "", r->alternatives);
}

int classify_run(const char *run, const struct classify_opts *o)
{
    struct data d = {0};
    int rc = load(&d, run);
    if (rc)
        goto out;
    /* The table is built in memory and both files are written whole (run_file_write): a link in
     * the run folder is replaced, never followed. */
    char *ttext = NULL;
    size_t tlen = 0;
    FILE *txt = open_memstream(&ttext, &tlen);
    if (!txt)
        pm_fatal("out of memory");
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    json_string(&j, "run", run);
    json_int(&j, "cases", d.nc);
    json_number(&j, "floor", o->floor);
    json_array_begin(&j, "events");
    FILE *outs[2] = {txt, o->table};
    for (int k = 0; k < 2; k++)
        if (outs[k])
            fprintf(outs[k], "%-11s %-40s %-36s %s\n", "status", "event", "best explanation (per iteration)",
                    "regression");
    int suspects = 0, shown = 0;
    for (int i = 0; i < d.ne; i++) {
        struct result r;
        classify_event(&d, &d.e[i], o, &r);
        if (o->unruled_only && r.rule && r.rule->tol != TOL_INFO)
            continue;
        shown++;
        suspects += r.status != CLASSIFY_CLEAN && r.status != CLASSIFY_SILENT;
        result_json(&j, &d, &d.e[i], &r);
        for (int k = 0; k < 2; k++)
            if (outs[k])
                table_line(outs[k], &d, &d.e[i], &r);
    }
    json_array_end(&j);
    json_int(&j, "suspect", suspects);
    json_object_end(&j);
    fclose(txt);
    rc = run_file_write(run, "classify.txt", ttext, tlen) || run_file_write_json(run, "classify.json", &j) ? -1
                                                                                                          : suspects;
    free(ttext);
    json_free(&j);
    if (o->table && rc >= 0)
        fprintf(o->table, "# %d events over %d cases, %d not clean; table and JSON in %s/classify.txt and "
                "classify.json\n", shown, d.nc, suspects, run);
out:
    for (int i = 0; i < d.nc; i++)
        free(d.c[i].label);
    for (int i = 0; i < d.ne; i++) {
        free(d.e[i].name);
        free(d.e[i].y);
    }
    free(d.c);
    free(d.e);
    return rc;
}

/* BASE against NEW: the host and version facts 'pmucal compare' weighs that differ; for runs with
 * measurements, every (case, event) as compare judges it (noise test over the repetitions,
 * verdict, encoding and support changes), regressions on top; for runs without (synthetic or
 * c2c folders), their validate.tap verdicts side by side; penalty deltas. */
#include "base/util.h"
#include "report/report.h"
#include "validate/run_diff.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- host and versions ---- */

static void host_diff(FILE *f, const struct runfile *a, const struct runfile *b)
{
    const struct runfile ra = {.manifest = a->manifest}, rb = {.manifest = b->manifest};
    fputs("<h3>Host and version facts that differ</h3>\n<table><thead><tr><th>fact</th><th>BASE</th><th>NEW</th>"
          "</tr></thead><tbody>\n", f);
    int differ = 0;
    for (const char *const *k = compare_facts; *k; k++) {
        char b0[256], b1[256];
        const char *v0 = runfile_fact(&ra, *k, b0, sizeof(b0)), *v1 = runfile_fact(&rb, *k, b1, sizeof(b1));
        if (!(v0 || v1) || (v0 && v1 && !strcmp(v0, v1)))
            continue;
        differ++;
        html_printf(f, "<tr class=\"regress\"><td class=\"mono\">%s</td><td>", *k);
        html_text(f, v0 ? v0 : "(none)");
        fputs("</td><td>", f);
        html_text(f, v1 ? v1 : "(none)");
        fputs("</td></tr>\n", f);
    }
    if (!differ)
        fputs("<tr><td colspan=\"3\">none: same host, versions, source and settings</td></tr>\n", f);
    fputs("</tbody></table>\n", f);
}

/* ---- the kernel's PMU ---- */

/* The kernel's own description of its core PMU, where both runs have one (kernel-check): each
 * change, what was lost or changed on top as a regression. */
static void kernel_pmu_diff(FILE *f, const struct runfile *a, const struct runfile *b)
{
    struct cmp_kernel k;
    compare_kernel(a->manifest, b->manifest, &k);
    if (k.described[0] && k.described[1]) {
        fputs("<h3>The Linux kernel's PMU description (sysfs events, format, caps; counters; perf_user_access)</h3>\n"
              "<table><thead><tr><th>what</th><th>name</th><th>change</th><th>BASE</th><th>NEW</th></tr></thead>"
              "<tbody>\n", f);
        for (int pass = 0; pass < 2; pass++)
            for (const struct cmp_kchange *c = k.ch; c < k.ch + k.n; c++) {
                if (c->regression != !pass)
                    continue;
                html_printf(f, "<tr%s><td>", c->regression ? " class=\"regress\"" : "");
                html_text(f, c->what);
                fputs("</td><td class=\"mono\">", f);
                html_text(f, c->name);
                html_printf(f, "</td><td>%s</td><td class=\"mono\">", c->change);
                html_text(f, c->base);
                fputs("</td><td class=\"mono\">", f);
                html_text(f, c->new_);
                fputs("</td></tr>\n", f);
            }
        if (!k.n)
            fputs("<tr><td colspan=\"5\">none: the same description</td></tr>\n", f);
        fputs("</tbody></table>\n", f);
    }
    compare_kernel_free(&k);
}

/* ---- verdicts ---- */

struct pair {
    const char *case_label, *event;
    const struct vcell *a, *b;
    int order;            /* 0 regression, 1 improvement, 2 other verdict change, 3 same verdict */
    double delta;         /* relative change of the measured value; NaN when not both measured */
};

static bool good(const struct vcell *v)
{
    return v && (v->kind == VERDICT_OK || v->kind == VERDICT_INFO);
}

static int classify_pair(const struct vcell *a, const struct vcell *b)
{
    if (a && b && a->kind == b->kind)
        return 3;
    if ((good(a) && !good(b)) || (a && a->kind == VERDICT_TODO && (!b || b->kind == VERDICT_NOT_OK)) || (a && !b))
        return 0;
    if ((!good(a) && good(b)) || (!a && b))
        return 1;
    return 2;
}

static int cmp_pair(const void *x, const void *y)
{
    const struct pair *p = x, *q = y;
    if (p->order != q->order)
        return p->order - q->order;
    double dp = isnan(p->delta) ? -1 : fabs(p->delta), dq = isnan(q->delta) ? -1 : fabs(q->delta);
    return dp < dq ? 1 : dp > dq ? -1 : 0;
}

static void side(FILE *f, const struct vcell *v)
{
    if (!v) {
        fputs("<td class=\"none\">absent</td><td></td>", f);
        return;
    }
    html_printf(f, "<td class=\"%s\" data-v=\"%d\">%s</td><td class=\"num\">", verdict_class(v->kind), v->kind,
                verdict_name(v->kind));
    html_num(f, v->measured);
    fputs("</td>", f);
}

static void verdict_side_by_side(FILE *f, const struct runfile *a, const struct runfile *b)
{
    struct grid ga, gb;
    grid_build(&ga, a);
    grid_build(&gb, b);
    struct pair *ps = xcalloc((size_t)(a->ncells + b->ncells + 1), sizeof(*ps));
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const struct grid *g = pass ? &gb : &ga, *o = pass ? &ga : &gb;
        const struct runfile *r = pass ? b : a, *ro = pass ? a : b;
        for (int e = 0; e < g->nevents; e++)
            for (int c = 0; c < g->ncases; c++) {
                int i = g->at[e * g->ncases + c];
                if (i < 0)
                    continue;
                const struct vcell *v = &r->cells[i];
                int j = grid_find(o, v->event, v->case_label);
                const struct vcell *w = j >= 0 ? &ro->cells[j] : NULL;
                if (pass && w)
                    continue;   /* already paired from BASE */
                struct pair *p = &ps[n++];
                p->case_label = v->case_label, p->event = v->event;
                p->a = pass ? NULL : v, p->b = pass ? v : w;
                p->order = classify_pair(p->a, p->b);
                p->delta = p->a && p->b && !isnan(p->a->measured) && !isnan(p->b->measured) && p->a->measured != 0
                               ? (p->b->measured - p->a->measured) / fabs(p->a->measured)
                               : NAN;
            }
    }
    qsort(ps, (size_t)n, sizeof(*ps), cmp_pair);
    int count[4] = {0};
    for (int i = 0; i < n; i++)
        count[ps[i].order]++;
    html_printf(f, "<h3>Verdicts, BASE against NEW</h3>\n<p class=\"count\">These runs have no measurements "
                   "(measurements.ndjson): their validate.tap verdicts side by side; the change of a median is shown, "
                   "not tested against the noise as 'pmucal compare' does.</p>\n<p class=\"legend\"><span class=\"nok\">%d regressions</span>"
                   "<span class=\"ok\">%d improvements</span><span class=\"todo\">%d other changes</span>"
                   "<span class=\"skip\">%d unchanged</span> (case, event) pairs. A regression is a verdict that got "
                   "worse or disappeared; the change of the median is shown, not judged.</p>\n"
                   "<div class=\"controls\"><input type=\"search\" class=\"search\" data-for=\"cmp-v\" placeholder=\""
                   "search cases and events\" aria-label=\"search\"><select class=\"status\" data-for=\"cmp-v\" "
                   "aria-label=\"status\"><option value=\"\">all pairs</option><option value=\"regression\">regressions"
                   "</option><option value=\"improvement\">improvements</option><option value=\"changed\">changed"
                   "</option><option value=\"same\">unchanged</option></select><span class=\"count\" id=\"cmp-v-count\">"
                   "</span></div>\n<table id=\"cmp-v\"><thead><tr><th data-sort>change</th><th data-sort>case</th>"
                   "<th data-sort>event</th><th data-sort>BASE</th><th data-sort>measured</th><th data-sort>NEW</th>"
                   "<th data-sort>measured</th><th data-sort>&Delta;</th></tr></thead><tbody>\n",
                count[0], count[1], count[2], count[3]);
    static const char *const what[] = {"regression", "improvement", "changed", "same"};
    for (int i = 0; i < n; i++) {
        const struct pair *p = &ps[i];
        html_printf(f, "<tr data-kinds=\"%s\"%s><td data-v=\"%d\">%s</td><td>", what[p->order],
                    p->order == 0 ? " class=\"regress\"" : "", p->order, what[p->order]);
        html_text(f, p->case_label);
        fputs("</td><td>", f);
        html_text(f, p->event);
        fputs("</td>", f);
        side(f, p->a);
        side(f, p->b);
        if (isnan(p->delta))
            fputs("<td class=\"num\" data-v=\"0\"></td>", f);
        else
            html_printf(f, "<td class=\"num %s\" data-v=\"%.6g\">%+.2f%%</td>", p->delta > 0 ? "delta-up" : "delta-down",
                        fabs(p->delta), 100 * p->delta);
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    free(ps);
    grid_free(&ga);
    grid_free(&gb);
}

/* ---- as pmucal compare judges the measurements ---- */

int compare_prepare(struct compare_view *v, const struct runfile *a, const struct runfile *b, const struct cmp_opts *o)
{
    memset(v, 0, sizeof(*v));
    if (!a->has_measurements || !b->has_measurements)
        return 0;
    const struct runfile *r[2] = {a, b};
    for (int s = 0; s < 2; s++) {
        if (runfile_load(&v->rf[s], r[s]->path)) {
            runfile_free(&v->rf[s]);
            if (s)
                runfile_free(&v->rf[0]);
            return -1;
        }
        v->incomplete[s] = !runfile_complete(&v->rf[s], v->why[s], sizeof(v->why[s]));
    }
    if (compare_same_kind(&v->rf[0], &v->rf[1])) {
        runfile_free(&v->rf[0]);
        runfile_free(&v->rf[1]);
        return -1;
    }
    compare_runs(&v->rf[0], &v->rf[1], o, &v->c);
    v->judged = true;
    struct cmp_kernel k;
    compare_kernel(v->rf[0].manifest, v->rf[1].manifest, &k);
    int rc = compare_has_points(&v->rf[0], &v->rf[1], &v->c, &k);
    compare_kernel_free(&k);
    return rc;
}

void compare_view_free(struct compare_view *v)
{
    if (!v->judged)
        return;
    compare_free(&v->c);
    runfile_free(&v->rf[0]);
    runfile_free(&v->rf[1]);
    v->judged = false;
}

static const char *point_kind(const struct cmp_point *p)
{
    return p->regression ? "regression" : !p->side[0].ev ? "only NEW" : !p->side[1].ev ? "only BASE"
         : p->flags & CMP_IMPROVED ? "improved" : p->flags & CMP_INFO ? "info" : "same";
}

static int point_order(const struct cmp_point *p)
{
    return p->regression ? 0 : p->flags & CMP_IMPROVED ? 1 : !p->side[0].ev || !p->side[1].ev ? 2
         : p->flags & CMP_INFO ? 3 : 4;
}

static int cmp_points(const void *x, const void *y)
{
    const struct cmp_point *p = *(const struct cmp_point *const *)x, *q = *(const struct cmp_point *const *)y;
    if (point_order(p) != point_order(q))
        return point_order(p) - point_order(q);
    double a = isnan(p->relative) ? -1 : fabs(p->relative), b = isnan(q->relative) ? -1 : fabs(q->relative);
    return a < b ? 1 : a > b ? -1 : 0;
}

static void judged_side(FILE *f, const struct cmp_side *s)
{
    if (!s->ev) {
        fputs("<td class=\"none\">absent</td>", f);
        return;
    }
    const char *v = s->unsupported ? "unsupported" : s->judged ? verdict_name(s->verdict) : "";
    /* A skipped verdict shows as info, as it always has: only unsupported is greyed as a skip. */
    const char *cls = s->unsupported ? "skip" : s->judged && s->verdict != VERDICT_SKIP ? verdict_class(s->verdict) : "info";
    html_printf(f, "<td class=\"num %s\" data-v=\"%.6g\">", cls, isnan(s->median) ? 0 : s->median);
    if (!s->unsupported) {
        html_num(f, s->median);
        fputs(" &plusmn; ", f);
        html_num(f, s->mad);
    }
    fputs("<small> ", f);
    html_text(f, v);
    fputs("</small></td>", f);
}

static void judged(FILE *f, const struct compare_view *v)
{
    const struct cmp_result *c = &v->c;
    for (int s = 0; s < 2; s++)
        if (v->incomplete[s]) {
            html_printf(f, "<p class=\"absent\">%s is incomplete (", s ? "NEW" : "BASE");
            html_text(f, v->why[s]);
            fputs("): what it lacks shows as 'only', not as a change.</p>\n", f);
        }
    const struct cmp_point **pt = xcalloc((size_t)c->n + 1, sizeof(*pt));
    for (int i = 0; i < c->n; i++)
        pt[i] = &c->pt[i];
    qsort(pt, (size_t)c->n, sizeof(*pt), cmp_points);
    html_printf(f, "<h3>Counts and verdicts, as 'pmucal compare' judges them</h3>\n<p class=\"legend\"><span "
                   "class=\"nok\">%d regressions</span><span class=\"ok\">%d improvements</span><span class=\"skip\">"
                   "%d in BASE only, %d in NEW only</span> of %d (case, event) points. A count is changed when its "
                   "median moved beyond the runs' noise (Mann-Whitney over the repetitions) and past the threshold and "
                   "the source's floor.</p>\n", c->regressions, c->improvements, c->only[0], c->only[1], c->n);
    html_printf(f, "<div class=\"controls\"><input type=\"search\" class=\"search\" data-for=\"cmp-j\" placeholder=\""
                   "search cases and events\" aria-label=\"search\"><select class=\"status\" data-for=\"cmp-j\" "
                   "aria-label=\"status\"><option value=\"\">all points</option><option value=\"regression\">"
                   "regressions</option><option value=\"improved\">improvements</option><option value=\"same\">same"
                   "</option></select><span class=\"count\" id=\"cmp-j-count\"></span></div>\n<table id=\"cmp-j\">"
                   "<thead><tr><th data-sort>change</th><th data-sort>case</th><th data-sort>event</th><th data-sort>"
                   "BASE median &plusmn; MAD</th><th data-sort>NEW median &plusmn; MAD</th><th data-sort>&Delta;</th>"
                   "<th data-sort>p</th><th>why</th></tr></thead><tbody>\n");
    for (int i = 0; i < c->n; i++) {
        const struct cmp_point *p = pt[i];
        const char *kind = point_kind(p);
        html_printf(f, "<tr data-kinds=\"%s\"%s><td data-v=\"%d\">%s", kind, p->regression ? " class=\"regress\"" : "",
                    point_order(p), kind);
        for (int k = 0; k < CMP_NFLAGS; k++)
            if (p->flags & (1u << k))
                html_printf(f, " <span class=\"badge %s\">%s</span>", p->regression ? "nok" : "info",
                            compare_flag_name[k]);
        fputs("</td><td>", f);
        html_text(f, p->label);
        fputs("</td><td>", f);
        html_text(f, p->event);
        fputs("</td>", f);
        judged_side(f, &p->side[0]);
        judged_side(f, &p->side[1]);
        if (isnan(p->relative))
            fputs("<td class=\"num\" data-v=\"0\"></td>", f);
        else
            html_printf(f, "<td class=\"num %s\" data-v=\"%.6g\">%+.2f%%</td>", p->relative > 0 ? "delta-up" : "delta-down",
                        fabs(p->relative), 100 * p->relative);
        fputs("<td class=\"num\">", f);
        if (!isnan(p->p))
            html_printf(f, "%.2g", p->p);
        fputs("</td><td>", f);
        html_text(f, p->why);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    free(pt);
}

/* ---- penalties ---- */

static void penalty_diff(FILE *f, const struct runfile *a, const struct runfile *b)
{
    const struct jvalue *pa = jget(a->penalties, "penalties"), *pb = jget(b->penalties, "penalties");
    if (!pa || !pb || pa->type != J_ARRAY || pb->type != J_ARRAY) {
        section_absent(f, "No penalty deltas: both runs need a penalties.json.");
        return;
    }
    fputs("<h3>Penalties, BASE against NEW</h3>\n<p class=\"count\">Rows whose 95% intervals do not overlap come "
          "first.</p>\n<table id=\"cmp-p\"><thead><tr><th data-sort>penalty</th><th data-sort>BASE cycles</th>"
          "<th>interval</th><th data-sort>NEW cycles</th><th>interval</th><th data-sort>&Delta;</th><th>status</th>"
          "</tr></thead><tbody>\n", f);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < pa->n; i++) {
            const struct jvalue *x = &pa->items[i], *y = NULL;
            const char *name = jget_str(x, "name", "?");
            for (int j = 0; j < pb->n && !y; j++)
                if (!strcmp(jget_str(&pb->items[j], "name", ""), name))
                    y = &pb->items[j];
            double ca = jget_num(x, "cycles", NAN), cb = jget_num(y, "cycles", NAN);
            bool apart = y && (jget_num(y, "cycles_lo", NAN) > jget_num(x, "cycles_hi", NAN)
                               || jget_num(y, "cycles_hi", NAN) < jget_num(x, "cycles_lo", NAN));
            if (apart != !pass)
                continue;
            html_printf(f, "<tr%s><td><b>", apart ? " class=\"regress\"" : "");
            html_text(f, name);
            fputs("</b></td><td class=\"num\">", f);
            html_num(f, ca);
            html_printf(f, "</td><td class=\"num\">[%.2f, %.2f]</td><td class=\"num\">", jget_num(x, "cycles_lo", NAN),
                        jget_num(x, "cycles_hi", NAN));
            html_num(f, cb);
            html_printf(f, "</td><td class=\"num\">[%.2f, %.2f]</td>", jget_num(y, "cycles_lo", NAN),
                        jget_num(y, "cycles_hi", NAN));
            if (!isnan(ca) && !isnan(cb) && ca != 0)
                html_printf(f, "<td class=\"num\" data-v=\"%.6g\">%+.1f%%</td>", (cb - ca) / fabs(ca), 100 * (cb - ca) / fabs(ca));
            else
                fputs("<td></td>", f);
            fputs("<td>", f);
            html_text(f, jget_str(x, "status", "?"));
            fputs(" &rarr; ", f);
            html_text(f, y ? jget_str(y, "status", "?") : "absent");
            fputs("</td></tr>\n", f);
        }
    fputs("</tbody></table>\n", f);
}

void sec_compare(FILE *f, const struct runfile *base, const struct runfile *next, const struct compare_view *v)
{
    section_begin(f, "compare", 0, "Comparison: BASE against NEW");
    fputs("<p>BASE <code>", f);
    html_text(f, base->path);
    fputs("</code>, NEW <code>", f);
    html_text(f, next->path);
    fputs("</code></p>\n", f);
    host_diff(f, base, next);
    kernel_pmu_diff(f, base, next);
    if (v->judged)
        judged(f, v);
    else if (base->ncells || next->ncells)
        verdict_side_by_side(f, base, next);
    else
        section_absent(f, "No verdicts to compare: neither run has validate.tap verdicts.");
    penalty_diff(f, base, next);
    section_end(f);
}

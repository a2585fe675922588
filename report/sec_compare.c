/* BASE against NEW: host and version facts that differ, every (case, event) side by side with
 * its verdict change and the change of its measured median (regressions on top), and penalty
 * deltas. Regression here is a verdict that got worse: ok or info to not ok, skip or todo, or a
 * verdict that is gone; a count change alone is shown, not judged (no noise model here). */
#include "report.h"
#include "util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- host and versions ---- */

static void fact_row(FILE *f, const char *key, const struct jvalue *a, const struct jvalue *b);

/* Leaves of two manifests that differ, by dotted path; the date and the command always differ. */
static int diff_json(FILE *f, const char *path, const struct jvalue *a, const struct jvalue *b)
{
    if (a && b && a->type == J_OBJECT && b->type == J_OBJECT) {
        int n = 0;
        for (int i = 0; i < a->n; i++) {
            if (!strcmp(a->keys[i], "date") || !strcmp(a->keys[i], "command"))
                continue;
            char *p = *path ? xasprintf("%s.%s", path, a->keys[i]) : xstrdup(a->keys[i]);
            n += diff_json(f, p, &a->items[i], jget(b, a->keys[i]));
            free(p);
        }
        for (int i = 0; i < b->n; i++)
            if (!jget(a, b->keys[i]) && strcmp(b->keys[i], "date") && strcmp(b->keys[i], "command")) {
                char *p = *path ? xasprintf("%s.%s", path, b->keys[i]) : xstrdup(b->keys[i]);
                fact_row(f, p, NULL, &b->items[i]);
                free(p);
                n++;
            }
        return n;
    }
    bool same = a && b && a->type == b->type
                && (a->type == J_NULL || (a->type == J_BOOL && a->b == b->b) || (a->type == J_NUMBER && a->num == b->num)
                    || (a->type == J_STRING && !strcmp(a->str, b->str)));
    if (a && b && a->type == J_ARRAY && b->type == J_ARRAY && a->n == b->n) {
        int n = 0;
        for (int i = 0; i < a->n; i++) {
            char *p = xasprintf("%s[%d]", path, i);
            n += diff_json(f, p, &a->items[i], &b->items[i]);
            free(p);
        }
        return n;
    }
    if (same)
        return 0;
    fact_row(f, path, a, b);
    return 1;
}

static void leaf(FILE *f, const struct jvalue *v)
{
    if (!v)
        fputs("<span class=\"count\">absent</span>", f);
    else if (v->type == J_STRING)
        html_text(f, v->str);
    else if (v->type == J_NUMBER)
        html_printf(f, "%.10g", v->num);
    else if (v->type == J_BOOL)
        fputs(v->b ? "true" : "false", f);
    else if (v->type == J_NULL)
        fputs("null", f);
    else
        html_printf(f, "(%s of %d)", v->type == J_ARRAY ? "list" : "object", v->n);
}

static void fact_row(FILE *f, const char *key, const struct jvalue *a, const struct jvalue *b)
{
    /* Clock figures are measured each run: they differ by noise and go below the real facts. */
    fputs("<tr><td class=\"mono\">", f);
    html_text(f, key);
    fputs("</td><td>", f);
    leaf(f, a);
    fputs("</td><td>", f);
    leaf(f, b);
    fputs("</td></tr>\n", f);
}

static void host_diff(FILE *f, const struct run *a, const struct run *b)
{
    fputs("<h3>Host and version facts that differ</h3>\n<table><thead><tr><th>fact</th><th>BASE</th><th>NEW</th>"
          "</tr></thead><tbody>\n", f);
    if (!diff_json(f, "", a->manifest, b->manifest))
        fputs("<tr><td colspan=\"3\">none: the manifests agree (date and command aside)</td></tr>\n", f);
    fputs("</tbody></table>\n", f);
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
    return v && (v->kind == VK_OK || v->kind == VK_INFO);
}

static int classify_pair(const struct vcell *a, const struct vcell *b)
{
    if (a && b && a->kind == b->kind)
        return 3;
    if ((good(a) && !good(b)) || (a && a->kind == VK_TODO && (!b || b->kind == VK_NOT_OK)) || (a && !b))
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
    html_printf(f, "<td class=\"%s\" data-v=\"%d\">%s</td><td class=\"num\">", vkind_class(v->kind), v->kind,
                vkind_name(v->kind));
    html_num(f, v->measured);
    fputs("</td>", f);
}

static void verdict_diff(FILE *f, const struct run *a, const struct run *b)
{
    struct grid ga, gb;
    grid_build(&ga, a);
    grid_build(&gb, b);
    struct pair *ps = xcalloc((size_t)(a->ncells + b->ncells + 1), sizeof(*ps));
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
        const struct grid *g = pass ? &gb : &ga, *o = pass ? &ga : &gb;
        const struct run *r = pass ? b : a, *ro = pass ? a : b;
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
    html_printf(f, "<h3>Verdicts, BASE against NEW</h3>\n<p class=\"legend\"><span class=\"nok\">%d regressions</span>"
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

/* ---- penalties ---- */

static void penalty_diff(FILE *f, const struct run *a, const struct run *b)
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

void sec_compare(FILE *f, const struct run *base, const struct run *next)
{
    section_begin(f, "compare", 0, "Comparison: BASE against NEW");
    fputs("<p>BASE <code>", f);
    html_text(f, base->path);
    fputs("</code>, NEW <code>", f);
    html_text(f, next->path);
    fputs("</code></p>\n", f);
    host_diff(f, base, next);
    if (base->ncells || next->ncells)
        verdict_diff(f, base, next);
    else
        section_absent(f, "No verdicts to compare: neither run has validate.tap verdicts.");
    penalty_diff(f, base, next);
    section_end(f);
}

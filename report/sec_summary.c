/* The per-event summary (passes everywhere, fails where, skipped why) beside the classifier's
 * reading of the event from classify.json (what it counts, how well the regression explains it). */
#include "report/report.h"
#include "runs/classify_status.h"
#include <math.h>
#include <string.h>

static const struct jvalue *classified(const struct jvalue *cl, const char *event)
{
    const struct jvalue *evs = jget(cl, "events");
    for (int i = 0; evs && evs->type == J_ARRAY && i < evs->n; i++)
        if (!strcmp(jget_str(&evs->items[i], "event", ""), event))
            return &evs->items[i];
    return NULL;
}

/* The cases where an event failed, and the first reason it was skipped. */
static void where_and_why(FILE *f, const struct grid *g, const struct runfile *r, int e)
{
    int shown = 0;
    const struct vcell *skip = NULL;
    for (int c = 0; c < g->ncases; c++) {
        int i = g->at[e * g->ncases + c];
        if (i < 0)
            continue;
        const struct vcell *v = &r->cells[i];
        if (v->kind == VERDICT_SKIP && !skip)
            skip = v;
        if (v->kind != VERDICT_NOT_OK)
            continue;
        if (shown++)
            fputs("; ", f);
        html_text(f, v->case_label);
    }
    if (skip) {
        const char *why = strstr(skip->text, " # SKIP ");
        if (shown)
            fputs("<br>", f);
        fputs("<span class=\"count\">skipped: ", f);
        html_text(f, why ? why + 8 : skip->text);
        fputs("</span>", f);
    }
}

static void reading(FILE *f, const struct jvalue *ce)
{
    if (!ce) {
        fputs("<td data-v=\"\"></td><td></td><td></td>", f);
        return;
    }
    const char *status = jget_str(ce, "status", "?");
    enum classify_status st = CLASSIFY_SUSPECT;   /* a word no status is called is shown as it is, as a failure */
    classify_status_parse(status, &st);
    const char *cls = st == CLASSIFY_CLEAN ? "ok" : st == CLASSIFY_SILENT ? "skip" : "nok";
    fputs("<td data-v=\"", f);
    html_attr(f, status);
    html_printf(f, "\"><span class=\"badge %s\">", cls);
    html_text(f, status);
    fputs("</span></td><td>", f);
    html_text(f, jget_str(ce, "explanation", ""));
    const char *worst = jget_str(ce, "worst_case", NULL);
    if (worst) {
        fputs("<br><span class=\"count\">worst case: ", f);
        html_text(f, worst);
        fputs("</span>", f);
    }
    double r2 = jget_num(ce, "r2", NAN);
    html_printf(f, "</td><td class=\"num\" data-v=\"%.6f\">", isnan(r2) ? -1 : r2);
    if (!isnan(r2))
        html_printf(f, "%.6f", r2);
    fputs("</td>", f);
}

void sec_summary(FILE *f, const struct runfile *r, int idx)
{
    section_begin(f, "summary", idx, "Per-event summary and the classifier's reading");
    struct grid g;
    grid_build(&g, r);
    if (!g.nevents) {
        section_absent(f, "No per-event summary: this run has no event verdicts.");
        grid_free(&g);
        section_end(f);
        return;
    }
    if (!r->classify)
        section_absent(f, "No classifier reading: this run has no classify.json ('pmucal classify RUN' writes it).");
    else
        html_printf(f, "<p class=\"count\">Classifier: NNLS regressions of each event's medians against the cases' "
                       "quantities over %.0f cases (classify.json).</p>\n", jget_num(r->classify, "cases", NAN));
    html_printf(f, "<div class=\"controls\"><input type=\"search\" class=\"search\" data-for=\"sm-%d\" "
                   "placeholder=\"search events\" aria-label=\"search\"><span class=\"count\" id=\"sm-%d-count\"></span>"
                   "</div>\n<table id=\"sm-%d\"><thead><tr><th data-sort>event</th><th data-sort>ok</th>"
                   "<th data-sort>not ok</th><th data-sort>skip</th><th data-sort>todo</th><th data-sort>info</th>"
                   "<th>fails in / skipped why</th><th data-sort>classifier</th><th>counts</th><th data-sort>R&sup2;"
                   "</th></tr></thead><tbody>\n", idx, idx, idx);
    for (int e = 0; e < g.nevents; e++) {
        const int *n = g.count[e];
        fputs("<tr><td><b>", f);
        html_text(f, g.events[e]);
        fputs("</b></td>", f);
        static const enum verdict order[] = {VERDICT_OK, VERDICT_NOT_OK, VERDICT_SKIP, VERDICT_TODO, VERDICT_INFO};
        for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
            html_printf(f, "<td class=\"num%s\">%d</td>", n[order[k]] && order[k] == VERDICT_NOT_OK ? " nok" : "",
                        n[order[k]]);
        fputs("<td>", f);
        where_and_why(f, &g, r, e);
        fputs("</td>", f);
        reading(f, classified(r->classify, g.events[e]));
        fputs("</tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
    grid_free(&g);
    section_end(f);
}

/* The verdict matrix: events (rows) by cases (columns), each cell coloured by its verdict and
 * showing measured against expected; the row header names the rule (expression, tolerance,
 * file:line). Rows sort by any column, filter by status and by a search box. */
#include "report/report.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Sort key of a cell: failures first when a case column is sorted ascending. */
static int rank(enum verdict k)
{
    static const int r[] = {[VERDICT_NOT_OK] = 0, [VERDICT_TODO] = 1, [VERDICT_SKIP] = 2, [VERDICT_INFO] = 3, [VERDICT_OK] = 4};
    return r[k];
}

static void cell_title(FILE *f, const struct vcell *v)
{
    html_attr(f, v->case_label);
    fputs(" :: ", f);
    html_attr(f, v->event);
    html_printf(f, "&#10;verdict: %s", verdict_name(v->kind));
    if (!isnan(v->measured)) {
        fputs("&#10;measured ", f);
        html_num(f, v->measured);
        if (!isnan(v->expected)) {
            fputs(", expected ", f);
            html_num(f, v->expected);
        }
        fputs(" per iteration", f);
    }
    if (v->tolerance) {
        fputs("&#10;tolerance: ", f);
        html_attr(f, v->tolerance);
    }
    if (v->expr || v->where) {
        fputs("&#10;rule: ", f);
        html_attr(f, v->expr ? v->expr : "(info)");
        fputs(" at ", f);
        html_attr(f, v->where ? v->where : "?");
    }
    html_printf(f, "&#10;validate.tap line %d", v->line);
    /* The line itself only where it says more than the numbers: a reason (skip, todo, a failed
     * measurement); 1000 events x 40 cases keep the page light. */
    if (v->kind == VERDICT_SKIP || v->kind == VERDICT_TODO || isnan(v->measured)) {
        const char *why = strstr(v->text, " # ");
        fputs(": ", f);
        html_attr(f, why ? why + 3 : v->text);
    }
}

static void cell(FILE *f, const struct vcell *v)
{
    if (!v) {
        fputs("<td class=\"cell none\" data-v=\"9\"></td>", f);
        return;
    }
    html_printf(f, "<td class=\"cell %s\" data-v=\"%d\" title=\"", verdict_class(v->kind), rank(v->kind));
    cell_title(f, v);
    fputs("\">", f);
    if (isnan(v->measured))
        html_printf(f, "%s", verdict_name(v->kind));
    else
        html_num(f, v->measured);
    if (!isnan(v->expected)) {
        html_printf(f, "<small>%s ", v->tolerance && !strcmp(v->tolerance, "bound") ? "&le;" : "exp");
        html_num(f, v->expected);
        fputs("</small>", f);
    } else if (v->kind == VERDICT_INFO || v->kind == VERDICT_SKIP || v->kind == VERDICT_TODO)
        html_printf(f, "<small>%s</small>", isnan(v->measured) ? "&nbsp;" : verdict_name(v->kind));
    fputs("</td>", f);
}

static void rule_header(FILE *f, const struct vcell *rc)
{
    if (!rc) {
        fputs("<small>no rule stated</small>", f);
        return;
    }
    fputs("<small>", f);
    if (rc->expr) {
        fputs("= ", f);
        html_text(f, rc->expr);
        fputs(" &middot; ", f);
    }
    html_text(f, rc->tolerance ? rc->tolerance : "");
    fputs(" &middot; <span class=\"mono\">", f);
    html_text(f, rc->where);
    fputs("</span></small>", f);
}

static void other_verdicts(FILE *f, const struct runfile *r)
{
    int n = 0;
    for (int i = 0; i < r->ncells; i++)
        n += !r->cells[i].event;
    if (!n)
        return;
    fputs("<h3>Verdicts outside the matrix</h3>\n<table><thead><tr><th>verdict</th><th>line</th><th>what</th>"
          "</tr></thead><tbody>\n", f);
    for (int i = 0; i < r->ncells; i++) {
        const struct vcell *v = &r->cells[i];
        if (v->event)
            continue;
        html_printf(f, "<tr><td><span class=\"badge %s\">%s</span></td><td class=\"num\">%d</td><td>",
                    verdict_class(v->kind), verdict_name(v->kind), v->line);
        html_text(f, v->text);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

void sec_matrix(FILE *f, const struct runfile *r, int idx)
{
    section_begin(f, "matrix", idx, "Verdict matrix");
    if (!r->has_tap || !r->ncells) {
        section_absent(f, r->has_tap ? "No verdicts: validate.tap of this run is empty."
                                     : "No verdicts: this run has no validate.tap.");
        section_end(f);
        return;
    }
    struct grid g;
    grid_build(&g, r);
    int total[VERDICTS] = {0};
    for (int i = 0; i < r->ncells; i++)
        total[r->cells[i].kind]++;
    html_printf(f, "<p class=\"legend\"><span class=\"ok\">ok %d</span><span class=\"nok\">not ok %d</span>"
                   "<span class=\"skip\">skip %d</span><span class=\"todo\">todo %d</span><span class=\"info\">info %d"
                   "</span> ", total[VERDICT_OK], total[VERDICT_NOT_OK], total[VERDICT_SKIP], total[VERDICT_TODO], total[VERDICT_INFO]);
    if (g.nevents)
        html_printf(f, "%d events &times; %d cases. Click a cell for its whole verdict; click a header to sort.", g.nevents,
                    g.ncases);
    else
        fputs("No event verdicts (case :: event): this run's verdicts are listed below.", f);
    html_printf(f, "%s</p>\n", r->tap_truncated ? " validate.tap ends in a cut line: the run was interrupted." : "");
    if (g.nevents) {
        html_printf(f, "<div class=\"controls\"><input type=\"search\" class=\"search\" data-for=\"mx-%d\" "
                       "placeholder=\"search events and rules\" aria-label=\"search\">"
                       "<select class=\"status\" data-for=\"mx-%d\" aria-label=\"status\"><option value=\"\">all rows"
                       "</option><option value=\"nok\">rows with a not ok</option><option value=\"todo\">rows with a "
                       "todo</option><option value=\"skip\">rows with a skip</option><option value=\"info\">info rows"
                       "</option><option value=\"ok\">rows with an ok</option></select>"
                       "<span class=\"count\" id=\"mx-%d-count\"></span></div>\n",
                    idx, idx, idx);
        html_printf(f, "<table class=\"matrix\" id=\"mx-%d\"><thead><tr><th data-sort>event and rule</th>"
                       "<th data-sort title=\"not ok cases\">&#10007;</th><th data-sort title=\"ok cases\">&#10003;</th>",
                    idx);
        for (int c = 0; c < g.ncases; c++) {
            fputs("<th class=\"case\" data-sort title=\"", f);
            html_attr(f, g.cases[c]);
            fputs("\">", f);
            html_text(f, g.cases[c]);
            fputs("</th>", f);
        }
        fputs("</tr></thead><tbody>\n", f);
        for (int e = 0; e < g.nevents; e++) {
            const struct vcell *rc = grid_rule_cell(&g, r, e);
            fputs("<tr data-kinds=\"", f);
            for (int k = 0; k < VERDICTS; k++)
                if (g.count[e][k])
                    html_printf(f, "%s ", verdict_class((enum verdict)k));
            fputs("\" data-text=\"", f);
            html_attr(f, g.events[e]);
            if (rc) {
                fputc(' ', f);
                html_attr(f, rc->expr);
                fputc(' ', f);
                html_attr(f, rc->where);
            }
            fputs("\"><td class=\"ev\" data-v=\"", f);
            html_attr(f, g.events[e]);
            fputs("\"><b>", f);
            html_text(f, g.events[e]);
            fputs("</b>", f);
            rule_header(f, rc);
            html_printf(f, "</td><td class=\"num\">%d</td><td class=\"num\">%d</td>", g.count[e][VERDICT_NOT_OK],
                        g.count[e][VERDICT_OK]);
            for (int c = 0; c < g.ncases; c++) {
                int i = g.at[e * g.ncases + c];
                cell(f, i >= 0 ? &r->cells[i] : NULL);
            }
            fputs("</tr>\n", f);
        }
        fputs("</tbody></table>\n", f);
        html_printf(f, "<div class=\"detail\" id=\"mx-%d-detail\">Click a cell to see its verdict here.</div>\n", idx);
    }
    other_verdicts(f, r);
    grid_free(&g);
    section_end(f);
}

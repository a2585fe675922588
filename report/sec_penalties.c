/* The penalties of a calibrate run (penalties.json): a table with intervals, status and the
 * published reference figures where the run records them, and a bar chart of the cycles. */
#include "report/report.h"
#include "penalties/status.h"
#include <math.h>
#include <string.h>

/* How a penalty's status looks, 0 to 3: ok, unstable (TODO's colour), skip, and the rest (not_ok,
 * error, or a word no status is called) as a failure. */
enum { LOOK_OK, LOOK_UNSTABLE, LOOK_SKIP, LOOK_FAILED };
static int status_look(const struct jvalue *p)
{
    enum penalty_status st;
    if (!penalty_status_of(p, &st))
        return LOOK_FAILED;
    return st == PENALTY_OK ? LOOK_OK : st == PENALTY_UNSTABLE ? LOOK_UNSTABLE : st == PENALTY_SKIP ? LOOK_SKIP
                                                                                                   : LOOK_FAILED;
}

static const char *status_class(const struct jvalue *p)
{
    static const char *const cls[] = {[LOOK_OK] = "ok", [LOOK_UNSTABLE] = "todo", [LOOK_SKIP] = "skip",
                                      [LOOK_FAILED] = "nok"};
    return cls[status_look(p)];
}

/* A reference figure as calibrate records it ({lo, hi, note, source, deviation, large_deviation}):
 * the range, the measured value's deviation from it (marked when large) and the publication. */
static void reference(FILE *f, const struct jvalue *ref)
{
    if (!ref || ref->type != J_OBJECT)
        return;
    double lo = jget_num(ref, "lo", NAN), hi = jget_num(ref, "hi", NAN), dev = jget_num(ref, "deviation", NAN);
    const struct jvalue *large = jget(ref, "large_deviation");
    bool big = large && large->type == J_BOOL && large->b;
    if (isnan(lo))
        return;
    html_printf(f, "%.4g", lo);
    if (!isnan(hi) && hi != lo)
        html_printf(f, "&ndash;%.4g", hi);
    if (dev == 0)
        fputs(" <span class=\"count\">inside the range</span>", f);
    else if (!isnan(dev))
        html_printf(f, " <span class=\"%s\">%+.0f%%%s</span>", big ? "badge nok" : "count", 100 * dev, big ? " far off" : "");
    const char *note = jget_str(ref, "note", NULL), *src = jget_str(ref, "source", NULL);
    if (note || src) {
        fputs("<br><span class=\"count\">", f);
        html_text(f, note);
        fputs(note && src ? "; " : "", f);
        html_text(f, src);
        fputs("</span>", f);
    }
}

static void table(FILE *f, const struct jvalue *ps, int idx)
{
    html_printf(f, "<div class=\"controls\"><input type=\"search\" class=\"search\" data-for=\"pn-%d\" "
                   "placeholder=\"search penalties\" aria-label=\"search\"><select class=\"status\" data-for=\"pn-%d\" "
                   "aria-label=\"status\"><option value=\"\">all</option><option value=\"ok\">ok</option><option "
                   "value=\"todo\">unstable</option><option value=\"skip\">skipped</option><option value=\"nok\">not ok, error"
                   "</option></select><span class=\"count\" id=\"pn-%d-count\"></span></div>\n"
                   "<table id=\"pn-%d\"><thead><tr><th data-sort>penalty</th><th data-sort>status</th>"
                   "<th data-sort>cycles</th><th>95%% interval</th><th data-sort>ns</th><th data-sort>domain</th>"
                   "<th>reference</th><th>occurrences from</th><th>what it is</th></tr></thead><tbody>\n",
                idx, idx, idx, idx);
    for (int i = 0; i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        const char *st = jget_str(p, "status", "?");
        double cyc = jget_num(p, "cycles", NAN);
        html_printf(f, "<tr data-kinds=\"%s\"><td><b>", status_class(p));
        html_text(f, jget_str(p, "name", "?"));
        html_printf(f, "</b></td><td data-v=\"%s\"><span class=\"badge %s\">", status_class(p), status_class(p));
        html_text(f, st);
        fputs("</span>", f);
        const char *reason = jget_str(p, "reason", NULL);
        if (reason) {
            fputs("<br><span class=\"count\">", f);
            html_text(f, reason);
            fputs("</span>", f);
        }
        html_printf(f, "</td><td class=\"num\" data-v=\"%.6g\">", isnan(cyc) ? -1e300 : cyc);
        html_num(f, cyc);
        fputs("</td><td class=\"num\">[", f);
        html_num(f, jget_num(p, "cycles_lo", NAN));
        fputs(", ", f);
        html_num(f, jget_num(p, "cycles_hi", NAN));
        fputs("]</td><td class=\"num\">", f);
        html_num(f, jget_num(p, "ns", NAN));
        fputs("</td><td>", f);
        html_text(f, jget_str(p, "domain", ""));
        fputs("</td><td>", f);
        reference(f, jget(p, "reference"));
        fputs("</td><td>", f);
        const struct jvalue *occ = jget(p, "occurrence");
        html_text(f, jget_str(occ, "quantity", ""));
        fputs(" <span class=\"count\">(", f);
        html_text(f, jget_str(occ, "source", "?"));
        fputs(")</span></td><td>", f);
        html_text(f, jget_str(p, "brief", ""));
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

enum { W = 920, LABEL = 170, RM = 110, ROW = 20 };

/* Horizontal bars on a log scale (penalties span 0.5 to 1000 cycles); a whisker for the interval.
 * Values at or below zero cannot be drawn on it and are said in words on their row. */
static void chart(FILE *f, const struct jvalue *ps, int idx)
{
    struct axis x = {.log10 = true, .px0 = LABEL, .px1 = W - RM, .lo = INFINITY, .hi = -INFINITY};
    int rows = 0;
    for (int i = 0; i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        double c = jget_num(p, "cycles", NAN), hi = jget_num(p, "cycles_hi", NAN);
        if (isnan(c))
            continue;
        rows++;
        double rhi = jget_num(jget(p, "reference"), "hi", NAN);
        if (c > 0)
            x.lo = fmin(x.lo, log10(c)), x.hi = fmax(x.hi, log10(fmax(isnan(hi) || hi < c ? c : hi, rhi > 0 ? rhi : 0)));
    }
    if (!rows) {
        section_absent(f, "No bar chart: no penalty has a figure.");
        return;
    }
    if (!(x.lo < INFINITY))
        x.lo = 0, x.hi = 1;
    x.lo = floor(x.lo), x.hi = ceil(x.hi + 1e-9);
    int h = 30 + rows * ROW + 30;
    html_printf(f, "<h3>Cycles per occurrence (log scale; bar colour is the status, a dark mark the published reference)</h3>\n<svg class=\"plot\" "
                   "id=\"bars-svg-%d\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
                   "aria-label=\"penalty bar chart\">\n<g class=\"grid\">", idx, W, h, W, h);
    svg_log_grid(f, &x, &(struct svg_grid){.from = 20, .to = h - 26, .label_at = h - 10, .label_attr = ""});
    fputs("</g>\n", f);
    static const char *const fill[] = {[LOOK_OK] = "#66bb6a", [LOOK_UNSTABLE] = "#f0a92e", [LOOK_SKIP] = "#bdbdbd",
                                       [LOOK_FAILED] = "#e57373"};
    int row = 0;
    for (int i = 0; i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        double c = jget_num(p, "cycles", NAN), lo = jget_num(p, "cycles_lo", NAN), hi = jget_num(p, "cycles_hi", NAN);
        if (isnan(c))
            continue;
        int k = status_look(p);
        double y = 24 + row++ * ROW;
        html_printf(f, "<g class=\"bar\"><text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", LABEL - 6, y + 13);
        html_text(f, jget_str(p, "name", "?"));
        fputs("</text>", f);
        if (c > 0) {
            double x0 = axis_px(&x, pow(10, x.lo)), x1 = axis_px(&x, c);
            html_printf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>", x0, y + 3,
                        fmax(x1 - x0, 1), ROW - 6, fill[k]);
            if (lo > 0 && hi > 0)
                html_printf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>",
                            axis_px(&x, lo), y + ROW / 2, axis_px(&x, hi), y + ROW / 2);
            const struct jvalue *ref = jget(p, "reference");
            double rlo = jget_num(ref, "lo", NAN), rhi = jget_num(ref, "hi", NAN), right = fmax(x1, hi > 0 ? axis_px(&x, hi) : x1);
            if (rlo > 0 && rhi >= rlo) {
                /* The published range as a dark band across the bar's row. */
                double a = axis_px(&x, rlo), b = axis_px(&x, rhi);
                html_printf(f, "<rect class=\"ref\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"#222\">"
                               "<title>reference %.4g-%.4g cycles</title></rect>", a - 1.5, y + 1, fmax(b - a, 0) + 3, ROW - 2,
                            rlo, rhi);
                right = fmax(right, b + 2);
            }
            html_printf(f, "<text x=\"%.1f\" y=\"%.1f\">%.2f</text>", right + 5, y + 13, c);
        } else
            html_printf(f, "<text x=\"%.1f\" y=\"%.1f\" style=\"fill:#b71c1c\">%.2f: not drawn on a log scale"
                           "</text>", axis_px(&x, pow(10, x.lo)) + 4, y + 13, c);
        fputs("</g>\n", f);
    }
    fputs("</svg>\n", f);
}

void sec_penalties(FILE *f, const struct runfile *r, int idx)
{
    section_begin(f, "penalties", idx, "Penalties");
    const struct jvalue *ps = jget(r->penalties, "penalties");
    if (!r->penalties || !ps || ps->type != J_ARRAY || !ps->n) {
        section_absent(f, r->penalties ? "No penalties: penalties.json lists none (a --curve run)."
                                       : "No penalties: this run has no penalties.json (pmucal calibrate writes it).");
        section_end(f);
        return;
    }
    const struct jvalue *clk = jget(r->penalties, "clock");
    html_printf(f, "<p class=\"count\">%d penalties, %.0f repetitions each, core clock %.3f GHz. Method: ", ps->n,
                jget_num(r->penalties, "repetitions", NAN), jget_num(clk, "core_ghz", NAN));
    html_text(f, jget_str(r->penalties, "method", "not recorded"));
    fputs("</p>\n", f);
    table(f, ps, idx);
    chart(f, ps, idx);
    section_end(f);
}

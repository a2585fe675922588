/* The load-latency curve (curve.csv) drawn as SVG: log2 working set against log2 cycles per
 * load, the min..max band, the measured level boundaries (penalties.json) and hwloc's sizes. */
#include "report/report.h"
#include <math.h>
#include <string.h>

enum { W = 920, H = 440, L = 64, R = 24, T = 24, B = 52 };

struct marker {
    double bytes;
    const char *level;
    bool measured;
};

static int markers(const struct runfile *r, struct marker *m, int max)
{
    int n = 0;
    const struct jvalue *levels = jget(jget(r->penalties, "curve"), "levels");
    for (int i = 0; levels && levels->type == J_ARRAY && i < levels->n && n + 2 <= max; i++) {
        const struct jvalue *lv = &levels->items[i];
        const char *name = jget_str(lv, "level", "?");
        double hw = jget_num(lv, "hwloc_bytes", 0), det = jget_num(lv, "detected_bytes", 0);
        if (hw > 0)
            m[n++] = (struct marker){hw, name, false};
        if (det > 0)
            m[n++] = (struct marker){det, name, true};
    }
    /* Without the calibrate record, hwloc's sizes still come from the manifest. */
    const struct jvalue *cs = jget(jget(r->manifest, "topology"), "caches");
    for (int i = 0; !levels && cs && cs->type == J_ARRAY && i < cs->n && n < max; i++)
        if (jget_num(&cs->items[i], "size", 0) > 0)
            m[n++] = (struct marker){jget_num(&cs->items[i], "size", 0), jget_str(&cs->items[i], "name", "?"), false};
    return n;
}

static void marker_line(FILE *f, const struct axis *x, const struct marker *mk, int nth)
{
    double px = axis_px(x, mk->bytes);
    if (px < L - 0.5 || px > W - R + 0.5)
        return;
    const char *colour = mk->measured ? "#c62828" : "#757575";
    html_printf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1.4\"%s/>\n", px, T, px,
                H - B, colour, mk->measured ? "" : " stroke-dasharray=\"5 4\"");
    /* Labels alternate height so a measured boundary next to hwloc's size stays readable. */
    double ly = mk->measured ? T + 14 + 13 * (nth % 3) : H - B - 8 - 13 * (nth % 3);
    /* Near the right edge the label goes to the left of its line, so it is never cut. */
    bool left = px > W - R - 130;
    html_printf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"%s\" style=\"fill:%s\">%s ",
                left ? px - 4 : px + 4, ly, left ? "end" : "start", colour, colour, mk->measured ? "measured" : "hwloc");
    html_text(f, mk->level);
    fputc(' ', f);
    svg_tick_label(f, mk->bytes, true);
    fputs("</text>\n", f);
}

void sec_curve(FILE *f, const struct runfile *r, int idx)
{
    section_begin(f, "curve", idx, "Latency curve");
    if (!r->has_curve || r->ncurve < 2) {
        section_absent(f, r->has_curve ? "No latency curve: curve.csv has fewer than 2 points."
                                       : "No latency curve: this run has no curve.csv (pmucal calibrate writes it).");
        section_end(f);
        return;
    }
    struct axis x = {.log2 = true, .px0 = L, .px1 = W - R}, y = {.log2 = true, .px0 = H - B, .px1 = T};
    x.lo = y.lo = INFINITY, x.hi = y.hi = -INFINITY;
    for (int i = 0; i < r->ncurve; i++) {
        const struct curve_point *p = &r->curve[i];
        x.lo = fmin(x.lo, log2(p->bytes)), x.hi = fmax(x.hi, log2(p->bytes));
        double lo = p->lo > 0 ? p->lo : p->cycles, hi = p->hi > 0 ? p->hi : p->cycles;
        if (lo > 0)
            y.lo = fmin(y.lo, log2(lo));
        if (hi > 0)
            y.hi = fmax(y.hi, log2(hi));
    }
    if (!(y.lo < INFINITY))
        y.lo = 0, y.hi = 1;
    y.lo = floor(y.lo), y.hi = ceil(y.hi + 0.01);
    html_printf(f, "<svg class=\"plot\" id=\"curve-svg-%d\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                   "role=\"img\" aria-label=\"load latency curve\">\n<g class=\"grid\">\n", idx, W, H, W, H);
    svg_log_grid(f, &x, &(struct svg_grid){.bytes = true, .from = T, .to = H - B, .label_at = H - B + 16,
                                           .step = x.hi - x.lo > 16 ? 2 : 1, .label_attr = ""});
    svg_log_grid(f, &y, &(struct svg_grid){.y_axis = true, .from = L, .to = W - R, .label_at = L - 6, .label_attr = ""});
    html_printf(f, "</g>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" class=\"axis\"/>\n"
                   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">working set (bytes, log scale)</text>\n"
                   "<text transform=\"translate(16 %d) rotate(-90)\" text-anchor=\"middle\">core cycles per load "
                   "(log scale)</text>\n", L, T, W - L - R, H - T - B, (L + W - R) / 2, H - 12, (T + H - B) / 2);
    fputs("<polygon fill=\"#c9d8f2\" stroke=\"none\" points=\"", f);
    for (int i = 0; i < r->ncurve; i++)
        html_printf(f, "%.1f,%.1f ", axis_px(&x, r->curve[i].bytes), axis_px(&y, r->curve[i].hi > 0 ? r->curve[i].hi : r->curve[i].cycles));
    for (int i = r->ncurve - 1; i >= 0; i--)
        html_printf(f, "%.1f,%.1f ", axis_px(&x, r->curve[i].bytes), axis_px(&y, r->curve[i].lo > 0 ? r->curve[i].lo : r->curve[i].cycles));
    fputs("\"/>\n<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"", f);
    for (int i = 0; i < r->ncurve; i++)
        if (r->curve[i].cycles > 0)
            html_printf(f, "%.1f,%.1f ", axis_px(&x, r->curve[i].bytes), axis_px(&y, r->curve[i].cycles));
    fputs("\"/>\n", f);
    for (int i = 0; i < r->ncurve; i++) {
        const struct curve_point *p = &r->curve[i];
        if (p->cycles <= 0)
            continue;
        html_printf(f, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f5fa8\"><title>", axis_px(&x, p->bytes),
                    axis_px(&y, p->cycles));
        svg_tick_label(f, p->bytes, true);
        html_printf(f, ": %.2f cycles (%.2f ns) per load, min %.2f, max %.2f</title></circle>\n", p->cycles, p->ns, p->lo,
                    p->hi);
    }
    struct marker mk[16];
    int nm = markers(r, mk, 16), nth_m = 0, nth_h = 0;
    for (int i = 0; i < nm; i++)
        marker_line(f, &x, &mk[i], mk[i].measured ? nth_m++ : nth_h++);
    html_printf(f, "<g transform=\"translate(%d %d)\"><rect width=\"240\" height=\"58\" fill=\"#fff\" stroke=\"#ccc\"/>"
                   "<line x1=\"8\" y1=\"12\" x2=\"30\" y2=\"12\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>"
                   "<text x=\"36\" y=\"16\">median (band: min..max)</text>"
                   "<line x1=\"8\" y1=\"29\" x2=\"30\" y2=\"29\" stroke=\"#c62828\"/><text x=\"36\" y=\"33\">measured "
                   "level boundary</text><line x1=\"8\" y1=\"46\" x2=\"30\" y2=\"46\" stroke=\"#757575\" "
                   "stroke-dasharray=\"5 4\"/><text x=\"36\" y=\"50\">hwloc's cache size</text></g>\n</svg>\n",
                L + 10, T + 50);
    if (!jget(r->penalties, "curve"))
        section_absent(f, "No measured boundaries: penalties.json has no curve record; hwloc's sizes are from the manifest.");
    section_end(f);
}

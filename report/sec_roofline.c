/* The roofline (roofline.json of 'pmucal roofline'): log-log, operational intensity (flops per byte
 * the kernel's instructions move) against GFLOP/s; each bandwidth ceiling a diagonal up to the
 * highest compute ceiling, each compute ceiling a horizontal line, every one labelled; the placed
 * cases as points. One thread's ceilings solid, the team's dashed. */
#include "base/jread.h"
#include "base/json.h"
#include "base/util.h"
#include "report/report.h"
#include <math.h>
#include <string.h>

enum { W = 920, H = 520, L = 70, R = 190, T = 24, B = 52 };

static const char *const level_colour[] = {"#1f5fa8", "#2e7d32", "#ef6c00", "#6a1b9a", "#555"};

static int level_index(const char *level)
{
    static const char *const names[] = {"L1", "L2", "L3", "DRAM"};
    for (int i = 0; i < 4; i++)
        if (!strcmp(level, names[i]))
            return i;
    return 4;
}

void roofline_svg(FILE *f, const struct jvalue *roof, int idx)
{
    const struct jvalue *comp = jget(roof, "compute"), *bw = jget(roof, "bandwidth"), *cases = jget(roof, "cases");
    double peak = 0, bwmax = 0, bwmin = INFINITY;
    for (int i = 0; comp && comp->type == J_ARRAY && i < comp->n; i++)
        peak = fmax(peak, jget_num(&comp->items[i], "gflops", 0));
    for (int i = 0; bw && bw->type == J_ARRAY && i < bw->n; i++) {
        double g = jget_num(&bw->items[i], "gbs", 0);
        if (g > 0)
            bwmax = fmax(bwmax, g), bwmin = fmin(bwmin, g);
    }
    if (!(peak > 0) || !(bwmax > 0)) {
        section_absent(f, "No roofline: roofline.json has no compute or no bandwidth ceiling.");
        return;
    }
    /* x from where the slowest bandwidth reaches a thousandth of the peak to 4x past the
     * highest ridge; y from that to twice the peak. */
    struct axis x = {.log10 = true, .px0 = L, .px1 = W - R}, y = {.log10 = true, .px0 = H - B, .px1 = T};
    y.lo = floor(log10(peak / 1000)), y.hi = ceil(log10(peak * 2));
    x.lo = floor(log10(pow(10, y.lo) / bwmax)), x.hi = ceil(log10(peak / bwmin * 4));
    for (int i = 0; cases && cases->type == J_ARRAY && i < cases->n; i++) {
        double oi = jget_num(&cases->items[i], "oi", NAN), g = jget_num(&cases->items[i], "gflops", NAN);
        if (oi > 0 && g > 0)
            x.lo = fmin(x.lo, floor(log10(oi))), x.hi = fmax(x.hi, ceil(log10(oi))), y.lo = fmin(y.lo, floor(log10(g)));
    }
    html_printf(f, "<svg class=\"plot\" id=\"roofline-svg-%d\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                   "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"roofline\" font-family=\"sans-serif\" "
                   "font-size=\"11\">\n<g class=\"grid\" stroke=\"#ddd\">\n", idx, W, H, W, H);
    static const char black[] = " stroke=\"none\" fill=\"#000\"";
    svg_log_grid(f, &x, &(struct svg_grid){.from = T, .to = H - B, .label_at = H - B + 16, .label_attr = black});
    svg_log_grid(f, &y, &(struct svg_grid){.y_axis = true, .from = L, .to = W - R, .label_at = L - 6, .label_attr = black});
    html_printf(f, "</g>\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n"
                   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">operational intensity (flops per byte loaded or "
                   "stored, log scale)</text>\n<text transform=\"translate(18 %d) rotate(-90)\" text-anchor=\"middle\">"
                   "GFLOP/s (log scale)</text>\n", L, T, W - L - R, H - T - B, (L + W - R) / 2, H - 12, (T + H - B) / 2);
    double xr = pow(10, x.hi), xl = pow(10, x.lo);
    /* Labels of ceilings close in height are pushed down until none overlaps another. */
    double used[64];
    int nused = 0;
    for (int i = 0; comp && comp->type == J_ARRAY && i < comp->n; i++) {
        const struct jvalue *c = &comp->items[i];
        double g = jget_num(c, "gflops", 0);
        if (!(g > 0))
            continue;
        int threads = (int)jget_num(c, "threads", 1);
        double py = axis_px(&y, g);
        html_printf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#b71c1c\" stroke-width=\"1.2\"%s/>\n", L,
                    py, W - R, py, threads > 1 ? " stroke-dasharray=\"6 4\"" : "");
        double ly = svg_label_below(used, nused, py + 4, 12);
        if (nused < 64)
            used[nused++] = ly;
        html_printf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"#b71c1c\">", W - R + 4, ly);
        html_text(f, jget_str(c, "isa", "?"));
        fputc(' ', f);
        html_text(f, jget_str(c, "prec", "?"));
        html_printf(f, " %dT %.1f GFLOP/s</text>\n", threads, g);
    }
    for (int i = 0; bw && bw->type == J_ARRAY && i < bw->n; i++) {
        const struct jvalue *b = &bw->items[i];
        double g = jget_num(b, "gbs", 0);
        if (!(g > 0))
            continue;
        const char *level = jget_str(b, "level", "?");
        int threads = (int)jget_num(b, "threads", 1);
        const char *colour = level_colour[level_index(level)];
        /* perf = oi x bandwidth up to the peak: the diagonal ends at its ridge. */
        double x1 = fmin(xr, peak / g), x0 = fmax(xl, pow(10, y.lo) / g);
        if (x0 >= x1)
            continue;
        html_printf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.6\"%s/>\n",
                    axis_px(&x, x0), axis_px(&y, x0 * g), axis_px(&x, x1), axis_px(&y, x1 * g), colour,
                    threads > 1 ? " stroke-dasharray=\"6 4\"" : "");
        double lx = x0 * 1.6;
        html_printf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" transform=\"rotate(-%.1f %.1f %.1f)\">", axis_px(&x, lx),
                    axis_px(&y, lx * g) - 4, colour,
                    atan2(axis_px(&y, x0 * g) - axis_px(&y, x1 * g), axis_px(&x, x1) - axis_px(&x, x0)) * 180 / M_PI,
                    axis_px(&x, lx), axis_px(&y, lx * g) - 4);
        html_text(f, level);
        html_printf(f, " %dT %.1f GB/s</text>\n", threads, g);
    }
    for (int i = 0; cases && cases->type == J_ARRAY && i < cases->n; i++) {
        const struct jvalue *c = &cases->items[i];
        double oi = jget_num(c, "oi", NAN), g = jget_num(c, "gflops", NAN);
        if (!(oi > 0 && g > 0))
            continue;
        html_printf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#000\" fill-opacity=\"0.6\"><title>",
                    axis_px(&x, oi), axis_px(&y, g));
        html_text(f, jget_str(c, "case", "?"));
        html_printf(f, ": %.3g flops/byte, %.3g GFLOP/s</title></circle>\n", oi, g);
    }
    fputs("</svg>\n", f);
}

void sec_roofline(FILE *f, const struct runfile *r, int idx)
{
    section_begin(f, "roofline", idx, "Roofline");
    roofline_svg(f, r->roofline, idx);
    html_printf(f, "<p>Solid: one thread; dashed: %g threads. Bandwidth counts the bytes the kernel's instructions "
                   "load and store (STREAM's accounting, no write-allocate traffic).</p>\n",
                jget_num(r->roofline, "threads", 0));
    section_end(f);
}

static void draw_roofline(FILE *f, const void *roof)
{
    roofline_svg(f, roof, 0);
}

int roofline_svg_write(const char *dir, const struct json *roof)
{
    char err[256];
    struct jvalue *doc = jread_parse(roof->buf, roof->len, err, sizeof(err));
    if (!doc) {
        pm_error("roofline: the JSON just made does not parse (%s)", err);
        return -1;
    }
    int rc = svg_write(dir, "roofline.svg", draw_roofline, doc);
    jread_free(doc);
    return rc;
}

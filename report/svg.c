/* Small SVG plotting helpers for the sections that draw: scales and tick labels. */
#include "report/report.h"
#include "runs/rundir.h"
#include <math.h>

double axis_px(const struct axis *a, double v)
{
    double x = a->log2 ? log2(v) : a->log10 ? log10(v) : v;
    if (a->hi == a->lo)
        return (a->px0 + a->px1) / 2;
    return a->px0 + (x - a->lo) / (a->hi - a->lo) * (a->px1 - a->px0);
}

void svg_tick_label(FILE *f, double v, bool bytes)
{
    if (!bytes) {
        fprintf(f, "%g", v);
        return;
    }
    static const char *const unit[] = {"", "K", "M", "G", "T"};
    int u = 0;
    while (v >= 1024 && u < 4)
        v /= 1024, u++;
    fprintf(f, "%.3g%s", v, unit[u]);
}

/* A label only ever moves down, to just below one it overlaps: that ends. Moving it whenever the
 * distance read under the gap looped for ever where (u + 12) - u rounds to 11.999999999999986 (a
 * 2-thread roofline's labels, seen here): the label was set to the value it already had. */
double svg_label_below(const double *used, int n, double y, double gap)
{
    for (bool moved = true; moved;) {
        moved = false;
        for (int k = 0; k < n; k++)
            if (fabs(used[k] - y) < gap && used[k] + gap > y)
                y = used[k] + gap, moved = true;
    }
    return y;
}

void svg_log_grid(FILE *f, const struct axis *a, const struct svg_grid *g)
{
    for (int e = (int)ceil(a->lo); e <= (int)floor(a->hi); e++) {
        double v = a->log2 ? exp2(e) : pow(10, e), at = axis_px(a, v);
        if (g->y_axis)
            html_printf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>", g->from, at, g->to, at);
        else
            html_printf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>", at, g->from, at, g->to);
        if (g->step <= 1 || e % g->step == 0) {
            if (g->y_axis)
                html_printf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\"%s>", g->label_at, at + 4, g->label_attr);
            else
                html_printf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\"%s>", at, g->label_at, g->label_attr);
            svg_tick_label(f, v, g->bytes);
            fputs("</text>", f);
        }
        fputc('\n', f);
    }
}

int svg_write(const char *dir, const char *name, svg_draw_fn *draw, const void *arg)
{
    struct run_out o;
    FILE *f = dir ? run_out_begin(&o, dir, name) : run_out_user(&o, name);
    if (!f)
        return -1;
    draw(f, arg);
    return dir ? run_out_commit(&o) : run_out_end(&o, 0);
}

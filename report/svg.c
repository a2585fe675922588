/* Small SVG plotting helpers for the sections that draw: scales and tick labels. */
#include "report/report.h"
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

/* The core-to-core heatmap (c2c.csv): rows the writer CPU, columns the reader, colour the median
 * transfer latency in ns; and the pairs as a sortable table with their relation. */
#include "base/util.h"
#include "report/report.h"
#include <math.h>
#include <stdlib.h>

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* Light yellow to dark red as t goes 0 to 1. */
static void colour(double t, char out[8])
{
    static const double stop[3][3] = {{255, 247, 205}, {244, 140, 60}, {165, 15, 21}};
    t = fmin(fmax(t, 0), 1);
    int s = t < 0.5 ? 0 : 1;
    double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
    int rgb[3];
    for (int i = 0; i < 3; i++)
        rgb[i] = (int)lround(stop[s][i] + (stop[s + 1][i] - stop[s][i]) * u);
    snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

static void pairs_table(FILE *f, const struct runfile *r, int idx)
{
    html_printf(f, "<table id=\"c2c-%d\"><thead><tr><th data-sort>from</th><th data-sort>to</th><th data-sort>relation"
                   "</th><th data-sort>median cycles</th><th data-sort>min</th><th data-sort>MAD</th><th data-sort>ns</th>"
                   "</tr></thead><tbody>\n", idx);
    for (int i = 0; i < r->nc2c; i++) {
        const struct c2c_pair *p = &r->c2c[i];
        html_printf(f, "<tr><td class=\"num\">%d</td><td class=\"num\">%d</td><td>", p->from, p->to);
        html_text(f, p->relation);
        html_printf(f, "</td><td class=\"num\">%.1f</td><td class=\"num\">%.1f</td><td class=\"num\">%.1f</td>"
                       "<td class=\"num\">%.1f</td></tr>\n", p->cycles, p->cycles_min, p->cycles_mad, p->ns);
    }
    fputs("</tbody></table>\n", f);
}

enum { CELL = 64, LM = 70, TM = 46 };

void sec_c2c(FILE *f, const struct runfile *r, int idx)
{
    section_begin(f, "c2c", idx, "Core-to-core transfers");
    if (!r->has_c2c || !r->nc2c) {
        section_absent(f, r->has_c2c ? "No core-to-core pairs: c2c.csv is empty."
                                     : "No core-to-core heatmap: this run has no c2c.csv (pmucal c2c writes it).");
        section_end(f);
        return;
    }
    int *cpus = xmalloc((size_t)r->nc2c * 2 * sizeof(int)), n = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < r->nc2c; i++) {
        cpus[n++] = r->c2c[i].from, cpus[n++] = r->c2c[i].to;
        lo = fmin(lo, r->c2c[i].ns), hi = fmax(hi, r->c2c[i].ns);
    }
    qsort(cpus, (size_t)n, sizeof(int), cmp_int);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || cpus[m - 1] != cpus[i])
            cpus[m++] = cpus[i];
    /* A big machine gets smaller cells with no numbers in them; the table and tooltips keep them. */
    int cell = m <= 12 ? CELL : m <= 48 ? 18 : 8;
    int w = LM + m * cell + 150, h = TM + m * cell + 40;
    html_printf(f, "<p class=\"count\">One-way latency of a cache line from the writer (row) to the reader (column), "
                   "median ns; hover a cell for cycles and the pair's relation.</p>\n<svg class=\"plot\" id=\"c2c-svg-%d\" "
                   "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"c2c heatmap\">\n"
                   "<text x=\"%d\" y=\"14\" text-anchor=\"middle\">to CPU (reader)</text>"
                   "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">from CPU (writer)</text>\n",
                idx, w, h, w, h, LM + m * cell / 2, TM + m * cell / 2);
    for (int j = 0; j < m && cell >= 18; j++)
        html_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text><text x=\"%d\" y=\"%d\" "
                       "text-anchor=\"end\">%d</text>", LM + j * cell + cell / 2, TM - 6, cpus[j], LM - 6,
                    TM + j * cell + cell / 2 + 4, cpus[j]);
    for (int j = 0; j < m; j++)
        html_printf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#eeeeee\" stroke=\"#fff\">"
                       "<title>CPU %d to itself: no transfer</title></rect>\n", LM + j * cell, TM + j * cell, cell, cell, cpus[j]);
    for (int i = 0; i < r->nc2c; i++) {
        const struct c2c_pair *p = &r->c2c[i];
        int row = (int)((int *)bsearch(&p->from, cpus, (size_t)m, sizeof(int), cmp_int) - cpus);
        int col = (int)((int *)bsearch(&p->to, cpus, (size_t)m, sizeof(int), cmp_int) - cpus);
        char c[8];
        colour(hi > lo ? (p->ns - lo) / (hi - lo) : 0.5, c);
        int x = LM + col * cell, y = TM + row * cell;
        html_printf(f, "<g class=\"c2c-cell\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                       "stroke=\"#fff\"><title>%d -&gt; %d, ", x, y, cell, cell, c, p->from, p->to);
        html_text(f, p->relation);
        html_printf(f, ": %.1f cycles, %.1f ns (min %.1f cycles, MAD %.1f)</title></rect>", p->cycles, p->ns,
                    p->cycles_min, p->cycles_mad);
        if (cell >= CELL)
            html_printf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" style=\"fill:%s\">%.0f ns</text>",
                        x + cell / 2, y + cell / 2 + 4, (hi > lo ? (p->ns - lo) / (hi - lo) : 0.5) > 0.6 ? "#fff" : "#222",
                        p->ns);
        fputs("</g>\n", f);
    }
    /* The colour scale beside the grid. */
    int lx = LM + m * cell + 24;
    html_printf(f, "<defs><linearGradient id=\"c2c-grad-%d\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">", idx);
    for (int s = 0; s <= 4; s++) {
        char c[8];
        colour(s / 4.0, c);
        html_printf(f, "<stop offset=\"%d%%\" stop-color=\"%s\"/>", s * 25, c);
    }
    html_printf(f, "</linearGradient></defs><rect x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" fill=\"url(#c2c-grad-%d)\" "
                   "stroke=\"#999\"/><text x=\"%d\" y=\"%d\">%.0f ns</text><text x=\"%d\" y=\"%d\">%.0f ns</text>\n</svg>\n",
                lx, TM, m * cell, idx, lx + 22, TM + 10, hi, lx + 22, TM + m * cell, lo);
    pairs_table(f, r, idx);
    free(cpus);
    section_end(f);
}

/* pmucal cpi --svg: the cycle stack drawn beside the cycles measured. */
#include "penalties/cycle_stack.h"
#include "report/report.h"
#include <math.h>

/* Two bars on one scale: the measured cycles, and the stack (base, components, and a positive
 * remainder hatched grey); a legend with each segment's cycles and share. */
static void draw_stack(FILE *f, const void *arg)
{
    const struct cpi_stack *s = arg;
    static const char *const colors[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                         "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    double top = fmax(s->cycles, s->explained), h = 360, y0 = 400;
    int rows = s->n + 3;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", rows * 18 + 60 > 440 ? rows * 18 + 60 : 440);
    fprintf(f, "<text x=\"20\" y=\"20\" font-size=\"14\">cycle stack: ");
    html_text(f, s->verdict);
    fprintf(f, "</text>\n");
    double bh = s->cycles / top * h;
    fprintf(f, "<rect x=\"60\" y=\"%.1f\" width=\"90\" height=\"%.1f\" fill=\"#555\"/><text x=\"60\" y=\"%.0f\">measured</text>\n",
            y0 - bh, bh, y0 + 16);
    double y = y0;
    int row = 0;
    struct { const char *name; double cycles; const char *color; } seg[CPI_MAX_COMPONENTS + 2];
    int nseg = 0;
    if (s->base > 0)
        seg[nseg++] = (typeof(seg[0])){"base", s->base, "#cccccc"};
    for (int i = 0; i < s->n; i++)
        seg[nseg++] = (typeof(seg[0])){s->c[i].name, s->c[i].cycles, colors[i % 10]};
    if (s->remainder > 0)
        seg[nseg++] = (typeof(seg[0])){"unexplained", s->remainder, "#eeeeee"};
    for (int i = 0; i < nseg; i++) {
        double sh = seg[i].cycles > 0 ? seg[i].cycles / top * h : 0;
        y -= sh;
        fprintf(f, "<rect x=\"190\" y=\"%.1f\" width=\"90\" height=\"%.1f\" fill=\"%s\" stroke=\"white\"/>\n", y, sh,
                seg[i].color);
        fprintf(f, "<rect x=\"320\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#999\"/><text x=\"338\" "
                   "y=\"%d\">", 40 + 18 * row, seg[i].color, 50 + 18 * row);
        html_text(f, seg[i].name);
        fprintf(f, ": %.0f cycles (%.1f%%)</text>\n", seg[i].cycles, 100 * seg[i].cycles / s->cycles);
        row++;
    }
    fprintf(f, "<text x=\"190\" y=\"%.0f\">stack</text>\n<text x=\"320\" y=\"%d\">measured: %.0f cycles; unexplained "
               "%.1f%%</text>\n</svg>\n", y0 + 16, 50 + 18 * row, s->cycles, 100 * s->remainder_share);
}


int cpi_stack_svg_write(const char *path, const struct cpi_stack *s)
{
    return svg_write(NULL, path, draw_stack, s);
}

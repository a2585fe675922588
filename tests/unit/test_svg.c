/* report/svg.c's gridlines of a log axis, the one helper the curve, the penalties' bars and the
 * roofline draw theirs with: every power of the base in range, each line and label where the
 * axis puts it. */
#include "report/report.h"
#include "tap.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    int line;
    struct axis axis;
    struct svg_grid grid;
    const char *want;
} rows[] = {
    {__LINE__, {.lo = 0, .hi = 2, .log10 = true, .px0 = 0, .px1 = 200}, {.from = 10, .to = 90, .label_at = 100, .label_attr = ""},
     "<line x1=\"0.0\" y1=\"10\" x2=\"0.0\" y2=\"90\"/><text x=\"0.0\" y=\"100\" text-anchor=\"middle\">1</text>\n"
     "<line x1=\"100.0\" y1=\"10\" x2=\"100.0\" y2=\"90\"/><text x=\"100.0\" y=\"100\" text-anchor=\"middle\">10</text>\n"
     "<line x1=\"200.0\" y1=\"10\" x2=\"200.0\" y2=\"90\"/><text x=\"200.0\" y=\"100\" text-anchor=\"middle\">100</text>\n"},
    /* A y axis: lines across, labels right-aligned 4 px below each line, the caller's attributes. */
    {__LINE__, {.lo = -1, .hi = 0, .log10 = true, .px0 = 100, .px1 = 0},
     {.y_axis = true, .from = 5, .to = 50, .label_at = 2, .label_attr = " fill=\"#000\""},
     "<line x1=\"5\" y1=\"100.0\" x2=\"50\" y2=\"100.0\"/><text x=\"2\" y=\"104.0\" text-anchor=\"end\" fill=\"#000\">0.1</text>\n"
     "<line x1=\"5\" y1=\"0.0\" x2=\"50\" y2=\"0.0\"/><text x=\"2\" y=\"4.0\" text-anchor=\"end\" fill=\"#000\">1</text>\n"},
    /* Bytes on a log2 axis, every other one labelled; 2^12.5 is past the last whole power. */
    {__LINE__, {.lo = 10, .hi = 12.5, .log2 = true, .px0 = 0, .px1 = 25}, {.bytes = true, .from = 0, .to = 9, .label_at = 20, .step = 2, .label_attr = ""},
     "<line x1=\"0.0\" y1=\"0\" x2=\"0.0\" y2=\"9\"/><text x=\"0.0\" y=\"20\" text-anchor=\"middle\">1K</text>\n"
     "<line x1=\"10.0\" y1=\"0\" x2=\"10.0\" y2=\"9\"/>\n"
     "<line x1=\"20.0\" y1=\"0\" x2=\"20.0\" y2=\"9\"/><text x=\"20.0\" y=\"20\" text-anchor=\"middle\">4K</text>\n"},
    /* No whole power in range: no line. */
    {__LINE__, {.lo = 0.2, .hi = 0.8, .log10 = true, .px0 = 0, .px1 = 10}, {.from = 0, .to = 9, .label_at = 20, .label_attr = ""}, ""},
};

/* svg_label_below: labels pushed down past the ones already placed, 12 px apart. */
static const struct {
    int line;
    double used[3];
    int n;
    double y, want;
} labels[] = {
    {__LINE__, {0}, 0, 50, 50},                         /* nothing placed: where it was asked */
    {__LINE__, {100, 130}, 2, 105, 112},                /* below the one it overlaps */
    {__LINE__, {100, 112, 124}, 3, 100, 136},           /* a stack: below all of it */
    {__LINE__, {100, 200}, 2, 80, 80},                  /* 20 px above: stays */
    /* (100.3 + 12) - 100.3 is 11.999999999999986: once below 100.3 it must stay there (it looped). */
    {__LINE__, {100.3}, 1, 100.3, 112.3},
    {__LINE__, {100.3, 112.3}, 2, 101, 124.3},
};

int main(void)
{
    for (unsigned i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
        CHECK_NEAR(svg_label_below(labels[i].used, labels[i].n, labels[i].y, 12), labels[i].want, 1e-9, labels[i].line,
                   "label placed");
    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        char *got = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&got, &len);
        svg_log_grid(f, &rows[i].axis, &rows[i].grid);
        fclose(f);
        bool same = !strcmp(got, rows[i].want);
        CHECK(same, rows[i].line, "the gridlines where the axis places them (%zu bytes)", len);
        if (!same) {   /* one line each, so the TAP stays TAP */
            char *want = strdup(rows[i].want);
            for (char *p = got; *p; p++)
                *p = *p == '\n' ? '|' : *p;
            for (char *p = want; *p; p++)
                *p = *p == '\n' ? '|' : *p;
            printf("# got  %s\n# want %s\n", got, want);
            free(want);
        }
        free(got);
    }
    return done_testing();
}

/* pmucal report: one self-contained HTML page (inline CSS, JS and SVG) of one or more run folders,
 * or of a comparison of two. The folders are read by runs/runfile.h (runfile_load_all); this
 * renders them. A run folder is untrusted input: every string read from it reaches the page
 * through html_text()/html_attr(), never raw. */
#ifndef PMUCAL_REPORT_H
#define PMUCAL_REPORT_H
#include "base/jread.h"
#include "runs/runfile.h"
#include "validate/run_diff.h"
#include <stdbool.h>
#include <stdio.h>

/* The matrix verdicts of a run as events x cases, in order of first appearance. */
struct grid {
    char **events, **cases;
    int nevents, ncases;
    int *at;                /* at[e * ncases + c]: index into run->cells, -1 when none */
    int (*count)[VERDICTS]; /* per event */
};
void grid_build(struct grid *g, const struct runfile *r);
void grid_free(struct grid *g);
/* The cell index of (event, case), -1 when the run has no such verdict. */
int grid_find(const struct grid *g, const char *event, const char *case_label);
/* The first cell of an event that names its rule (expression, tolerance, where); NULL when none. */
const struct vcell *grid_rule_cell(const struct grid *g, const struct runfile *r, int e);

/* ---- HTML output ---- */
/* Text content: & < > " ' escaped, control characters shown as U+FFFD. */
void html_text(FILE *f, const char *s);
/* The same, for attribute values (always double-quoted by the caller). */
#define html_attr html_text
/* printf whose %s arguments are NOT escaped: only for strings of the program's own. */
void html_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A number as the page shows it: 4 significant decimals where small, "—" for NaN. */
void html_num(FILE *f, double v);
/* A verdict's CSS class: "ok", "nok", "skip", "todo", "info" (the stylesheet's words, not TAP's). */
const char *verdict_class(enum verdict v);

void page_begin(FILE *f, const char *title);
void page_end(FILE *f);
/* <section id=ID><h2>TITLE</h2>; the id is made of the program's own words and a run index. */
void section_begin(FILE *f, const char *id, int run_index, const char *title);
void section_end(FILE *f);
/* The one line a section shows when its data is absent from a run. */
void section_absent(FILE *f, const char *what);

/* ---- sections, one file each ---- */
void sec_host(FILE *f, const struct runfile *r, int idx);
void sec_matrix(FILE *f, const struct runfile *r, int idx);
void sec_summary(FILE *f, const struct runfile *r, int idx);
void sec_curve(FILE *f, const struct runfile *r, int idx);
void sec_penalties(FILE *f, const struct runfile *r, int idx);
void sec_c2c(FILE *f, const struct runfile *r, int idx);
/* Only for a run of pmucal sample: the sample map and skid histogram of each record. */
void sec_sample(FILE *f, const struct runfile *r, int idx);
/* The roofline of roofline.json (pmucal roofline): the section, and the SVG alone (roofline.svg). */
void sec_roofline(FILE *f, const struct runfile *r, int idx);
struct jvalue;
void roofline_svg(FILE *f, const struct jvalue *roof, int idx);
/* roofline.svg in dir from the roofline.json just made (roof): 0, or -1 after a message. */
struct json;
int roofline_svg_write(const char *dir, const struct json *roof);
/* pmucal cpi --svg: the measured cycles beside the stack that explains them, into path. */
struct cpi_stack;
int cpi_stack_svg_write(const char *path, const struct cpi_stack *s);
/* pmucal c2c: the matrix of pairs (rows FROM, columns TO) and their list, on stdout; c2c.svg, a
 * heatmap gnuplot draws from the folder's c2c.csv (title: a gnuplot string's text), 0 or -1
 * after a message; whether gnuplot is installed. */
struct snoop_pair;
void c2c_print_matrix(const char *mode, const char *size, int reps, const int *cpus, int ncpu,
                      const struct snoop_pair *pairs, int npairs);
int c2c_heatmap_write(const char *dir, const int *cpus, int ncpu, const char *title);
bool c2c_have_gnuplot(void);
/* The page's first section, its conclusion: PASS or FAIL over all runs, their verdicts by kind, every
 * failing point. */
void sec_conclusion(FILE *f, const struct runfile *runs, int n);
/* A comparison as 'pmucal compare' judges it, when both runs have measurements. */
struct compare_view {
    bool judged;
    struct runfile rf[2];
    struct cmp_result c;
    bool incomplete[2];
    char why[2][256];
};
/* 0 (judged or not: runs without measurements), -1 when a measurements file is corrupt. */
int compare_prepare(struct compare_view *v, const struct runfile *a, const struct runfile *b, const struct cmp_opts *o);
void compare_view_free(struct compare_view *v);
void sec_compare(FILE *f, const struct runfile *base, const struct runfile *next, const struct compare_view *v);
/* The whole page of runs (compare: two, BASE then NEW, judged with o; NULL: compare's defaults)
 * into out; 0, or 2 after a message. A run whose manifest is not complete is refused (one message
 * naming it and why) unless allow_incomplete. */
int report_write(const char *out, const char *const *paths, int n, bool compare, const struct cmp_opts *o,
                 bool allow_incomplete);

/* ---- SVG helpers ---- */
struct axis {
    double lo, hi;          /* data range (after log when log) */
    bool log2, log10;
    double px0, px1;        /* pixel range */
};
double axis_px(const struct axis *a, double v);
/* "4K", "1M" for bytes on a log2 axis; plain numbers otherwise. */
void svg_tick_label(FILE *f, double v, bool bytes);
/* The gridlines of a log axis (log2 or log10), one at every power of its base from lo to hi,
 * labelled (every step-th; bytes: "4K", "1M"). An x axis's lines run down the plot from y = from to
 * to, labelled centred at y = label_at; a y axis's run across it from x = from to to, labelled
 * right-aligned at x = label_at. label_attr: more attributes of each label ("" for none). */
struct svg_grid {
    bool y_axis, bytes;
    int from, to, label_at, step;
    const char *label_attr;
};
void svg_log_grid(FILE *f, const struct axis *a, const struct svg_grid *g);
/* Where a label wanted at y goes: pushed down (larger y) past every label of used[] closer than
 * gap, until none is. */
double svg_label_below(const double *used, int n, double y, double gap);
/* An SVG file drawn by draw(f, arg) and written whole (runs/rundir.h's run_out): dir/name in a run
 * folder, or the path the user gave when dir is NULL (name; "-" is stdout). 0, or -1 after a
 * message naming the file. */
typedef void svg_draw_fn(FILE *f, const void *arg);
int svg_write(const char *dir, const char *name, svg_draw_fn *draw, const void *arg);

#endif

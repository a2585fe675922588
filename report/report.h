/* pmucal report: one self-contained HTML page (inline CSS, JS and SVG) of one or more run folders,
 * or of a comparison of two. A run folder is untrusted input: every string read from it reaches
 * the page through html_text()/html_attr(), never raw. */
#ifndef PMUCAL_REPORT_H
#define PMUCAL_REPORT_H
#include "base/jread.h"
#include "validate/compare.h"
#include <stdbool.h>
#include <stdio.h>

/* One TAP point of validate.tap. Matrix verdicts are "CASE :: EVENT ..."; others (calibrate's
 * closure) have no event and are listed apart. */
enum vkind { VK_OK, VK_NOT_OK, VK_SKIP, VK_TODO, VK_INFO, VK_KINDS };

struct vcell {
    enum vkind kind;
    int tap_no;             /* TAP test number; 0 for info comments */
    int line;               /* line in validate.tap */
    char *case_label, *event;   /* event NULL: not a matrix verdict */
    char *expr;             /* the rule's quantity expression; NULL when the line has none */
    char *tolerance, *where;    /* "exact" / "5%" / "bound" ...; "validate/expect/sim.txt:12" */
    double measured, expected;  /* NaN when not stated */
    char *text;             /* the whole description and reason as written */
};

struct curve_point {
    double bytes, cycles, ns, lo, hi;
};

struct c2c_pair {
    int from, to;
    char *relation;
    double cycles, cycles_min, cycles_mad, ns;
};

struct run {
    char *path;
    struct jvalue *manifest;      /* required */
    struct jvalue *classify;      /* classify.json, NULL when absent */
    struct jvalue *penalties;     /* penalties.json, NULL when absent */
    bool has_tap;                 /* validate.tap exists (it may be empty) */
    struct vcell *cells;
    int ncells;
    bool tap_truncated;           /* the last line had no newline: an interrupted run */
    struct curve_point *curve;    /* curve.csv */
    int ncurve;
    bool has_curve;
    struct c2c_pair *c2c;         /* c2c.csv */
    int nc2c;
    bool has_c2c;
    bool has_measurements;        /* measurements.ndjson with content: 'pmucal compare' can judge it */
};

/* Read a run folder. -1 with one message naming the folder or file and the fix when it is not a
 * run folder or a file in it is unreadable or corrupt. */
int run_load(struct run *r, const char *path);
void run_free(struct run *r);
/* Parse validate.tap text into r->cells; -1 with a message naming path:line on a line that is
 * not TAP. */
int tap_parse(struct run *r, const char *text, const char *path);
/* Parse a CSV of numbers (curve.csv, c2c.csv) after checking its header; -1 with path:line. */
int curve_csv_parse(struct run *r, const char *text, const char *path);
int c2c_csv_parse(struct run *r, const char *text, const char *path);

/* The matrix verdicts of a run as events x cases, in order of first appearance. */
struct grid {
    char **events, **cases;
    int nevents, ncases;
    int *at;                /* at[e * ncases + c]: index into run->cells, -1 when none */
    int (*count)[VK_KINDS]; /* per event */
};
void grid_build(struct grid *g, const struct run *r);
void grid_free(struct grid *g);
/* The cell index of (event, case), -1 when the run has no such verdict. */
int grid_find(const struct grid *g, const char *event, const char *case_label);
/* The first cell of an event that names its rule (expression, tolerance, where); NULL when none. */
const struct vcell *grid_rule_cell(const struct grid *g, const struct run *r, int e);

/* ---- HTML output ---- */
/* Text content: & < > " ' escaped, control characters shown as U+FFFD. */
void html_text(FILE *f, const char *s);
/* The same, for attribute values (always double-quoted by the caller). */
#define html_attr html_text
/* printf whose %s arguments are NOT escaped: only for strings of the program's own. */
void html_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A number as the page shows it: 4 significant decimals where small, "—" for NaN. */
void html_num(FILE *f, double v);
const char *vkind_name(enum vkind k);    /* "ok", "not ok", "skip", "todo", "info" */
const char *vkind_class(enum vkind k);   /* CSS class: "ok", "nok", "skip", "todo", "info" */

void page_begin(FILE *f, const char *title);
void page_end(FILE *f);
/* <section id=ID><h2>TITLE</h2>; the id is made of the program's own words and a run index. */
void section_begin(FILE *f, const char *id, int run_index, const char *title);
void section_end(FILE *f);
/* The one line a section shows when its data is absent from a run. */
void section_absent(FILE *f, const char *what);

/* ---- sections, one file each ---- */
void sec_host(FILE *f, const struct run *r, int idx);
void sec_matrix(FILE *f, const struct run *r, int idx);
void sec_summary(FILE *f, const struct run *r, int idx);
void sec_curve(FILE *f, const struct run *r, int idx);
void sec_penalties(FILE *f, const struct run *r, int idx);
void sec_c2c(FILE *f, const struct run *r, int idx);
/* A comparison as 'pmucal compare' judges it, when both runs have measurements. */
struct compare_view {
    bool judged;
    struct runfile rf[2];
    struct cmp_result c;
    bool incomplete[2];
    char why[2][256];
};
/* 0 (judged or not: runs without measurements), -1 when a measurements file is corrupt. */
int compare_prepare(struct compare_view *v, const struct run *a, const struct run *b, const struct cmp_opts *o);
void compare_view_free(struct compare_view *v);
void sec_compare(FILE *f, const struct run *base, const struct run *next, const struct compare_view *v);
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

#endif

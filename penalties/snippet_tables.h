/* The table of a snippet file ('pmucal code'): each snippet's latency and throughput in cycles
 * with their intervals, its counts beside its model with verdicts, the published figure beside
 * it with the deviation; written as TAP, JSON, CSV or a C header, as the penalty tables are. */
#ifndef PMUCAL_SNIPPET_TABLES_H
#define PMUCAL_SNIPPET_TABLES_H
#include "base/verdict.h"
#include "penalties/reference.h"
#include "penalties/status.h"
#include <stdio.h>

#define CODE_ROW_EVENTS 16
struct code_row {
    const char *name, *text;      /* the entry's (borrowed) */
    int line;
    const char *mode;             /* "latency", "throughput" */
    enum penalty_status status;   /* ok, unstable, withheld, not_ok, skip, error */
    char reason[600];
    double cycles, lo, hi;        /* per copy: median and the range of the repetitions; NaN without timing */
    double copies, inst;          /* per iteration: copies, and the model's instructions (NaN: not stated) */
    int nev;
    struct {
        char name[64];
        double measured, expected;
        enum verdict verdict;     /* ok, not ok, skip */
    } ev[CODE_ROW_EVENTS];
    const struct reference *ref;  /* NULL: none published for the model */
    double deviation;
};

/* The published figure for snippet `name` measured in mode on model (its own row, else the
 * calibration reference it is the same measurement as); NULL when none. */
const struct reference *snippet_reference(const char *model, const char *name, const char *mode);
extern const struct reference snippet_references[];
extern const int nsnippet_references;

enum code_format { CODE_TAP, CODE_JSON, CODE_CSV, CODE_C };
/* "tap", "json", "csv", "c"; -1 when unknown. */
int code_format_parse(const char *s);
int code_table_write(FILE *out, enum code_format f, const struct code_row *rows, int n, const char *model,
                     const char *source);
#endif

/* Cycle accounting with the calibrated penalties (a CPI stack): measured cycles = base +
 * sum over penalties of occurrences x penalty + an unexplained remainder, and whether that
 * remainder is small enough for the stack to close. The counts come from 'perf stat -x,' CSV or
 * from a run folder; the penalties from a calibration's penalties.json. */
#ifndef PMUCAL_CYCLE_STACK_H
#define PMUCAL_CYCLE_STACK_H
#include "base/jread.h"
#include <stdbool.h>

/* Named counts: events as perf or libpfm4 spell them, quantities as the models state them. */
struct counts {
    int n;
    char **name;
    double *value;
    char **why;            /* per name: why it has no value (perf's "<not supported>"), else NULL */
    int *line;             /* per name: its line in a perf stat file, 0 when from a run folder */
    char *origin;          /* "FILE" or "RUN case LABEL", for messages */
};

/* 'perf stat -x,' output (CSV: value,unit,event,...; '#' lines and blank lines skipped; :u/:k
 * modifiers dropped from names). A count that is not a finite number >= 0 is bad input; one that
 * ran less than 100% of the time (multiplexed: perf's scaled estimate) is a note. -1 with a
 * message naming FILE:LINE. */
int counts_from_perf_csv(struct counts *c, const char *path);
/* One case of a run folder's measurements.ndjson, per iteration: every event's median, the
 * cycles (TSC-derived core cycles), and the model's quantities. -1 with a message. */
int counts_from_run(struct counts *c, const char *run, const char *case_label);
/* The value of the first name in names[] that has one; NAN when none does. *used gets that name. */
double counts_get(const struct counts *c, const char *const *names, const char **used);
void counts_free(struct counts *c);

#define CPI_MAX_COMPONENTS 64

struct cpi_component {
    char name[64];         /* the penalty's name */
    char counter[128];     /* the count it is multiplied by */
    double count, penalty, cycles, share;   /* share: of the measured cycles */
};

struct cpi_stack {
    double cycles;         /* measured */
    char cycles_counter[64];
    double instructions, base_cpi, base;
    char instructions_counter[64];
    int n;
    struct cpi_component c[CPI_MAX_COMPONENTS];
    double explained, remainder, remainder_share, tolerance;
    bool closed;
    char verdict[256];
    int skipped;           /* penalties left out: not ok, or no count for them */
    char skipped_why[CPI_MAX_COMPONENTS][160];
};

/* The stack from counts and penalties.json: every ok penalty whose event (perf's name for the
 * uarch, libpfm4's for the PMU) or occurrence quantity is in the counts is a component. model (a
 * uarch's name) may be NULL (then penalties.json's uarch). -1 with a message when cycles (or, with a base CPI,
 * instructions) are not in the counts, or the cycles are not a positive number. */
int cpi_build(struct cpi_stack *s, const struct counts *c, const struct jvalue *penalties, const char *model,
              double base_cpi, double core_ghz, double tolerance);
/* base + components + remainder, the closure verdict: arithmetic only. */
void cpi_close(struct cpi_stack *s);

/* The stack on stdout, of the counts c and the penalties of pj: a table with the closure's verdict,
 * or (_json) one JSON line. */
void cpi_stack_print(const struct cpi_stack *s, const struct counts *c, const char *pj);
void cpi_stack_print_json(const struct cpi_stack *s, const struct counts *c, const char *pj);
#endif

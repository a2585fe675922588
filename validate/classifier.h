/* The classifier: what does an event count? Its per-iteration counts across a run's cases are
 * regressed on the cases' model quantities: one quantity times a non-negative coefficient, then
 * pairs (non-negative least squares), and compared with the event's rule when it has one. */
#ifndef PMUCAL_CLASSIFIER_H
#define PMUCAL_CLASSIFIER_H
#include "validate/rules.h"
#include <stdbool.h>
#include <stdio.h>

struct classify_opts {
    const struct ruleset *rules;   /* NULL: regression only, judge nothing against rules */
    bool unruled_only;             /* only events with no rule or an info rule */
    double floor;                  /* per-iteration counts at or below this are zero (default 0.01) */
    FILE *table;                   /* where the table goes (NULL: nowhere) */
};

/* Read RUN/measurements.ndjson, write RUN/classify.json and RUN/classify.txt, print the table.
 * Returns the number of suspect events (>= 0), or -1 with a message naming the input. */
int classify_run(const char *run, const struct classify_opts *o);

#endif

/* The records of a run held against each other and against its manifest, as every reader of
 * measurements.ndjson reads them (runs/runfile.h's measurements_read, --resume's walk): a record
 * that repeats an earlier one, one of a case the run never named, and a complete run whose
 * manifest counts other records than the file holds mean a damaged folder, refused as damaged. */
#ifndef PMUCAL_RECORD_CHECK_H
#define PMUCAL_RECORD_CHECK_H
#include "base/jread.h"
#include <stdbool.h>
#include <stddef.h>

struct record_check {
    const struct jvalue *manifest;  /* NULL: the records are held against each other only */
    const struct jvalue *labels;    /* the manifest's case_labels; NULL when it has none (a run before them) */
    bool once;                      /* a validate run's: one record a case and group (calibrate measures
                                       a case once a pass, each a record of its own) */
    char **key;                     /* each record's identity so far, and its line */
    int *line, n;
    int records;
};

void record_check_init(struct record_check *k, const struct jvalue *manifest);
/* The record at lineno: -1 with why when, in a validate run, it repeats an earlier record's case,
 * group and part (unless the run lists that case twice), or its case is not in the manifest's
 * case_labels. */
int record_check_line(struct record_check *k, const struct jvalue *rec, int lineno, char *why, size_t n);
/* After the last record: -1 with why when the manifest says complete and counts a number of
 * measurements (or cases done) other than the records (or cases) there are. */
int record_check_end(const struct record_check *k, char *why, size_t n);
void record_check_free(struct record_check *k);

#endif

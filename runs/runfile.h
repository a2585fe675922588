/* A stored run folder read back: its manifest and every measurement record, for compare and
 * replay (and anything else that judges runs without measuring). */
#ifndef PMUCAL_RUNFILE_H
#define PMUCAL_RUNFILE_H
#include "base/jread.h"
#include "core/measure.h"
#include "core/quantity.h"
#include <stdbool.h>

struct runfile {
    char *path;
    struct jvalue *manifest;
    const char *status;          /* manifest's status; "unknown" when it has none (an older pmucal) */
    struct jvalue **rec;         /* measurements.ndjson, one parsed record a line */
    int nrec;
};

/* The records of a measurements.ndjson, each checked to have "case" and an "events" array;
 * -1 after one message naming the file and line (records read so far are kept in *recs). */
int measurements_read(const char *ndjson, struct jvalue ***recs, int *nrec);
void measurements_free(struct jvalue **recs, int nrec);
/* -1 after one message naming the file (and line) that is missing or malformed. */
int runfile_load(struct runfile *r, const char *path);
void runfile_free(struct runfile *r);
/* Did the run finish what it was asked (status complete)? When not, why (into why). */
bool runfile_complete(const struct runfile *r, char *why, size_t n);
/* A manifest member by dotted path ("software.kernel"), as text (numbers printed %g); NULL if absent. */
const char *runfile_fact(const struct runfile *r, const char *dotted, char *buf, size_t n);
#endif

/* The classifier's status of one event: what 'pmucal classify' concluded of it (validate/classifier.c
 * writes it to classify.json "status" and classify.txt; the report reads it back). One type for the
 * writer and every reader; the run folder stores the names. */
#ifndef PMUCAL_CLASSIFY_STATUS_H
#define PMUCAL_CLASSIFY_STATUS_H
#include <stdbool.h>

enum classify_status {
    CLASSIFY_CLEAN,         /* its rule holds, or it counts 1.000 x one quantity */
    CLASSIFY_SUSPECT,       /* explained, but its rule fails or it counts where every quantity is zero */
    CLASSIFY_UNEXPLAINED,   /* no regression on one or two quantities explains it */
    CLASSIFY_SILENT,        /* it counts nothing */
};
enum { CLASSIFY_STATUSES = CLASSIFY_SILENT + 1 };

/* "clean", "suspect", "unexplained", "silent"; "?" out of range. */
const char *classify_status_name(enum classify_status s);
/* The status called name; false (and *s untouched) when name is NULL or calls none, for the reader to
 * name the bad input. */
bool classify_status_parse(const char *name, enum classify_status *s);

#endif

/* The classifier's status of one event: what 'pmucal classify' concluded of it (validate/event_fit.c
 * writes it to classify.json "status" and classify.txt; the report reads it back). One type for the
 * writer and every reader; the run folder stores the names. */
#ifndef PMUCAL_FIT_STATUS_H
#define PMUCAL_FIT_STATUS_H
#include <stdbool.h>

enum fit_status {
    FIT_CLEAN,         /* its rule holds, or it counts 1.000 x one quantity */
    FIT_SUSPECT,       /* a fit, but its rule fails or it counts where every quantity is zero */
    FIT_UNEXPLAINED,   /* no fit of one or two quantities explains it */
    FIT_SILENT,        /* it counts nothing */
};
enum { FIT_STATUSES = FIT_SILENT + 1 };

/* "clean", "suspect", "unexplained", "silent"; "?" out of range. */
const char *fit_status_name(enum fit_status s);
/* The status called name; false (and *s untouched) when name is NULL or calls none, for the reader to
 * name the bad input. */
bool fit_status_parse(const char *name, enum fit_status *s);

#endif

/* A penalty's status: what calibrate concluded of a figure (penalties.json "status") and what
 * 'pmucal code' concluded of a snippet's (code.json). One type for the writers (the fit, the checks,
 * code) and every reader (the tables, cpi, the report, --resume); the run folders store the names. */
#ifndef PMUCAL_PENALTY_STATUS_H
#define PMUCAL_PENALTY_STATUS_H
#include "base/jread.h"
#include <stdbool.h>

enum penalty_status {
    PENALTY_OK,         /* measured, checked and stable: published */
    PENALTY_UNSTABLE,   /* measured, but its passes spread wider than its spread class allows, or its
                           windows disagree: shown, not published */
    PENALTY_NOT_OK,     /* measured and failed a check (no occurrences, out of order, a bad count) */
    PENALTY_SKIP,       /* not measured here (no such cache level, kernel or model fact) */
    PENALTY_ERROR,      /* its case failed or the run was stopped */
    PENALTY_WITHHELD,   /* code only: not published: the clock that converts it is not trusted, or nothing timed it */
};
enum { PENALTY_STATUSES = PENALTY_WITHHELD + 1 };

/* "ok", "unstable", "not_ok", "skip", "error", "withheld"; "?" out of range. */
const char *penalty_status_name(enum penalty_status s);
/* The status called name; false (and *s untouched) when name is NULL or calls none, for the reader to
 * name the bad input. */
bool penalty_status_parse(const char *name, enum penalty_status *s);
/* The status a penalty of penalties.json (or a snippet of code.json) stores: false when it has
 * none, or one no status is called. */
bool penalty_status_of(const struct jvalue *p, enum penalty_status *s);

#endif

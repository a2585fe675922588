/* TAP verdict lines on stdout, copied to validate.tap as they happen. The plan comes last. */
#ifndef PMUCAL_TAP_H
#define PMUCAL_TAP_H
#include "base/verdict.h"
#include <stdbool.h>
#include <stdio.h>

struct tap {
    FILE *out, *copy;
    int n, ok, not_ok, skip, todo, info;
    bool write_failed;   /* a line did not reach out or copy (disk full, closed pipe) */
};

/* A point numbered in turn: "ok N - desc", "not ok N - desc", SKIP and TODO as "ok"/"not ok" with
 * the directive and reason. VERDICT_INFO is no point (it is not judged): the comment
 * "# info desc (reason)", counted in info but not numbered. */
void tap_point(struct tap *t, enum verdict v, const char *desc, const char *reason);
void tap_comment(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_plan(struct tap *t);
/* "Bail out! <reason>": the run stopped before its end; no plan follows. */
void tap_bail(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

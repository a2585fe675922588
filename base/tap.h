/* TAP verdict lines on stdout, copied to validate.tap as they happen. The plan comes last. */
#ifndef PMUCAL_TAP_H
#define PMUCAL_TAP_H
#include <stdbool.h>
#include <stdio.h>

struct tap {
    FILE *out, *copy;
    int n, ok, not_ok, skip, todo, info;
    bool write_failed;   /* a line did not reach out or copy (disk full, closed pipe) */
};

enum tap_kind { TAP_OK, TAP_NOT_OK, TAP_SKIP, TAP_TODO };

void tap_point(struct tap *t, enum tap_kind kind, const char *desc, const char *reason);
void tap_comment(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tap_plan(struct tap *t);
/* "Bail out! <reason>": the run stopped before its end; no plan follows. */
void tap_bail(struct tap *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif

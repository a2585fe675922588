/* Rule files checked offline, before any measurement: every rule's event encodes for the
 * PMU (libpfm4, forced with LIBPFM_FORCE_PMU), counter source or vendor table the file is named
 * after, a CPU-wide event's rule is a lower bound, and no event has two rules. */
#ifndef PMUCAL_RULE_LINT_H
#define PMUCAL_RULE_LINT_H
#include "base/tap.h"

/* One TAP point per rule of the file at path (one not ok when it does not parse or names nothing
 * known), and a comment that sums it up: 1 when a point is not ok, else 0. */
int rules_lint_file(struct tap *t, const char *path);
/* The same for every *.txt of expect_dir(), in name order: 1 when one is not ok, else 0; 2 after a
 * message when the folder cannot be opened or holds none. *files: how many were checked. */
int rules_lint_shipped(struct tap *t, int *files);
#endif

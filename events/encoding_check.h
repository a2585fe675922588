/* libpfm4's encodings of a PMU checked against a vendor event table, as 'pmucal encodings' shows
 * them: each table event matched by name, else by encoding, else as a union of unit masks, and
 * its event code, unit mask, cmask, inv, edge, any-thread and offcore MSR compared (TAP on
 * stdout); where the table is another model's, the model diff of the PMU's own table against it. */
#ifndef PMUCAL_ENCODING_CHECK_H
#define PMUCAL_ENCODING_CHECK_H
#include <stdbool.h>

/* pmu: a libpfm4 PMU (forced here); vpath: a table's file, folder or name. quiet: only the 'not
 * ok' lines and the totals. The exit status: 0 when nothing differs, 1 when something does or the
 * comparison crosses models, 2 after a message on bad input. */
int encodings_compare(const char *pmu, const char *vpath, bool quiet);
#endif

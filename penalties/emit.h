/* Emitters: penalties.json (the source of truth, read back) into the tables tools consume. */
#ifndef PMUCAL_EMIT_H
#define PMUCAL_EMIT_H
#include "jread.h"
#include <stdio.h>

enum emit_format { EMIT_JSON, EMIT_C, EMIT_PERF_METRICS, EMIT_CSV };

struct emit_opts {
    double core_ghz;          /* > 0: memory-domain cycles recomputed as ns x this clock */
    const char *prefix;       /* C macro prefix, default PMUCAL */
    const char *pmu;          /* perf metrics for this libpfm4 PMU; NULL: the host's (or forced) one */
};

/* -1 with a message when penalties.json lacks what the format needs. */
int emit(const struct jvalue *doc, enum emit_format f, const struct emit_opts *o, FILE *out);
/* "json", "c", "perf-metrics", "csv"; -1 when unknown. */
int emit_format_parse(const char *s);
/* Writes tables/penalties.h, tables/metrics.json, tables/penalties.csv under dir. */
int emit_tables(const struct jvalue *doc, const char *dir, const struct emit_opts *o);

#endif

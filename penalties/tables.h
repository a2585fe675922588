/* Penalty tables: penalties.json (the source of truth, read back) into the tables tools consume:
 * JSON, a C header, perf metric JSON (perf's event names for the model), CSV. */
#ifndef PMUCAL_PENALTY_TABLES_H
#define PMUCAL_PENALTY_TABLES_H
#include "base/jread.h"
#include <stdbool.h>
#include <stdio.h>

enum table_format { TABLE_JSON, TABLE_C, TABLE_PERF_METRICS, TABLE_CSV };

struct table_opts {
    double core_ghz;          /* > 0: memory-domain cycles recomputed as ns x this clock */
    const char *prefix;       /* C macro prefix, default PMUCAL */
    const char *uarch;        /* perf metrics for this uarch (host/uarch.h); NULL: the libpfm4 PMU's, else the host's */
    const char *source;       /* the penalties.json read, named in the C header; NULL: not named */
    const struct jvalue *fallback;   /* C header: an earlier calibration of the same uarch whose ok
                                      * figures stand in for this one's withheld ones; NULL: none */
    const char *fallback_source;     /* its penalties.json, named beside each figure taken from it */
};

/* -1 with a message when penalties.json lacks what the format needs. The C header defines
 * PREFIX_HAVE_NAME 1 or 0 for every recipe pmucal knows (and every penalty the file names), so a
 * consumer's #if compiles against any calibration; PREFIX_NAME_CYCLES only where HAVE is 1. */
int tables_write(const struct jvalue *doc, enum table_format f, const struct table_opts *o, FILE *out);
/* Every penalty named once, in lower-case letters, digits and '_' (C macros and perf metric names
 * come from the names), and every ok one's figures finite, positive and one value in ns and
 * cycles at the run's clock. -1 after one message naming path and the penalty. */
int penalties_check(const struct jvalue *doc, const char *path);
/* NULL when fallback may fill doc's withheld figures: a calibration of the same uarch (uarch
 * and the CPUID family and model of host.cpu); else why not. */
const char *penalties_fallback_problem(const struct jvalue *doc, const struct jvalue *fallback, char *buf, size_t n);
/* NULL when prefix can start C macros (an upper-case letter, then upper-case letters, digits and
 * '_'), else why not. */
const char *table_prefix_problem(const char *prefix);
/* Text inside a C comment (no sequence in it ends or opens one), and one quoted CSV field. */
void c_comment_text(FILE *out, const char *s);
void csv_text(FILE *out, const char *s);
/* "json", "c", "perf-metrics", "csv"; -1 when unknown. */
int table_format_parse(const char *s);
/* Writes tables/penalties.h, tables/metrics.json, tables/penalties.csv under dir after
 * penalties_check; none (a note) when there are no penalties. */
int tables_write_dir(const struct jvalue *doc, const char *dir, const struct table_opts *o);

/* A calibration's penalties.json (runs/runfile.h: penalties_json_read), checked: refused (NULL
 * after one message) also when the file has no penalties or fails penalties_check. *path gets the
 * file's path (free it) or NULL. */
struct jvalue *penalties_load(const char *run, bool allow_incomplete, char **path);

#endif

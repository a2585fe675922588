/* The roofline's ceilings (roofline.json of 'pmucal roofline') as tables tools consume: a C header
 * and CSV, peak GFLOP/s per width, precision and thread count, GB/s per level and thread count. */
#ifndef PMUCAL_CEILINGS_H
#define PMUCAL_CEILINGS_H
#include "base/jread.h"
#include "penalties/tables.h"
#include <stdio.h>

/* f: TABLE_C (PREFIX_PEAK_GFLOPS_<WIDTH>_<PREC>_T<N>, PREFIX_BW_GBS_<LEVEL>_T<N>), TABLE_CSV
 * (kind,name,precision,threads,value,unit) or TABLE_JSON (the ceilings as they are). -1 with a
 * message naming source for a format it has no table in (perf-metrics) or a ceiling whose fields
 * are not what pmucal writes. A ceiling that was skipped (null) is a comment in C, an empty value in CSV. */
int ceilings_write(const struct jvalue *roof, enum table_format f, const char *prefix, const char *source, FILE *out);
/* The roofline.json of a roofline folder, or the file itself: NULL after one message naming it
 * and the option that gave it (opt, e.g. "--roofline"); *file (when file is not NULL; the caller
 * frees it) is the file's path for later messages. */
struct jvalue *ceilings_load(const char *run, const char *opt, char **file);

/* One ceiling of roofline.json as 'pmucal roofline' writes it; the strings point into the document. */
struct ceiling_row {
    bool compute;                  /* a peak GFLOP/s, else a bandwidth GB/s */
    const char *name, *prec;       /* isa or level; precision, "" for bandwidth */
    const char *op, *withheld;     /* op or variant ("" when absent); why the case ran without a value, or NULL */
    double threads, value, ghz, set_bytes;   /* value, ghz, set_bytes NAN where null or absent */
};
/* Every ceiling of roof, compute first, into *rows (the caller frees it): their count, or -1 after
 * one message naming file, the ceiling and the member that is not what pmucal writes (numbers
 * checked by jget_in: finite, within what a machine reaches). */
int ceilings_rows(const struct jvalue *roof, const char *file, struct ceiling_row **rows);
#endif

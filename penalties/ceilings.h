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
 * and the option that gave it (opt, e.g. "--roofline"). */
struct jvalue *ceilings_load(const char *run, const char *opt);
#endif

/* The JSON reader (base/jread.c), and what is read written again by emit in every format but
 * perf-metrics (which asks libpfm4 about each event): a document jread accepts must never make
 * the writer abort. */
#include "base/jread.h"
#include "fuzz.h"
#include "penalties/tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    struct jvalue *v = jread_parse((const char *)data, size, err, sizeof(err));
    if (!v)
        return 0;
    FILE *null = fopen("/dev/null", "w");
    const enum table_format formats[] = {TABLE_JSON, TABLE_C, TABLE_CSV};
    for (size_t i = 0; null && i < sizeof(formats) / sizeof(formats[0]); i++) {
        struct table_opts o = {.prefix = "FUZZ", .core_ghz = i == 0 ? 2.0 : 0};
        (void)tables_write(v, formats[i], &o, null);
    }
    if (null)
        fclose(null);
    jread_free(v);
    return 0;
}

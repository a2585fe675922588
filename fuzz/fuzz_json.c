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
    const enum emit_format formats[] = {EMIT_JSON, EMIT_C, EMIT_CSV};
    for (size_t i = 0; null && i < sizeof(formats) / sizeof(formats[0]); i++) {
        struct emit_opts o = {.prefix = "FUZZ", .core_ghz = i == 0 ? 2.0 : 0};
        (void)emit(v, formats[i], &o, null);
    }
    if (null)
        fclose(null);
    jread_free(v);
    return 0;
}

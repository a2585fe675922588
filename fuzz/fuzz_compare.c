/* Run folders as 'pmucal compare BASE NEW' reads them: the input's folder (manifest.json,
 * measurements.ndjson, after a first byte) compared with itself, as TAP or (the byte odd) as the
 * JSON the report renders: one command a run, so that runs stay fast. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "measurements.ndjson"};
    if (!size)
        return 0;
    const char *dir = fuzz_run_folder(data + 1, size - 1, files, 2);
    char *argv[] = {"compare", data[0] & 1 ? "--json" : "--", (char *)dir, (char *)dir, NULL};
    fuzz_command("compare", 4, argv);
    return 0;
}

/* Run folders as 'pmucal compare BASE NEW' reads them: the input's folder (manifest.json,
 * measurements.ndjson) compared with itself, as TAP and as the JSON the report renders. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "measurements.ndjson"};
    const char *dir = fuzz_run_folder(data, size, files, 2);
    char *argv[] = {"compare", (char *)dir, (char *)dir, NULL};
    fuzz_command("compare", 3, argv);
    char *json[] = {"compare", "--json", (char *)dir, (char *)dir, NULL};
    fuzz_command("compare", 4, json);
    return 0;
}

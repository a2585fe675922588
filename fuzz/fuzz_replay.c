/* Run folders as 'pmucal replay RUN' reads them: manifest.json, measurements.ndjson and
 * validate.tap (the input's parts at NUL bytes), judged again with today's expectation files. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "measurements.ndjson", "validate.tap"};
    const char *dir = fuzz_run_folder(data, size, files, 3);
    char *argv[] = {"replay", (char *)dir, NULL};
    fuzz_command("replay", 2, argv);
    return 0;
}

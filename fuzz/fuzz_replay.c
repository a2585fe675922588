/* Run folders as 'pmucal replay RUN' reads them: manifest.json, measurements.ndjson,
 * validate.tap and penalties.json (the input's parts at NUL bytes), judged again with today's
 * rule files, or, for a calibration, its penalties fitted and checked again. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "measurements.ndjson", "validate.tap", "penalties.json"};
    const char *dir = fuzz_run_folder(data, size, files, 4);
    char *argv[] = {"replay", (char *)dir, NULL};
    fuzz_command("replay", 2, argv);
    return 0;
}

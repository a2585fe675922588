/* Run folders as 'pmucal classify RUN' reads them: manifest.json and measurements.ndjson (the
 * input's parts at NUL bytes), through the command itself. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "measurements.ndjson"};
    const char *dir = fuzz_run_folder(data, size, files, 2);
    char *argv[] = {"classify", (char *)dir, NULL};
    fuzz_command("classify", 2, argv);
    return 0;
}

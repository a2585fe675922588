/* Run folders as 'pmucal cpi --case LABEL --penalties RUN RUN' reads them: one calibration's
 * manifest.json, penalties.json and measurements.ndjson (the input's parts at NUL bytes), the
 * counts of its case 'walker size=L2' stacked with its own penalties. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "penalties.json", "measurements.ndjson"};
    const char *dir = fuzz_run_folder(data, size, files, 3);
    char *argv[] = {"cpi", "--allow-incomplete", "--case", "walker size=L2", "--penalties", (char *)dir, "--json",
                    (char *)dir, NULL};
    fuzz_command("cpi", 8, argv);
    return 0;
}

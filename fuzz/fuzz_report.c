/* Run folders as 'pmucal report RUN' reads them: every file a run may hold (the input's parts at
 * NUL bytes), rendered to RUN/report.html. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "validate.tap", "penalties.json", "curve.csv",
                                        "c2c.csv", "classify.json", "measurements.ndjson"};
    const char *dir = fuzz_run_folder(data, size, files, 7);
    char *argv[] = {"report", "--allow-incomplete", (char *)dir, NULL};
    fuzz_command("report", 3, argv);
    return 0;
}

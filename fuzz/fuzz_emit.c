/* Calibration folders as 'pmucal emit RUN' reads them: manifest.json and penalties.json (the
 * input's parts at NUL bytes), written in the format the input's first byte picks. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "penalties.json"};
    static char *const formats[] = {"json", "c", "perf-metrics", "csv"};
    if (!size)
        return 0;
    const char *dir = fuzz_run_folder(data + 1, size - 1, files, 2);
    char out[300];
    snprintf(out, sizeof(out), "%s/emitted", dir);
    char *argv[] = {"emit", "--allow-incomplete", "-f", formats[data[0] % 4], "-o", out, (char *)dir, NULL};
    fuzz_command("emit", 7, argv);
    return 0;
}

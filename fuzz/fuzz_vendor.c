/* Vendor event tables: Intel perfmon JSON and Linux perf pmu-events JSON (events/vendor.c),
 * read from a file as --vendor-json does. */
#include "events/vendor.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_dir();
    fuzz_write(dir, "events.json", data, size);
    char path[256];
    snprintf(path, sizeof(path), "%s/events.json", dir);
    struct vendor_table t = {0};
    (void)vendor_load(&t, path);
    vendor_free(&t);
    return 0;
}

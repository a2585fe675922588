/* Vendor event tables: Intel perfmon JSON and Linux perf pmu-events JSON (events/vendor.c,
 * docs/grammar.md), read from a file as --vendor-json does. Oracles beyond no crash: a refusal
 * names the file, and a JSON error's line is a line of the input; every event accepted has a name
 * with no control character, fields within their ranges. Dictionary: fuzz/vendor.dict. */
#include "events/vendor.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_dir();
    fuzz_write(dir, "events.json", data, size);
    char path[256];
    snprintf(path, sizeof(path), "%s/events.json", dir);
    struct vendor_table t = {0};
    fuzz_capture();
    int rc = vendor_load(&t, path);
    char *said = fuzz_captured();
    if (rc) {
        const char *at = said ? strstr(said, path) : NULL;
        if (!at)
            fuzz_oracle_failed("a refused table's message does not name the file", said);
        const char *line = !strncmp(at + strlen(path), ": line ", 7) ? at + strlen(path) : NULL;
        if (line) {
            int lines = 1;
            for (size_t i = 0; i < size; i++)
                lines += data[i] == '\n';
            long l = strtol(line + 7, NULL, 10);
            if (l < 1 || l > lines)
                fuzz_oracle_failed("a JSON error names no line of the table", said);
        }
    }
    for (int i = 0; !rc && i < t.n; i++) {
        const struct vendor_event *e = &t.ev[i];
        for (const char *p = e->name; *p; p++)
            if ((unsigned char)*p < 0x20)
                fuzz_oracle_failed("an accepted event name holds a control character", e->name);
        if (!e->name[0] || e->umask > 0xff || e->cmask > 0xff || e->fixed > 15)
            fuzz_oracle_failed("an accepted event outside the grammar's ranges", e->name);
    }
    free(said);
    vendor_free(&t);
    return 0;
}

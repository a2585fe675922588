/* Run folders as --resume reads them before it measures (runs/resume.c): the manifest's earlier
 * resumptions checked and carried over, the records kept and rewritten, cases.done read against
 * a case list. The host, build and process checks of resume_open are left out: no input could
 * pass them, and they read no file. */
#include "core/kernel.h"
#include "fuzz.h"
#include "runs/resume.h"
#include "runs/runfile.h"

static bool keep_odd_lines(const struct jvalue *rec, void *ctx)
{
    (void)rec;
    return ++*(int *)ctx % 2;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const files[] = {"manifest.json", "measurements.ndjson", "cases.done"};
    if (!size)
        return 0;
    const char *dir = fuzz_run_folder(data, size, files, 3);
    char err[512];
    struct resume r = {.run = xstrdup(dir)};
    r.manifest = manifest_read(dir, err, sizeof(err));
    if (r.manifest && r.manifest->type == J_OBJECT && !resume_checks(&r, "validate", err, sizeof(err))) {
        int n = 0;
        struct json j;
        json_init(&j);
        json_object_begin(&j, NULL);
        if (data[0] & 1) {
            static struct case_ a = {.label = "walker size=16k"}, b = {.label = "walker size=32k"};
            struct case_ *const cases[] = {&a, &b};
            (void)resume_cases(&r, cases, 2);
        } else {
            (void)resume_records(&r, record_line_next, keep_odd_lines, &n);
        }
        resume_manifest(&r, &j);
        json_object_end(&j);
        json_free(&j);
    }
    resume_free(&r);
    return 0;
}

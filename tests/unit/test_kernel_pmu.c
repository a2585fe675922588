/* The kernel's description of its PMU (host/kpmu.h) and its comparison (validate/run_diff.h
 * compare_kernel): Debian's flavour from a release, and which description changes are regressions. */
#include "base/jread.h"
#include "host/kpmu.h"
#include "tap.h"
#include "validate/run_diff.h"
#include <string.h>

static const struct {
    int line;
    const char *release, *flavour;
} flavours[] = {
    {__LINE__, "6.1.0-47-arm64", "arm64"},
    {__LINE__, "6.1.0-47-rt-arm64", "rt-arm64"},
    {__LINE__, "6.1.0-47-cloud-arm64", "cloud-arm64"},
    {__LINE__, "6.12.117+deb12-arm64", "arm64"},
    {__LINE__, "6.12.117+deb12-cloud-arm64", "cloud-arm64"},
    {__LINE__, "6.18.44-fc-v669", "fc-v669"},
    {__LINE__, "6.8.0", ""},
    {__LINE__, "6.8.0-1-2", ""},
};

#define K61 "\"pmu\": {\"name\": \"armv8_pmuv3\", \"type\": \"8\", \"cpus\": \"0\", \"counters\": 7, " \
            "\"events\": {\"inst_retired\": \"event=0x0008\", \"cpu_cycles\": \"event=0x0011\"}, " \
            "\"format\": {\"event\": \"config:0-15\", \"long\": \"config1:0\"}, \"caps\": {\"slots\": \"0x00000000\"}}"

/* BASE is always 6.1's description as the emulated N1 gave it; NEW varies. */
static const struct {
    int line;
    const char *new_kernel;      /* the "linux_kernel" object of NEW's manifest, "" for none */
    int changes, regressions;
    const char *first;           /* what, name, change of the first change; "" for none */
} rows[] = {
    {__LINE__, "{\"perf_user_access\": 0, " K61 "}", 0, 0, ""},
    /* the driver gone (QEMU's pmu=off): everything in its folder removed */
    {__LINE__, "{\"pmu\": {\"name\": null}}", 8, 8, "driver core PMU removed"},
    /* 6.12: type renumbered (said only), format bits added (said only) */
    {__LINE__, "{\"perf_user_access\": 0, \"pmu\": {\"name\": \"armv8_pmuv3\", \"type\": \"10\", \"cpus\": \"0\", \"counters\": 7, "
               "\"events\": {\"inst_retired\": \"event=0x0008\", \"cpu_cycles\": \"event=0x0011\"}, "
               "\"format\": {\"event\": \"config:0-15\", \"long\": \"config1:0\", \"threshold\": \"config1:5-16\"}, "
               "\"caps\": {\"slots\": \"0x00000000\"}}}", 2, 0, "type perf type changed"},
    /* an event's encoding moved, a counter fewer */
    {__LINE__, "{\"perf_user_access\": 0, \"pmu\": {\"name\": \"armv8_pmuv3\", \"type\": \"8\", \"cpus\": \"0\", \"counters\": 6, "
               "\"events\": {\"inst_retired\": \"event=0x0018\", \"cpu_cycles\": \"event=0x0011\"}, "
               "\"format\": {\"event\": \"config:0-15\", \"long\": \"config1:0\"}, \"caps\": {\"slots\": \"0x00000000\"}}}",
     2, 2, "counters counters changed"},
    /* more counters: said, not a regression */
    {__LINE__, "{\"perf_user_access\": 0, \"pmu\": {\"name\": \"armv8_pmuv3\", \"type\": \"8\", \"cpus\": \"0\", \"counters\": 8, "
               "\"events\": {\"inst_retired\": \"event=0x0008\", \"cpu_cycles\": \"event=0x0011\"}, "
               "\"format\": {\"event\": \"config:0-15\", \"long\": \"config1:0\"}, \"caps\": {\"slots\": \"0x00000000\"}}}",
     1, 0, "counters counters changed"},
    /* a hand-made folder: a name with a newline cannot break the TAP line; non-objects are no folder */
    {__LINE__, "{\"perf_user_access\": 0, \"pmu\": {\"name\": \"armv8_pmuv3\", \"type\": \"8\", \"cpus\": \"0\", \"counters\": 7, "
               "\"events\": {\"inst_retired\": \"event=0x0008\", \"cpu_cycles\": \"event=0x0011\", \"a\\nb\": [1]}, "
               "\"format\": 3, \"caps\": {\"slots\": \"0x00000000\"}}}", 3, 2, "events a?b added"},
    /* an older pmucal's run: nothing compared */
    {__LINE__, "", 0, 0, ""},
};

int main(void)
{
    for (size_t i = 0; i < sizeof(flavours) / sizeof(flavours[0]); i++) {
        char got[64];
        kernel_flavour(flavours[i].release, got, sizeof(got));
        CHECK(!strcmp(got, flavours[i].flavour), flavours[i].line, "flavour of %s: '%s' (want '%s')", flavours[i].release,
              got, flavours[i].flavour);
    }
    const char *base_text = "{\"linux_kernel\": {\"perf_user_access\": 0, " K61 "}}";
    char err[256];
    struct jvalue *base = jread_parse(base_text, strlen(base_text), err, sizeof(err));
    CHECK(base != NULL, __LINE__, "BASE parses: %s", base ? "yes" : err);
    for (size_t i = 0; base && i < sizeof(rows) / sizeof(rows[0]); i++) {
        char text[2048];
        snprintf(text, sizeof(text), *rows[i].new_kernel ? "{\"linux_kernel\": %s}" : "{}", rows[i].new_kernel);
        struct jvalue *nw = jread_parse(text, strlen(text), err, sizeof(err));
        if (!nw) {
            CHECK(0, rows[i].line, "NEW does not parse: %s", err);
            continue;
        }
        struct cmp_kernel k;
        compare_kernel(base, nw, &k);
        char first[256] = "";
        if (k.n)
            snprintf(first, sizeof(first), "%s %s %s", k.ch[0].what, k.ch[0].name, k.ch[0].change);
        CHECK(k.n == rows[i].changes && k.regressions == rows[i].regressions && !strcmp(first, rows[i].first), rows[i].line,
              "%d changes, %d regressions, first '%s' (want %d, %d, '%s')", k.n, k.regressions, first, rows[i].changes,
              rows[i].regressions, rows[i].first);
        compare_kernel_free(&k);
        jread_free(nw);
    }
    jread_free(base);
    return done_testing();
}

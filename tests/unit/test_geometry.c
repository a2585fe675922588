/* Plausibility checks of hwloc's cache levels, one row a host: each names the findings it must
 * give (and no others); CPUID from a hwloc-gather-cpuid dump of the Zen 5 VM fixture. */
#include "arch/isa.h"
#include "host/geometry.h"
#include "tap.h"
#include <stdlib.h>
#include <string.h>

#define K 1024ull
#define M (1024 * K)

struct row {
    int line;
    const char *what;
    struct cache_level lv[4];   /* [1..3]: size, linesize, ways, sharing PUs */
    int cores, pus;
    int cpuid;                  /* 0 none, 1 the Zen 5 VM dump, 2 an Intel leaf 4 with another L2 */
    const char *want;           /* "L3 zero-ways, L3 beyond-silicon": every finding, in order */
};

#define LV(sz, ways, share) {0, sz, 64, ways, share}

static const struct row rows[] = {
    {__LINE__, "Zen 5 VM: 508M L3, 0-way, one per core, CPUID 0x8000001D empty",
     {{0}, LV(48 * K, 12, 1), LV(1 * M, 8, 1), LV(508 * M, 0, 1)}, 2, 2, 1,
     "L3 zero-ways, L3 beyond-silicon, L3 cpuid-incomplete"},
    {__LINE__, "Zen 5 VM without its CPUID", {{0}, LV(48 * K, 12, 1), LV(1 * M, 8, 1), LV(508 * M, 0, 1)}, 2, 2, 0,
     "L3 zero-ways, L3 beyond-silicon"},
    {__LINE__, "Zen 4, 8 cores with SMT: 32K, 1M, 32M shared by 16 PUs",
     {{0}, LV(32 * K, 8, 2), LV(1 * M, 8, 2), LV(32 * M, 16, 16)}, 8, 16, 0, ""},
    {__LINE__, "two-socket Intel server: 48K, 2M, 105M shared by 112 PUs",
     {{0}, LV(48 * K, 12, 2), LV(2 * M, 16, 2), LV(105 * M, 15, 112)}, 112, 224, 0, ""},
    {__LINE__, "a host without L3: 32K, 2M", {{0}, LV(32 * K, 8, 1), LV(2 * M, 16, 4), {0}}, 4, 4, 0, ""},
    {__LINE__, "a VM given one core of a 96M V-Cache CCD", {{0}, LV(32 * K, 8, 1), LV(1 * M, 8, 1), LV(96 * M, 16, 1)},
     1, 1, 0, ""},
    {__LINE__, "an L3 but no L2", {{0}, LV(32 * K, 8, 1), {0}, LV(8 * M, 16, 4)}, 4, 4, 0, "L2 missing"},
    {__LINE__, "no caches at all (valgrind's view)", {{0}, {0}, {0}, {0}}, 1, 1, 0, "L1 missing, L2 missing"},
    {__LINE__, "an L2 smaller than the L1", {{0}, LV(64 * K, 8, 1), LV(32 * K, 8, 1), {0}}, 1, 1, 0, "L2 not-larger"},
    {__LINE__, "a 1M L1", {{0}, LV(1 * M, 8, 1), LV(2 * M, 8, 1), {0}}, 1, 1, 0, "L1 beyond-silicon"},
    {__LINE__, "Intel: leaf 4 says 1.25M, hwloc 1M", {{0}, LV(48 * K, 12, 2), LV(1 * M, 10, 2), LV(30 * M, 12, 24)},
     12, 24, 2, "L2 cpuid-disagrees"},
};

int main(void)
{
    struct cpu_caches zen5, intel;
    char why[300];
    setenv("HWLOC_CPUID_PATH", "tests/hosts/zen5-vm/cpuid", 1);   /* the repository's copy */
    int rc = cpu_caches_read(&zen5, why, (int)sizeof(why));
    unsetenv("HWLOC_CPUID_PATH");
    CHECK(rc == 0 && !strcmp(zen5.vendor, "AuthenticAMD") && !zen5.described[1] && !zen5.described[2] &&
              !zen5.described[3] && zen5.said[2] == 1 * M && zen5.said[3] == 508 * M &&
              !strcmp(zen5.said_by[3], "CPUID leaf 0x80000006") && zen5.incomplete[3] && !zen5.incomplete[2],
          __LINE__, "the Zen 5 VM's CPUID dump: AMD, 0x8000001D empty, 0x80000006 says L2 %llu and L3 %llu (%s)",
          (unsigned long long)zen5.said[2], (unsigned long long)zen5.said[3], rc ? why : "read");
    memset(&intel, 0, sizeof(intel));
    strcpy(intel.vendor, "GenuineIntel");
    intel.said[1] = intel.described[1] = 48 * K, intel.said[2] = intel.described[2] = 1280 * K;
    intel.said[3] = intel.described[3] = 30 * M;
    intel.said_by[1] = intel.said_by[2] = intel.said_by[3] = "CPUID leaf 4";
    /* A dump that cannot be read ends the process (exit 2 naming it): tests/25-host-settings.t. */

    for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct row *r = &rows[i];
        struct cache_level lv[4];
        memcpy(lv, r->lv, sizeof(lv));
        for (int l = 1; l <= 3; l++)
            lv[l].level = lv[l].size ? l : 0;
        struct geometry_finding f[GEOMETRY_MAX_FINDINGS];
        int n = geometry_check(lv, r->cores, r->pus, r->cpuid == 1 ? &zen5 : r->cpuid == 2 ? &intel : NULL, f,
                               GEOMETRY_MAX_FINDINGS);
        char got[400] = "";
        for (int k = 0; k < n; k++)
            snprintf(got + strlen(got), sizeof(got) - strlen(got), "%sL%d %s", k ? ", " : "", f[k].level, f[k].reason);
        CHECK(!strcmp(got, r->want), r->line, "%s: findings '%s' (want '%s')", r->what, got, r->want);
        for (int k = 0; k < n; k++)
            CHECK(strlen(f[k].detail) > 10, r->line, "%s: L%d %s says why: %s", r->what, f[k].level, f[k].reason,
                  f[k].detail);
    }
    return done_testing();
}

/* events/pfm.h in a build without libpfm4 (PFM=0; every riscv64 build: Debian has no riscv64
 * libpfm4, and libpfm4 knows no RISC-V PMU). No libpfm4 name is known: each lookup answers "not
 * found" and says why, so events come from the perf syntax (cpu/event=0x../, rNNNN, the generic
 * names) and the vendor tables, as on a CPU libpfm4 does not know. */
#include "events/pfm.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WITHOUT "pmucal is built without libpfm4 (PFM=0)"

bool pfm_ready(void)
{
    return false;
}

bool pfm_core_pmu(struct pfm_core *out)
{
    memset(out, 0, sizeof(*out));
    return false;
}

/* The variables libpfm4 would read: set, they would be ignored here, so they are refused. */
int pfm_env_check(void)
{
    static const char *const vars[] = {"LIBPFM_FORCE_PMU", "LIBPFM_DISABLED_PMUS"};
    for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            pm_error("%s=%.64s: " WITHOUT ", which reads it; unset %s, or build pmucal with libpfm4 (make PFM=1)",
                     vars[i], v, vars[i]);
            return -1;
        }
    }
    return 0;
}

const char *pfm_no_pmu_why(const char *name)
{
    (void)name;
    return WITHOUT ": it knows no libpfm4 PMU; events go by perf's syntax (cpu/event=0x..,umask=0x../, rNNNN, "
           "cycles) and the vendor tables ('pmucal events' lists them)";
}

bool pfm_pmu_by_name(const char *name, struct pfm_core *out)
{
    (void)name;
    memset(out, 0, sizeof(*out));
    return false;
}

int pfm_encode(const char *name, struct event_spec *spec, char *err, size_t errlen)
{
    (void)spec;
    snprintf(err, errlen, "unknown event '%s': " WITHOUT ", so no libpfm4 name is known; use a vendor table's name "
             "('pmucal events' lists them) or perf's cpu/event=0x..,umask=0x../, rNNNN or a generic name", name);
    return -1;
}

bool pfm_force(const char *pmu)
{
    pm_error("--pmu %s: %s", pmu, pfm_no_pmu_why(pmu));
    return false;
}

int pfm_each_event(const struct pfm_core *core, pfm_event_fn fn, void *arg)
{
    (void)core, (void)fn, (void)arg;
    return 0;
}

void pfm_version(char *release, char *api)
{
    snprintf(release, 32, "none (PFM=0)");
    snprintf(api, 16, "none");
}

/* libpfm4: initialization, the host (or forced) core PMU, and event encoding for perf. */
#ifndef PMUCAL_PFM_H
#define PMUCAL_PFM_H
#include "core/source.h"
#include <stdbool.h>
#include <stddef.h>

/* pfm_initialize once; false with a message when libpfm4 cannot start. */
bool pfm_ready(void);
/* The core PMU libpfm4 detected (or LIBPFM_FORCE_PMU chose): name like "amd64_fam19h_zen4",
 * its description and counter counts. NULL name when there is none. */
struct pfm_core {
    const char *name, *desc;
    int pmu;   /* pfm_pmu_t */
    int counters, fixed_counters, events;
};
bool pfm_core_pmu(struct pfm_core *out);
/* Look a PMU up by libpfm4 name, present or not (for --pmu). */
/* The longest PMU name LIBPFM_FORCE_PMU may hold (libpfm4's are under 32). */
#define PFM_ENV_MAX_NAME 64
/* LIBPFM_DISABLED_PMUS, when set, is a list of names (no spaces: libpfm4 would match them
 * against nothing); LIBPFM_FORCE_PMU, when set, names one PMU libpfm4 knows (docs/grammar.md, environment): -1
 * after one message otherwise, so a bogus value is never ignored in silence. */
int pfm_env_check(void);
/* Why libpfm4 has no PMU of that name: LIBPFM_DISABLED_PMUS's item that leaves it out, named, or
 * that libpfm4 does not know it (with examples). */
const char *pfm_no_pmu_why(const char *name);
bool pfm_pmu_by_name(const char *name, struct pfm_core *out);
/* Encode name for perf_event_open with user-level counting. 0, or -1 with err. */
int pfm_encode(const char *name, struct event_spec *spec, char *err, size_t errlen);
/* Make libpfm4 treat pmu as the host's core PMU (LIBPFM_FORCE_PMU, re-initialized in place), so
 * its events encode offline. false with a message when libpfm4 has no such PMU. */
bool pfm_force(const char *pmu);
/* Every event and unit mask of a PMU as "pmu::EVENT:UMASK" (or "pmu::EVENT" without umasks).
 * fn returns non-zero to stop; the result is that value, or the number of strings visited. */
typedef int (*pfm_event_fn)(const char *fq, const char *event, const char *umask, const char *desc, void *arg);
int pfm_each_event(const struct pfm_core *core, pfm_event_fn fn, void *arg);
/* libpfm4's release ("4.13.0", from the library loaded; 32 bytes) and API level ("4.0"; 16
 * bytes); "none" in both in a build without libpfm4. */
void pfm_version(char *release, char *api);
/* Why there is no libpfm4 core PMU, for the lines that say so. */
#if PMUCAL_PFM
#define PFM_NO_CORE "libpfm4 knows no core PMU for this CPU"
#else
#define PFM_NO_CORE "pmucal is built without libpfm4 (PFM=0): no libpfm4 event names"
#endif
/* The fields of an x86 PERFEVTSEL value (perf's raw config) and the offcore/extra MSR (config1). */
struct x86_enc {
    unsigned event, umask, cmask;   /* event includes AMD's extended bits 35:32 as bits 11:8 */
    bool inv, edge, any;
    uint64_t msr;
};
void x86_decode(const struct event_spec *spec, struct x86_enc *out);
/* Can a hardware event be opened here at all? false with the reason. */
bool perf_hw_usable(char *why, size_t n);
/* Why a CPU-wide count (pid -1: an uncore unit's) was refused with EACCES/EPERM: the sysctl, its
 * value and what it must be. */
const char *perf_cpu_wide_denied(char *buf, size_t n);
/* Why perf_event_open failed with this errno, for a person. */
const char *perf_open_reason(int err, bool hardware, char *buf, size_t n);
/* kernel.perf_event_paranoid, or -9 where it cannot be read. */
int perf_paranoid_level(void);

#endif

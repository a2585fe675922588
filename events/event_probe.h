/* What the Linux kernel says to each event, asked the way pmucal counts: opened on this thread
 * counting user space, then closed at once ('pmucal events --open'). A table's RISC-V entry is
 * encoded through the core PMU's sysfs description (its perf type and format/ fields), as perf
 * encodes cpu/event=N/ and a firmware event's config; libpfm4 plays no part. */
#ifndef PMUCAL_EVENT_PROBE_H
#define PMUCAL_EVENT_PROBE_H
#include "core/source.h"
#include "events/vendor.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A bit field of perf_event_attr.config as a PMU's format/ file states it ("config:0-47");
 * lo -1 when the PMU states none. */
struct pmu_field {
    int lo, hi;
};

/* The core PMU "cpu" of $PMUCAL_SYSFS/bus/event_source/devices (pmu_sysfs_root): its type and its
 * event and firmware fields (riscv-pmu-sbi's event config:0-47, firmware config:62-63). found
 * false where there is no such folder (then the type is PERF_TYPE_RAW and the fields perf's riscv
 * tables assume); why says what was read or missing. */
struct cpu_pmu {
    bool found;
    uint32_t type;
    struct pmu_field event, firmware;
    char dir[512];
    char why[1400];
};
void cpu_pmu_read(struct cpu_pmu *p);

/* The config of a RISC-V table entry through p's fields: a hardware event's code into the event
 * field, a firmware event's bits 63:62 into the firmware field and its number into the event
 * field. false with why when the field is missing or too narrow for the value. */
bool cpu_pmu_config(const struct cpu_pmu *p, const struct vendor_event *v, uint64_t *config, char *why, size_t n);

/* The kernel's answer to spec (its type, config, config1, and :u/:k): 0 opened counting as asked;
 * else the errno of the refusal, and *unfiltered true when it opened once asked to count every
 * privilege level (a PMU that cannot filter: riscv-pmu-sbi without Sscofpmf answers EINVAL to
 * user-only counting). */
int event_probe_open(const struct event_spec *spec, bool *unfiltered);

/* The verdict word of an answer: "opens", "opens-unfiltered", or the errno's name ("ENOENT"). */
const char *event_probe_verdict(int err, bool unfiltered);

#endif

/* Vendor event tables: Intel perfmon JSON and Linux perf pmu-events JSON (used for AMD).
 * Read for the encoding cross-check, for counter restrictions and for errata. */
#ifndef PMUCAL_VENDOR_H
#define PMUCAL_VENDOR_H
#include "events/pfm.h"
#include <stdbool.h>
#include <stdint.h>

/* VENDOR_ARM_PMU_EVENTS: perf's arm64 tables (16-bit event numbers, the raw config itself; a
 * model's {"ArchStdEvent": NAME} entry takes its code from the architecture's files).
 * VENDOR_RISCV_PMU_EVENTS: perf's riscv tables: a hardware event's EventCode is the cpu PMU's
 * event field (config:0-47), a firmware event's ConfigCode the whole config (bits 63:62 10 an SBI
 * firmware event, its number in 15:0; 11 a platform's firmware event); a model's
 * {"ArchStdEvent": NAME} entry takes its code from riscv-sbi-firmware.json. */
enum vendor_format { VENDOR_INTEL_PERFMON, VENDOR_LINUX_PMU_EVENTS, VENDOR_ARM_PMU_EVENTS, VENDOR_RISCV_PMU_EVENTS };

/* The RISC-V cpu PMU's event field (the riscv-pmu-sbi driver's format/event, config:0-47) and its
 * firmware field (format/firmware, config:62-63). */
#define VENDOR_RISCV_EVENT_MASK 0xffffffffffffull
#define VENDOR_RISCV_FIRMWARE_SHIFT 62
/* The RISC-V architecture's file of firmware events, beside the mapfile (perf's arch/riscv). */
#define VENDOR_RISCV_FIRMWARE_FILE "riscv-sbi-firmware.json"

struct vendor_event {
    char *name;               /* as the table spells it: MEM_LOAD_RETIRED.L2_HIT, ls_dispatch.ld_dispatch */
    char *file;               /* the table it came from */
    enum vendor_format format;
    unsigned event, event2;   /* event2: a second code (offcore 0xB7, 0xBB), else equal to event */
    unsigned umask, cmask;
    bool inv, edge, any;
    bool offcore;             /* uses an offcore-response MSR (0x1a6/0x1a7) */
    uint64_t msr_index, msr_value;
    uint32_t counters;        /* programmable counters allowed (bit n = counter n); 0: any */
    int fixed;                /* fixed counter number when it counts only there, else -1 */
    bool taken_alone;         /* must be the only event of its kind in a group */
    char *errata;             /* NULL when none */
    bool deprecated;
    char *desc;               /* BriefDescription (or PublicDescription); "" when none */
    const char *unit;         /* an uncore unit's sysfs stem (events/uncore.h), NULL for a core event */
    uint64_t config;          /* RISC-V: the raw config (EventCode in config:0-47, or ConfigCode) */
    bool firmware;            /* RISC-V: an SBI (or platform) firmware event: config bits 63:62 set */
};

struct vendor_table {
    struct vendor_event *ev;
    int n, cap;
    /* The uncore units' entries pmucal counts (events/uncore.h: memory controller, data fabric),
     * apart from the core events: they count a socket, match no core encoding and take no core
     * counter. */
    struct vendor_event *uncore;
    int nuncore, capuncore;
    int files;
    struct vendor_table *arch_std;   /* while an arm64 model loads: the architecture's events */
    char **arch_metrics;             /* and its metrics (sbsa.json): an ArchStdEvent naming one is a
                                      * metric, not an event */
    int narch_metrics;
    bool riscv;                      /* perf's riscv layout: its tables are VENDOR_RISCV_PMU_EVENTS */
};

/* Load a JSON file or every *.json in a folder (and its events/ subfolder); NAME.json.gz is read as
 * NAME.json is (base/gzfile.h), and a path NAME.json that is not there as NAME.json.gz. -1 with a message
 * naming the path and the fix. Entries that are not core events (metrics, Intel's FP bit tables,
 * uncore units pmucal does not count) are left out; the uncore units it counts go to t->uncore. A folder laid out as perf's arm64 tables (ARCH/<vendor>/<core>/
 * with ARCH/common-and-microarch.json) is an Arm table: its ArchStdEvent entries are resolved
 * through ARCH/common-and-microarch.json and ARCH/recommended.json, as perf does. */
int vendor_load(struct vendor_table *t, const char *path);
void vendor_free(struct vendor_table *t);
/* The vendor entry whose encoding equals this libpfm4/perf raw encoding (event, umask, cmask,
 * inv, edge; and the MSR value for offcore events), NULL when none. */
const struct vendor_event *vendor_match(const struct vendor_table *t, const struct event_spec *spec);
/* The perf_event_attr of a table entry: an uncore entry's config in its unit's layout
 * (events/uncore.h), its type left 0 (each instance's comes from sysfs when it opens), spec->uncore
 * its unit; else type PERF_TYPE_RAW; an Arm entry's config is its event
 * number, a RISC-V entry's its config (the cpu PMU's type and format place it where it opens:
 * events/event_probe.h); otherwise config from the event select (AMD's
 * bits 11:8 go to config 35:32), umask 15:8, edge 18, any 21, inv 23, cmask 31:24; config1 the
 * offcore-response / load-latency / front-end MSR value. spec->name and canonical are untouched. */
void vendor_event_spec(const struct vendor_event *v, struct event_spec *spec);
/* The entry named name (any case), NULL when none; vendor_find_uncore among the uncore entries. */
const struct vendor_event *vendor_find(const struct vendor_table *t, const char *name);
const struct vendor_event *vendor_find_uncore(const struct vendor_table *t, const char *name);
/* "EVENT 0xd1 UMASK 0x02 CMASK 0 INV 0 EDGE 0 ..." for messages. */
const char *vendor_enc_text(const struct x86_enc *e, bool offcore, char *buf, size_t n);

#endif

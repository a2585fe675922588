/* Uncore units: counters outside the cores (memory controllers, the data fabric) that count for a
 * whole socket, never for one task. The kernel exposes each unit as one or more PMUs in sysfs
 * (uncore_imc_0..5, amd_umc_0..11), each with the CPUs it may be opened on (cpumask). An
 * uncore event is counted CPU-wide (pid -1) on a CPU of each instance's cpumask in the measuring
 * CPU's socket, and the instances are summed (as perf stat does for uncore_imc/cas_count_read/):
 * every channel's traffic, and everything else on the socket too. */
#ifndef PMUCAL_UNCORE_H
#define PMUCAL_UNCORE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The sysfs PMU stem of a vendor table's "Unit" ("UMCPMC" -> "amd_umc"), NULL for units pmucal
 * does not count. */
const char *uncore_unit_stem(const char *table_unit);
/* The widest event code and unit mask a table entry of that unit may have. */
uint64_t uncore_max_event(const char *stem);
uint64_t uncore_max_umask(const char *stem);
/* The perf config of a table entry of a unit, in the layout of the kernel driver's format/ files
 * (amd_umc: event 7:0, rdwrmask 9:8). */
uint64_t uncore_config(const char *stem, unsigned event, unsigned umask);
/* The sysfs stem of a libpfm4 uncore PMU ("skx_unc_imc0" -> "uncore_imc"). false when the name is
 * not MODEL_unc_UNIT[N]. */
bool uncore_stem_of_pfm(const char *pfm_pmu, char *stem, size_t n);

/* $PMUCAL_SYSFS (a tree laid out as /sys: tests' fixtures), else "/sys"; a PMUCAL_SYSFS that is no
 * folder is refused with a message (exit 2). */
const char *pmu_sysfs_root(void);

/* One instance of a unit to open the event on. */
struct uncore_instance {
    char name[64];   /* "amd_umc_3" */
    uint32_t type;   /* its perf_event_attr type (sysfs type) */
    int cpu;         /* a CPU of its cpumask in the measuring CPU's socket */
};
#define UNCORE_MAX_INSTANCES 64

/* The instances of stem (a PMU named stem, or stem_N) that count the socket of cpu, from
 * $PMUCAL_SYSFS (tests) or /sys. The count (> 0), or 0 with why filled: no such PMU here, or none
 * in this socket. */
int uncore_instances(const char *stem, int cpu, struct uncore_instance *out, int max, char *why, size_t n);

#endif

/* The kernel under the run and its core PMU as the kernel itself describes it: release, flavour,
 * command line, perf_user_access, and the PMU's sysfs folder (events, format, caps, type, cpus)
 * with the counter count its driver announced. A kernel regression check compares two of these
 * (validate/run_diff.h): an event gone from sysfs or a format bit moved is a driver change that
 * no count shows. */
#ifndef PMUCAL_KPMU_H
#define PMUCAL_KPMU_H
#include "base/json.h"
#include <stdbool.h>
#include <stddef.h>

/* The first line of a small file (sysfs, procfs) without its newline into out; false (out
 * untouched) when there is none. A device-tree string ends at its NUL. */
bool host_read_line(const char *path, char *out, size_t n);

/* Debian's flavour of a kernel release: what follows the version and ABI number
 * ("6.1.0-47-rt-arm64" -> "rt-arm64", "6.12.115+deb12-cloud-arm64" -> "cloud-arm64"); "" when
 * the release names none. */
void kernel_flavour(const char *release, char *out, size_t n);

/* The manifest's "linux_kernel" object (an older pmucal wrote "kernel"): release, version,
 * machine (uname's), flavour, package (PMUCAL_KERNEL_PACKAGE, as kernel-check names what it
 * booted; null otherwise), cmdline, perf_event_paranoid, perf_user_access (null where the Linux
 * kernel has none: x86, arm64 before 5.17), and "pmu": the core
 * PMU pmu_sysfs names ("none": null) with type, cpus, events, format and caps (file -> first
 * line), and counters as the driver's boot message says ("enabled with NAME PMU driver, N
 * counters available"), with that line, or null and why. */
void kernel_facts_json(struct json *j, const char *pmu_sysfs);

#endif

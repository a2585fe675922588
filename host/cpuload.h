/* Which CPU to measure on, and how busy it was: the least-loaded CPU of the affinity mask by
 * default, and /proc/stat's view of that CPU over the run for the manifest. A busy CPU does not
 * make a figure wrong (the timing windows see to that, core/measure.h), but it makes more of them
 * unstable, and a reader of the run should see why. */
#ifndef PMUCAL_CPULOAD_H
#define PMUCAL_CPULOAD_H
#include "base/json.h"

/* A CPU's time so far, in /proc/stat's ticks, and this process's CPU time. */
struct cpu_ticks {
    long long busy, idle, steal;   /* steal: time the hypervisor gave another guest */
    double own_seconds, wall_seconds;
};
int cpuload_read(int cpu, struct cpu_ticks *t);

/* The CPU to measure on: asked (>= 0, checked against the mask by the caller), else the allowed
 * CPU (topo_cpus) idle the most over 150 ms. *busy: that CPU's busy fraction over those 150 ms
 * (NaN when asked). */
int cpuload_choose(int asked, double *busy);
/* The CPU the command chose with cpuload_choose, for what measures on its behalf (the latency
 * curve a case's size needs); chosen now when the command did not. */
int cpuload_chosen(void);

/* The manifest's "measure_cpu" (the CPU) and "measure_cpu_choice" at the start: how it was chosen,
 * the affinity mask, its busy fraction before (null when asked); "measure_cpu_load" at the end, from a reading at the
 * start: the CPU's busy and steal fractions over the run and this process's own share. */
void cpuload_json(struct json *j, int cpu, bool asked, double busy_before);
void cpuload_json_during(struct json *j, int cpu, const struct cpu_ticks *start);

#endif

/* Time in core cycles without a PMU: the ISA's cycle counter (the TSC on x86; its marks are
 * isa_ticks_start and isa_ticks_stop, arch/isa.h), converted with a measured ratio. */
#ifndef PMUCAL_CLOCK_H
#define PMUCAL_CLOCK_H
#include <stdint.h>

struct clock_info {
    double tsc_hz;            /* TSC ticks per second, against CLOCK_MONOTONIC */
    double core_per_tsc;      /* core cycles per TSC tick: dependent one-cycle adds / ticks */
    double core_hz;           /* tsc_hz * core_per_tsc */
    double core_per_tsc_spread; /* relative MAD of the ratio over its repetitions */
};

/* Measures once per process (about 100 ms), then returns the same figures. */
const struct clock_info *clock_get(void);
/* A quick ratio (about 1 ms): core cycles per TSC tick now. Boost clocks move with the load on
 * other cores, so measurements take it beside themselves rather than trusting the process start. */
double clock_ratio_now(void);
/* The ratio over one trip of about seconds (given the ratio now, for its length): a trip of a
 * measured run's length, to tell whether the CPU ran us all of such a run. */
double clock_ratio_over(double seconds, double ratio_now);
/* One trip of about 10 us (32,000 dependent adds): the ratio beside a timing window. A trip
 * another task or an interrupt cut reads low, never high. The trip's ticks into *ticks. */
double clock_ratio_trip(uint64_t *ticks);
double clock_now_seconds(void);

#endif

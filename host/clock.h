/* Time in core cycles without a PMU: the ISA's cycle counter (the TSC on x86; its marks are
 * isa_ticks_start and isa_ticks_stop, arch/isa.h), converted with a measured ratio. */
#ifndef PMUCAL_CLOCK_H
#define PMUCAL_CLOCK_H
#include <stdint.h>

struct clock_info {
    double tsc_hz;            /* TSC ticks per second, against CLOCK_MONOTONIC */
    double core_per_tsc;      /* core cycles per TSC tick: the higher of the two references' */
    double core_hz;           /* tsc_hz * core_per_tsc */
    double core_per_tsc_spread; /* relative MAD of the ratio over its repetitions */
    int mul_latency;          /* cycles of a dependent multiply, learned against the adds; 0 when
                                 not a whole number here: then the adds are the only reference */
};

/* Two references, because a dependent chain reads the clock only while it has its units to
 * itself. On this project's Zen 5 KVM guest the add chain read 1.7-3.3% slow for stretches (1.56-
 * 1.60 core cycles per tick) while a multiply chain, DIV and DIVSD timed beside it agreed with each
 * other (DIV 16.03-16.12 cycles at the multiplies' clock, 15.54-15.83 at the adds', 16.02
 * otherwise): something else on the core (a sibling thread of the host's) held the adders. Every
 * figure converted at the add chain then read 2% low for a whole calibration. Contention only
 * slows a chain, so the clock is the higher of the two. */
#define CLOCK_LATENCY_SLACK 0.10
/* cycles rounded to the whole latency it is, when within CLOCK_LATENCY_SLACK of it; else 0. */
int clock_whole_latency(double cycles);
/* The clock from the two references' ratios (0 for one not measured): the higher, but the
 * multiplies only within CLOCK_REFERENCE_REACH above the adds (2.2-2.9% was seen): further, their
 * latency would be the thing that is wrong, and the adds read no faster than the core. */
#define CLOCK_REFERENCE_REACH 0.05
double clock_reference_ratio(double add_ratio, double mul_ratio);

/* Measures once per process (about 100 ms), then returns the same figures. */
const struct clock_info *clock_get(void);
/* A quick ratio (about 1 ms): core cycles per TSC tick now. Boost clocks move with the load on
 * other cores, so measurements take it beside themselves rather than trusting the process start. */
double clock_ratio_now(void);
/* One trip of both references (24,000 cycles each, about 14 us): the ratio beside a timing
 * window. A trip another task or an interrupt cut reads low, never high. The trip's ticks into
 * *ticks, the references' relative difference into *split (0 with one reference). */
double clock_ratio_trip(uint64_t *ticks, double *split);
double clock_now_seconds(void);

#endif

/* Time in core cycles without a PMU: the ISA's cycle counter (the TSC on x86; its marks are
 * isa_ticks_start and isa_ticks_stop, arch/isa.h), converted with a measured ratio. */
#ifndef PMUCAL_CLOCK_H
#define PMUCAL_CLOCK_H
#include <stdbool.h>
#include <stdint.h>

struct clock_info {
    double tsc_hz;            /* TSC ticks per second, against CLOCK_MONOTONIC */
    double core_per_tsc;      /* core cycles per TSC tick: the higher of the two references' */
    double core_hz;           /* tsc_hz * core_per_tsc */
    double core_per_tsc_spread; /* relative MAD of the ratio over its repetitions */
    int mul_latency;          /* cycles of a dependent multiply, learned against the adds; 0 when
                                 the multiplies are not a reference here */
    bool trusted;             /* false: the references disagree or the clock is impossible (why) */
    double imm_per_cycle;     /* dependent immediate adds retired a cycle (about 1 unless folded) */
    char why[320];            /* why the clock is not trusted, or "" */
    char note[160];           /* what the immediate adds showed, or "" */
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

/* What an ISA's cores can be: the dependent multiply's latency in cycles, and core cycles per tick
 * of its reference counter. No instruction's timing is taken on trust; these say what agreement
 * means and which clocks are possible. */
struct clock_bounds {
    const char *isa;
    int mul_lo, mul_hi;           /* whole cycles a dependent 64-bit multiply takes */
    double per_tick_lo, per_tick_hi;
    const char *per_tick_why;
};
/* CLOCK_HZ_MIN .. CLOCK_HZ_MAX: no core that runs code is slower or ships faster (about 6.2 GHz
 * is the fastest boost sold in 2024). */
#define CLOCK_HZ_MIN 0.3e9
#define CLOCK_HZ_MAX 6.5e9
/* The bounds of an ISA by its ISA_NAME ("x86-64", "AArch64"); NULL when none are written. */
const struct clock_bounds *clock_bounds_of(const char *isa);

/* What the three chains measured: ticks of the reference counter per operation, each the fastest
 * of many trips (a trip another task cut only reads slow). */
struct clock_chains {
    double tsc_hz;     /* the counter's ticks a second */
    double add_ticks;  /* a dependent register add: one cycle on any core */
    double mul_ticks;  /* a dependent multiply; 0 = not measured */
    double imm_ticks;  /* a dependent immediate add, which a renamer may fold; 0 = not measured */
};
/* The clock decided from the chains alone (a pure function, unit-tested with every host's figures):
 * core_per_tsc, mul_latency, trusted, why, imm_per_cycle and note of *out; the rest is left. The
 * adds and the multiplies must agree on a latency the ISA's multiplies have; where they do not,
 * the one that cannot be the clock (a clock no core runs at) is named with how far it is off. */
void clock_decide(const struct clock_chains *m, const struct clock_bounds *b, struct clock_info *out);

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

/* Time in core cycles without a PMU: the ISA's cycle counter (the TSC on x86; its marks are
 * isa_ticks_start and isa_ticks_stop, arch/isa.h), converted with a measured ratio. */
#ifndef PMUCAL_CLOCK_H
#define PMUCAL_CLOCK_H
#include <stdbool.h>
#include <stddef.h>
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
    uint64_t empty_ticks;     /* an empty timed region: the fastest of many (the counter's own cost) */
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
/* The load witness: a chain of dependent loads of one line that holds its own address. It is no
 * clock (a load's latency is what calibrate measures), but on a core of its own it takes a whole
 * number of cycles, and another thread on the core only slows it. On this project's Zen 3 KVM
 * guest another tenant's thread slowed loads for stretches of about 300 ms (a one-line chase at
 * 4.05-4.22 cycles, then 4.00) while the adds and the multiplies kept agreeing: l1_hit came out
 * ok at 4.29 [4.28, 4.32] in a whole calibration, 7% slow, and nothing saw it. A case beside whose
 * windows the witness read above its whole latency ran on a shared load unit. */
struct clock_trip {
    double ratio;         /* core cycles per tick, the higher of the two references */
    double split;         /* the references' relative difference, 0 with one reference */
    double load_ticks;    /* ticks a load of the load witness took (converted by the caller at a
                             clock it trusts: a trip whose references were cut reads a low ratio);
                             NaN where the counter is too coarse to tell (CLOCK_WITNESS_TICKS) */
    double front_ticks;   /* ticks a no-op of the front-end witness took (converted as load_ticks);
                             NaN where the counter is too coarse to tell */
    uint64_t ticks;       /* the trip's ticks */
};
/* One trip beside a timing window: both references (24,000 cycles each, about 14 us), the load
 * witness, 2,000 loads timed after a warm trip, and the front-end witness (about 4,200 cycles),
 * less an empty region's ticks (the counter's own cost, 60-90 cycles a region here: 1% of the
 * loads). The fastest empty region is subtracted, so an interrupt still only slows a reading (a
 * difference of two timed chains read 3.9 cycles a load where one was cut, and made a whole
 * latency of 3). A trip another task or an interrupt cut reads low, never high. The loads must
 * span CLOCK_WITNESS_TICKS for a reading: a 25 MHz generic timer or a 10 MHz time CSR ticks 40-70
 * times in them, and a reading one tick short would be a whole latency one cycle short. */
#define CLOCK_WITNESS_TICKS 1000
void clock_trip(struct clock_trip *t);
/* A case's load witness from its trips' load_cycles (taken on the case's own CPU): the whole
 * latency, the whole number of cycles at or below the fastest reading within CLOCK_LOAD_SLACK, and
 * the readings' median. Sharing only slows the witness, so a chase that never read under 4.55
 * cycles is a 4-cycle load slowed, not a 5-cycle one read fast. The fastest is of the trips whose
 * clock references agreed (split[i] at most split_max), where any did (split NULL: all did): each
 * reading is converted at its repetition's fastest clock, and the Emerald Rapids guest's clock
 * stepped between 1.18 and 1.23 cycles a tick within repetitions; a trip whose references were cut
 * while the core ran faster read 4.73-4.90 cycles a load of 5, where its own references read
 * 0.7-16% apart. False (both NaN) when there are no readings (NaN ones are none) or the fastest is
 * under a cycle. A pure function. */
#define CLOCK_LOAD_SLACK 0.01
bool clock_load_witness(const double *load_cycles, const double *split, size_t n, double split_max, double *whole,
                        double *median);
/* The front-end witness: 24,000 independent no-ops timed in each trip, after a warm one. They
 * take as few cycles as the front end delivers them in on a core of its own (5.7 a cycle on the
 * Emerald Rapids guest), and more while another hardware thread takes its turns at the front end,
 * which the chains above hardly notice: a dependent chain needs one operation a cycle at most, a
 * shared front end still supplies that. Timed only where the block spans CLOCK_WITNESS_TICKS: on
 * x86's TSC, not on a 25 MHz generic timer or a 10 MHz time CSR. On the Emerald Rapids guest another
 * tenant's thread ran a loop of never-taken branches at 18.6 cycles an iteration against 8.32
 * and fp_assist_mul at 143 cycles against 116.8, while the load witness read 5.002-5.012 of 5 and
 * the references 0.15-0.25% apart. From the trips' readings in cycles a no-op (taken on the
 * case's own CPU): the fastest (of the trips whose references agreed, as the load witness's) and
 * the median. False (both NaN) when there are none. A pure function. */
bool clock_front_witness(const double *front_cycles, const double *split, size_t n, double split_max,
                         double *fastest, double *median);
/* The share of a case's cycles that sharing the load unit could have added: the witness's extra
 * cycles a load (median - whole) times the case's loads, over its cycles (an iteration's each).
 * An L1 walker (16 loads in 64 cycles) beside a witness at 4.29 of 4: 7%; a DRAM walker (16 loads
 * in 14,000 cycles) beside the same: 0.03%, its figure untouched. NaN when any input is unknown. */
double clock_load_share(double whole, double median, double loads, double cycles);
double clock_now_seconds(void);

#endif

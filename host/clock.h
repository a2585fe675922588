/* Time in core cycles without a PMU: serialized TSC reads, converted with a measured ratio. */
#ifndef PMUCAL_CLOCK_H
#define PMUCAL_CLOCK_H
#include <stdbool.h>
#include <stdint.h>

/* Does CPUID advertise RDTSCP? Read once before main (clock.c). Where it does not (some VMs,
 * valgrind on such a host), executing it may raise SIGILL, so the stop mark falls back. */
extern bool clock_has_rdtscp;

/* Start and stop marks that keep the measured region between them: lfence orders the start
 * read before the region; rdtscp waits for the region to finish, lfence keeps later work after.
 * Without RDTSCP, lfence before rdtsc waits for the region to finish instead (on AMD only once
 * the OS made lfence dispatch-serializing, which Linux does on every AMD CPU it supports). */
static inline uint64_t tsc_start(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_stop_rdtscp(void)
{
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_stop_fenced(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_stop(void)
{
    return clock_has_rdtscp ? tsc_stop_rdtscp() : tsc_stop_fenced();
}

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
double clock_now_seconds(void);
/* The instructions that end a timed region here: "rdtscp;lfence" or "lfence;rdtsc;lfence". */
const char *clock_stop_mark(void);

#endif

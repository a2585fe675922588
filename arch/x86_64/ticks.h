/* The x86-64 cycle counter: the TSC, read in fenced marks around a measured region (host/clock.c
 * converts its ticks to core cycles). */
#ifndef PMUCAL_X86_TICKS_H
#define PMUCAL_X86_TICKS_H
#include <stdbool.h>
#include <stdint.h>

/* Does CPUID advertise RDTSCP? Read once before main (ticks.c). Where it does not (some VMs,
 * valgrind on such a host), executing it may raise SIGILL, so the stop mark falls back. */
extern bool isa_stop_serialized;

/* Start and stop marks that keep the measured region between them: lfence orders the start
 * read before the region; rdtscp waits for the region to finish, lfence keeps later work after.
 * Without RDTSCP, lfence before rdtsc waits for the region to finish instead (on AMD only once
 * the OS made lfence dispatch-serializing, which Linux does on every AMD CPU it supports). */
static inline uint64_t isa_ticks_start(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t isa_ticks_stop_serialized(void)
{
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t isa_ticks_stop_fenced(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t isa_ticks_stop(void)
{
    return isa_stop_serialized ? isa_ticks_stop_serialized() : isa_ticks_stop_fenced();
}

/* The TSC's frequency as the CPU states it: 0, measured against the monotonic clock instead. */
static inline double isa_ticks_hz_said(void)
{
    return 0;
}

/* The instructions that end a timed region here: "rdtscp;lfence" or "lfence;rdtsc;lfence". */
const char *isa_stop_mark(void);
/* " (CPUID has no RDTSCP)" where the fenced mark stands in for it, else "". */
const char *isa_stop_note(void);

/* trips x ISA_CHAIN_OPS dependent adds: each needs the previous result, so one a cycle on any
 * out-of-order core; the loop counter runs on another chain and hides under them. */
#define ISA_CHAIN_OPS 1000
static inline void isa_op_chain(uint64_t trips)
{
    uint64_t acc = 0;
    __asm__ __volatile__(
        "1:\n\t"
        ".rept 1000\n\t"
        "add $1, %[acc]\n\t"
        ".endr\n\t"
        "dec %[n]\n\t"
        "jnz 1b"
        : [acc] "+r"(acc), [n] "+r"(trips)
        :
        : "cc");
}

#endif

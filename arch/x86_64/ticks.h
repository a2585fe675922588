/* The x86-64 cycle counter: the TSC, read in fenced marks around a measured region (host/clock.c
 * converts its ticks to core cycles). */
#ifndef PMUCAL_X86_TICKS_H
#define PMUCAL_X86_TICKS_H
#include <stdbool.h>
#include <stdint.h>

/* isa_stop_serialized: does CPUID advertise RDTSCP? Read once before main (ticks.c). Where it
 * does not (some VMs, valgrind on such a host), executing it may raise SIGILL, so the stop mark
 * falls back. */

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

/* isa_stop_mark: "rdtscp;lfence" or "lfence;rdtsc;lfence"; isa_stop_note: " (CPUID has no
 * RDTSCP)" where the fenced mark stands in for it. */

/* isa_op_chain's text: the dependent add of a register (holding 1), and the trip's count-down to
 * label 1. Not an immediate: Golden Cove and later Intel cores execute a dependent `add $1` at
 * rename, several a cycle (0.25 cycles an add on Emerald Rapids), so a clock taken from it read 4-6x
 * too fast; a register operand's value is not known at rename. */
#define ISA_CHAIN_ADD "add %[one], %[acc]"
/* isa_imm_chain's: the immediate add, timed to say whether the renamer folds it (never a reference). */
#define ISA_CHAIN_ADD_IMM "add $1, %[acc]"
/* isa_mul_chain's: a dependent multiply, on the multiplier rather than the adders. */
#define ISA_CHAIN_MUL "imul %[acc], %[acc]"
/* isa_load_chain's: a dependent load of the register's own address (a line that points to itself). */
#define ISA_CHAIN_LOAD "mov (%[acc]), %[acc]"
#define ISA_CHAIN_NEXT_TRIP "dec %[n]\n\tjnz 1b"

#endif

/* The AArch64 cycle counter: the generic timer's virtual count (CNTVCT_EL0), which every Linux
 * lets user space read, at the fixed frequency CNTFRQ_EL0 states (host/clock.c converts its
 * ticks to core cycles with the measured ratio, as it does the TSC's). */
#ifndef PMUCAL_A64_TICKS_H
#define PMUCAL_A64_TICKS_H
#include <stdbool.h>
#include <stdint.h>

/* AArch64 has no serializing read of the counter: the isb marks are the only ones
 * (isa_stop_serialized is false). */

/* isb before the read waits for the instructions before it to complete (the region, at a stop
 * mark); isb after keeps later instructions (the region, at a start mark) from starting before
 * the read. */
static inline uint64_t isa_ticks_start(void)
{
    uint64_t t;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(t) :: "memory");
    return t;
}

static inline uint64_t isa_ticks_stop_fenced(void)
{
    uint64_t t;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(t) :: "memory");
    return t;
}

static inline uint64_t isa_ticks_stop_serialized(void)
{
    return isa_ticks_stop_fenced();
}

static inline uint64_t isa_ticks_stop(void)
{
    return isa_ticks_stop_fenced();
}

/* The counter's frequency as CNTFRQ_EL0 states it (firmware sets it), in Hz; 0 = not stated. */
static inline double isa_ticks_hz_said(void)
{
    uint64_t f;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(f));
    return (double)f;
}

/* isa_op_chain's text: the dependent add of a register (holding 1), and the trip's count-down to
 * label 1. Not an immediate: some x86 cores fold immediate adds at rename, and nothing promises an
 * Arm core never will. */
#define ISA_CHAIN_ADD "add %[acc], %[acc], %[one]"
/* isa_imm_chain's: the immediate add, timed to say whether the renamer folds it (never a reference). */
#define ISA_CHAIN_ADD_IMM "add %[acc], %[acc], #1"
/* isa_mul_chain's: a dependent multiply, on the multiplier rather than the adders. */
#define ISA_CHAIN_MUL "mul %[acc], %[acc], %[acc]"
/* isa_load_chain's: a dependent load of the register's own address (a line that points to itself). */
#define ISA_CHAIN_LOAD "ldr %[acc], [%[acc]]"
#define ISA_CHAIN_NEXT_TRIP "subs %[n], %[n], #1\n\tb.ne 1b"

#endif

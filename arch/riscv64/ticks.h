/* The RISC-V cycle counter: the time CSR (rdtime), which Linux lets every user process read, at
 * the timebase frequency the device tree states (host/clock.c converts its ticks to core cycles
 * with the measured ratio, as it does the TSC's). rdcycle and rdinstret are not used: whether
 * user space may read them is the kernel's perf_user_access setting, not the ISA's. */
#ifndef PMUCAL_RV_TICKS_H
#define PMUCAL_RV_TICKS_H
#include <stdbool.h>
#include <stdint.h>

/* RISC-V has no serializing read of time: the fences are the only marks (isa_stop_serialized
 * is false). fence orders the memory accesses before the read against those after it. */
static inline uint64_t isa_ticks_start(void)
{
    uint64_t t;
    __asm__ __volatile__("fence rw, rw\n\trdtime %0\n\tfence rw, rw" : "=r"(t) :: "memory");
    return t;
}

static inline uint64_t isa_ticks_stop_fenced(void)
{
    uint64_t t;
    __asm__ __volatile__("fence rw, rw\n\trdtime %0\n\tfence rw, rw" : "=r"(t) :: "memory");
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

/* The timebase frequency the device tree states (/proc/device-tree/cpus/timebase-frequency), in
 * Hz; 0 = not stated (measure it). */
double isa_ticks_hz_said(void);

/* isa_op_chain's text: the dependent add of a register (holding 1), and the trip's count-down to
 * label 1. */
#define ISA_CHAIN_ADD "add %[acc], %[acc], %[one]"
/* isa_imm_chain's: the immediate add, timed to say whether the renamer folds it (never a reference). */
#define ISA_CHAIN_ADD_IMM "addi %[acc], %[acc], 1"
/* isa_mul_chain's: a dependent multiply (the M extension), on the multiplier rather than the adders. */
#define ISA_CHAIN_MUL "mul %[acc], %[acc], %[acc]"
/* isa_load_chain's: a dependent load of the register's own address (a line that points to itself). */
#define ISA_CHAIN_LOAD "ld %[acc], 0(%[acc])"
#define ISA_CHAIN_NEXT_TRIP "addi %[n], %[n], -1\n\tbnez %[n], 1b"

#endif

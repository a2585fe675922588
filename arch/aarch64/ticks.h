/* The AArch64 cycle counter: the generic timer's virtual count (CNTVCT_EL0), which every Linux
 * lets user space read, at the fixed frequency CNTFRQ_EL0 states (host/clock.c converts its
 * ticks to core cycles with the measured ratio, as it does the TSC's). */
#ifndef PMUCAL_A64_TICKS_H
#define PMUCAL_A64_TICKS_H
#include <stdbool.h>
#include <stdint.h>

/* AArch64 has no serializing read of the counter: the isb marks are the only ones. */
extern bool isa_stop_serialized;

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

const char *isa_stop_mark(void);
const char *isa_stop_note(void);

/* trips x ISA_CHAIN_OPS dependent adds, one a cycle on any core; the loop counter runs on
 * another chain and hides under them. */
#define ISA_CHAIN_OPS 1000
static inline void isa_op_chain(uint64_t trips)
{
    uint64_t acc = 0;
    __asm__ __volatile__(
        "1:\n\t"
        ".rept 1000\n\t"
        "add %[acc], %[acc], #1\n\t"
        ".endr\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b"
        : [acc] "+r"(acc), [n] "+r"(trips)
        :
        : "cc");
}

#endif

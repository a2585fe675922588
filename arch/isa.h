/* The ISA seam: what names an instruction, a register or CPUID lives in one folder per
 * architecture, arch/<ARCH>/, behind this header. The rest of pmucal (the core, the host layer,
 * the generators, the kernels) includes this header only, never a file of arch/<ARCH>/.
 *
 * The implementation is picked here, once, by the compiler's target; the Makefile's ARCH
 * (default x86_64) compiles that folder. Each arch/<ARCH>/isa_impl.h provides:
 *
 * The cycle counter: a reference counter (the TSC on x86) read in marks that keep a measured
 * region between them; host/clock.c converts its ticks to core cycles
 *     uint64_t isa_ticks_start(void), isa_ticks_stop(void)  static inline: nothing else runs
 *                                                           between the marks and the region
 *     double isa_ticks_hz_said(void)                        the counter's stated frequency, 0 = measure
 *     uint64_t isa_ticks_stop_fenced(void)                  the stop mark every CPU has
 *     uint64_t isa_ticks_stop_serialized(void)              the serializing read, only where
 *     bool isa_stop_serialized                                this says it exists (set before main)
 *     const char *isa_stop_mark(void)                       the stop mark's instructions (manifest)
 *     const char *isa_stop_note(void)                       why the serializing read is not used, or ""
 *     ISA_CHAIN_OPS, void isa_op_chain(uint64_t trips)      trips x ISA_CHAIN_OPS dependent
 *                                                           one-cycle operations (the clock ratio)
 *
 * ISA_NAME: "x86-64", "AArch64", for messages
 *
 * CPU identification
 *     struct cpu_facts: vendor, brand, family, model, stepping, first-level and shared data TLB
 *       entries (4K and 2M pages), and the ISA's own feature flags
 *     const struct cpu_facts *cpu_get(void)
 *     enum isa_ext ISA_*: extensions a kernel variant may need and a counter source may lack;
 *       isa_exts[isa_nexts] {bit, name}, bool isa_ext_present(unsigned bit)
 *     bool isa_cpu_signature(sig, n, how, hn)  the signature perf's mapfile rows match
 *     int isa_pmu_counters(bool amd, const char **how)  core counters the CPU states, 0 = none
 *
 * The data caches as the CPU describes them
 *     struct cpu_caches: per level, the size said and by what, the full description (size, ways)
 *       where there is one, and why it cannot be whole; int cpu_caches_read(c, why, whylen)
 *
 * The inline-asm regions of the hand-written kernels, macros expanded in their run functions
 * (the measured code stays the kernel's own), each with the instructions it retires
 *     ISA_LOOP_TEST_INST; ISA_EXACT_LOOP(REPS, BODY, inputs...): REPS bodies a trip, run(n) - run(0)
 *       exactly n bodies and n loop tests (p and n in scope); bodies ISA_CHASE_STEP (p = *p),
 *       ISA_STORE_THEN_CHASE(DISP), ISA_STLF_BLOCKED/FORWARD/PARTIAL; ISA_CHASE_LOOP(REPS)
 *     ISA_TOUCH_LOOP(q, n): one store per 4 KiB page
 *     ISA_SITES(KEY, LIST): the addresses of a region's instructions (local labels) as data in the
 *       section pmucal_sites, for sampling (core/sites.h); the exact and touch loops record theirs
 *     ISA_TRIAD_PASSES(width, nt, n, i, a, b, c, end, s) and its ISA_TRIAD_*_INST; triad's
 *       variants ISA_TRIAD_CHOICES/DEFAULT/HELP/MATRIX, and isa_triad_variants[] (below)
 *     isa_cpu_relax(), isa_flush_line(p), isa_flush_done()
 *
 * The code emitter, for the code-shaped kernels (generators/gen.h, arch/<ARCH>/kernels/)
 *     struct emit, struct code, emit_init/label/bind/finish, one emit_* per instruction kind,
 *     emit_loop_test (the loop test in the generated functions' calling convention),
 *     emit_map (write, then execute: never both), code_unmap, emit_write_asm (objdump's syntax),
 *     emit_write_bin
 */
#ifndef PMUCAL_ISA_H
#define PMUCAL_ISA_H

#include <stddef.h>

/* triad's variants: doubles an instruction, the ISA_* extension it needs (0 = none), and why
 * it has no non-temporal form (NULL = it has one). In arch/<ARCH>/regions.c. */
struct isa_triad_variant {
    const char *name;
    unsigned width, ext;
    const char *no_nt;
};
extern const struct isa_triad_variant isa_triad_variants[];
extern const size_t isa_ntriad_variants;

#if defined(__x86_64__)
#include "arch/x86_64/isa_impl.h"
#elif defined(__aarch64__)
#include "arch/aarch64/isa_impl.h"
#else
#error "pmucal has no ISA implementation for this target: arch/ holds x86_64 and aarch64"
#endif

#endif

/* The ISA seam: what names an instruction, a register or CPUID lives in one folder per
 * architecture, arch/<ARCH>/, behind this header. The rest of pmucal (the core, the host layer,
 * the generators, the kernels) includes this header only, never a file of arch/<ARCH>/.
 *
 * The implementation is picked here, once, by the compiler's target; the Makefile's ARCH
 * (default x86_64) compiles that folder. The seam is (declared below where the declaration is
 * the same on every ISA; arch/<ARCH>/isa_impl.h provides the rest):
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
 *                                                           one-cycle register adds (the clock ratio)
 *     void isa_mul_chain(uint64_t trips)                    as many dependent multiplies (a second
 *                                                           reference; header text ISA_CHAIN_MUL)
 *     void isa_imm_chain(uint64_t trips)                    as many dependent immediate adds (a
 *                                                           renamer may fold them: never a reference)
 *     void isa_load_chain(uint64_t trips)                   as many dependent loads of one line (a
 *                                                           witness of the load unit, ISA_CHAIN_LOAD)
 *     void isa_nop_block(uint64_t trips)                    as many independent no-ops (a witness of
 *                                                           the front end)
 *
 * ISA_NAME: "x86-64", "AArch64", "RISC-V", for messages; ISA_TICKS_NAME: the tick counter's
 * ("TSC", "generic timer", "time CSR"); ISA_CACHES_EXPECTED: the cache levels every core of the
 * ISA has, why a missing one is a finding
 *
 * CPU identification
 *     struct cpu_facts: vendor, brand, family, model, stepping, and the ISA's own feature flags
 *     const struct cpu_facts *cpu_get(void)
 *     enum isa_ext ISA_*: extensions a kernel variant may need and a counter source may lack;
 *       isa_exts[isa_nexts] {bit, name}, bool isa_ext_present(unsigned bit)
 *     bool isa_cpu_signature(sig, n, how, hn)  the signature perf's mapfile rows match
 *     int isa_pmu_counters(bool amd, const char **how)  core counters the CPU states, 0 = none
 *
 * The data caches as the CPU describes them
 *     struct cpu_caches: per level, the size said and by what, the full description (size, ways)
 *       where there is one, and why it cannot be whole; int cpu_caches_read(c, why, whylen)
 *     struct cpu_tlbs: data TLB entries (first and second level, 4K and 2M pages), the leaf that
 *       states each, and why none; int cpu_tlbs_read(t, why, whylen) (arch/tlbs.h)
 *
 * The inline-asm regions of the hand-written kernels, macros expanded in their loop functions
 * (the measured code stays the kernel's own), each with the instructions it retires
 *     ISA_LOOP_TEST_INST; ISA_EXACT_LOOP(REPS, BODY, inputs...): REPS bodies a trip, loop(n) - loop(0)
 *       exactly n bodies and n loop tests (p and n in scope); bodies ISA_CHASE_STEP (p = *p),
 *       ISA_STORE_THEN_CHASE(DISP), ISA_STLF_BLOCKED/FORWARD/PARTIAL; ISA_CHASE_LOOP(REPS)
 *     ISA_TOUCH_LOOP(q, n): one store per 4 KiB page
 *     ISA_SITES(KEY, LIST): the addresses of a region's instructions (local labels) as data in the
 *       section pmucal_sites, for sampling (core/sites.h); the exact and touch loops record theirs
 *     ISA_TRIAD_LAPS(width, nt, n, i, a, b, c, end, s), ISA_TRIAD_STEP_VECTORS(width) vectors a
 *       trip of its inner loop, ISA_TRIAD_STEP_INST(width) instructions a trip, and the lap's
 *       ISA_TRIAD_LAP_INST and ISA_TRIAD_NT_INST; triad's
 *       variants ISA_TRIAD_CHOICES/DEFAULT/HELP/MATRIX, and isa_triad_variants[] (below)
 *     isa_cpu_relax(), isa_flush_line(p), isa_flush_done()
 *
 * The code assembler, for the code-shaped kernels (generators/codegen.h, arch/<ARCH>/kernels/)
 *     struct assembler, struct code, asm_init/label/bind/finish (arch/assembler.h), asm_ret,
 *     asm_fill, asm_align, one x86_asm_* or a64_asm_* per instruction kind of the ISA,
 *     asm_loop_test (the loop test in the generated functions' calling convention),
 *     asm_map (write, then execute: never both), code_unmap, asm_write_listing (objdump's syntax),
 *     asm_write_bin
 */
#ifndef PMUCAL_ISA_H
#define PMUCAL_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What every ISA provides is declared here, once; arch/<ARCH>/ holds the types whose fields
 * differ (struct cpu_facts, enum isa_ext), the inline marks, and the instruction text below's
 * inline helpers are made of. */

/* Whether the serializing stop mark exists here, set before main by arch/<ARCH>/ticks.c (the
 * inline stop mark reads it). */
extern bool isa_stop_serialized;

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
#elif defined(__riscv) && __riscv_xlen == 64
#include "arch/riscv64/isa_impl.h"
#else
#error "pmucal has no ISA implementation for this target: arch/ holds x86_64, aarch64 and riscv64"
#endif

/* Where a region's instructions are, for sampling (core/sites.h): a record of the section
 * pmucal_sites, "KEY" then the addresses LIST (local labels of the same asm statement) and a 0.
 * Data only: nothing is executed, so the region's counts do not change. */
#define ISA_SITES(KEY, LIST)                                           \
    ".pushsection pmucal_sites,\"aw\"\n\t.balign 8\n\t"                \
    ".quad 669f, " LIST ", 0\n\t.popsection\n\t"                       \
    ".pushsection .rodata\n669: .asciz \"" KEY "\"\n\t.popsection\n\t"

/* REPS (a string literal) copies of BODY a trip, for kernels with a pointer p and an iteration
 * count n in scope (in BODY: %[p], %[n]). More input operands may follow. The loop is "enter
 * at the test; body; test", so loop(n) - loop(0) is exactly n bodies and n loop tests; labels
 * 661-664 mark the body, the test's two instructions and the end for the sampling map. */
#define ISA_EXACT_LOOP(REPS, BODY, ...)                                \
    __asm__ __volatile__(ISA_LOOP_ENTER "\n\t"                         \
                         ".p2align 6\n"                               \
                         "1:\n661:\n\t"                               \
                         ".rept " REPS "\n\t" BODY ".endr\n"          \
                         "2:\n662:\n\t" ISA_LOOP_TEST "\n664:\n\t"     \
                         ISA_SITES("exact:" __FILE__ ":" REPS, "661b, 662b, 663b, 664b") \
                         : [p] "+r"(p), [n] "+r"(n)                   \
                         : __VA_ARGS__                                \
                         : ISA_LOOP_CLOBBERS)

const struct cpu_facts *cpu_get(void);

/* Every extension of enum isa_ext once, in the order SKIP reasons name them. */
struct isa_ext_info {
    unsigned bit;
    const char *name;      /* "AVX2", "SVE" */
    const char *key;       /* its key in the manifest's cpu.features */
};
extern const struct isa_ext_info isa_exts[];
extern const size_t isa_nexts;
/* Does this CPU (and its OS) let us run the extension? */
bool isa_ext_present(unsigned bit);

/* perf's signature of this CPU, the key its mapfile rows match, with how it was read in how
 * (the ISA's header says what it is made of). false with why in how when it cannot be read. */
bool isa_cpu_signature(char *sig, size_t n, char *how, size_t hn);
/* A logical CPU's identity as its ISA states it, whatever the ISA pmucal runs on: what a
 * microarchitecture file (host/uarch.h) recognises. */
enum cpu_isa { CPU_X86_64, CPU_AARCH64, CPU_RISCV64 };
struct cpu_ident {
    enum cpu_isa isa;
    char vendor[16];                       /* x86: CPUID vendor string */
    unsigned family, model;                /* x86: display family and model */
    unsigned core_type;                    /* x86 hybrid: CPUID 0x1A EAX[31:24] (0x20 Atom, 0x40 Core); 0 */
    unsigned implementer, part;            /* aarch64: MIDR_EL1 fields */
    uint64_t mvendorid, marchid, mimpid;   /* riscv64 */
};
/* The identity of logical CPU cpu (its own: x86 CPUID run on it or its hwloc-gather-cpuid dump puN,
 * an Arm core's MIDR_EL1); false with why in how when it cannot be read. */
bool isa_cpu_ident(int cpu, struct cpu_ident *id, char *how, size_t hn);
/* The programmable core counters the CPU states, with *how naming where; 0 where it states
 * none or user space cannot read it. */
int isa_pmu_counters(bool amd, const char **how);

/* The instructions that end a timed region (for the manifest), and why the serializing read is
 * not used here, or "". */
const char *isa_stop_mark(void);
const char *isa_stop_note(void);

/* FN(trips): trips x ISA_CHAIN_OPS of TEXT, each needing the previous result, from acc = INIT; the
 * loop counter runs on another chain and hides under them. */
#define ISA_CHAIN_OPS 1000
#define ISA_DEFINE_CHAIN(fn, text, init)                                                                 \
    static inline void fn(uint64_t trips)                                                               \
    {                                                                                                  \
        uint64_t acc = init;                                                                           \
        __asm__ __volatile__("1:\n\t.rept 1000\n\t" text "\n\t.endr\n\t" ISA_CHAIN_NEXT_TRIP            \
                             : [acc] "+r"(acc), [n] "+r"(trips)                                        \
                             : [one] "r"((uint64_t)1)                                                  \
                             : "cc");                                                                  \
    }
/* Dependent register adds: one a cycle on any out-of-order core (the clock ratio). */
ISA_DEFINE_CHAIN(isa_op_chain, ISA_CHAIN_ADD, 0)
/* Dependent immediate adds: timed only to say whether this core folds them at rename. */
ISA_DEFINE_CHAIN(isa_imm_chain, ISA_CHAIN_ADD_IMM, 0)
/* Dependent multiplies of 1 by itself: a second clock reference that needs other units than the
 * adds (its latency in cycles is learned, host/clock.c). */
ISA_DEFINE_CHAIN(isa_mul_chain, ISA_CHAIN_MUL, 1)
/* Dependent loads of one line that holds its own address: no clock (the latency is what calibrate
 * measures), but a witness of whether another thread shared the load unit (host/clock.h). */
static inline void isa_load_chain(uint64_t trips)
{
    static const void *const cell __attribute__((aligned(64))) = &cell;
    uint64_t acc = (uint64_t)(uintptr_t)&cell;
    __asm__ __volatile__("1:\n\t.rept 1000\n\t" ISA_CHAIN_LOAD "\n\t.endr\n\t" ISA_CHAIN_NEXT_TRIP
                         : [acc] "+r"(acc), [n] "+r"(trips)
                         : "m"(cell)
                         : "cc");
}

/* No-ops, each independent of the others: as many a cycle as the front end issues, and that many
 * only while no other hardware thread takes its turns at the front end. A witness of whether
 * another thread shared it (host/clock.h), as the loads are of the load unit. */
static inline void isa_nop_block(uint64_t trips)
{
    __asm__ __volatile__("1:\n\t.rept 1000\n\tnop\n\t.endr\n\t" ISA_CHAIN_NEXT_TRIP
                         : [n] "+r"(trips)
                         :
                         : "cc");
}

/* snoop's writer: a spin-wait hint, a line flushed from every cache, and the wait for the
 * flushes. */
static inline void isa_cpu_relax(void)
{
    __asm__ __volatile__(ISA_RELAX_TEXT ::: "memory");
}

static inline void isa_flush_line(const void *p)
{
    __asm__ __volatile__(ISA_FLUSH_LINE_TEXT ::"r"(p) : "memory");
}

static inline void isa_flush_done(void)
{
    __asm__ __volatile__(ISA_FLUSH_DONE_TEXT ::: "memory");
}


/* The code-shaped kernels (generators/callchain.c, ifetch.c, bbexec.c) are one kernel on every
 * ISA: each writes its code through one of these (arch/<ARCH>/shapes.c), which also states what
 * one iteration of that code executes, loop test included. Calls and returns are the kernel's
 * own to state: they are the shape, the same everywhere. */
struct shape_counts {
    double inst, loads, stores, bytes_read, bytes_written;
    double cond_taken, cond_ntaken, uncond;   /* conditional and unconditional jumps, not calls */
};
/* callchain: the loop body calls level 1 and level d calls level d + 1, directly or through the
 * address at data[d] (the data pointer of the generated function); the last level returns. The
 * function binds fn[1..depth] and returns the entry label. */
int isa_callchain_assemble(struct assembler *as, uint64_t depth, bool indirect, const int *fn, struct shape_counts *n);
/* ifetch: straight-line independent instructions, size bytes or a little less, looping back;
 * the loop starts at offset 0 and spans *bytes. *insns is how many straight-line instructions,
 * each an isa_ifetch_insn. The entry label. Sizes above isa_ifetch_max_bytes cannot loop back. */
int isa_ifetch_assemble(struct assembler *as, uint64_t size, uint64_t *bytes, uint64_t *insns, struct shape_counts *n);
extern const char isa_ifetch_insn[];
extern const uint64_t isa_ifetch_max_bytes;
/* bbexec: head (test the counter's parity), the even side (sqrts square roots of 2.0, then a
 * jump to the join), the odd side (copy words from data[0..] to data[words..]), the join (the
 * loop test). The entry label; the counts are of the average iteration (even ones and odd ones
 * alike over pairs). */
int isa_bbexec_assemble(struct assembler *as, uint64_t words, uint64_t sqrts, struct shape_counts *n);

/* branch: one iteration's code, from body (bound here) to the loop test at test (bound here)
 * (written once for every ISA in arch/shapes.c, from the instructions each ISA's shapes.c gives
 * it: arch/shape_ops.h)
 * and the function's return; each returns the instructions an iteration executes before its loop
 * test, and the loop test's own counts in *loop (indirect: one per target, each target its own
 * loop test, its form depending on how far back the body is). The slot of an
 * iteration is data + (iteration & (slots - 1)) * entry_bytes (slots and entry_bytes powers of
 * two). cond: that many conditional branches, one every 64 / density bytes, each on a bit of the
 * slot (bit j % 64 of word j / 64), each to the instruction after it; uncond: n jumps spacing bytes
 * apart, the body at block first, block i jumping to block next[i] (n: the test); indirect: a jump through the
 * slot (entry_bytes 8) to one of the targets (labels bound here), each the loop test. Code larger
 * than isa_branch_max_bytes cannot loop back. */
/* branch_at (branches + 1 entries, or NULL): the code offset of each conditional branch instruction,
 * the loop test's last, for a model of a predictor indexed by address (core/bpred.h). */
uint64_t isa_branch_cond(struct assembler *as, int body, int test, uint64_t branches, uint64_t density, uint64_t slots,
                         uint64_t entry_bytes, uint64_t *branch_at, struct loop_test *loop);
/* Low bits of every instruction address that are always zero (0 on x86, 2 on A64). */
extern const unsigned isa_insn_align_bits;
uint64_t isa_branch_uncond(struct assembler *as, int body, int test, uint64_t n, uint64_t spacing, uint64_t first,
                           const uint64_t *next, struct loop_test *loop);
uint64_t isa_branch_indirect(struct assembler *as, int body, int test, uint64_t slots, uint64_t ntargets, const int *targets,
                             struct loop_test *target_loop);
extern const uint64_t isa_branch_max_bytes;
/* The generated function's entry, a jump to its loop test (so loop(0) runs the test alone): its label. */
int isa_asm_entry(struct assembler *as, int test);

#endif

/* What every generated kernel shares: the assembler, the mapped code, the entry point
 *
 *     void fn(uint64_t iters, void *data)
 *
 * in the calling convention and with the loop test of arch/assembler.h (asm_loop_test), so
 * that for n iterations it runs n bodies and n+1 tests and loop(n) - loop(0) is exactly n bodies
 * plus n tests. */
#ifndef PMUCAL_CODEGEN_H
#define PMUCAL_CODEGEN_H
#include "arch/isa.h"
#include "core/kernel.h"

/* Set by 'pmucal gen --asm' before a kernel's setup: keep the listing (costly on huge code). */
extern bool gen_listing;

struct gen {
    struct assembler as;
    struct code code;
    void (*entry)(uint64_t iters, void *data);
};

void gen_init(struct gen *g, size_t cap_hint);
/* Resolve branches, map the code read+exec, point entry at the label. -1 with a message. */
int gen_map(struct gen *g, int entry_label, bool huge, const char *who);
void gen_free(struct gen *g);

/* Model helper: the quantities no generated kernel touches set to 0 (ctx switches, migrations,
 * FP widths, TLB misses of data, page faults), every branch kind 0 for the kernel to add to. */
void gen_model_base(struct quantities *q);

/* Model helper: an iteration's instructions, loads, stores, bytes and jumps as the ISA's code
 * states them (arch/isa.h's struct shape_counts); br.all is the jumps, the kernel adds its calls
 * and returns to it. */
void gen_model_shape(const struct shape_counts *n, struct quantities *q);

/* A chain of n blocks spacing bytes apart (n >= 1), each one jump to the next, visited in address
 * order or in a random order seeded by seed, from body to the loop test at test (arch/isa.h's
 * isa_branch_uncond writes it; *loop, its test). The instructions of an iteration before the test. */
uint64_t gen_jump_chain(struct assembler *as, int body, int test, uint64_t n, uint64_t spacing, bool random,
                        uint64_t seed, struct loop_test *loop);

/* Model helpers: the loop test's counts (asm_loop_test's, or a mean of several) as shape counts;
 * its part of quantity i (inst and the conditional and unconditional jumps, 0 for the rest); and
 * that part added to each quantity it has one in. */
struct shape_counts gen_loop_test_counts(struct loop_test t);
double gen_loop_test_part(const struct shape_counts *loop, int i);
void gen_model_loop_test(const struct shape_counts *loop, struct quantities *q);
#endif

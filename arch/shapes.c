/* The branch kernel's code (generators/branch.c) the same on every ISA, from the few
 * instructions each ISA's shapes.c gives (arch/shape_ops.h). */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

uint64_t isa_branch_cond(struct assembler *as, int body, int test, uint64_t branches, uint64_t density, uint64_t slots,
                         uint64_t entry_bytes, uint64_t *branch_at, struct loop_test *loop)
{
    uint64_t spacing = 64 / density;
    asm_bind(as, body);
    size_t n0 = as->ninsn;
    asm_comment(as, "slot of this iteration: table + (counter & %llu) * %llu", (unsigned long long)(slots - 1),
                 (unsigned long long)entry_bytes);
    shape_slot(as, slots, entry_bytes);
    asm_align(as, 64);
    for (uint64_t j = 0; j < branches; j++) {
        size_t start = as->len;
        if (j % 64 == 0) {
            asm_comment(as, "outcomes of branches %llu..%llu", (unsigned long long)j,
                         (unsigned long long)(j + 63 < branches ? j + 63 : branches - 1));
            shape_slot_word(as, j / 64);
        }
        size_t used = as->len - start + shape_bit_branch_bytes;
        asm_fill(as, spacing > used ? spacing - used : 0);
        int next = asm_label(as);
        shape_bit_branch(as, (unsigned)(j % 64), next);   /* taken or not, on to the next instruction */
        asm_bind(as, next);
        if (branch_at)
            branch_at[j] = as->len - shape_bit_branch_jump_bytes;
    }
    asm_bind(as, test);
    uint64_t insns = as->ninsn - n0;
    *loop = asm_loop_test(as, body);
    if (branch_at)
        branch_at[branches] = as->len - shape_loop_jump_bytes;
    asm_ret(as);
    return insns;
}

uint64_t isa_branch_uncond(struct assembler *as, int body, int test, uint64_t n, uint64_t spacing, uint64_t first,
                           const uint64_t *next, struct loop_test *loop)
{
    int *block = xmalloc(n * sizeof(*block));
    for (uint64_t i = 0; i < n; i++)
        block[i] = asm_label(as);
    for (uint64_t i = 0; i < n; i++) {
        asm_bind(as, block[i]);
        if (i == first)
            asm_bind(as, body);
        shape_jump(as, next[i] < n ? block[next[i]] : test);
        asm_fill(as, spacing - shape_jump_bytes);
    }
    asm_bind(as, test);
    *loop = asm_loop_test(as, body);
    asm_ret(as);
    free(block);
    return n;
}

uint64_t isa_branch_indirect(struct assembler *as, int body, int test, uint64_t slots, uint64_t ntargets, const int *targets,
                             struct loop_test *target_loop)
{
    asm_bind(as, body);
    asm_comment(as, "slot of this iteration, then a jump through it to one of %llu targets", (unsigned long long)ntargets);
    shape_slot(as, slots, 8);
    uint64_t insns = shape_jump_through_slot(as);
    for (uint64_t t = 0; t < ntargets; t++) {
        asm_align(as, 64);
        asm_comment(as, "target %llu: the loop test", (unsigned long long)t);
        asm_bind(as, targets[t]);
        target_loop[t] = asm_loop_test(as, body);
        asm_ret(as);
    }
    asm_align(as, 64);
    asm_bind(as, test);
    asm_loop_test(as, body);   /* run by loop(0) alone: no iteration's */
    asm_ret(as);
    return insns;
}

int isa_asm_entry(struct assembler *as, int test)
{
    int entry = asm_label(as);
    asm_comment(as, "entry: the function starts here, jumping to the test");
    asm_bind(as, entry);
    shape_jump(as, test);
    return entry;
}

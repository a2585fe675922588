/* The branch kernel's code (generators/branch.c) the same on every ISA, from the few
 * instructions each ISA's shapes.c gives (arch/shape_ops.h). */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

uint64_t isa_branch_cond(struct emit *e, int body, int test, uint64_t branches, uint64_t density, uint64_t slots,
                         uint64_t entry_bytes, uint64_t *branch_at)
{
    uint64_t spacing = 64 / density;
    emit_bind(e, body);
    size_t n0 = e->ninsn;
    emit_comment(e, "slot of this iteration: table + (counter & %llu) * %llu", (unsigned long long)(slots - 1),
                 (unsigned long long)entry_bytes);
    shape_slot(e, slots, entry_bytes);
    emit_align(e, 64);
    for (uint64_t j = 0; j < branches; j++) {
        size_t start = e->len;
        if (j % 64 == 0) {
            emit_comment(e, "outcomes of branches %llu..%llu", (unsigned long long)j,
                         (unsigned long long)(j + 63 < branches ? j + 63 : branches - 1));
            shape_slot_word(e, j / 64);
        }
        size_t used = e->len - start + shape_bit_branch_bytes;
        emit_fill(e, spacing > used ? spacing - used : 0);
        int next = emit_label(e);
        shape_bit_branch(e, (unsigned)(j % 64), next);   /* taken or not, on to the next instruction */
        emit_bind(e, next);
        if (branch_at)
            branch_at[j] = e->len - shape_bit_branch_jump_bytes;
    }
    emit_bind(e, test);
    emit_loop_test(e, body);
    if (branch_at)
        branch_at[branches] = e->len - shape_loop_jump_bytes;
    uint64_t insns = e->ninsn - n0;
    emit_ret(e);
    return insns;
}

uint64_t isa_branch_uncond(struct emit *e, int body, int test, uint64_t n, uint64_t spacing, uint64_t first,
                           const uint64_t *next)
{
    int *block = xmalloc(n * sizeof(*block));
    for (uint64_t i = 0; i < n; i++)
        block[i] = emit_label(e);
    for (uint64_t i = 0; i < n; i++) {
        emit_bind(e, block[i]);
        if (i == first)
            emit_bind(e, body);
        shape_jump(e, next[i] < n ? block[next[i]] : test);
        emit_fill(e, spacing - shape_jump_bytes);
    }
    emit_bind(e, test);
    emit_loop_test(e, body);
    emit_ret(e);
    free(block);
    return n + 2;
}

uint64_t isa_branch_indirect(struct emit *e, int body, int test, uint64_t slots, uint64_t ntargets, const int *targets)
{
    emit_bind(e, body);
    emit_comment(e, "slot of this iteration, then a jump through it to one of %llu targets", (unsigned long long)ntargets);
    shape_slot(e, slots, 8);
    uint64_t insns = shape_jump_through_slot(e);
    for (uint64_t t = 0; t < ntargets; t++) {
        emit_align(e, 64);
        emit_comment(e, "target %llu: the loop test", (unsigned long long)t);
        emit_bind(e, targets[t]);
        emit_loop_test(e, body);
        emit_ret(e);
    }
    emit_align(e, 64);
    emit_bind(e, test);
    emit_loop_test(e, body);
    emit_ret(e);
    return insns + 2;
}

int isa_emit_entry(struct emit *e, int test)
{
    int entry = emit_label(e);
    emit_comment(e, "entry: the function starts here, jumping to the test");
    emit_bind(e, entry);
    shape_jump(e, test);
    return entry;
}

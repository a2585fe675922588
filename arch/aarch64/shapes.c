/* The code-shaped kernels' A64 code (arch/isa.h): what generators/callchain.c, ifetch.c and
 * bbexec.c run here, written with a64_emit, with what an iteration of it executes; and the
 * instructions of the branch kernel's loops, which arch/shapes.c writes for every ISA. */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

/* The call of level d + 1 (d = 0: the loop body's). */
static void call_next(struct emit *e, bool indirect, const int *fn, uint64_t d)
{
    if (indirect) {
        emit_ldr(e, X16, X1, (unsigned)(8 * d));
        emit_blr(e, X16);
    } else {
        emit_bl(e, fn[d + 1]);
    }
}

int isa_callchain_emit(struct emit *e, uint64_t depth, bool indirect, const int *fn, struct shape_counts *n)
{
    int body = emit_label(e), test = emit_label(e), entry = emit_label(e);
    /* bl writes the return address to x30, not the stack, so every function that calls on
     * saves x30 first. body: call f1. f_d: save x30; call f_(d+1); restore x30; ret. f_D: ret. */
    emit_bind(e, body);
    call_next(e, indirect, fn, 0);
    emit_bind(e, test);
    emit_loop_test(e, body);
    emit_pop_lr(e);
    emit_ret(e);
    for (uint64_t d = 1; d <= depth; d++) {
        emit_comment(e, "f%llu", (unsigned long long)d);
        emit_bind(e, fn[d]);
        if (d < depth) {
            emit_push_lr(e);
            call_next(e, indirect, fn, d);
            emit_pop_lr(e);
        }
        emit_ret(e);
    }
    emit_comment(e, "entry: the function starts here, saving its own return address, jumping to the test");
    emit_bind(e, entry);
    emit_push_lr(e);
    emit_b(e, test);
    /* Per iteration: D calls and D returns, a save and a restore of x30 (stp, ldp: 16 bytes) in
     * each of the D - 1 functions that call on, the loop test (subs, b.cs); indirect adds D table
     * loads. ret reads x30, not memory. */
    double d = (double)depth, saves = d - 1, table = indirect ? d : 0;
    *n = (struct shape_counts){.inst = 2 * d + 2 * saves + 2 + table, .loads = saves + table, .stores = saves,
                               .bytes_read = 16 * saves + 8 * table, .bytes_written = 16 * saves, .cond_taken = 1};
    return entry;
}

/* Registers written in turn: all caller-saved, none the loop uses (x0, x1). */
static const enum reg ifetch_targets[] = {X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15};
const char isa_ifetch_insn[] = "mov";
const uint64_t isa_ifetch_max_bytes = 120ull << 20;   /* b reaches back 128 MiB */

int isa_ifetch_emit(struct emit *e, uint64_t size, uint64_t *bytes, uint64_t *insns, struct shape_counts *n)
{
    /* body: mov x K; test: subs x0, x0, #1; b.cs body (4 bytes each), or past 1 MiB of code,
     * where b.cs cannot reach back: subs; b.cc out; b body. */
    bool far = size > (1u << 20) - 64;
    uint64_t test_bytes = far ? 12 : 8, k = (size - test_bytes) / 4;
    int body = emit_label(e), test = emit_label(e), entry = emit_label(e);
    emit_bind(e, body);
    emit_comment(e, "body: %llu x mov, 4 bytes each", (unsigned long long)k);
    for (uint64_t i = 0; i < k; i++)
        emit_movz(e, ifetch_targets[i % ARRAY_SIZE(ifetch_targets)], (unsigned)(i & 0xffff));
    emit_bind(e, test);
    emit_comment(e, "loop test: run(n) executes n bodies and n+1 tests");
    if (far) {
        int out = emit_label(e);
        emit_subs_imm(e, X0, X0, 1);
        emit_bcond(e, CC_CC, out);
        emit_b(e, body);
        emit_bind(e, out);
    } else {
        emit_loop_test(e, body);
    }
    emit_ret(e);
    emit_comment(e, "entry: the function starts here, jumping to the test");
    emit_bind(e, entry);
    emit_b(e, test);
    *bytes = k * 4 + test_bytes;
    *insns = k;
    /* far: b.cc falls through until the last test, and b jumps back every iteration. */
    *n = (struct shape_counts){.inst = (double)k + (far ? 3 : 2), .cond_taken = far ? 0 : 1, .cond_ntaken = far ? 1 : 0,
                               .uncond = far ? 1 : 0};
    return entry;
}

int isa_bbexec_emit(struct emit *e, uint64_t words, uint64_t sqrts, struct shape_counts *n)
{
    int head = emit_label(e), odd = emit_label(e), join = emit_label(e), entry = emit_label(e);
    emit_comment(e, "head: odd iterations copy, even ones take square roots");
    emit_bind(e, head);
    emit_tbnz(e, X0, 0, odd);
    emit_comment(e, "even: %llu x fsqrt", (unsigned long long)sqrts);
    for (uint64_t s = 0; s < sqrts; s++)
        emit_fsqrt_d(e, 0, 1);
    emit_b(e, join);
    emit_comment(e, "odd: copy %llu words from data[0..] to data[%llu..]", (unsigned long long)words,
                 (unsigned long long)words);
    emit_bind(e, odd);
    for (uint64_t w = 0; w < words; w++) {
        emit_ldr(e, X2, X1, (unsigned)(8 * w));
        emit_str(e, X2, X1, (unsigned)(8 * (words + w)));
    }
    emit_comment(e, "join: the loop test");
    emit_bind(e, join);
    emit_loop_test(e, head);
    emit_ret(e);
    emit_comment(e, "entry: d1 = 2.0, then the test");
    emit_bind(e, entry);
    emit_fmov_d_2(e, 1);
    emit_b(e, join);
    /* head (tbnz) + even (S fsqrt, b) / 2 + odd (W ldr, W str) / 2 + join (subs, b.cs); tbnz is
     * taken on odd iterations, b.cs always, the even side's b on even ones. */
    double w = (double)words, s = (double)sqrts;
    *n = (struct shape_counts){.inst = 1 + 0.5 * (s + 1) + 0.5 * (2 * w) + 2, .loads = 0.5 * w, .stores = 0.5 * w,
                               .bytes_read = 4 * w, .bytes_written = 4 * w, .cond_taken = 1.5, .cond_ntaken = 0.5,
                               .uncond = 0.5};
    return entry;
}

const uint64_t isa_branch_max_bytes = (1u << 20) - 4096;   /* b.cs reaches back 1 MiB */

/* The branch kernel's instructions (arch/shape_ops.h): the slot in x2, its outcomes in x3. */
const size_t shape_jump_bytes = 4;        /* b */
const size_t shape_bit_branch_bytes = 4;  /* tbnz */
const size_t shape_bit_branch_jump_bytes = 4;   /* tbnz */
const size_t shape_loop_jump_bytes = 4;         /* b.cs (emit_loop_test) */
const unsigned isa_insn_align_bits = 2;

void shape_jump(struct emit *e, int label)
{
    emit_b(e, label);
}

void shape_slot(struct emit *e, uint64_t slots, uint64_t entry_bytes)
{
    emit_and_low(e, X2, X0, log2_ceil(slots));
    emit_add_lsl(e, X2, X1, X2, log2_ceil(entry_bytes));
}

void shape_slot_word(struct emit *e, uint64_t word)
{
    emit_ldr(e, X3, X2, (unsigned)(word * 8));
}

void shape_bit_branch(struct emit *e, unsigned bit, int label)
{
    emit_tbnz(e, X3, bit, label);
}

uint64_t shape_jump_through_slot(struct emit *e)
{
    emit_ldr(e, X3, X2, 0);
    emit_br(e, X3);
    return 4;   /* and, add, ldr, br */
}

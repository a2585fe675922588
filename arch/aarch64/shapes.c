/* The code-shaped kernels' A64 code (arch/isa.h): what generators/callchain.c, ifetch.c and
 * bbexec.c run here, written with a64_asm, with what an iteration of it executes; and the
 * instructions of the branch kernel's loops, which arch/shapes.c writes for every ISA. */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

/* The call of level d + 1 (d = 0: the loop body's). */
static void call_next(struct assembler *as, bool indirect, const int *fn, uint64_t d)
{
    if (indirect) {
        a64_asm_ldr(as, X16, X1, (unsigned)(8 * d));
        a64_asm_blr(as, X16);
    } else {
        a64_asm_bl(as, fn[d + 1]);
    }
}

int isa_callchain_assemble(struct assembler *as, uint64_t depth, bool indirect, const int *fn, struct shape_counts *n)
{
    int body = asm_label(as), test = asm_label(as), entry = asm_label(as);
    /* bl writes the return address to x30, not the stack, so every function that calls on
     * saves x30 first. body: call f1. f_d: save x30; call f_(d+1); restore x30; ret. f_D: ret. */
    asm_bind(as, body);
    call_next(as, indirect, fn, 0);
    asm_bind(as, test);
    asm_loop_test(as, body);
    a64_asm_pop_lr(as);
    asm_ret(as);
    for (uint64_t d = 1; d <= depth; d++) {
        asm_comment(as, "f%llu", (unsigned long long)d);
        asm_bind(as, fn[d]);
        if (d < depth) {
            a64_asm_push_lr(as);
            call_next(as, indirect, fn, d);
            a64_asm_pop_lr(as);
        }
        asm_ret(as);
    }
    asm_comment(as, "entry: the function starts here, saving its own return address, jumping to the test");
    asm_bind(as, entry);
    a64_asm_push_lr(as);
    a64_asm_b(as, test);
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

int isa_ifetch_assemble(struct assembler *as, uint64_t size, uint64_t *bytes, uint64_t *insns, struct shape_counts *n)
{
    /* body: mov x K; test: subs x0, x0, #1; b.cs body (4 bytes each), or past 1 MiB of code,
     * where b.cs cannot reach back: subs; b.cc out; b body. */
    bool far = size > (1u << 20) - 64;
    uint64_t test_bytes = far ? 12 : 8, k = (size - test_bytes) / 4;
    int body = asm_label(as), test = asm_label(as), entry = asm_label(as);
    asm_bind(as, body);
    asm_comment(as, "body: %llu x mov, 4 bytes each", (unsigned long long)k);
    for (uint64_t i = 0; i < k; i++)
        a64_asm_movz(as, ifetch_targets[i % ARRAY_SIZE(ifetch_targets)], (unsigned)(i & 0xffff));
    asm_bind(as, test);
    asm_comment(as, "loop test: loop(n) executes n bodies and n+1 tests");
    if (far) {
        int out = asm_label(as);
        a64_asm_subs_imm(as, X0, X0, 1);
        a64_asm_bcond(as, CC_CC, out);
        a64_asm_b(as, body);
        asm_bind(as, out);
    } else {
        asm_loop_test(as, body);
    }
    asm_ret(as);
    asm_comment(as, "entry: the function starts here, jumping to the test");
    asm_bind(as, entry);
    a64_asm_b(as, test);
    *bytes = k * 4 + test_bytes;
    *insns = k;
    /* far: b.cc falls through until the last test, and b jumps back every iteration. */
    *n = (struct shape_counts){.inst = (double)k + (far ? 3 : 2), .cond_taken = far ? 0 : 1, .cond_ntaken = far ? 1 : 0,
                               .uncond = far ? 1 : 0};
    return entry;
}

int isa_bbexec_assemble(struct assembler *as, uint64_t words, uint64_t sqrts, struct shape_counts *n)
{
    int head = asm_label(as), odd = asm_label(as), join = asm_label(as), entry = asm_label(as);
    asm_comment(as, "head: odd iterations copy, even ones take square roots");
    asm_bind(as, head);
    a64_asm_tbnz(as, X0, 0, odd);
    asm_comment(as, "even: %llu x fsqrt", (unsigned long long)sqrts);
    for (uint64_t s = 0; s < sqrts; s++)
        a64_asm_fsqrt_d(as, 0, 1);
    a64_asm_b(as, join);
    asm_comment(as, "odd: copy %llu words from data[0..] to data[%llu..]", (unsigned long long)words,
                 (unsigned long long)words);
    asm_bind(as, odd);
    for (uint64_t w = 0; w < words; w++) {
        a64_asm_ldr(as, X2, X1, (unsigned)(8 * w));
        a64_asm_str(as, X2, X1, (unsigned)(8 * (words + w)));
    }
    asm_comment(as, "join: the loop test");
    asm_bind(as, join);
    asm_loop_test(as, head);
    asm_ret(as);
    asm_comment(as, "entry: d1 = 2.0, then the test");
    asm_bind(as, entry);
    a64_asm_fmov_d_2(as, 1);
    a64_asm_b(as, join);
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
const size_t shape_loop_jump_bytes = 4;         /* b.cs (asm_loop_test) */
const unsigned isa_insn_align_bits = 2;

void shape_jump(struct assembler *as, int label)
{
    a64_asm_b(as, label);
}

void shape_slot(struct assembler *as, uint64_t slots, uint64_t entry_bytes)
{
    a64_asm_and_low(as, X2, X0, log2_ceil(slots));
    a64_asm_add_lsl(as, X2, X1, X2, log2_ceil(entry_bytes));
}

void shape_slot_word(struct assembler *as, uint64_t word)
{
    a64_asm_ldr(as, X3, X2, (unsigned)(word * 8));
}

void shape_bit_branch(struct assembler *as, unsigned bit, int label)
{
    a64_asm_tbnz(as, X3, bit, label);
}

uint64_t shape_jump_through_slot(struct assembler *as)
{
    a64_asm_ldr(as, X3, X2, 0);
    a64_asm_br(as, X3);
    return 4;   /* and, add, ldr, br */
}

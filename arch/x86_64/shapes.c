/* The code-shaped kernels' x86-64 code (arch/isa.h): what generators/callchain.c, ifetch.c and
 * bbexec.c run here, written with x86_emit, with what an iteration of it executes; and the
 * instructions of the branch kernel's loops, which arch/shapes.c writes for every ISA. */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

int isa_callchain_emit(struct emit *e, uint64_t depth, bool indirect, const int *fn, struct shape_counts *n)
{
    int body = emit_label(e), test = emit_label(e), entry = emit_label(e);
    /* body: call f1. f_d: call f_(d+1); ret. f_D: ret. Each function on a 16-byte boundary. */
    emit_bind(e, body);
    if (indirect) {
        emit_load(e, RAX, RSI, 0);
        emit_call_reg(e, RAX);
    } else {
        emit_call(e, fn[1]);
    }
    emit_bind(e, test);
    emit_loop_test(e, body);
    emit_ret(e);
    for (uint64_t d = 1; d <= depth; d++) {
        emit_align(e, 16);
        emit_comment(e, "f%llu", (unsigned long long)d);
        emit_bind(e, fn[d]);
        if (d < depth) {
            if (indirect) {
                emit_load(e, RAX, RSI, (int32_t)(8 * d));
                emit_call_reg(e, RAX);
            } else {
                emit_call(e, fn[d + 1]);
            }
        }
        emit_ret(e);
    }
    emit_comment(e, "entry: the function starts here, jumping to the test");
    emit_bind(e, entry);
    emit_jmp(e, test, REL32);
    /* Per iteration: D calls, D returns, the loop test (sub, jae); indirect adds D table loads.
     * Each ret reads its return address from the stack and each call writes one. */
    double d = (double)depth, table = indirect ? d : 0;
    *n = (struct shape_counts){.inst = 2 * d + 2 + table, .loads = d + table, .stores = d,
                               .bytes_read = 8 * (d + table), .bytes_written = 8 * d, .cond_taken = 1};
    return entry;
}

/* Registers written in turn: all caller-saved, none the loop uses (%rdi, %rsi). */
static const enum reg ifetch_targets[] = {RAX, RCX, RDX, R8, R9, R10, R11};
const char isa_ifetch_insn[] = "movabs";
const uint64_t isa_ifetch_max_bytes = 1ull << 31;

int isa_ifetch_emit(struct emit *e, uint64_t size, uint64_t *bytes, uint64_t *insns, struct shape_counts *n)
{
    /* body: movabs x K; test: sub $1,%rdi (4 bytes); jae body (6 bytes). */
    uint64_t k = (size - 10) / 10;
    int body = emit_label(e), test = emit_label(e), entry = emit_label(e);
    emit_bind(e, body);
    emit_comment(e, "body: %llu x movabs, 10 bytes each", (unsigned long long)k);
    for (uint64_t i = 0; i < k; i++)
        emit_movabs(e, ifetch_targets[i % ARRAY_SIZE(ifetch_targets)], i);
    emit_bind(e, test);
    emit_comment(e, "loop test: run(n) executes n bodies and n+1 tests");
    emit_loop_test(e, body);
    emit_ret(e);
    emit_comment(e, "entry: the function starts here, jumping to the test");
    emit_bind(e, entry);
    emit_jmp(e, test, REL32);
    *bytes = k * 10 + 10;
    *insns = k;
    *n = (struct shape_counts){.inst = (double)k + 2, .cond_taken = 1};
    return entry;
}

int isa_bbexec_emit(struct emit *e, uint64_t words, uint64_t sqrts, struct shape_counts *n)
{
    int head = emit_label(e), odd = emit_label(e), join = emit_label(e), entry = emit_label(e);
    emit_comment(e, "head: odd iterations copy, even ones take square roots");
    emit_bind(e, head);
    emit_bt_imm(e, RDI, 0);
    emit_jcc(e, CC_B, odd, REL32);
    emit_comment(e, "even: %llu x sqrtsd", (unsigned long long)sqrts);
    for (uint64_t s = 0; s < sqrts; s++)
        emit_sqrtsd(e, 0, 1);
    emit_jmp(e, join, REL32);
    emit_comment(e, "odd: copy %llu words from data[0..] to data[%llu..]", (unsigned long long)words,
                 (unsigned long long)words);
    emit_bind(e, odd);
    for (uint64_t w = 0; w < words; w++) {
        emit_load(e, RAX, RSI, (int32_t)(8 * w));
        emit_store(e, RAX, RSI, (int32_t)(8 * (words + w)));
    }
    emit_comment(e, "join: the loop test");
    emit_bind(e, join);
    emit_loop_test(e, head);
    emit_ret(e);
    emit_comment(e, "entry: %%xmm1 = 2.0, then the test");
    emit_bind(e, entry);
    emit_movabs(e, RAX, 0x4000000000000000ull);
    emit_movq_to_xmm(e, 1, RAX);
    emit_jmp(e, join, REL32);
    /* head (bt, jb) + even (S sqrtsd, jmp) / 2 + odd (W loads, W stores) / 2 + join (sub, jae);
     * jb is taken on odd iterations, jae always, the even side's jmp on even ones. */
    double w = (double)words, s = (double)sqrts;
    *n = (struct shape_counts){.inst = 2 + 0.5 * (s + 1) + 0.5 * (2 * w) + 2, .loads = 0.5 * w, .stores = 0.5 * w,
                               .bytes_read = 4 * w, .bytes_written = 4 * w, .cond_taken = 1.5, .cond_ntaken = 0.5,
                               .uncond = 0.5};
    return entry;
}

const uint64_t isa_branch_max_bytes = 1ull << 31;   /* jae rel32 */

/* The branch kernel's instructions (arch/shape_ops.h): the slot in %rax, its outcomes in %rdx. */
const size_t shape_jump_bytes = 5;        /* jmp rel32 */
const size_t shape_bit_branch_bytes = 7;  /* bt $j,%rdx (5) + jb rel8 (2) */
const size_t shape_bit_branch_jump_bytes = 2;   /* jb rel8 */
const size_t shape_loop_jump_bytes = 6;         /* jae rel32 (emit_loop_test) */
const unsigned isa_insn_align_bits = 0;

void shape_jump(struct emit *e, int label)
{
    emit_jmp(e, label, REL32);
}

void shape_slot(struct emit *e, uint64_t slots, uint64_t entry_bytes)
{
    emit_mov_reg(e, RAX, RDI);
    emit_and_imm(e, RAX, (int32_t)(slots - 1));
    emit_shl_imm(e, RAX, (int)log2_ceil(entry_bytes));
    emit_add_reg(e, RAX, RSI);
}

void shape_slot_word(struct emit *e, uint64_t word)
{
    emit_load(e, RDX, RAX, (int32_t)(word * 8));
}

void shape_bit_branch(struct emit *e, unsigned bit, int label)
{
    emit_bt_imm(e, RDX, (int)bit);
    emit_jcc(e, CC_B, label, REL8);
}

uint64_t shape_jump_through_slot(struct emit *e)
{
    emit_jmp_mem(e, RAX, 0);
    return 5;   /* mov, and, shl, add, jmp */
}

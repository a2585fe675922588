/* The code-shaped kernels' x86-64 code (arch/isa.h): what generators/callchain.c, ifetch.c and
 * bbexec.c run here, written with x86_asm, with what an iteration of it executes; and the
 * instructions of the branch kernel's loops, which arch/shapes.c writes for every ISA. */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

int isa_callchain_assemble(struct assembler *as, uint64_t depth, bool indirect, const int *fn, struct shape_counts *n)
{
    int body = asm_label(as), test = asm_label(as), entry = asm_label(as);
    /* body: call f1. f_d: call f_(d+1); ret. f_D: ret. Each function on a 16-byte boundary. */
    asm_bind(as, body);
    if (indirect) {
        x86_asm_load(as, RAX, RSI, 0);
        x86_asm_call_reg(as, RAX);
    } else {
        x86_asm_call(as, fn[1]);
    }
    asm_bind(as, test);
    asm_loop_test(as, body);
    asm_ret(as);
    for (uint64_t d = 1; d <= depth; d++) {
        asm_align(as, 16);
        asm_comment(as, "f%llu", (unsigned long long)d);
        asm_bind(as, fn[d]);
        if (d < depth) {
            if (indirect) {
                x86_asm_load(as, RAX, RSI, (int32_t)(8 * d));
                x86_asm_call_reg(as, RAX);
            } else {
                x86_asm_call(as, fn[d + 1]);
            }
        }
        asm_ret(as);
    }
    asm_comment(as, "entry: the function starts here, jumping to the test");
    asm_bind(as, entry);
    x86_asm_jmp(as, test, REL32);
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

int isa_ifetch_assemble(struct assembler *as, uint64_t size, uint64_t *bytes, uint64_t *insns, struct shape_counts *n)
{
    /* body: movabs x K; test: sub $1,%rdi (4 bytes); jae body (6 bytes). */
    uint64_t k = (size - 10) / 10;
    int body = asm_label(as), test = asm_label(as), entry = asm_label(as);
    asm_bind(as, body);
    asm_comment(as, "body: %llu x movabs, 10 bytes each", (unsigned long long)k);
    for (uint64_t i = 0; i < k; i++)
        x86_asm_movabs(as, ifetch_targets[i % ARRAY_SIZE(ifetch_targets)], i);
    asm_bind(as, test);
    asm_comment(as, "loop test: loop(n) executes n bodies and n+1 tests");
    asm_loop_test(as, body);
    asm_ret(as);
    asm_comment(as, "entry: the function starts here, jumping to the test");
    asm_bind(as, entry);
    x86_asm_jmp(as, test, REL32);
    *bytes = k * 10 + 10;
    *insns = k;
    *n = (struct shape_counts){.inst = (double)k + 2, .cond_taken = 1};
    return entry;
}

int isa_bbexec_assemble(struct assembler *as, uint64_t words, uint64_t sqrts, struct shape_counts *n)
{
    int head = asm_label(as), odd = asm_label(as), join = asm_label(as), entry = asm_label(as);
    asm_comment(as, "head: odd iterations copy, even ones take square roots");
    asm_bind(as, head);
    x86_asm_bt_imm(as, RDI, 0);
    x86_asm_jcc(as, CC_B, odd, REL32);
    asm_comment(as, "even: %llu x sqrtsd", (unsigned long long)sqrts);
    for (uint64_t s = 0; s < sqrts; s++)
        x86_asm_sqrtsd(as, 0, 1);
    x86_asm_jmp(as, join, REL32);
    asm_comment(as, "odd: copy %llu words from data[0..] to data[%llu..]", (unsigned long long)words,
                 (unsigned long long)words);
    asm_bind(as, odd);
    for (uint64_t w = 0; w < words; w++) {
        x86_asm_load(as, RAX, RSI, (int32_t)(8 * w));
        x86_asm_store(as, RAX, RSI, (int32_t)(8 * (words + w)));
    }
    asm_comment(as, "join: the loop test");
    asm_bind(as, join);
    asm_loop_test(as, head);
    asm_ret(as);
    asm_comment(as, "entry: %%xmm1 = 2.0, then the test");
    asm_bind(as, entry);
    x86_asm_movabs(as, RAX, 0x4000000000000000ull);
    x86_asm_movq_to_xmm(as, 1, RAX);
    x86_asm_jmp(as, join, REL32);
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
const size_t shape_loop_jump_bytes = 6;         /* jae rel32 (asm_loop_test) */
const unsigned isa_insn_align_bits = 0;

void shape_jump(struct assembler *as, int label)
{
    x86_asm_jmp(as, label, REL32);
}

void shape_slot(struct assembler *as, uint64_t slots, uint64_t entry_bytes)
{
    x86_asm_mov_reg(as, RAX, RDI);
    x86_asm_and_imm(as, RAX, (int32_t)(slots - 1));
    x86_asm_shl_imm(as, RAX, (int)log2_ceil(entry_bytes));
    x86_asm_add_reg(as, RAX, RSI);
}

void shape_slot_word(struct assembler *as, uint64_t word)
{
    x86_asm_load(as, RDX, RAX, (int32_t)(word * 8));
}

void shape_bit_branch(struct assembler *as, unsigned bit, int label)
{
    x86_asm_bt_imm(as, RDX, (int)bit);
    x86_asm_jcc(as, CC_B, label, REL8);
}

uint64_t shape_jump_through_slot(struct assembler *as)
{
    x86_asm_jmp_mem(as, RAX, 0);
    return 5;   /* mov, and, shl, add, jmp */
}

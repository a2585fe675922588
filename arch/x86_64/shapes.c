/* The code-shaped kernels' x86-64 code (arch/isa.h): what generators/callchain.c, ifetch.c and
 * bbexec.c run here, written with x86_emit, with what an iteration of it executes. */
#include "arch/isa.h"
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

static int log2u(uint64_t x)
{
    int l = 0;
    while ((1ull << l) < x)
        l++;
    return l;
}

/* %rax = data + (%rdi & (slots-1)) * entry_bytes: the iteration's slot of the table. */
static void emit_slot(struct emit *e, uint64_t slots, uint64_t entry_bytes)
{
    emit_mov_reg(e, RAX, RDI);
    emit_and_imm(e, RAX, (int32_t)(slots - 1));
    emit_shl_imm(e, RAX, log2u(entry_bytes));
    emit_add_reg(e, RAX, RSI);
}

uint64_t isa_branch_cond(struct emit *e, int body, int test, uint64_t branches, uint64_t density, uint64_t slots,
                         uint64_t entry_bytes)
{
    uint64_t spacing = 64 / density;
    emit_bind(e, body);
    size_t n0 = e->ninsn;
    emit_comment(e, "slot of this iteration: %%rax = table + (%%rdi & %llu) * %llu", (unsigned long long)(slots - 1),
                 (unsigned long long)entry_bytes);
    emit_slot(e, slots, entry_bytes);
    emit_align(e, 64);
    for (uint64_t j = 0; j < branches; j++) {
        size_t start = e->len;
        if (j % 64 == 0) {
            emit_comment(e, "outcomes of branches %llu..%llu", (unsigned long long)j,
                         (unsigned long long)(j + 63 < branches ? j + 63 : branches - 1));
            emit_load(e, RDX, RAX, (int32_t)(j / 64 * 8));
        }
        size_t used = e->len - start + 7;   /* bt $j,%rdx (5) + jb rel8 (2) */
        emit_fill(e, spacing > used ? spacing - used : 0);
        emit_bt_imm(e, RDX, (int)(j % 64));
        int next = emit_label(e);
        emit_jcc(e, CC_B, next, REL8);   /* taken or not, on to the next instruction */
        emit_bind(e, next);
    }
    emit_bind(e, test);
    emit_loop_test(e, body);
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
        emit_jmp(e, next[i] < n ? block[next[i]] : test, REL32);
        emit_fill(e, spacing - 5);
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
    emit_comment(e, "slot of this iteration, then jmp through it to one of %llu targets", (unsigned long long)ntargets);
    emit_slot(e, slots, 8);
    emit_jmp_mem(e, RAX, 0);
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
    return 5 + 2;
}

int isa_emit_entry(struct emit *e, int test)
{
    int entry = emit_label(e);
    emit_comment(e, "entry: the function starts here, jumping to the test");
    emit_bind(e, entry);
    emit_jmp(e, test, REL32);
    return entry;
}

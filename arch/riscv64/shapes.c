/* The code-shaped kernels' RV64 code (arch/isa.h): what generators/callchain.c, ifetch.c and
 * bbexec.c run here, written with rv_asm (32-bit instructions only), with what an iteration of
 * it executes; and the instructions of the branch kernel's loops, which arch/shapes.c writes for
 * every ISA. */
#include "arch/shape_ops.h"
#include "base/util.h"
#include <stdlib.h>

/* The loop test's counts per iteration, as asm_loop_test wrote it. */
static void loop_test_counts(struct shape_counts *n, double *inst, struct loop_test t)
{
    *inst += t.inst;
    n->cond_taken += t.cond_taken;
    n->cond_ntaken += t.cond_ntaken;
    n->uncond += t.uncond;
}

/* The call of level d + 1 (d = 0: the loop body's). */
static void call_next(struct assembler *as, bool indirect, const int *fn, uint64_t d)
{
    if (indirect) {
        rv_asm_ld(as, T1, A1, (int)(8 * d));
        rv_asm_jalr(as, T1);
    } else {
        rv_asm_jal(as, fn[d + 1]);
    }
}

int isa_callchain_assemble(struct assembler *as, uint64_t depth, bool indirect, const int *fn, struct shape_counts *n)
{
    if (indirect && 8 * depth > 2047)
        pm_fatal("callchain: depth %llu puts the table past ld's 2 KiB offset", (unsigned long long)depth);
    int body = asm_label(as), test = asm_label(as), entry = asm_label(as);
    /* jal writes the return address to ra, not the stack, so every function that calls on saves
     * ra first. body: call f1. f_d: save ra; call f_(d+1); restore ra; ret. f_D: ret. */
    asm_bind(as, body);
    call_next(as, indirect, fn, 0);
    asm_bind(as, test);
    *n = (struct shape_counts){0};
    double inst = 0;
    loop_test_counts(n, &inst, asm_loop_test(as, body));
    rv_asm_pop_ra(as);
    asm_ret(as);
    for (uint64_t d = 1; d <= depth; d++) {
        asm_comment(as, "f%llu", (unsigned long long)d);
        asm_bind(as, fn[d]);
        if (d < depth) {
            rv_asm_push_ra(as);
            call_next(as, indirect, fn, d);
            rv_asm_pop_ra(as);
        }
        asm_ret(as);
    }
    asm_comment(as, "entry: the function starts here, saving its own return address, jumping to the test");
    asm_bind(as, entry);
    rv_asm_push_ra(as);
    rv_asm_j(as, test);
    /* Per iteration: D calls and D returns; in each of the D - 1 functions that call on, a save
     * (addi, sd) and a restore (ld, addi) of ra; the loop test; indirect adds D table loads. */
    double d = (double)depth, saves = d - 1, table = indirect ? d : 0;
    n->inst = inst + 2 * d + 4 * saves + table;
    n->loads = saves + table;
    n->stores = saves;
    n->bytes_read = 8 * saves + 8 * table;
    n->bytes_written = 8 * saves;
    return entry;
}

/* Registers written in turn: all caller-saved, none the loop uses (a0, a1) nor t0 (the far jump's). */
static const enum reg ifetch_targets[] = {T1, T2, A2, A3, A4, A5, A6, A7, T3, T4, T5, T6};
const char isa_ifetch_insn[] = "li";
const uint64_t isa_ifetch_max_bytes = 120ull << 20;   /* auipc and jalr reach 2 GiB */

int isa_ifetch_assemble(struct assembler *as, uint64_t size, uint64_t *bytes, uint64_t *insns, struct shape_counts *n)
{
    /* body: li xK, imm (addi xK, zero, imm); test: addi a0, a0, -1; bgez a0, body, or beyond the
     * branch's 4 KiB: addi; bltz a0, out; j body, or beyond jal's 1 MiB: addi; bltz; auipc t0;
     * jr t0 (4 bytes each). */
    enum { NEAR, MID, FAR } form = size <= RV_B_REACH - 64 ? NEAR : size <= (1u << 20) - 64 ? MID : FAR;
    uint64_t test_bytes = form == NEAR ? 8 : form == MID ? 12 : 16, k = (size - test_bytes) / 4;
    int body = asm_label(as), test = asm_label(as), entry = asm_label(as);
    asm_bind(as, body);
    asm_comment(as, "body: %llu x li, 4 bytes each", (unsigned long long)k);
    for (uint64_t i = 0; i < k; i++)
        rv_asm_addi(as, ifetch_targets[i % ARRAY_SIZE(ifetch_targets)], ZERO, (int)(i & 0x7ff));
    asm_bind(as, test);
    asm_comment(as, "loop test: loop(n) executes n bodies and n+1 tests");
    if (form == NEAR) {
        asm_loop_test(as, body);
    } else {
        int out = asm_label(as);
        rv_asm_addi(as, A0, A0, -1);
        rv_asm_branch(as, RV_LT, A0, ZERO, out);
        if (form == FAR)
            rv_asm_jump_far(as, body);
        else
            rv_asm_j(as, body);
        asm_bind(as, out);
    }
    asm_ret(as);
    asm_comment(as, "entry: the function starts here, jumping to the test");
    asm_bind(as, entry);
    rv_asm_j(as, test);
    *bytes = k * 4 + test_bytes;
    *insns = k;
    /* The long forms: bltz falls through until the last test, and the jump back runs every
     * iteration (jr through t0 is an indirect jump, not a call). */
    *n = (struct shape_counts){.inst = (double)k + (form == NEAR ? 2 : form == MID ? 3 : 4),
                               .cond_taken = form == NEAR ? 1 : 0, .cond_ntaken = form == NEAR ? 0 : 1,
                               .uncond = form == NEAR ? 0 : 1};
    return entry;
}

int isa_bbexec_assemble(struct assembler *as, uint64_t words, uint64_t sqrts, struct shape_counts *n)
{
    int head = asm_label(as), odd = asm_label(as), join = asm_label(as), entry = asm_label(as);
    asm_comment(as, "head: odd iterations copy, even ones take square roots");
    asm_bind(as, head);
    rv_asm_andi(as, T0, A0, 1);
    rv_asm_branch(as, RV_NE, T0, ZERO, odd);
    asm_comment(as, "even: %llu x fsqrt.d", (unsigned long long)sqrts);
    for (uint64_t s = 0; s < sqrts; s++)
        rv_asm_fsqrt_d(as, 0, 1);
    rv_asm_j(as, join);
    asm_comment(as, "odd: copy %llu words from data[0..] to data[%llu..]", (unsigned long long)words,
                 (unsigned long long)words);
    asm_bind(as, odd);
    for (uint64_t w = 0; w < words; w++) {
        rv_asm_ld(as, T1, A1, (int)(8 * w));
        rv_asm_sd(as, T1, A1, (int)(8 * (words + w)));
    }
    asm_comment(as, "join: the loop test");
    asm_bind(as, join);
    *n = (struct shape_counts){0};
    double test = 0;
    loop_test_counts(n, &test, asm_loop_test(as, head));
    asm_ret(as);
    asm_comment(as, "entry: ft1 = 2.0, then the test");
    asm_bind(as, entry);
    rv_asm_addi(as, T0, ZERO, 2);
    rv_asm_fcvt_d_l(as, 1, T0);
    rv_asm_j(as, join);
    /* head (andi, bnez) + even (S fsqrt.d, j) / 2 + odd (W ld, W sd) / 2 + the test; bnez is
     * taken on odd iterations, the even side's j on even ones. */
    double w = (double)words, s = (double)sqrts;
    n->inst = 2 + 0.5 * (s + 1) + 0.5 * (2 * w) + test;
    n->loads = n->stores = 0.5 * w;
    n->bytes_read = n->bytes_written = 4 * w;
    n->cond_taken += 0.5;
    n->cond_ntaken += 0.5;
    n->uncond += 0.5;
    return entry;
}

const uint64_t isa_branch_max_bytes = (1u << 20) - 4096;   /* the long loop test's j reaches back 1 MiB */

/* The branch kernel's instructions (arch/shape_ops.h): the slot in t1, its outcomes in t2, the
 * bit tested in t0. */
const size_t shape_jump_bytes = 4;              /* j */
const size_t shape_bit_branch_bytes = 8;        /* slli, bltz */
const size_t shape_bit_branch_jump_bytes = 4;   /* bltz */
const size_t shape_loop_jump_bytes = 4;         /* bgez (asm_loop_test), or j in its long form */
const unsigned isa_insn_align_bits = 2;         /* no 16-bit instructions in generated code */

void shape_jump(struct assembler *as, int label)
{
    rv_asm_j(as, label);
}

static uint64_t slot_insns;

/* (counter & (slots - 1)) * entry_bytes as the counter's low bits shifted to the top and back
 * down to their place: andi's immediate reaches 11 bits only. */
void shape_slot(struct assembler *as, uint64_t slots, uint64_t entry_bytes)
{
    unsigned bits = log2_ceil(slots), sh = log2_ceil(entry_bytes);
    if (bits) {
        rv_asm_slli(as, T1, A0, 64 - bits);
        rv_asm_srli(as, T1, T1, 64 - bits - sh);
        rv_asm_add(as, T1, A1, T1);
        slot_insns = 3;
    } else {
        rv_asm_add(as, T1, A1, ZERO);
        slot_insns = 1;
    }
}

void shape_slot_word(struct assembler *as, uint64_t word)
{
    rv_asm_ld(as, T2, T1, (int)(word * 8));
}

/* RV64GC has no bit-test branch: the bit goes to the sign (slli) and bltz tests it. */
void shape_bit_branch(struct assembler *as, unsigned bit, int label)
{
    rv_asm_slli(as, T0, T2, 63 - bit);
    rv_asm_branch(as, RV_LT, T0, ZERO, label);
}

uint64_t shape_jump_through_slot(struct assembler *as)
{
    rv_asm_ld(as, T2, T1, 0);
    rv_asm_jr(as, T2);
    return slot_insns + 2;
}

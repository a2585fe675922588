#include "arch/aarch64/a64_asm.h"
#include "base/util.h"
#include <string.h>

static const char *const ccname[14] = {"eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc",
                                       "hi", "ls", "ge", "lt", "gt", "le"};

static void word(struct assembler *as, uint32_t w)
{
    uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    asm_put(as, b, 4);
}

/* "x3", or the name register 31 has in this operand: "sp" for a base or add, "xzr" otherwise. */
static const char *xn(char *buf, enum reg r, bool sp)
{
    if (r == 31)
        return sp ? "sp" : "xzr";
    snprintf(buf, 8, "x%d", (int)r);
    return buf;
}

void a64_asm_nop(struct assembler *as)
{
    size_t s = as->len;
    word(as, 0xd503201fu);
    asm_insn(as, s, -1, "nop");
}

static void branch(struct assembler *as, uint32_t op, int width, int label, const char *name)
{
    size_t s = as->len;
    asm_fixup_add(as, s, label, width);
    word(as, op);
    asm_insn(as, s, label, "%s", name);
}

void a64_asm_b(struct assembler *as, int label) { branch(as, 0x14000000u, A64_IMM26, label, "b"); }
void a64_asm_bl(struct assembler *as, int label) { branch(as, 0x94000000u, A64_IMM26, label, "bl"); }

void a64_asm_bcond(struct assembler *as, enum cc cc, int label)
{
    char name[8];
    snprintf(name, sizeof(name), "b.%s", ccname[cc]);
    branch(as, 0x54000000u | (uint32_t)cc, A64_IMM19, label, name);
}

void asm_ret(struct assembler *as)
{
    size_t s = as->len;
    word(as, 0xd65f03c0u);
    asm_insn(as, s, -1, "ret");
}

static void reg_branch(struct assembler *as, uint32_t op, enum reg r, const char *name)
{
    char b[8];
    size_t s = as->len;
    word(as, op | (uint32_t)r << 5);
    asm_insn(as, s, -1, "%s %s", name, xn(b, r, false));
}

void a64_asm_br(struct assembler *as, enum reg r) { reg_branch(as, 0xd61f0000u, r, "br"); }
void a64_asm_blr(struct assembler *as, enum reg r) { reg_branch(as, 0xd63f0000u, r, "blr"); }

static void imm12_op(struct assembler *as, uint32_t op, enum reg d, enum reg n, unsigned imm, const char *name, bool d_sp)
{
    if (imm > 0xfff)
        pm_fatal("assembler: %s immediate %u does not fit 12 bits", name, imm);
    char bd[8], bn[8];
    size_t s = as->len;
    word(as, op | imm << 10 | (uint32_t)n << 5 | (uint32_t)d);
    asm_insn(as, s, -1, "%s %s, %s, #0x%x", name, xn(bd, d, d_sp), xn(bn, n, true), imm);
}

void a64_asm_add_imm(struct assembler *as, enum reg d, enum reg n, unsigned imm) { imm12_op(as, 0x91000000u, d, n, imm, "add", true); }
void a64_asm_subs_imm(struct assembler *as, enum reg d, enum reg n, unsigned imm) { imm12_op(as, 0xf1000000u, d, n, imm, "subs", false); }

void a64_asm_movz(struct assembler *as, enum reg d, unsigned imm16)
{
    if (imm16 > 0xffff)
        pm_fatal("assembler: movz immediate %u does not fit 16 bits", imm16);
    char bd[8];
    size_t s = as->len;
    word(as, 0xd2800000u | imm16 << 5 | (uint32_t)d);
    asm_insn(as, s, -1, "mov %s, #0x%x", xn(bd, d, false), imm16);
}

int asm_fill(struct assembler *as, size_t bytes)
{
    if (bytes % 4)
        pm_fatal("assembler: %zu bytes cannot be filled with 4-byte nops", bytes);
    for (size_t i = 0; i < bytes / 4; i++)
        a64_asm_nop(as);
    return (int)(bytes / 4);
}

void a64_asm_and_low(struct assembler *as, enum reg d, enum reg n, unsigned bits)
{
    if (bits < 1 || bits > 63)
        pm_fatal("assembler: and with the low %u bits cannot be encoded", bits);
    char bd[8], bn[8];
    size_t s = as->len;
    /* Logical immediate, 64-bit element (N = 1), no rotation, bits ones: imms = bits - 1. */
    word(as, 0x92400000u | (bits - 1) << 10 | (uint32_t)n << 5 | (uint32_t)d);
    asm_insn(as, s, -1, "and %s, %s, #0x%llx", xn(bd, d, false), xn(bn, n, false), (unsigned long long)((1ull << bits) - 1));
}

void a64_asm_add_lsl(struct assembler *as, enum reg d, enum reg n, enum reg m, unsigned shift)
{
    if (shift > 63)
        pm_fatal("assembler: add shift %u is not 0..63", shift);
    char bd[8], bn[8], bm[8];
    size_t s = as->len;
    word(as, 0x8b000000u | (uint32_t)m << 16 | shift << 10 | (uint32_t)n << 5 | (uint32_t)d);
    if (shift)
        asm_insn(as, s, -1, "add %s, %s, %s, lsl #%u", xn(bd, d, false), xn(bn, n, false), xn(bm, m, false), shift);
    else
        asm_insn(as, s, -1, "add %s, %s, %s", xn(bd, d, false), xn(bn, n, false), xn(bm, m, false));
}

/* ldr or str of x register t at base + disp (unsigned, scaled by 8). */
static void load_store(struct assembler *as, uint32_t op, const char *name, enum reg t, enum reg base, unsigned disp)
{
    if (disp % 8 || disp / 8 > 0xfff)
        pm_fatal("assembler: %s offset %u is not a multiple of 8 below 32768", name, disp);
    char bt[8], bb[8];
    size_t s = as->len;
    word(as, op | (disp / 8) << 10 | (uint32_t)base << 5 | (uint32_t)t);
    asm_insn(as, s, -1, "%s %s, [%s, #%u]", name, xn(bt, t, false), xn(bb, base, true), disp);
}

void a64_asm_ldr(struct assembler *as, enum reg t, enum reg base, unsigned disp) { load_store(as, 0xf9400000u, "ldr", t, base, disp); }
void a64_asm_str(struct assembler *as, enum reg t, enum reg base, unsigned disp) { load_store(as, 0xf9000000u, "str", t, base, disp); }

void a64_asm_tbnz(struct assembler *as, enum reg r, unsigned bit, int label)
{
    if (bit > 63)
        pm_fatal("assembler: tbnz bit %u is not 0..63", bit);
    char b[8], name[32];
    snprintf(name, sizeof(name), "tbnz %s, #%u,", xn(b, r, false), bit);
    branch(as, 0x36000000u | 1u << 24 | (bit >> 5) << 31 | (bit & 31) << 19 | (uint32_t)r, A64_IMM14, label, name);
}

void a64_asm_fmov_d_2(struct assembler *as, unsigned d)
{
    size_t s = as->len;
    word(as, 0x1e601000u | (d & 31));   /* imm8 0x00 is 2.0 in FMOV's 8-bit float */
    asm_insn(as, s, -1, "fmov d%u, #2.000000000000000000e+00", d & 31);
}

void a64_asm_fsqrt_d(struct assembler *as, unsigned d, unsigned n)
{
    size_t s = as->len;
    word(as, 0x1e61c000u | (n & 31) << 5 | (d & 31));
    asm_insn(as, s, -1, "fsqrt d%u, d%u", d & 31, n & 31);
}

void a64_asm_push_lr(struct assembler *as)
{
    size_t s = as->len;
    word(as, 0xa9bf7bfdu);
    asm_insn(as, s, -1, "stp x29, x30, [sp, #-16]!");
}

void a64_asm_pop_lr(struct assembler *as)
{
    size_t s = as->len;
    word(as, 0xa8c17bfdu);
    asm_insn(as, s, -1, "ldp x29, x30, [sp], #16");
}

struct loop_test asm_loop_test(struct assembler *as, int body)
{
    a64_asm_subs_imm(as, X0, X0, 1);
    a64_asm_bcond(as, CC_CS, body);   /* b.cond reaches 1 MiB, all generated code: no long form */
    return (struct loop_test){.inst = 2, .cond_taken = 1};
}

/* Offsets count words from the branch itself. */
void isa_asm_resolve(struct assembler *as, const struct asm_fixup *f, int64_t target)
{
    int64_t rel = (target - (int64_t)f->at) / 4;
    int64_t lim = (int64_t)1 << (f->width - 1);
    if (rel < -lim || rel >= lim)
        pm_fatal("assembler: imm%d branch at offset %zu cannot reach %lld words", f->width, f->at, (long long)rel);
    uint32_t w;
    memcpy(&w, as->buf + f->at, 4);
    uint32_t field = (uint32_t)rel & (((uint32_t)1 << f->width) - 1);
    w |= f->width == A64_IMM26 ? field : field << 5;
    memcpy(as->buf + f->at, &w, 4);
}

const uint8_t isa_asm_trap_byte = 0x00;   /* words of zero: udf #0 */
const char isa_asm_syntax[] = "A64 as objdump prints it";

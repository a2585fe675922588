/* The user's code on RISC-V (arch/snippet.h): GNU as (riscv64-linux-gnu-as on another host, then
 * as), told to write no 16-bit instructions (.option norvc), so every instruction is one 32-bit
 * word decoded here and the model needs no disassembler; objdump only spells the words where it
 * is installed. */
#include "arch/isa.h"
#include "arch/snippet.h"
#include <linux/audit.h>
#include "arch/snippet_objdump.h"
#include "base/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#ifndef AUDIT_ARCH_RISCV64
#define AUDIT_ARCH_RISCV64 (EM_RISCV | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)
#endif

const char *const isa_snippet_assemblers[] = {"riscv64-linux-gnu-as", "as", NULL};
const char *const isa_snippet_as_flags[] = {"-march=rv64gc", NULL};
const char isa_snippet_preamble[] = ".text\n.option norvc\n";
const uint32_t isa_snippet_audit_arch = AUDIT_ARCH_RISCV64;
const char isa_snippet_scratch_reg[] = "a1";
const char isa_snippet_init_doc[] =
    "a1 points at a 64 KiB scratch buffer whose every 8-byte word holds the buffer's own address (a load\n"
    "through any register holding it gives it back: a pointer chase); every other of t0-t6, s0-s11 and a2-a7\n"
    "starts at 1; f0-f31 at 1.0. a0 (the loop's counter), ra, sp, gp and tp are the loop's own: a snippet\n"
    "naming them is refused. Instructions are assembled without the C extension (32-bit only).";

/* Numbers: 0-31 x0-x31, 32-63 f0-f31. */
#define FP0 32
const char *const isa_snippet_regs[SNIPPET_NREGS] = {
    NULL, NULL, NULL, NULL, NULL, "t0", "t1", "t2", "s0", "s1", NULL, "a1", "a2", "a3", "a4", "a5",
    "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",
    "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

static bool reserved_reg(int r)
{
    return r >= 1 && r <= 4 ? true : r == 10;
}

uint64_t isa_snippet_reg_default(int i, uint64_t scratch)
{
    return i == 11 ? scratch : i >= FP0 ? 0x3ff0000000000000ull : 1;
}

/* A register token at s (len chars): xN, fN, or an ABI name (zero, ra, sp, gp, tp, fp, tN, sN,
 * aN, ftN, fsN, faN); -1 otherwise. */
static int reg_parse(const char *s, size_t len, bool *fp_out)
{
    char t[8];
    if (len == 0 || len >= sizeof(t))
        return -1;
    for (size_t i = 0; i < len; i++)
        t[i] = (char)tolower((unsigned char)s[i]);
    t[len] = 0;
    bool fp = false;
    int r = -1;
    if ((t[0] == 'x' || t[0] == 'f') && isdigit((unsigned char)t[1]) && (len == 2 || (t[1] != '0' && len == 3 &&
        isdigit((unsigned char)t[2])))) {
        r = atoi(t + 1);
        fp = t[0] == 'f';
        if (r > 31)
            return -1;
    } else if (!strcmp(t, "fp")) {
        r = 8;
    } else {
        fp = t[0] == 'f' && len > 2;
        const char *abi = fp ? t + 1 : t;
        for (int i = 0; i < 32 && r < 0; i++) {
            const char *name = fp ? rv_freg_name((unsigned)i) + 1 : rv_reg_name((unsigned)i);
            if (!strcmp(abi, name))
                r = i;
        }
        if (r < 0)
            return -1;
    }
    if (fp_out)
        *fp_out = fp;
    return fp ? FP0 + r : r;
}

int isa_snippet_reg_lookup(const char *name)
{
    return reg_parse(name, strlen(name), NULL);
}

static bool tok_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Each register token of text: fn(arg, at, len, reg); stops when fn returns true. An
 * instruction's mnemonic ("add", "fadd.d") is the line's first token, never a register. */
static bool each_reg(const char *text, bool (*fn)(void *, const char *, size_t, int), void *arg)
{
    bool first = true;
    for (const char *p = text; *p;) {
        if (*p == ';' || *p == '\n')
            first = true;
        if (!tok_char(*p) || (p > text && tok_char(p[-1]))) {
            p++;
            continue;
        }
        const char *s = p;
        while (tok_char(*p))
            p++;
        if (first) {
            first = false;
            continue;
        }
        int r = reg_parse(s, (size_t)(p - s), NULL);
        if (r >= 0 && fn(arg, s, (size_t)(p - s), r))
            return true;
    }
    return false;
}

static bool is_reserved(void *arg, const char *at, size_t len, int r)
{
    if (!reserved_reg(r))
        return false;
    snprintf(arg, 16, "%.*s", (int)len, at);
    return true;
}

const char *isa_snippet_reserved(const char *text)
{
    static char found[16];
    return each_reg(text, is_reserved, found) ? found : NULL;
}

static bool is_r(void *arg, const char *at, size_t len, int r)
{
    (void)at, (void)len;
    return r == *(int *)arg;
}

bool isa_snippet_names(const char *text, int r)
{
    return each_reg(text, is_r, &r);
}

bool isa_snippet_rename(const char *text, int from, int to, char *out, size_t n)
{
    size_t o = 0;
    bool first = true;
    for (const char *p = text; *p;) {
        const char *s = p;
        int r = -1;
        if (*p == ';' || *p == '\n')
            first = true;
        if (tok_char(*p) && !(p > text && tok_char(p[-1]))) {
            while (tok_char(*p))
                p++;
            if (!first)
                r = reg_parse(s, (size_t)(p - s), NULL);
            first = false;
        } else {
            p++;
        }
        if (r == from && (from >= FP0) != (to >= FP0))
            return false;
        int k = r == from && r != 0
                    ? snprintf(out + o, n - o, "%s", to >= FP0 ? rv_freg_name((unsigned)(to - FP0)) : rv_reg_name((unsigned)to))
                    : snprintf(out + o, n - o, "%.*s", (int)(p - s), s);
        if (k < 0 || (size_t)k >= n - o)
            return false;
        o += (size_t)k;
    }
    return true;
}

int isa_snippet_spares(int r, int *out, int max)
{
    static const int ints[] = {27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 31, 30, 29, 28, 17, 16, 15, 14};
    int n = 0;
    if (r < FP0)
        for (size_t i = 0; i < ARRAY_SIZE(ints) && n < max; i++)
            out[n++] = ints[i];
    else
        for (int f = 31; f >= 16 && n < max; f--)
            out[n++] = FP0 + f;
    return n;
}

/* The fields of a word. */
#define OPC(w) ((w) & 0x7f)
#define RD(w) ((int)(((w) >> 7) & 31))
#define F3(w) (((w) >> 12) & 7)
#define RS1(w) ((int)(((w) >> 15) & 31))
#define RS2(w) ((int)(((w) >> 20) & 31))
#define RS3(w) ((int)(((w) >> 27) & 31))
#define F7(w) ((w) >> 25)

enum { OP_LOAD = 0x03, OP_LOAD_FP = 0x07, OP_MISC_MEM = 0x0f, OP_IMM = 0x13, OP_AUIPC = 0x17, OP_IMM_32 = 0x1b,
       OP_STORE = 0x23, OP_STORE_FP = 0x27, OP_AMO = 0x2f, OP_OP = 0x33, OP_LUI = 0x37, OP_OP_32 = 0x3b,
       OP_MADD = 0x43, OP_MSUB = 0x47, OP_NMSUB = 0x4b, OP_NMADD = 0x4f, OP_FP = 0x53, OP_V = 0x57,
       OP_BRANCH = 0x63, OP_JALR = 0x67, OP_JAL = 0x6f, OP_SYSTEM = 0x73 };

static bool is_fma(uint32_t w)
{
    return OPC(w) == OP_MADD || OPC(w) == OP_MSUB || OPC(w) == OP_NMSUB || OPC(w) == OP_NMADD;
}

/* OP-FP instructions whose rd is an integer register (fmv.x.*, fcvt.{w,l}.*, feq/flt/fle, fclass)
 * and whose rs1 is one (fmv.*.x, fcvt.*.{w,l}), by funct7's top five bits. */
static bool fp_rd_int(uint32_t w)
{
    unsigned f5 = F7(w) >> 2;
    return f5 == 0x1c || f5 == 0x18 || f5 == 0x14;
}

static bool fp_rs1_int(uint32_t w)
{
    unsigned f5 = F7(w) >> 2;
    return f5 == 0x1e || f5 == 0x1a;
}

/* OP-FP instructions that read rs2 (the two-operand arithmetic, sign injection, min/max, compare). */
static bool fp_reads_rs2(uint32_t w)
{
    unsigned f5 = F7(w) >> 2;
    return f5 <= 0x05 || f5 == 0x14;
}

static void classify(struct snippet_insn *in, uint32_t w)
{
    in->word = w;
    in->target = -1;
    int64_t off = (int64_t)in->off;
    switch (OPC(w)) {
    case OP_JAL: {
        int32_t imm = (int32_t)((w >> 31) << 20 | ((w >> 12) & 0xff) << 12 | ((w >> 20) & 1) << 11 | ((w >> 21) & 0x3ff) << 1);
        imm = (imm << 11) >> 11;
        in->kind = RD(w) ? SN_BR_AWAY : SN_BR_UNCOND;   /* jal with a link register is a call */
        in->target = off + imm;
        break;
    }
    case OP_BRANCH: {
        int32_t imm = (int32_t)((w >> 31) << 12 | ((w >> 7) & 1) << 11 | ((w >> 25) & 0x3f) << 5 | ((w >> 8) & 0xf) << 1);
        imm = (imm << 19) >> 19;
        in->kind = SN_BR_COND;
        in->target = off + imm;
        break;
    }
    case OP_JALR:
        in->kind = SN_BR_AWAY;
        break;
    case OP_SYSTEM:
        if (F3(w) == 0)   /* ecall, ebreak, the privileged returns and wfi */
            in->kind = SN_BR_AWAY;
        break;
    default:
        break;
    }
    if (OPC(w) == OP_AUIPC)
        in->why_not = "it takes an address relative to the pc, next to pmucal's own code and data (a store there "
                      "escapes the trial, a load reads pmucal's pointers): the scratch buffer is the snippet's memory";
    if (OPC(w) == OP_V)
        in->ext |= ISA_RVV;
    in->loads = in->stores = 0;
    in->rmw = false;
    switch (OPC(w)) {
    case OP_LOAD:
    case OP_LOAD_FP:
        in->loads = 1;
        break;
    case OP_STORE:
    case OP_STORE_FP:
        in->stores = 1;
        break;
    case OP_AMO: {
        unsigned f5 = F7(w) >> 2;
        in->loads = f5 != 0x03;       /* sc stores only */
        in->stores = f5 != 0x02;      /* lr loads only */
        in->rmw = f5 != 0x02 && f5 != 0x03;
        break;
    }
    case OP_V:
        in->loads = in->stores = 0;
        break;
    default:
        break;
    }
    if ((OPC(w) == 0x07 || OPC(w) == 0x27) && F3(w) != 2 && F3(w) != 3)   /* vector loads and stores */
        in->loads = in->stores = -1;
}

int isa_snippet_dest(const struct snippet_insn *in)
{
    uint32_t w = in->word;
    if (in->kind != SN_OTHER)
        return -1;
    switch (OPC(w)) {
    case OP_LOAD: case OP_IMM: case OP_IMM_32: case OP_OP: case OP_OP_32: case OP_LUI: case OP_AMO:
        return RD(w) ? RD(w) : -1;
    case OP_SYSTEM:
        return F3(w) && RD(w) ? RD(w) : -1;
    case OP_LOAD_FP:
        return F3(w) == 2 || F3(w) == 3 ? FP0 + RD(w) : -1;
    case OP_FP:
        return fp_rd_int(w) ? (RD(w) ? RD(w) : -1) : FP0 + RD(w);
    default:
        return is_fma(w) ? FP0 + RD(w) : -1;
    }
}

bool isa_snippet_reads(const struct snippet_insn *in, int r)
{
    uint32_t w = in->word;
    bool f = r >= FP0;
    int x = f ? r - FP0 : r;
    if (!f && x == 0)
        return false;   /* zero is no value */
    switch (OPC(w)) {
    case OP_LUI: case OP_AUIPC: case OP_JAL: case OP_MISC_MEM:
        return false;
    case OP_IMM: case OP_IMM_32: case OP_LOAD: case OP_LOAD_FP: case OP_JALR:
        return !f && RS1(w) == x;
    case OP_OP: case OP_OP_32: {
        bool zero = (F3(w) == 4 || (F3(w) == 0 && F7(w) == 0x20)) && F7(w) != 1 && RS1(w) == RS2(w);   /* xor, sub x,y,y */
        return !f && !zero && (RS1(w) == x || RS2(w) == x);
    }
    case OP_BRANCH: case OP_STORE: case OP_AMO:
        return !f && (RS1(w) == x || RS2(w) == x);
    case OP_STORE_FP:
        return f ? RS2(w) == x : RS1(w) == x;
    case OP_SYSTEM:
        return !f && F3(w) >= 1 && F3(w) <= 3 && RS1(w) == x;
    case OP_FP:
        if (fp_rs1_int(w))
            return !f && RS1(w) == x;
        return f && (RS1(w) == x || (fp_reads_rs2(w) && RS2(w) == x));
    default:
        return is_fma(w) && f && (RS1(w) == x || RS2(w) == x || RS3(w) == x);
    }
}

void isa_snippet_classify(struct snippet_insn *in)
{
    classify(in, in->word);
}

int isa_snippet_decode(const char *obj, const uint8_t *bytes, size_t len, struct snippet_insn **out, size_t *n,
                       char *why, size_t wn)
{
    if (len % 4) {
        snprintf(why, wn, "%zu bytes of code is not whole 32-bit instructions (a 16-bit one of the C extension?)", len);
        return -1;
    }
    for (size_t i = 0; i < len; i += 4)
        if ((bytes[i] & 3) != 3) {
            snprintf(why, wn, "the instruction at byte %zu is a 16-bit one (the C extension): write its 32-bit form", i);
            return -1;
        }
    static const char *const dis[] = {"riscv64-linux-gnu-objdump", "objdump", NULL};
    snippet_words(dis, obj, bytes, len, ".insn", classify, out, n);
    return 0;
}

uintptr_t isa_snippet_fault_pc(const void *ucontext)
{
    return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.__gregs[REG_PC];
}

uint64_t isa_snippet_state_save(void)
{
    uint64_t fcsr;
    __asm__ volatile("frcsr %0" : "=r"(fcsr));
    return fcsr;
}

void isa_snippet_state_restore(uint64_t state)
{
    __asm__ volatile("fscsr %0" : : "r"(state) : "memory");
}

/* The frame: ra, s0-s11 (13 words), fs0-fs11 (12 words), the caller's fcsr: 26 words, 208 bytes
 * (the stack stays 16-byte aligned). */
enum { FRAME = 208, FCSR_AT = 200 };
static const int saved_x[] = {1, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};
static const int saved_f[] = {8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27};

void isa_snippet_prologue(struct assembler *as)
{
    asm_comment(as, "prologue: keep the caller's registers and fcsr, then every register from the block at a1");
    rv_asm_addi(as, SP, SP, -FRAME);
    for (size_t i = 0; i < ARRAY_SIZE(saved_x); i++)
        rv_asm_sd(as, (enum reg)saved_x[i], SP, (int)(8 * i));
    for (size_t i = 0; i < ARRAY_SIZE(saved_f); i++)
        rv_asm_fsd(as, (unsigned)saved_f[i], SP, (int)(8 * (ARRAY_SIZE(saved_x) + i)));
    rv_asm_frcsr(as, T0);
    rv_asm_sd(as, T0, SP, FCSR_AT);
    for (int f = 0; f < 32; f++)
        rv_asm_fld(as, (unsigned)f, A1, 8 * (FP0 + f));
    for (int r = 5; r < 32; r++)
        if (r != 10 && r != 11)
            rv_asm_ld(as, (enum reg)r, A1, 8 * r);
    rv_asm_ld(as, A1, A1, 8 * 11);
}

void isa_snippet_epilogue(struct assembler *as)
{
    rv_asm_ld(as, T0, SP, FCSR_AT);
    rv_asm_fscsr(as, T0);
    for (size_t i = 0; i < ARRAY_SIZE(saved_f); i++)
        rv_asm_fld(as, (unsigned)saved_f[i], SP, (int)(8 * (ARRAY_SIZE(saved_x) + i)));
    for (size_t i = 0; i < ARRAY_SIZE(saved_x); i++)
        rv_asm_ld(as, (enum reg)saved_x[i], SP, (int)(8 * i));
    rv_asm_addi(as, SP, SP, FRAME);
    asm_ret(as);
}

void isa_snippet_jump(struct assembler *as, int label)
{
    rv_asm_j(as, label);
}

#include "arch/x86_64/x86_asm.h"
#include "base/util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const char *const reg64[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
static void put(struct assembler *as, const uint8_t *b, size_t n) { asm_put(as, b, n); }
static void put8(struct assembler *as, uint8_t b) { asm_put(as, &b, 1); }

static void put32(struct assembler *as, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    asm_put(as, b, 4);
}

#define insn asm_insn

static const char *const ccname[16] = {"o", "no", "b", "ae", "e", "ne", "be", "a",
                                       "s", "ns", "p", "np", "l", "ge", "le", "g"};

/* REX prefix when needed: w = 64-bit operand, r = modrm.reg, x = sib.index, b = modrm.rm/base. */
static void rex(struct assembler *as, bool w, int r, int x, int b, bool force)
{
    uint8_t v = (uint8_t)(0x40 | (w ? 8 : 0) | ((r & 8) ? 4 : 0) | ((x & 8) ? 2 : 0) | ((b & 8) ? 1 : 0));
    if (v != 0x40 || force)
        put8(as, v);
}

/* modrm (+sib, +disp) for a register operand r and the memory operand disp(%base). */
static void modrm_mem(struct assembler *as, int r, enum reg base, int32_t disp)
{
    int mod = disp == 0 && (base & 7) != RBP ? 0 : disp >= -128 && disp <= 127 ? 1 : 2;
    put8(as, (uint8_t)(mod << 6 | (r & 7) << 3 | (base & 7)));
    if ((base & 7) == RSP)
        put8(as, 0x24);   /* sib: no index, base */
    if (mod == 1)
        put8(as, (uint8_t)disp);
    else if (mod == 2)
        put32(as, (uint32_t)disp);
}

static void modrm_reg(struct assembler *as, int r, int rm)
{
    put8(as, (uint8_t)(0xc0 | (r & 7) << 3 | (rm & 7)));
}

/* "0x8(%rax)", "(%rax)", "-0x8(%rax)", "0x0(%rbp)": as objdump writes memory operands. */
static const char *mem_text(char *buf, size_t n, enum reg base, int32_t disp)
{
    bool has_disp = disp != 0 || (base & 7) == RBP;
    if (!has_disp)
        snprintf(buf, n, "(%%%s)", reg64[base]);
    else if (disp < 0)
        snprintf(buf, n, "-0x%x(%%%s)", (unsigned)-(int64_t)disp, reg64[base]);
    else
        snprintf(buf, n, "0x%x(%%%s)", (unsigned)disp, reg64[base]);
    return buf;
}

/* objdump shows an immediate sign-extended to the operand size. */
static unsigned long long imm64_text(int32_t imm)
{
    return (unsigned long long)(int64_t)imm;
}

void x86_asm_movabs(struct assembler *as, enum reg dst, uint64_t imm)
{
    size_t s = as->len;
    rex(as, true, 0, 0, dst, false);
    put8(as, (uint8_t)(0xb8 + (dst & 7)));
    put32(as, (uint32_t)imm);
    put32(as, (uint32_t)(imm >> 32));
    insn(as, s, -1, "movabs $0x%llx,%%%s", (unsigned long long)imm, reg64[dst]);
}

/* The recommended multi-byte nops (nopl/nopw with a 0x0(%rax,%rax,1) operand), longer ones
 * with extra operand-size prefixes. */
static const uint8_t nop_forms[9][9] = {
    {0x90},
    {0x66, 0x90},
    {0x0f, 0x1f, 0x00},
    {0x0f, 0x1f, 0x40, 0x00},
    {0x0f, 0x1f, 0x44, 0x00, 0x00},
    {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
    {0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
    {0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
    {0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};
static const char *const nop_text[10] = {
    NULL, "nop", "xchg %ax,%ax", "nopl (%rax)", "nopl 0x0(%rax)", "nopl 0x0(%rax,%rax,1)",
    "nopw 0x0(%rax,%rax,1)", "nopl 0x0(%rax)", "nopl 0x0(%rax,%rax,1)", "nopw 0x0(%rax,%rax,1)",
};

void x86_asm_nop(struct assembler *as, int len)
{
    if (len < 1 || len > 15)
        pm_fatal("x86_asm_nop: length %d is not 1..15", len);
    size_t s = as->len;
    int extra = len > 9 ? len - 9 : 0;
    for (int i = 0; i < extra; i++)
        put8(as, 0x66);
    int base = len - extra;
    put(as, nop_forms[base - 1], (size_t)base);
    if (!extra) {
        insn(as, s, -1, "%s", nop_text[len]);
        return;
    }
    char pre[64] = "";
    for (int i = 0; i < extra; i++)
        strcat(pre, "data16 ");
    insn(as, s, -1, "%s%s", pre, nop_text[9]);
}

int asm_fill(struct assembler *as, size_t bytes)
{
    int n = 0;
    while (bytes) {
        int l = bytes > NOP_FILL_MAX ? NOP_FILL_MAX : (int)bytes;
        x86_asm_nop(as, l);
        bytes -= (size_t)l;
        n++;
    }
    return n;
}

static void fixup(struct assembler *as, int label, int width)
{
    asm_fixup_add(as, as->len, label, width);
    if (width == REL8)
        put8(as, 0);
    else
        put32(as, 0);
}

void x86_asm_jmp(struct assembler *as, int label, int width)
{
    size_t s = as->len;
    put8(as, width == REL8 ? 0xeb : 0xe9);
    fixup(as, label, width);
    insn(as, s, label, "jmp");
}

void x86_asm_jcc(struct assembler *as, enum cc cc, int label, int width)
{
    size_t s = as->len;
    if (width == REL8) {
        put8(as, (uint8_t)(0x70 + cc));
    } else {
        put8(as, 0x0f);
        put8(as, (uint8_t)(0x80 + cc));
    }
    fixup(as, label, width);
    insn(as, s, label, "j%s", ccname[cc]);
}

void x86_asm_call(struct assembler *as, int label)
{
    size_t s = as->len;
    put8(as, 0xe8);
    fixup(as, label, REL32);
    insn(as, s, label, "call");
}

void asm_ret(struct assembler *as)
{
    size_t s = as->len;
    put8(as, 0xc3);
    insn(as, s, -1, "ret");
}

static void ff_reg(struct assembler *as, int op, enum reg r, const char *name)
{
    size_t s = as->len;
    rex(as, false, 0, 0, r, false);
    put8(as, 0xff);
    modrm_reg(as, op, r);
    insn(as, s, -1, "%s *%%%s", name, reg64[r]);
}

static void ff_mem(struct assembler *as, int op, enum reg base, int32_t disp, const char *name)
{
    size_t s = as->len;
    char m[48];
    rex(as, false, 0, 0, base, false);
    put8(as, 0xff);
    modrm_mem(as, op, base, disp);
    insn(as, s, -1, "%s *%s", name, mem_text(m, sizeof(m), base, disp));
}

void x86_asm_call_reg(struct assembler *as, enum reg r) { ff_reg(as, 2, r, "call"); }
void x86_asm_jmp_reg(struct assembler *as, enum reg r) { ff_reg(as, 4, r, "jmp"); }
void x86_asm_call_mem(struct assembler *as, enum reg base, int32_t disp) { ff_mem(as, 2, base, disp, "call"); }
void x86_asm_jmp_mem(struct assembler *as, enum reg base, int32_t disp) { ff_mem(as, 4, base, disp, "jmp"); }

/* Group-1 arithmetic with an immediate: 83 /op ib or 81 /op id, 64-bit. */
static void alu_imm(struct assembler *as, int op, enum reg r, int32_t imm, const char *name)
{
    size_t s = as->len;
    rex(as, true, 0, 0, r, false);
    if (imm >= -128 && imm <= 127) {
        put8(as, 0x83);
        modrm_reg(as, op, r);
        put8(as, (uint8_t)imm);
    } else {
        put8(as, 0x81);
        modrm_reg(as, op, r);
        put32(as, (uint32_t)imm);
    }
    insn(as, s, -1, "%s $0x%llx,%%%s", name, imm64_text(imm), reg64[r]);
}

void x86_asm_add_imm(struct assembler *as, enum reg r, int32_t imm) { alu_imm(as, 0, r, imm, "add"); }
void x86_asm_and_imm(struct assembler *as, enum reg r, int32_t imm) { alu_imm(as, 4, r, imm, "and"); }
void x86_asm_sub_imm(struct assembler *as, enum reg r, int32_t imm) { alu_imm(as, 5, r, imm, "sub"); }
void x86_asm_cmp_imm(struct assembler *as, enum reg r, int32_t imm) { alu_imm(as, 7, r, imm, "cmp"); }

/* reg, reg forms with the "op r/m, reg" opcodes (01 add, 29 sub, 39 cmp, 89 mov). */
static void alu_reg(struct assembler *as, uint8_t opcode, enum reg dst, enum reg src, const char *name)
{
    size_t s = as->len;
    rex(as, true, src, 0, dst, false);
    put8(as, opcode);
    modrm_reg(as, src, dst);
    insn(as, s, -1, "%s %%%s,%%%s", name, reg64[src], reg64[dst]);
}

void x86_asm_add_reg(struct assembler *as, enum reg dst, enum reg src) { alu_reg(as, 0x01, dst, src, "add"); }
void x86_asm_sub_reg(struct assembler *as, enum reg dst, enum reg src) { alu_reg(as, 0x29, dst, src, "sub"); }
void x86_asm_cmp_reg(struct assembler *as, enum reg a, enum reg b) { alu_reg(as, 0x39, a, b, "cmp"); }
void x86_asm_mov_reg(struct assembler *as, enum reg dst, enum reg src) { alu_reg(as, 0x89, dst, src, "mov"); }

void x86_asm_dec(struct assembler *as, enum reg r)
{
    size_t s = as->len;
    rex(as, true, 0, 0, r, false);
    put8(as, 0xff);
    modrm_reg(as, 1, r);
    insn(as, s, -1, "dec %%%s", reg64[r]);
}

void x86_asm_push(struct assembler *as, enum reg r)
{
    size_t s = as->len;
    rex(as, false, 0, 0, r, false);
    put8(as, (uint8_t)(0x50 + (r & 7)));
    insn(as, s, -1, "push %%%s", reg64[r]);
}

void x86_asm_pop(struct assembler *as, enum reg r)
{
    size_t s = as->len;
    rex(as, false, 0, 0, r, false);
    put8(as, (uint8_t)(0x58 + (r & 7)));
    insn(as, s, -1, "pop %%%s", reg64[r]);
}

void x86_asm_shl_imm(struct assembler *as, enum reg r, int n)
{
    size_t s = as->len;
    rex(as, true, 0, 0, r, false);
    put8(as, 0xc1);
    modrm_reg(as, 4, r);
    put8(as, (uint8_t)n);
    insn(as, s, -1, "shl $0x%x,%%%s", (unsigned)n, reg64[r]);
}

void x86_asm_bt_imm(struct assembler *as, enum reg r, int bit)
{
    size_t s = as->len;
    rex(as, true, 0, 0, r, false);
    put8(as, 0x0f);
    put8(as, 0xba);
    modrm_reg(as, 4, r);
    put8(as, (uint8_t)bit);
    insn(as, s, -1, "bt $0x%x,%%%s", (unsigned)bit, reg64[r]);
}

void x86_asm_load(struct assembler *as, enum reg dst, enum reg base, int32_t disp)
{
    size_t s = as->len;
    char m[48];
    rex(as, true, dst, 0, base, false);
    put8(as, 0x8b);
    modrm_mem(as, dst, base, disp);
    insn(as, s, -1, "mov %s,%%%s", mem_text(m, sizeof(m), base, disp), reg64[dst]);
}

void x86_asm_store(struct assembler *as, enum reg src, enum reg base, int32_t disp)
{
    size_t s = as->len;
    char m[48];
    rex(as, true, src, 0, base, false);
    put8(as, 0x89);
    modrm_mem(as, src, base, disp);
    insn(as, s, -1, "mov %%%s,%s", reg64[src], mem_text(m, sizeof(m), base, disp));
}

void x86_asm_movq_to_xmm(struct assembler *as, int xmm, enum reg src)
{
    size_t s = as->len;
    put8(as, 0x66);
    rex(as, true, xmm, 0, src, false);
    put8(as, 0x0f);
    put8(as, 0x6e);
    modrm_reg(as, xmm, src);
    insn(as, s, -1, "movq %%%s,%%xmm%d", reg64[src], xmm);
}

void x86_asm_sqrtsd(struct assembler *as, int dst, int src)
{
    size_t s = as->len;
    put8(as, 0xf2);
    rex(as, false, dst, 0, src, false);
    put8(as, 0x0f);
    put8(as, 0x51);
    modrm_reg(as, dst, src);
    insn(as, s, -1, "sqrtsd %%xmm%d,%%xmm%d", src, dst);
}

struct loop_test asm_loop_test(struct assembler *as, int body)
{
    x86_asm_sub_imm(as, RDI, 1);
    x86_asm_jcc(as, CC_AE, body, REL32);   /* rel32 reaches 2 GiB: no long form */
    return (struct loop_test){.inst = 2, .cond_taken = 1};
}

const uint8_t isa_asm_trap_byte = 0xcc;   /* int3 */
const char isa_asm_syntax[] = "AT&T syntax as objdump prints it";

void isa_asm_resolve(struct assembler *as, const struct asm_fixup *f, int64_t target)
{
    int64_t rel = target - (int64_t)(f->at + (size_t)f->width);
    if (f->width == REL8) {
        if (rel < -128 || rel > 127)
            pm_fatal("assembler: rel8 branch at offset %zu cannot reach %lld bytes", f->at, (long long)rel);
        as->buf[f->at] = (uint8_t)rel;
    } else {
        if (rel < INT32_MIN || rel > INT32_MAX)
            pm_fatal("assembler: rel32 branch at offset %zu cannot reach %lld bytes", f->at, (long long)rel);
        uint32_t v = (uint32_t)(int32_t)rel;
        memcpy(as->buf + f->at, &v, 4);
    }
}

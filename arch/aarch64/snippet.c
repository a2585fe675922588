/* The user's code on AArch64 (arch/snippet.h): GNU as (the cross assembler aarch64-linux-gnu-as
 * on another host, then object=), every instruction one 32-bit word decoded here, so the model
 * needs no disassembler (the emulated host has none); objdump only spells the words where it is
 * installed. */
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

const char *const isa_snippet_assemblers[] = {"aarch64-linux-gnu-as", "as", NULL};
const char *const isa_snippet_as_flags[] = {NULL};
const char isa_snippet_preamble[] = ".text\n";
const uint32_t isa_snippet_audit_arch = AUDIT_ARCH_AARCH64;
const char isa_snippet_scratch_reg[] = "x1";
const char isa_snippet_init_doc[] =
    "x1 points at a 64 KiB scratch buffer whose every 8-byte word holds the buffer's own address (a load\n"
    "through any register holding it gives it back: a pointer chase); every other of x2-x17 and x19-x28 starts\n"
    "at 1; v0-v31 at 1.0 in the low double (the rest 0). x0 (the loop's counter), x18 (the platform's),\n"
    "x29, x30 and sp are the loop's own: a snippet naming them is refused.";

/* Numbers: 0-30 x0-x30, 32-63 v0-v31. */
#define VEC0 32
const char *const isa_snippet_regs[SNIPPET_NREGS] = {
    NULL, "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
    "x17", NULL, "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", NULL, NULL, NULL,
    "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16",
    "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31",
};

uint64_t isa_snippet_reg_default(int i, uint64_t scratch)
{
    return i == 1 ? scratch : i >= VEC0 ? 0x3ff0000000000000ull : 1;
}

/* A register token at s (len chars): x/w N (general), v/q/d/s/h/b N (SIMD); "sp", "xzr". */
static int reg_parse(const char *s, size_t len, char *kind)
{
    if (len == 2 && !strncasecmp(s, "sp", 2))
        return 31;
    if (len < 2 || len > 3 || !strchr("xwvqdshbXWVQDSHB", s[0]))
        return -1;
    int v = 0;
    for (size_t i = 1; i < len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return -1;
        v = v * 10 + s[i] - '0';
    }
    if (v > 31 || (len == 3 && s[1] == '0'))
        return -1;
    if (kind)
        *kind = (char)tolower((unsigned char)s[0]);
    bool gpr = strchr("xwXW", s[0]) != NULL;
    return gpr ? (v == 31 ? -1 : v) : VEC0 + v;
}

int isa_snippet_reg_lookup(const char *name)
{
    return reg_parse(name, strlen(name), NULL);
}

static bool tok_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* Each register token of text: fn(arg, at, len, reg, kind); stops when fn returns true. */
static bool each_reg(const char *text, bool (*fn)(void *, const char *, size_t, int, char), void *arg)
{
    for (const char *p = text; *p;) {
        if (!tok_char(*p) || (p > text && tok_char(p[-1]))) {
            p++;
            continue;
        }
        const char *s = p;
        while (tok_char(*p))
            p++;
        char kind = 0;
        int r = reg_parse(s, (size_t)(p - s), &kind);
        if (r >= 0 && fn(arg, s, (size_t)(p - s), r, kind))
            return true;
    }
    return false;
}

static bool is_reserved(void *arg, const char *at, size_t len, int r, char kind)
{
    (void)kind;
    if (r != 0 && r != 18 && r != 29 && r != 30 && r != 31)
        return false;
    snprintf(arg, 16, "%.*s", (int)len, at);
    return true;
}

const char *isa_snippet_reserved(const char *text)
{
    static char found[16];
    return each_reg(text, is_reserved, found) ? found : NULL;
}

static bool is_r(void *arg, const char *at, size_t len, int r, char kind)
{
    (void)at, (void)len, (void)kind;
    return r == *(int *)arg;
}

bool isa_snippet_names(const char *text, int r)
{
    return each_reg(text, is_r, &r);
}

bool isa_snippet_rename(const char *text, int from, int to, char *out, size_t n)
{
    size_t o = 0;
    for (const char *p = text; *p;) {
        const char *s = p;
        char kind = 0;
        int r = -1;
        if (tok_char(*p) && !(p > text && tok_char(p[-1]))) {
            while (tok_char(*p))
                p++;
            r = reg_parse(s, (size_t)(p - s), &kind);
        } else {
            p++;
        }
        int k = r == from && r != 31 ? snprintf(out + o, n - o, "%c%d", kind, to >= VEC0 ? to - VEC0 : to)
                                     : snprintf(out + o, n - o, "%.*s", (int)(p - s), s);
        if (k < 0 || (size_t)k >= n - o)
            return false;
        o += (size_t)k;
    }
    return true;
}

int isa_snippet_spares(int r, int *out, int max)
{
    int n = 0;
    if (r < VEC0)
        for (int x = 9; x <= 28 && n < max; x++)
            if (x != 18)
                out[n++] = x;
    if (r >= VEC0)
        for (int v = 31; v >= 16 && n < max; v--)
            out[n++] = VEC0 + v;
    return n;
}

/* The fields of a word. */
#define RD(w) ((int)((w) & 31))
#define RN(w) ((int)(((w) >> 5) & 31))
#define RM(w) ((int)(((w) >> 16) & 31))
#define RA(w) ((int)(((w) >> 10) & 31))

static bool is_loadstore(uint32_t w) { return (w & 0x0a000000u) == 0x08000000u; }
static bool is_dp_imm(uint32_t w) { return (w & 0x1c000000u) == 0x10000000u; }
static bool is_dp_reg(uint32_t w) { return (w & 0x0e000000u) == 0x0a000000u; }
static bool is_fp_simd(uint32_t w) { return (w & 0x0e000000u) == 0x0e000000u; }

static void classify(struct snippet_insn *in, uint32_t w)
{
    in->word = w;
    in->target = -1;
    int64_t off = (int64_t)in->off;
    if ((w & 0x7c000000u) == 0x14000000u) {   /* b, bl */
        in->kind = w >> 31 ? SN_BR_AWAY : SN_BR_UNCOND;
        in->target = off + 4 * (int64_t)((int32_t)(w << 6) >> 6);
    } else if ((w & 0xff000010u) == 0x54000000u || (w & 0x7e000000u) == 0x34000000u) {   /* b.cond, cbz/cbnz */
        in->kind = SN_BR_COND;
        in->target = off + 4 * (int64_t)((int32_t)(w << 8) >> 13);
    } else if ((w & 0x7e000000u) == 0x36000000u) {   /* tbz, tbnz */
        in->kind = SN_BR_COND;
        in->target = off + 4 * (int64_t)((int32_t)(w << 13) >> 18);
    } else if ((w & 0xfe000000u) == 0xd6000000u || (w & 0xff000000u) == 0xd4000000u) {   /* br, blr, ret; svc, brk */
        in->kind = SN_BR_AWAY;
    }
    if ((w & 0x1f000000u) == 0x10000000u)   /* adr, adrp */
        in->why_not = "it takes an address relative to the pc, next to pmucal's own code and data (a store "
                      "there escapes the trial, a load reads pmucal's pointers): the scratch buffer is the "
                      "snippet's memory";
    else if ((w & 0x3b000000u) == 0x18000000u)   /* ldr, ldrsw, prfm (literal) */
        in->why_not = "it loads from an address relative to the pc, next to pmucal's own code and data (it "
                      "reads pmucal's pointers): the scratch buffer is the snippet's memory";
    if ((w & 0x1e000000u) == 0x04000000u)
        in->ext |= ISA_SVE;
    in->loads = in->stores = 0;
    if (!is_loadstore(w))
        return;
    in->loads = in->stores = -1;
    if ((w & 0x38000000u) == 0x38000000u) {   /* one register */
        unsigned opc = (w >> 22) & 3, size = w >> 30;
        bool atomic = !(w & (1u << 24)) && (w & (1u << 21)) && !(w & 0xc00u);
        if (!atomic && !(size == 3 && opc == 2 && !(w & (1u << 26))))
            in->loads = opc != 0, in->stores = opc == 0;
    } else if ((w & 0x38000000u) == 0x28000000u) {   /* pair */
        in->loads = (w >> 22) & 1, in->stores = !((w >> 22) & 1);
    } else if ((w & 0x3b000000u) == 0x18000000u) {   /* literal */
        in->loads = 1, in->stores = 0;
    }
}

int isa_snippet_dest(const struct snippet_insn *in)
{
    uint32_t w = in->word;
    if (in->kind != SN_OTHER)
        return -1;
    if (is_loadstore(w) && in->loads > 0 && !in->stores)
        return ((w >> 26) & 1) ? VEC0 + RD(w) : RD(w) == 31 ? -1 : RD(w);
    if (is_loadstore(w))
        return -1;
    if (is_fp_simd(w))
        return VEC0 + RD(w);
    if (is_dp_imm(w) || is_dp_reg(w))
        return RD(w) == 31 ? -1 : RD(w);   /* 31: xzr (cmp, tst) or sp */
    return -1;
}

bool isa_snippet_reads(const struct snippet_insn *in, int r)
{
    uint32_t w = in->word;
    bool v = r >= VEC0;
    int x = v ? r - VEC0 : r;
    if (is_loadstore(w))
        return (!v && RN(w) == x) || (in->stores > 0 && RD(w) == x && v == (bool)((w >> 26) & 1));
    if (is_fp_simd(w))
        return v && (RN(w) == x || RM(w) == x || ((w & 0x1f000000u) == 0x1f000000u && RA(w) == x));
    if (v)
        return false;
    if (is_dp_imm(w)) {
        if ((w & 0x1f800000u) == 0x12800000u)   /* move wide: movk keeps the other halves */
            return ((w >> 29) & 3) == 3 && RD(w) == x;
        if ((w & 0x1f000000u) == 0x10000000u)   /* adr, adrp */
            return false;
        return RN(w) == x;
    }
    if (is_dp_reg(w)) {
        if ((w & 0x1f000000u) == 0x1b000000u && RA(w) == x)   /* madd and kin */
            return true;
        bool zero = (w & 0x7f200000u) == 0x4a000000u && RN(w) == RM(w);   /* eor xD, xN, xN */
        return !zero && (RN(w) == x || RM(w) == x);
    }
    return false;
}

void isa_snippet_classify(struct snippet_insn *in)
{
    classify(in, in->word);
}

int isa_snippet_decode(const char *obj, const uint8_t *bytes, size_t len, struct snippet_insn **out, size_t *n,
                       char *why, size_t wn)
{
    if (len % 4) {
        snprintf(why, wn, "%zu bytes of code is not whole 32-bit instructions", len);
        return -1;
    }
    static const char *const dis[] = {"aarch64-linux-gnu-objdump", "objdump", NULL};
    snippet_words(dis, obj, bytes, len, ".inst", classify, out, n);
    return 0;
}

uintptr_t isa_snippet_fault_pc(const void *ucontext)
{
    return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.pc;
}

uint64_t isa_snippet_state_save(void)
{
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    return fpcr;
}

void isa_snippet_state_restore(uint64_t state)
{
    __asm__ volatile("msr fpcr, %0" : : "r"(state) : "memory");
}

static void word_insn(struct assembler *as, uint32_t w, const char *fmt, int a, int b, int c)
{
    size_t s = as->len;
    uint8_t bytes[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
    asm_put(as, bytes, 4);
    asm_insn(as, s, -1, fmt, a, b, c);
}

void isa_snippet_prologue(struct assembler *as)
{
    asm_comment(as, "prologue: keep the caller's registers, then every register from the block at x1");
    a64_asm_push_lr(as);
    for (int r = 19; r < 29; r += 2)
        word_insn(as, 0xa9bf0000u | (uint32_t)(r + 1) << 10 | 31u << 5 | (uint32_t)r, "stp x%d, x%d, [sp, #-16]!%.0d", r,
                  r + 1, 0);
    for (int d = 8; d < 16; d += 2)
        word_insn(as, 0x6dbf0000u | (uint32_t)(d + 1) << 10 | 31u << 5 | (uint32_t)d, "stp d%d, d%d, [sp, #-16]!%.0d", d,
                  d + 1, 0);
    /* The caller's FPCR (rounding mode, flush-to-zero): the snippet may change it */
    word_insn(as, 0xd53b4409u, "mrs x9, fpcr%.0d%.0d%.0d", 0, 0, 0);
    word_insn(as, 0xf81f0fe9u, "str x9, [sp, #-16]!%.0d%.0d%.0d", 0, 0, 0);
    for (int v = 0; v < 32; v++)
        word_insn(as, 0xfd400000u | (uint32_t)(VEC0 + v) << 10 | 1u << 5 | (uint32_t)v, "ldr d%d, [x1, #%d]%.0d", v,
                  8 * (VEC0 + v), 0);
    for (int r = 2; r < 29; r++)
        if (r != 18)
            a64_asm_ldr(as, (enum reg)r, X1, 8u * (unsigned)r);
    a64_asm_ldr(as, X1, X1, 8);
}

void isa_snippet_epilogue(struct assembler *as)
{
    word_insn(as, 0xf84107e9u, "ldr x9, [sp], #16%.0d%.0d%.0d", 0, 0, 0);
    word_insn(as, 0xd51b4409u, "msr fpcr, x9%.0d%.0d%.0d", 0, 0, 0);
    for (int d = 14; d >= 8; d -= 2)
        word_insn(as, 0x6cc10000u | (uint32_t)(d + 1) << 10 | 31u << 5 | (uint32_t)d, "ldp d%d, d%d, [sp], #16%.0d", d,
                  d + 1, 0);
    for (int r = 27; r >= 19; r -= 2)
        word_insn(as, 0xa8c10000u | (uint32_t)(r + 1) << 10 | 31u << 5 | (uint32_t)r, "ldp x%d, x%d, [sp], #16%.0d", r,
                  r + 1, 0);
    a64_asm_pop_lr(as);
    asm_ret(as);
}

void isa_snippet_jump(struct assembler *as, int label)
{
    a64_asm_b(as, label);
}

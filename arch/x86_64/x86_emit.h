/* An x86-64 machine-code emitter for the code-shaped kernels (ifetch, branch, callchain, bbexec).
 *
 * Code is written into a growing byte buffer, position-independent (every branch is relative;
 * absolute addresses live in data tables the caller fills after mapping). Beside the bytes the
 * emitter can keep a listing: one line per instruction in the AT&T syntax objdump prints, with
 * branch targets as offsets, so a user can read what runs without a disassembler and a test can
 * compare the two. emit_map() copies the finished code into memory mapped read+write, then
 * switches it to read+execute: the code is never writable and executable at the same time. */
#ifndef PMUCAL_X86_EMIT_H
#define PMUCAL_X86_EMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum reg { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };

/* Condition codes, numbered as in the opcode (0x70 + cc, 0x0f 0x80 + cc). */
enum cc { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G };
#define CC_C CC_B     /* carry set */
#define CC_NC CC_AE   /* carry clear */

enum { REL8 = 1, REL32 = 4 };

struct emit_fixup {
    size_t at;       /* offset of the displacement field */
    int label;
    int width;       /* REL8 or REL32 */
};

struct emit_line {   /* listing record of one instruction or comment */
    size_t off;
    int len;         /* bytes; 0 for a comment line */
    int label;       /* branch target label, -1 when none */
    char *text;
};

struct emit {
    uint8_t *buf;
    size_t len, cap;
    size_t ninsn;                 /* instructions emitted */
    int64_t *labels;              /* offset of each label, -1 while unbound */
    int nlabels, labcap;
    struct emit_fixup *fix;
    size_t nfix, fixcap;
    bool listing;                 /* keep emit_line records (costly on huge code) */
    struct emit_line *lines;
    size_t nlines, linecap;
    bool finished;
};

/* A finished, mapped piece of code. */
struct code {
    uint8_t *base;        /* read + execute */
    size_t size;          /* bytes of code */
    size_t map_size;      /* bytes mapped */
    bool huge;            /* backed by 2 MiB pages (THP): gen_map checks after mapping */
};

/* cap_hint: expected bytes (the buffer grows past it as needed); listing: keep the listing. */
void emit_init(struct emit *e, size_t cap_hint, bool listing);
void emit_free(struct emit *e);

int emit_label(struct emit *e);                    /* a new, unbound label */
void emit_bind(struct emit *e, int label);         /* the label is here */
size_t emit_label_offset(const struct emit *e, int label);
void emit_comment(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Instructions. Each appends its bytes (and a listing line). */
void emit_movabs(struct emit *e, enum reg dst, uint64_t imm);            /* 10 bytes */
void emit_nop(struct emit *e, int len);                                  /* one nop of 1..15 bytes */
int emit_fill(struct emit *e, size_t bytes);     /* fewest nops (at most NOP_FILL_MAX each); returns how many */
int emit_align(struct emit *e, size_t align);    /* emit_fill up to the next multiple; returns nops */
#define NOP_FILL_MAX 11   /* longer ones pile up operand-size prefixes, which some decoders handle slowly */
void emit_jmp(struct emit *e, int label, int width);
void emit_jcc(struct emit *e, enum cc cc, int label, int width);
void emit_call(struct emit *e, int label);                               /* call rel32 */
void emit_ret(struct emit *e);
void emit_call_reg(struct emit *e, enum reg r);                          /* call *%r */
void emit_jmp_reg(struct emit *e, enum reg r);                           /* jmp *%r */
void emit_jmp_mem(struct emit *e, enum reg base, int32_t disp);          /* jmp *disp(%base) */
void emit_call_mem(struct emit *e, enum reg base, int32_t disp);         /* call *disp(%base) */
void emit_add_imm(struct emit *e, enum reg r, int32_t imm);
void emit_sub_imm(struct emit *e, enum reg r, int32_t imm);
void emit_cmp_imm(struct emit *e, enum reg r, int32_t imm);
void emit_and_imm(struct emit *e, enum reg r, int32_t imm);
void emit_add_reg(struct emit *e, enum reg dst, enum reg src);          /* dst += src */
void emit_sub_reg(struct emit *e, enum reg dst, enum reg src);
void emit_cmp_reg(struct emit *e, enum reg a, enum reg b);               /* flags of a - b */
void emit_mov_reg(struct emit *e, enum reg dst, enum reg src);
void emit_dec(struct emit *e, enum reg r);
void emit_shl_imm(struct emit *e, enum reg r, int n);
void emit_bt_imm(struct emit *e, enum reg r, int bit);                   /* CF = bit of r */
void emit_load(struct emit *e, enum reg dst, enum reg base, int32_t disp);   /* mov disp(%base),%dst */
void emit_store(struct emit *e, enum reg src, enum reg base, int32_t disp);  /* mov %src,disp(%base) */
void emit_movq_to_xmm(struct emit *e, int xmm, enum reg src);           /* movq %src,%xmmN */
void emit_sqrtsd(struct emit *e, int dst, int src);                      /* sqrtsd %xmmS,%xmmD */

/* The loop test every generated function ends its body with, in its calling convention
 * "void fn(uint64_t iters in %rdi, void *data in %rsi)" (SysV; only registers a callee may
 * clobber): sub $1,%rdi; jae body (rel32). The loop is "jmp test; body: ...; test; ret". */
void emit_loop_test(struct emit *e, int body);
/* Resolves every branch; after this no more instructions. pm_fatal on an unbound label or a
 * rel8 out of range (generator bugs, not user input). */
void emit_finish(struct emit *e);
/* Copies finished code into a fresh mapping: read+write while copying, then read+execute.
 * huge: ask for 2 MiB pages (THP; whether they came is for the caller to see). -1 with a message. */
int emit_map(const struct emit *e, bool huge, struct code *out, const char *who);
void code_unmap(struct code *c);

/* The listing (needs listing=true) and the raw bytes, to files. -1 with a message. */
int emit_write_asm(const struct emit *e, FILE *f, const char *title);
int emit_write_bin(const struct emit *e, FILE *f);

#endif

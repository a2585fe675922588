/* An x86-64 machine-code emitter for the code-shaped kernels (ifetch, branch, callchain, bbexec):
 * the instructions, on the buffer, labels, listing and mapping every ISA's emitter shares
 * (arch/emit.h). Code is position-independent (every branch is relative; absolute addresses
 * live in data tables the caller fills after mapping); the listing is in the AT&T syntax
 * objdump prints. */
#ifndef PMUCAL_X86_EMIT_H
#define PMUCAL_X86_EMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arch/emit.h"

enum reg { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };

/* Condition codes, numbered as in the opcode (0x70 + cc, 0x0f 0x80 + cc). */
enum cc { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G };
#define CC_C CC_B     /* carry set */
#define CC_NC CC_AE   /* carry clear */

enum { REL8 = 1, REL32 = 4 };

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
void emit_push(struct emit *e, enum reg r);
void emit_pop(struct emit *e, enum reg r);
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

#endif

/* An AArch64 (A64) machine-code emitter for the code-shaped kernels, on the buffer, labels,
 * listing and mapping every ISA's emitter shares (arch/emit.h). Every instruction is one 32-bit
 * word; branches are PC-relative (imm26 for b and bl, imm19 for b.cond), so code is
 * position-independent. The listing spells instructions as objdump prints them. */
#ifndef PMUCAL_A64_EMIT_H
#define PMUCAL_A64_EMIT_H
#include "arch/emit.h"
#include <stdint.h>

/* x0..x30 by number; 31 is xzr or sp, as the instruction reads it. */
enum reg { X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15, X16, X17, LR = 30 };

/* Condition codes, numbered as in b.cond. */
enum cc { CC_EQ, CC_NE, CC_CS, CC_CC, CC_MI, CC_PL, CC_VS, CC_VC, CC_HI, CC_LS, CC_GE, CC_LT, CC_GT, CC_LE };

enum { A64_IMM26 = 26, A64_IMM19 = 19, A64_IMM14 = 14 };   /* struct emit_fixup's width: the branch field */

void emit_nop(struct emit *e);
void emit_b(struct emit *e, int label);
void emit_bcond(struct emit *e, enum cc cc, int label);
void emit_bl(struct emit *e, int label);
void emit_ret(struct emit *e);                                    /* ret (x30) */
void emit_br(struct emit *e, enum reg r);
void emit_blr(struct emit *e, enum reg r);
void emit_add_imm(struct emit *e, enum reg d, enum reg n, unsigned imm12);
void emit_subs_imm(struct emit *e, enum reg d, enum reg n, unsigned imm12);
void emit_movz(struct emit *e, enum reg d, unsigned imm16);                  /* mov xD, #imm16 (movz) */
void emit_ldr(struct emit *e, enum reg t, enum reg base, unsigned disp);   /* ldr xT, [xB, #disp], disp % 8 == 0 */
void emit_str(struct emit *e, enum reg t, enum reg base, unsigned disp);   /* str xT, [xB, #disp], disp % 8 == 0 */
void emit_tbnz(struct emit *e, enum reg r, unsigned bit, int label);       /* branch when bit of xR is 1 */
void emit_fmov_d_2(struct emit *e, unsigned d);                           /* fmov dD, #2.0 */
void emit_fsqrt_d(struct emit *e, unsigned d, unsigned n);                /* fsqrt dD, dN */
int emit_fill(struct emit *e, size_t bytes);     /* bytes / 4 nops; returns how many */
int emit_align(struct emit *e, size_t align);    /* nops up to the next multiple; returns how many */
void emit_and_low(struct emit *e, enum reg d, enum reg n, unsigned bits);  /* and xD, xN, #(2^bits - 1) */
void emit_add_lsl(struct emit *e, enum reg d, enum reg n, enum reg m, unsigned shift);   /* add xD, xN, xM, lsl #s */
void emit_push_lr(struct emit *e);                                /* stp x29, x30, [sp, #-16]! */
void emit_pop_lr(struct emit *e);                                 /* ldp x29, x30, [sp], #16 */

/* The loop test every generated function ends its body with, in its calling convention
 * "void fn(uint64_t iters in x0, void *data in x1)" (AAPCS64; only registers a callee may
 * clobber): subs x0, x0, #1; b.cs body. The loop is "b test; body: ...; test; ret". */
void emit_loop_test(struct emit *e, int body);

#endif

/* An AArch64 (A64) machine-code assembler for the code-shaped kernels, on the buffer, labels,
 * listing and mapping every ISA's assembler shares (arch/assembler.h). Every instruction is one 32-bit
 * word; branches are PC-relative (imm26 for b and bl, imm19 for b.cond), so code is
 * position-independent. The listing spells instructions as objdump prints them. */
#ifndef PMUCAL_A64_ASM_H
#define PMUCAL_A64_ASM_H
#include "arch/assembler.h"
#include <stdint.h>

/* x0..x30 by number; 31 is xzr or sp, as the instruction reads it. */
enum reg { X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15, X16, X17, LR = 30 };

/* Condition codes, numbered as in b.cond. */
enum cc { CC_EQ, CC_NE, CC_CS, CC_CC, CC_MI, CC_PL, CC_VS, CC_VC, CC_HI, CC_LS, CC_GE, CC_LT, CC_GT, CC_LE };

enum { A64_IMM26 = 26, A64_IMM19 = 19, A64_IMM14 = 14 };   /* struct asm_fixup's width: the branch field */

void a64_asm_nop(struct assembler *as);
void a64_asm_b(struct assembler *as, int label);
void a64_asm_bcond(struct assembler *as, enum cc cc, int label);
void a64_asm_bl(struct assembler *as, int label);
void a64_asm_br(struct assembler *as, enum reg r);
void a64_asm_blr(struct assembler *as, enum reg r);
void a64_asm_add_imm(struct assembler *as, enum reg d, enum reg n, unsigned imm12);
void a64_asm_subs_imm(struct assembler *as, enum reg d, enum reg n, unsigned imm12);
void a64_asm_movz(struct assembler *as, enum reg d, unsigned imm16);                  /* mov xD, #imm16 (movz) */
void a64_asm_ldr(struct assembler *as, enum reg t, enum reg base, unsigned disp);   /* ldr xT, [xB, #disp], disp % 8 == 0 */
void a64_asm_str(struct assembler *as, enum reg t, enum reg base, unsigned disp);   /* str xT, [xB, #disp], disp % 8 == 0 */
void a64_asm_tbnz(struct assembler *as, enum reg r, unsigned bit, int label);       /* branch when bit of xR is 1 */
void a64_asm_fmov_d_2(struct assembler *as, unsigned d);                           /* fmov dD, #2.0 */
void a64_asm_fsqrt_d(struct assembler *as, unsigned d, unsigned n);                /* fsqrt dD, dN */
void a64_asm_and_low(struct assembler *as, enum reg d, enum reg n, unsigned bits);  /* and xD, xN, #(2^bits - 1) */
void a64_asm_add_lsl(struct assembler *as, enum reg d, enum reg n, enum reg m, unsigned shift);   /* add xD, xN, xM, lsl #s */
void a64_asm_push_lr(struct assembler *as);                                /* stp x29, x30, [sp, #-16]! */
void a64_asm_pop_lr(struct assembler *as);                                 /* ldp x29, x30, [sp], #16 */

/* The instructions every ISA has (arch/assembler.h) are here: asm_ret is ret (x30); asm_fill
 * writes bytes / 4 nops; asm_loop_test has iters in x0, data in x1 (AAPCS64): subs x0, x0, #1;
 * b.cs body. */

#endif

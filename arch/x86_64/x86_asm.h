/* An x86-64 machine-code assembler for the code-shaped kernels (ifetch, branch, callchain, bbexec):
 * the instructions, on the buffer, labels, listing and mapping every ISA's assembler shares
 * (arch/assembler.h). Code is position-independent (every branch is relative; absolute addresses
 * live in data tables the caller fills after mapping); the listing is in the AT&T syntax
 * objdump prints. */
#ifndef PMUCAL_X86_ASM_H
#define PMUCAL_X86_ASM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arch/assembler.h"

enum reg { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };

/* Condition codes, numbered as in the opcode (0x70 + cc, 0x0f 0x80 + cc). */
enum cc { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G };
#define CC_C CC_B     /* carry set */
#define CC_NC CC_AE   /* carry clear */

enum { REL8 = 1, REL32 = 4 };

/* Instructions. Each appends its bytes (and a listing line). */
void x86_asm_movabs(struct assembler *as, enum reg dst, uint64_t imm);            /* 10 bytes */
void x86_asm_nop(struct assembler *as, int len);                                  /* one nop of 1..15 bytes */
/* asm_fill and asm_align (arch/assembler.h) write the fewest nops, at most NOP_FILL_MAX bytes each. */
#define NOP_FILL_MAX 11   /* longer ones pile up operand-size prefixes, which some decoders handle slowly */
void x86_asm_jmp(struct assembler *as, int label, int width);
void x86_asm_jcc(struct assembler *as, enum cc cc, int label, int width);
void x86_asm_call(struct assembler *as, int label);                               /* call rel32 */
void x86_asm_call_reg(struct assembler *as, enum reg r);                          /* call *%r */
void x86_asm_jmp_reg(struct assembler *as, enum reg r);                           /* jmp *%r */
void x86_asm_jmp_mem(struct assembler *as, enum reg base, int32_t disp);          /* jmp *disp(%base) */
void x86_asm_call_mem(struct assembler *as, enum reg base, int32_t disp);         /* call *disp(%base) */
void x86_asm_add_imm(struct assembler *as, enum reg r, int32_t imm);
void x86_asm_sub_imm(struct assembler *as, enum reg r, int32_t imm);
void x86_asm_cmp_imm(struct assembler *as, enum reg r, int32_t imm);
void x86_asm_and_imm(struct assembler *as, enum reg r, int32_t imm);
void x86_asm_add_reg(struct assembler *as, enum reg dst, enum reg src);          /* dst += src */
void x86_asm_sub_reg(struct assembler *as, enum reg dst, enum reg src);
void x86_asm_cmp_reg(struct assembler *as, enum reg a, enum reg b);               /* flags of a - b */
void x86_asm_mov_reg(struct assembler *as, enum reg dst, enum reg src);
void x86_asm_dec(struct assembler *as, enum reg r);
void x86_asm_push(struct assembler *as, enum reg r);
void x86_asm_pop(struct assembler *as, enum reg r);
void x86_asm_shl_imm(struct assembler *as, enum reg r, int n);
void x86_asm_bt_imm(struct assembler *as, enum reg r, int bit);                   /* CF = bit of r */
void x86_asm_load(struct assembler *as, enum reg dst, enum reg base, int32_t disp);   /* mov disp(%base),%dst */
void x86_asm_store(struct assembler *as, enum reg src, enum reg base, int32_t disp);  /* mov %src,disp(%base) */
void x86_asm_movq_to_xmm(struct assembler *as, int xmm, enum reg src);           /* movq %src,%xmmN */
void x86_asm_sqrtsd(struct assembler *as, int dst, int src);                      /* sqrtsd %xmmS,%xmmD */

/* asm_loop_test (arch/assembler.h) here: iters in %rdi, data in %rsi (SysV): sub $1,%rdi;
 * jae body (rel32). */

#endif

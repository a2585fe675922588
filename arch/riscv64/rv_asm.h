/* A RISC-V (RV64GC) machine-code assembler for the code-shaped kernels, on the buffer, labels,
 * listing and mapping every ISA's assembler shares (arch/assembler.h). Every instruction it
 * writes is a 32-bit one (never the C extension's 16-bit forms), so a count of bytes is a count of
 * instructions; branches are PC-relative (B-type: +-4 KiB, J-type: +-1 MiB, auipc and jalr:
 * +-2 GiB), so code is position-independent. The listing spells instructions as objdump does. */
#ifndef PMUCAL_RV_ASM_H
#define PMUCAL_RV_ASM_H
#include "arch/assembler.h"
#include <stdint.h>

/* x0..x31 by number, with the names of the calling convention pmucal's code uses. */
enum reg {
    ZERO = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, T2 = 7, S0 = 8, A0 = 10, A1 = 11, A2 = 12, A3, A4, A5, A6, A7,
    S2 = 18, T3 = 28, T4, T5, T6
};

/* Branch conditions, numbered as BRANCH's funct3. */
enum rv_cond { RV_EQ = 0, RV_NE = 1, RV_LT = 4, RV_GE = 5, RV_LTU = 6, RV_GEU = 7 };

/* struct asm_fixup's width: which field a label fills. */
enum { RV_FIX_B = 13, RV_FIX_J = 21, RV_FIX_PCREL = 32 };

/* The B-type reach back, in bytes: a loop test further from its body takes the long form. */
#define RV_B_REACH 4096

void rv_asm_nop(struct assembler *as);
void rv_asm_j(struct assembler *as, int label);                                        /* jal x0 */
void rv_asm_jal(struct assembler *as, int label);                                      /* jal ra */
void rv_asm_jump_far(struct assembler *as, int label);                                 /* auipc t0; jalr x0 */
void rv_asm_branch(struct assembler *as, enum rv_cond c, enum reg a, enum reg b, int label);
void rv_asm_jr(struct assembler *as, enum reg r);                                      /* jalr x0, 0(r) */
void rv_asm_jalr(struct assembler *as, enum reg r);                                    /* jalr ra, 0(r) */
void rv_asm_addi(struct assembler *as, enum reg d, enum reg s, int imm);               /* imm -2048..2047 */
void rv_asm_andi(struct assembler *as, enum reg d, enum reg s, int imm);
void rv_asm_slli(struct assembler *as, enum reg d, enum reg s, unsigned shamt);        /* 0..63 */
void rv_asm_srli(struct assembler *as, enum reg d, enum reg s, unsigned shamt);
void rv_asm_add(struct assembler *as, enum reg d, enum reg a, enum reg b);
void rv_asm_ld(struct assembler *as, enum reg d, enum reg base, int disp);             /* disp -2048..2047 */
void rv_asm_sd(struct assembler *as, enum reg s, enum reg base, int disp);
void rv_asm_fld(struct assembler *as, unsigned fd, enum reg base, int disp);
void rv_asm_fsd(struct assembler *as, unsigned fs, enum reg base, int disp);
void rv_asm_fcvt_d_l(struct assembler *as, unsigned fd, enum reg s);                   /* fcvt.d.l fD, xS */
void rv_asm_fsqrt_d(struct assembler *as, unsigned fd, unsigned fs);
void rv_asm_frcsr(struct assembler *as, enum reg d);
void rv_asm_fscsr(struct assembler *as, enum reg s);
void rv_asm_push_ra(struct assembler *as);                                             /* addi sp,-16; sd ra,8(sp) */
void rv_asm_pop_ra(struct assembler *as);                                              /* ld ra,8(sp); addi sp,16 */
/* The ABI name of register r ("a0"), and of floating-point register f ("fa0"). */
const char *rv_reg_name(unsigned r);
const char *rv_freg_name(unsigned f);

/* The instructions every ISA has (arch/assembler.h) are here: asm_ret is ret (jalr x0, 0(ra));
 * asm_fill writes bytes / 4 nops; asm_loop_test has iters in a0, data in a1 (the psABI): addi
 * a0, a0, -1; bgez a0, body, or where body is beyond a B-type branch's reach (RV_B_REACH) addi;
 * bltz a0, out; j body (asm_loop_test returns which one's counts). */
/* Did the last asm_loop_test take the long form (body out of a branch's reach)? */
bool rv_loop_test_was_far(void);

#endif

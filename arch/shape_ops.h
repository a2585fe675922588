/* What each ISA's shapes.c gives arch/shapes.c, which writes the branch kernel's loops once for
 * every ISA (the order of the blocks, the spacing of the branches, the targets): the few
 * instructions that differ. */
#ifndef PMUCAL_SHAPE_OPS_H
#define PMUCAL_SHAPE_OPS_H
#include "arch/isa.h"

/* An unconditional direct jump to label, shape_jump_bytes long. */
void shape_jump(struct assembler *as, int label);
extern const size_t shape_jump_bytes;
/* The iteration's slot of the table, data + (counter & (slots - 1)) * entry_bytes, into the
 * ISA's slot register (both powers of two). */
void shape_slot(struct assembler *as, uint64_t slots, uint64_t entry_bytes);
/* Word `word` of the slot into the ISA's outcome register. */
void shape_slot_word(struct assembler *as, uint64_t word);
/* A conditional branch to label on bit `bit` of the outcome register, shape_bit_branch_bytes
 * long (its bit test included). */
void shape_bit_branch(struct assembler *as, unsigned bit, int label);
extern const size_t shape_bit_branch_bytes;
/* The conditional jump's own bytes, at the end of shape_bit_branch and of asm_loop_test. */
extern const size_t shape_bit_branch_jump_bytes, shape_loop_jump_bytes;
/* A jump through the slot's first word (entry_bytes 8): its instructions. */
uint64_t shape_jump_through_slot(struct assembler *as);
#endif

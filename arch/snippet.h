/* The user's own code (generators/snippet.c) on each ISA: which assembler assembles it, what each
 * of its instructions is (a load, a store, a branch and where to), the registers a snippet may
 * name and their documented starting values, how a copy gets its own output register (the
 * throughput form), and the generated function's prologue that gives the registers those values.
 * arch/<ARCH>/snippet.c implements it; nothing ISA-specific is decided outside arch/. */
#ifndef PMUCAL_SNIPPET_ISA_H
#define PMUCAL_SNIPPET_ISA_H
#include "arch/assembler.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What one instruction of the assembled snippet is, as far as its encoding says. */
enum snippet_kind {
    SN_OTHER = 0,
    SN_BR_COND,       /* direct conditional branch: target says where */
    SN_BR_UNCOND,     /* direct unconditional jump */
    SN_BR_AWAY,       /* indirect jump, call, return, system call: leaves the snippet */
};

struct snippet_insn {
    size_t off;           /* bytes from the snippet's start */
    unsigned len;
    char text[112];       /* as the disassembler spells it */
    enum snippet_kind kind;
    int64_t target;       /* direct branches: the target's offset from the snippet's start */
    int loads, stores;    /* memory reads and writes it makes; -1 when the encoding does not say */
    bool rmw;             /* one access that reads and writes the same place (add %rax,(%rsi)) */
    unsigned ext;         /* ISA_* extensions it needs (arch/isa.h's enum isa_ext) */
    const char *why_not;  /* it cannot be looped (changes the stack or the loop's registers): why */
    const char *sim_why_not;   /* the simulator (--source sim: valgrind) does not run it as the CPU does: why */
    uint32_t word;        /* fixed-width ISAs: the instruction's encoding */
};

/* The assemblers tried in turn (NULL-terminated; PMUCAL_AS names another) and their arguments
 * before "-o OBJ SRC"; what a source file starts with (the syntax directive). */
extern const char *const isa_snippet_assemblers[];
extern const char *const isa_snippet_as_flags[];
extern const char isa_snippet_preamble[];
/* The system-call ABI a sandbox's filter admits (AUDIT_ARCH_*): any other (int $0x80) is refused. */
extern const uint32_t isa_snippet_audit_arch;

/* The snippet's instructions, one struct each, from its object (path) and its bytes. *out is
 * allocated. -1 with why (the disassembler missing, an undecodable word). */
int isa_snippet_decode(const char *obj, const uint8_t *bytes, size_t len, struct snippet_insn **out, size_t *n,
                       char *why, size_t wn);

/* One instruction's kind, memory accesses, extensions and refusals, from its text (x86-64, as
 * objdump spells it) or its word (AArch64); off and len as decoded. */
void isa_snippet_classify(struct snippet_insn *in);

/* Registers. The starting values live in a block the generated function reads at entry (its
 * data pointer): SNIPPET_NREGS words, register i's value at word i, the register names of
 * isa_snippet_regs (NULL where a number is not a register a snippet may set). */
#define SNIPPET_NREGS 64
extern const char *const isa_snippet_regs[SNIPPET_NREGS];
/* The register that points at the scratch buffer, and the text documenting every default. */
extern const char isa_snippet_scratch_reg[];
extern const char isa_snippet_init_doc[];
/* Default value of register i (scratch: the buffer's address). */
uint64_t isa_snippet_reg_default(int i, uint64_t scratch);
/* The register number of a name the user wrote ("rax", "%rax", "xmm3", "x5", "d2"), or -1. A
 * narrower name of the same register ("eax") gives the same number. */
int isa_snippet_reg_lookup(const char *name);
/* The registers the loop needs (its counter, the stack): a snippet must not name them. The name
 * found in text, or NULL. */
const char *isa_snippet_reserved(const char *text);
/* The register an instruction writes last, as its text names it (AT&T: the last operand; A64:
 * the first), or -1 when it names none (implicit, or memory). */
int isa_snippet_dest(const struct snippet_insn *in);
/* Does the instruction read register r (an operand it reads, an address, an implicit source)? A
 * zeroing idiom (xor %eax,%eax) reads nothing. */
bool isa_snippet_reads(const struct snippet_insn *in, int r);
/* Does the text name register r (any width of it)? */
bool isa_snippet_names(const char *text, int r);
/* text with register `from` renamed to register `to` (same width), into out. false when to has
 * no name of the width used. */
bool isa_snippet_rename(const char *text, int from, int to, char *out, size_t n);
/* Registers a throughput copy may take instead of the chain's (same class as r), in order. */
int isa_snippet_spares(int r, int *out, int max);

/* The generated function around the loop: save what the caller keeps (its callee-saved registers
 * and its floating-point control state: a snippet may change the rounding mode or flush denormals),
 * load every register from the block at the data pointer (the scratch register last), and undo it
 * before the return (x86-64 also clears the direction flag and the x87 stack). */
void isa_snippet_prologue(struct assembler *as);
void isa_snippet_epilogue(struct assembler *as);
/* The caller's floating-point control state (x86-64: MXCSR and the x87 control word; AArch64:
 * FPCR), read before the generated function runs, and put back after a fault left the snippet's
 * (the epilogue restores it on a normal return; a fault skips the epilogue). The restore also
 * clears what the C code assumes clear (x86-64: the direction flag, the x87 stack). */
uint64_t isa_snippet_state_save(void);
void isa_snippet_state_restore(uint64_t state);
/* The instruction a signal interrupted, from the handler's third argument. */
uintptr_t isa_snippet_fault_pc(const void *ucontext);
/* A direct jump to label (the entry's jump to the loop test). */
void isa_snippet_jump(struct assembler *as, int label);

#endif

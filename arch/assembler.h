/* What every ISA's machine-code assembler shares (the ISA folder's assembler writes the instructions):
 * a growing byte buffer of position-independent code, labels and the branches waiting for them,
 * the listing (one line per instruction as objdump prints it, branch targets as offsets, so a
 * user reads what runs without a disassembler and a test can compare the two), and the mapping:
 * asm_map() copies finished code into memory mapped read+write, then switches it to
 * read+execute, so the code is never writable and executable at the same time. */
#ifndef PMUCAL_ASSEMBLER_H
#define PMUCAL_ASSEMBLER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct asm_fixup {
    size_t at;       /* the ISA's choice: x86 the displacement field, A64 the instruction */
    int label;
    int width;       /* the ISA's kind of branch field */
};

struct asm_line {   /* listing record of one instruction or comment */
    size_t off;
    int len;         /* bytes; 0 for a comment line */
    int label;       /* branch target label, -1 when none */
    char *text;
};

struct assembler {
    uint8_t *buf;
    size_t len, cap;
    size_t ninsn;                 /* instructions written */
    int64_t *labels;              /* offset of each label, -1 while unbound */
    int nlabels, labcap;
    struct asm_fixup *fix;
    size_t nfix, fixcap;
    bool listing;                 /* keep asm_line records (costly on huge code) */
    struct asm_line *lines;
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
void asm_init(struct assembler *as, size_t cap_hint, bool listing);
void asm_free(struct assembler *as);

int asm_label(struct assembler *as);                    /* a new, unbound label */
void asm_bind(struct assembler *as, int label);         /* the label is here */
size_t asm_label_offset(const struct assembler *as, int label);
void asm_comment(struct assembler *as, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Resolves every branch (the ISA's isa_asm_resolve); after this no more instructions. pm_fatal
 * on an unbound label or a branch out of range (generator bugs, not user input). */
void asm_finish(struct assembler *as);
/* Copies finished code into a fresh mapping: read+write while copying, then read+execute (the
 * instruction cache made coherent). huge: ask for 2 MiB pages (THP; whether they came is for
 * the caller to see). -1 with a message. */
int asm_map(const struct assembler *as, bool huge, struct code *out, const char *who);
void code_unmap(struct code *c);

/* The listing (needs listing=true) and the raw bytes, to files. -1 with a message. */
int asm_write_listing(const struct assembler *as, FILE *f, const char *title);
int asm_write_bin(const struct assembler *as, FILE *f);

/* For the ISA's encoders, inline as they run once per instruction of code that reaches 64 MiB:
 * append bytes; end an instruction begun at start (count it, and when listing record "mnemonic
 * operands", label its branch target or -1); note a branch field to resolve at offset at. */
void asm_grow(struct assembler *as, size_t n);
static inline void asm_put(struct assembler *as, const void *bytes, size_t n)
{
    if (as->finished || as->len + n > as->cap)
        asm_grow(as, n);
    __builtin_memcpy(as->buf + as->len, bytes, n);
    as->len += n;
}
void asm_line_add(struct assembler *as, size_t start, int label, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define asm_insn(as, start, label, ...) \
    ((as)->ninsn++, (as)->listing ? asm_line_add((as), (start), (label), __VA_ARGS__) : (void)0)
void asm_fixup_add(struct assembler *as, size_t at, int label, int width);

/* Each ISA's part (arch/<ARCH>/): patch one branch field to reach target (pm_fatal out of
 * range); the byte that fills a mapping's tail (a trap, so a stray jump past the end stops);
 * the listing's syntax, for its header. */
void isa_asm_resolve(struct assembler *as, const struct asm_fixup *f, int64_t target);
extern const uint8_t isa_asm_trap_byte;
extern const char isa_asm_syntax[];

/* The instructions code every ISA writes in the same words (arch/shapes.c, generators/), each
 * ISA's own in arch/<ARCH>/: a return; nops filling bytes (returns how many); nops up to the next
 * multiple of align (returns how many); the loop test every generated function ends its body with,
 * in its calling convention "void fn(uint64_t iters, void *data)" (the first two argument
 * registers; only registers a callee may clobber): iters - 1, branching back to body unless it
 * wrapped. The loop is "jump to test; body: ...; test; ret". The loop test returns what it
 * executes each time the loop goes on: its form depends on how far back the body is (RISC-V's
 * branch reaches 4 KiB only; beyond it the test is a branch out and a jump back), and a model
 * counts what was written, not the usual form. */
struct loop_test {
    unsigned inst, cond_taken, cond_ntaken, uncond;
};
void asm_ret(struct assembler *as);
int asm_fill(struct assembler *as, size_t bytes);
int asm_align(struct assembler *as, size_t align);
struct loop_test asm_loop_test(struct assembler *as, int body);

#endif

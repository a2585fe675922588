/* What every ISA's machine-code emitter shares (the ISA folder's emitter writes the instructions):
 * a growing byte buffer of position-independent code, labels and the branches waiting for them,
 * the listing (one line per instruction as objdump prints it, branch targets as offsets, so a
 * user reads what runs without a disassembler and a test can compare the two), and the mapping:
 * emit_map() copies finished code into memory mapped read+write, then switches it to
 * read+execute, so the code is never writable and executable at the same time. */
#ifndef PMUCAL_EMIT_H
#define PMUCAL_EMIT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct emit_fixup {
    size_t at;       /* the ISA's choice: x86 the displacement field, A64 the instruction */
    int label;
    int width;       /* the ISA's kind of branch field */
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

/* Resolves every branch (the ISA's isa_emit_resolve); after this no more instructions. pm_fatal
 * on an unbound label or a branch out of range (generator bugs, not user input). */
void emit_finish(struct emit *e);
/* Copies finished code into a fresh mapping: read+write while copying, then read+execute (the
 * instruction cache made coherent). huge: ask for 2 MiB pages (THP; whether they came is for
 * the caller to see). -1 with a message. */
int emit_map(const struct emit *e, bool huge, struct code *out, const char *who);
void code_unmap(struct code *c);

/* The listing (needs listing=true) and the raw bytes, to files. -1 with a message. */
int emit_write_asm(const struct emit *e, FILE *f, const char *title);
int emit_write_bin(const struct emit *e, FILE *f);

/* For the ISA's encoders, inline as they run once per instruction of code that reaches 64 MiB:
 * append bytes; end an instruction begun at start (count it, and when listing record "mnemonic
 * operands", label its branch target or -1); note a branch field to resolve at offset at. */
void emit_grow(struct emit *e, size_t n);
static inline void emit_put(struct emit *e, const void *bytes, size_t n)
{
    if (e->finished || e->len + n > e->cap)
        emit_grow(e, n);
    __builtin_memcpy(e->buf + e->len, bytes, n);
    e->len += n;
}
void emit_line_add(struct emit *e, size_t start, int label, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
#define emit_insn(e, start, label, ...) \
    ((e)->ninsn++, (e)->listing ? emit_line_add((e), (start), (label), __VA_ARGS__) : (void)0)
void emit_fixup_add(struct emit *e, size_t at, int label, int width);

/* Each ISA's part (arch/<ARCH>/): patch one branch field to reach target (pm_fatal out of
 * range); the byte that fills a mapping's tail (a trap, so a stray jump past the end stops);
 * the listing's syntax, for its header. */
void isa_emit_resolve(struct emit *e, const struct emit_fixup *f, int64_t target);
extern const uint8_t isa_emit_trap_byte;
extern const char isa_emit_syntax[];

#endif

/* The user's own code as a kernel ('code'): a snippet of assembly, assembled by binutils as,
 * decoded (arch/snippet.h), copied into the exact loop of the generated kernels, its model
 * derived from its own bytes. Latency: the copies chained on the snippet's own output register.
 * Throughput: each copy's output register renamed to one of several spare ones, so the chains
 * run side by side. */
#ifndef PMUCAL_SNIPPET_H
#define PMUCAL_SNIPPET_H
#include "arch/snippet.h"
#include "core/kernel.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An assembled, decoded snippet. */
struct snippet {
    uint8_t *bytes;
    size_t len;
    struct snippet_insn *insn;
    size_t n;
    size_t executed;         /* instructions one lap executes (jumps followed), when exec_known */
    bool exec_known;         /* false: a conditional branch decides (the counts are the user's to state) */
    int loads, stores;       /* per lap, -1 when an instruction's encoding does not say */
    bool rmw;                /* an instruction reads and writes one place (counted apart by some sources) */
    int br_uncond;           /* direct jumps per lap */
    unsigned ext;            /* ISA_* extensions needed */
};

/* text (instructions separated by ';' or new lines) assembled and decoded; where names the text in
 * messages ("the snippet", "snippets.txt:12"). -1 with why: the assembler's own message with the
 * snippet's line, a symbol outside the snippet, a branch out of it, the stack or the loop's
 * registers touched, no assembler installed. */
int snippet_assemble(const char *text, const char *where, struct snippet *s, char *why, size_t wn);
/* The same from an object an assembler made elsewhere (a cross assembler: the emulated host has
 * none of its own). */
int snippet_load_object(const char *path, struct snippet *s, char *why, size_t wn);
void snippet_free(struct snippet *s);

/* The register a latency chain runs through: named (chain), or the last instruction's
 * destination; -1 with why when there is none or nothing in the snippet reads it. */
int snippet_chain_reg(const struct snippet *s, const char *chain, char *why, size_t wn);

/* Why the last 'code' case failed (the assembler's message; a fault or a hang, in its trial or
 * while measured, named with its instruction), "" when it did not: the table shows it beside the
 * snippet. */
const char *snippet_last_problem(void);

#endif

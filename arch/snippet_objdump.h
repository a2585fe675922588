/* objdump's listing of an assembled snippet (either ISA's): where each instruction starts, how
 * long it is, how objdump spells it. */
#ifndef PMUCAL_SNIPPET_OBJDUMP_H
#define PMUCAL_SNIPPET_OBJDUMP_H
#include "arch/snippet.h"

/* The first of tools (NULL-terminated) that starts lists obj; *out gets one struct per
 * instruction (off, len, text; the rest zero), which must cover len bytes. -1 with why. */
int snippet_objdump(const char *const *tools, const char *obj, size_t len, struct snippet_insn **out, size_t *n,
                    char *why, size_t wn);
/* A fixed-width ISA's listing (32-bit words, AArch64 and RISC-V): objdump's where it runs and lists
 * every word, else each word spelled by spell ("%s 0x%08x" with spell ".inst"); then each
 * instruction classified from its word. len is a whole number of words. */
void snippet_words(const char *const *tools, const char *obj, const uint8_t *bytes, size_t len, const char *spell,
                   void (*classify)(struct snippet_insn *in, uint32_t w), struct snippet_insn **out, size_t *n);
#endif

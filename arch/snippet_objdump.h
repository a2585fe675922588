/* objdump's listing of an assembled snippet (either ISA's): where each instruction starts, how
 * long it is, how objdump spells it. */
#ifndef PMUCAL_SNIPPET_OBJDUMP_H
#define PMUCAL_SNIPPET_OBJDUMP_H
#include "arch/snippet.h"

/* The first of tools (NULL-terminated) that starts lists obj; *out gets one struct per
 * instruction (off, len, text; the rest zero), which must cover len bytes. -1 with why. */
int snippet_objdump(const char *const *tools, const char *obj, size_t len, struct snippet_insn **out, size_t *n,
                    char *why, size_t wn);
#endif

/* The code section of a relocatable ELF64 object (what an assembler writes), read without
 * libelf: its bytes, and whether anything in it still waits for the linker (a relocation: a
 * symbol defined elsewhere). Objects come from the user: every offset is checked. */
#ifndef PMUCAL_ELFOBJ_H
#define PMUCAL_ELFOBJ_H
#include <stddef.h>
#include <stdint.h>

struct elf_text {
    uint8_t *bytes;        /* the .text section (allocated; NULL when empty) */
    size_t len;
    unsigned machine;      /* e_machine: 62 x86-64, 183 AArch64 */
    size_t nrelocs;        /* relocations against .text */
    char reloc_symbol[64]; /* the first one's symbol, "" when unnamed */
    uint64_t reloc_offset; /* and where in .text */
};

/* -1 with why (naming path) when the file is not a little-endian ELF64 relocatable object or is
 * cut short. */
int elf_text_read(const char *path, struct elf_text *t, char *why, size_t wn);
void elf_text_free(struct elf_text *t);

#endif

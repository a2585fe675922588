#include "base/elfobj.h"
#include "base/util.h"
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, at most 64 MiB (an assembled snippet is a few KiB). */
static uint8_t *slurp(const char *path, size_t *len, char *why, size_t wn)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, wn, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            if (cap >= (64u << 20)) {
                snprintf(why, wn, "%s: larger than 64 MiB, not an assembled snippet", path);
                fclose(f);
                free(buf);
                return NULL;
            }
            buf = xrealloc(buf, cap *= 2);
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static bool inside(size_t len, uint64_t off, uint64_t size)
{
    return off <= len && size <= len - off;
}

int elf_text_read(const char *path, struct elf_text *t, char *why, size_t wn)
{
    memset(t, 0, sizeof(*t));
    size_t len;
    uint8_t *f = slurp(path, &len, why, wn);
    if (!f)
        return -1;
    Elf64_Ehdr eh;
    if (len < sizeof(eh) || memcmp(f, ELFMAG, SELFMAG) || f[EI_CLASS] != ELFCLASS64 || f[EI_DATA] != ELFDATA2LSB) {
        snprintf(why, wn, "%s: not a little-endian 64-bit ELF object", path);
        free(f);
        return -1;
    }
    memcpy(&eh, f, sizeof(eh));
    if (eh.e_type != ET_REL || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum ||
        !inside(len, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr))) {
        snprintf(why, wn, "%s: not a relocatable object (an assembler's output), or its section table is cut short",
                 path);
        free(f);
        return -1;
    }
    t->machine = eh.e_machine;
    Elf64_Shdr *sh = xmalloc(eh.e_shnum * sizeof(*sh));
    memcpy(sh, f + eh.e_shoff, eh.e_shnum * sizeof(*sh));
    const Elf64_Shdr *names = &sh[eh.e_shstrndx];
    int text = -1;
    for (int i = 0; i < eh.e_shnum; i++) {
        if (!inside(len, names->sh_offset, names->sh_size) || sh[i].sh_name >= names->sh_size)
            continue;
        const char *nm = (const char *)f + names->sh_offset + sh[i].sh_name;
        if (memchr(nm, 0, names->sh_size - sh[i].sh_name) && !strcmp(nm, ".text"))
            text = i;
    }
    int rc = -1;
    if (text < 0 || sh[text].sh_type != SHT_PROGBITS || !inside(len, sh[text].sh_offset, sh[text].sh_size)) {
        snprintf(why, wn, "%s: no .text section holding code", path);
        goto out;
    }
    t->len = sh[text].sh_size;
    t->bytes = t->len ? xmalloc(t->len) : NULL;
    if (t->len)
        memcpy(t->bytes, f + sh[text].sh_offset, t->len);
    for (int i = 0; i < eh.e_shnum; i++) {
        if ((sh[i].sh_type != SHT_RELA && sh[i].sh_type != SHT_REL) || sh[i].sh_info != (unsigned)text)
            continue;
        size_t ent = sh[i].sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
        if (!inside(len, sh[i].sh_offset, sh[i].sh_size) || sh[i].sh_size % ent) {
            snprintf(why, wn, "%s: a relocation section is cut short", path);
            goto out;
        }
        size_t n = sh[i].sh_size / ent;
        if (n && !t->nrelocs) {
            Elf64_Rel r;
            memcpy(&r, f + sh[i].sh_offset, sizeof(r));
            t->reloc_offset = r.r_offset;
            uint32_t sym = (uint32_t)ELF64_R_SYM(r.r_info);
            const Elf64_Shdr *st = sh[i].sh_link < eh.e_shnum ? &sh[sh[i].sh_link] : NULL;
            const Elf64_Shdr *ss = st && st->sh_link < eh.e_shnum ? &sh[st->sh_link] : NULL;
            if (st && ss && inside(len, st->sh_offset, st->sh_size) && inside(len, ss->sh_offset, ss->sh_size) &&
                (uint64_t)(sym + 1) * sizeof(Elf64_Sym) <= st->sh_size) {
                Elf64_Sym s;
                memcpy(&s, f + st->sh_offset + sym * sizeof(Elf64_Sym), sizeof(s));
                if (s.st_name < ss->sh_size)
                    snprintf(t->reloc_symbol, sizeof(t->reloc_symbol), "%.*s", (int)(ss->sh_size - s.st_name),
                             (const char *)f + ss->sh_offset + s.st_name);
            }
        }
        t->nrelocs += n;
    }
    rc = 0;
out:
    if (rc)
        elf_text_free(t);
    free(sh);
    free(f);
    return rc;
}

void elf_text_free(struct elf_text *t)
{
    free(t->bytes);
    memset(t, 0, sizeof(*t));
}

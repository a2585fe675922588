#include "arch/assembler.h"
#include "base/util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void asm_init(struct assembler *as, size_t cap_hint, bool listing)
{
    memset(as, 0, sizeof(*as));
    as->cap = cap_hint < 4096 ? 4096 : cap_hint + 64;
    as->buf = xmalloc(as->cap);
    as->listing = listing;
}

void asm_free(struct assembler *as)
{
    for (size_t i = 0; i < as->nlines; i++)
        free(as->lines[i].text);
    free(as->lines);
    free(as->buf);
    free(as->labels);
    free(as->fix);
    memset(as, 0, sizeof(*as));
}

void asm_grow(struct assembler *as, size_t n)
{
    if (as->finished)
        pm_fatal("assembler: instruction after asm_finish");
    if (as->len + n > as->cap) {
        while (as->len + n > as->cap)
            as->cap *= 2;
        as->buf = xrealloc(as->buf, as->cap);
    }
}


/* A listing line's text, formatted into its own allocation (the line owns it). */
static char *vformat(const char *fmt, va_list ap)
{
    char *text;
    if (vasprintf(&text, fmt, ap) < 0)
        pm_die("out of memory");
    return text;
}

static void add_line(struct assembler *as, size_t off, int len, int label, char *text)
{
    if (as->nlines == as->linecap) {
        as->linecap = as->linecap ? as->linecap * 2 : 256;
        as->lines = xrealloc(as->lines, as->linecap * sizeof(*as->lines));
    }
    as->lines[as->nlines++] = (struct asm_line){off, len, label, text};
}

void asm_line_add(struct assembler *as, size_t start, int label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(as, start, (int)(as->len - start), label, vformat(fmt, ap));
    va_end(ap);
}

void asm_comment(struct assembler *as, const char *fmt, ...)
{
    if (!as->listing)
        return;
    va_list ap;
    va_start(ap, fmt);
    add_line(as, as->len, 0, -1, vformat(fmt, ap));
    va_end(ap);
}

int asm_label(struct assembler *as)
{
    if (as->nlabels == as->labcap) {
        as->labcap = as->labcap ? as->labcap * 2 : 64;
        as->labels = xrealloc(as->labels, (size_t)as->labcap * sizeof(*as->labels));
    }
    as->labels[as->nlabels] = -1;
    return as->nlabels++;
}

void asm_bind(struct assembler *as, int label)
{
    if (label < 0 || label >= as->nlabels || as->labels[label] >= 0)
        pm_fatal("assembler: label %d bound twice or unknown", label);
    as->labels[label] = (int64_t)as->len;
}

size_t asm_label_offset(const struct assembler *as, int label)
{
    if (label < 0 || label >= as->nlabels || as->labels[label] < 0)
        pm_fatal("assembler: label %d is not bound", label);
    return (size_t)as->labels[label];
}

void asm_fixup_add(struct assembler *as, size_t at, int label, int width)
{
    if (label < 0 || label >= as->nlabels)
        pm_fatal("assembler: branch to unknown label %d", label);
    if (as->nfix == as->fixcap) {
        as->fixcap = as->fixcap ? as->fixcap * 2 : 256;
        as->fix = xrealloc(as->fix, as->fixcap * sizeof(*as->fix));
    }
    as->fix[as->nfix++] = (struct asm_fixup){at, label, width};
}

void asm_finish(struct assembler *as)
{
    for (size_t i = 0; i < as->nfix; i++) {
        const struct asm_fixup *f = &as->fix[i];
        if (as->labels[f->label] < 0)
            pm_fatal("assembler: branch at offset %zu to a label never bound", f->at);
        isa_asm_resolve(as, f, as->labels[f->label]);
    }
    as->finished = true;
}

#define HUGE_2M ((size_t)2 << 20)

int asm_map(const struct assembler *as, bool huge, struct code *out, const char *who)
{
    memset(out, 0, sizeof(*out));
    if (!as->finished)
        pm_fatal("asm_map before asm_finish");
    size_t align = huge ? HUGE_2M : 4096;
    size_t size = (as->len + align - 1) / align * align;
    if (!size)
        size = align;
    /* Over-allocate to place the code on an aligned boundary, then trim. */
    uint8_t *p = mmap(NULL, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        pm_error("%s: cannot map %s of code: %s; choose a smaller size", who, fmt_size(size), strerror(errno));
        return -1;
    }
    uint8_t *a = (uint8_t *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    if (a + size < p + size + align)
        munmap(a + size, (size_t)(p + size + align - (a + size)));
    if (huge)
        madvise(a, size, MADV_HUGEPAGE);
    memcpy(a, as->buf, as->len);
    /* The tail of the last page: the ISA's trap, so a stray jump past the end stops. */
    memset(a + as->len, isa_asm_trap_byte, size - as->len);
    /* AArch64's instruction cache does not snoop data writes (a no-op on x86). */
    __builtin___clear_cache((char *)a, (char *)a + size);
    if (mprotect(a, size, PROT_READ | PROT_EXEC)) {
        pm_error("%s: cannot make the generated code executable (mprotect: %s); a policy forbidding "
                 "executable anonymous memory (SELinux execmem, PaX) must allow it", who, strerror(errno));
        munmap(a, size);
        return -1;
    }
    out->base = a;
    out->size = as->len;
    out->map_size = size;
    return 0;
}

void code_unmap(struct code *c)
{
    if (c->base)
        munmap(c->base, c->map_size);
    memset(c, 0, sizeof(*c));
}

int asm_write_listing(const struct assembler *as, FILE *f, const char *title)
{
    if (!as->listing)
        pm_fatal("asm_write_listing without a listing");
    fprintf(f, "# %s\n# %zu bytes, %zu instructions; %s, branch targets as offsets\n"
               "#  offset  bytes                                          instruction\n",
            title, as->len, as->ninsn, isa_asm_syntax);
    for (size_t i = 0; i < as->nlines; i++) {
        const struct asm_line *l = &as->lines[i];
        if (!l->len) {
            fprintf(f, "#         %s\n", l->text);
            continue;
        }
        char bytes[64] = "";
        for (int b = 0, n = 0; b < l->len; b++)
            n += snprintf(bytes + n, sizeof(bytes) - (size_t)n, "%02x ", as->buf[l->off + (size_t)b]);
        const char *sp = strchr(l->text, ' ');
        int mlen = sp ? (int)(sp - l->text) : (int)strlen(l->text);
        if (l->label >= 0)   /* operands before the target (A64's tbnz x0, #0, target) stay */
            fprintf(f, "%8zx:  %-46s %-6.*s %s%s0x%llx\n", l->off, bytes, mlen, l->text, sp ? sp + 1 : "", sp ? " " : "",
                    (unsigned long long)as->labels[l->label]);
        else if (sp)
            fprintf(f, "%8zx:  %-46s %-6.*s %s\n", l->off, bytes, mlen, l->text, sp + 1);
        else
            fprintf(f, "%8zx:  %-46s %s\n", l->off, bytes, l->text);
    }
    if (ferror(f)) {
        pm_error("cannot write the listing: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int asm_write_bin(const struct assembler *as, FILE *f)
{
    if (fwrite(as->buf, 1, as->len, f) != as->len) {
        pm_error("cannot write the code bytes: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* The same on every ISA: the padding is what the ISA's asm_fill writes. */
int asm_align(struct assembler *as, size_t align)
{
    return asm_fill(as, (align - as->len % align) % align);
}

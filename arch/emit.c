#include "arch/emit.h"
#include "base/util.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void emit_init(struct emit *e, size_t cap_hint, bool listing)
{
    memset(e, 0, sizeof(*e));
    e->cap = cap_hint < 4096 ? 4096 : cap_hint + 64;
    e->buf = xmalloc(e->cap);
    e->listing = listing;
}

void emit_free(struct emit *e)
{
    for (size_t i = 0; i < e->nlines; i++)
        free(e->lines[i].text);
    free(e->lines);
    free(e->buf);
    free(e->labels);
    free(e->fix);
    memset(e, 0, sizeof(*e));
}

void emit_grow(struct emit *e, size_t n)
{
    if (e->finished)
        pm_fatal("emit: instruction after emit_finish");
    if (e->len + n > e->cap) {
        while (e->len + n > e->cap)
            e->cap *= 2;
        e->buf = xrealloc(e->buf, e->cap);
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

static void add_line(struct emit *e, size_t off, int len, int label, char *text)
{
    if (e->nlines == e->linecap) {
        e->linecap = e->linecap ? e->linecap * 2 : 256;
        e->lines = xrealloc(e->lines, e->linecap * sizeof(*e->lines));
    }
    e->lines[e->nlines++] = (struct emit_line){off, len, label, text};
}

void emit_line_add(struct emit *e, size_t start, int label, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_line(e, start, (int)(e->len - start), label, vformat(fmt, ap));
    va_end(ap);
}

void emit_comment(struct emit *e, const char *fmt, ...)
{
    if (!e->listing)
        return;
    va_list ap;
    va_start(ap, fmt);
    add_line(e, e->len, 0, -1, vformat(fmt, ap));
    va_end(ap);
}

int emit_label(struct emit *e)
{
    if (e->nlabels == e->labcap) {
        e->labcap = e->labcap ? e->labcap * 2 : 64;
        e->labels = xrealloc(e->labels, (size_t)e->labcap * sizeof(*e->labels));
    }
    e->labels[e->nlabels] = -1;
    return e->nlabels++;
}

void emit_bind(struct emit *e, int label)
{
    if (label < 0 || label >= e->nlabels || e->labels[label] >= 0)
        pm_fatal("emit: label %d bound twice or unknown", label);
    e->labels[label] = (int64_t)e->len;
}

size_t emit_label_offset(const struct emit *e, int label)
{
    if (label < 0 || label >= e->nlabels || e->labels[label] < 0)
        pm_fatal("emit: label %d is not bound", label);
    return (size_t)e->labels[label];
}

void emit_fixup_add(struct emit *e, size_t at, int label, int width)
{
    if (label < 0 || label >= e->nlabels)
        pm_fatal("emit: branch to unknown label %d", label);
    if (e->nfix == e->fixcap) {
        e->fixcap = e->fixcap ? e->fixcap * 2 : 256;
        e->fix = xrealloc(e->fix, e->fixcap * sizeof(*e->fix));
    }
    e->fix[e->nfix++] = (struct emit_fixup){at, label, width};
}

void emit_finish(struct emit *e)
{
    for (size_t i = 0; i < e->nfix; i++) {
        const struct emit_fixup *f = &e->fix[i];
        if (e->labels[f->label] < 0)
            pm_fatal("emit: branch at offset %zu to a label never bound", f->at);
        isa_emit_resolve(e, f, e->labels[f->label]);
    }
    e->finished = true;
}

#define HUGE_2M ((size_t)2 << 20)

int emit_map(const struct emit *e, bool huge, struct code *out, const char *who)
{
    memset(out, 0, sizeof(*out));
    if (!e->finished)
        pm_fatal("emit_map before emit_finish");
    size_t align = huge ? HUGE_2M : 4096;
    size_t size = (e->len + align - 1) / align * align;
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
    memcpy(a, e->buf, e->len);
    /* The tail of the last page: the ISA's trap, so a stray jump past the end stops. */
    memset(a + e->len, isa_emit_trap_byte, size - e->len);
    /* AArch64's instruction cache does not snoop data writes (a no-op on x86). */
    __builtin___clear_cache((char *)a, (char *)a + size);
    if (mprotect(a, size, PROT_READ | PROT_EXEC)) {
        pm_error("%s: cannot make the generated code executable (mprotect: %s); a policy forbidding "
                 "executable anonymous memory (SELinux execmem, PaX) must allow it", who, strerror(errno));
        munmap(a, size);
        return -1;
    }
    out->base = a;
    out->size = e->len;
    out->map_size = size;
    return 0;
}

void code_unmap(struct code *c)
{
    if (c->base)
        munmap(c->base, c->map_size);
    memset(c, 0, sizeof(*c));
}

int emit_write_asm(const struct emit *e, FILE *f, const char *title)
{
    if (!e->listing)
        pm_fatal("emit_write_asm without a listing");
    fprintf(f, "# %s\n# %zu bytes, %zu instructions; %s, branch targets as offsets\n"
               "#  offset  bytes                                          instruction\n",
            title, e->len, e->ninsn, isa_emit_syntax);
    for (size_t i = 0; i < e->nlines; i++) {
        const struct emit_line *l = &e->lines[i];
        if (!l->len) {
            fprintf(f, "#         %s\n", l->text);
            continue;
        }
        char bytes[64] = "";
        for (int b = 0, n = 0; b < l->len; b++)
            n += snprintf(bytes + n, sizeof(bytes) - (size_t)n, "%02x ", e->buf[l->off + (size_t)b]);
        const char *sp = strchr(l->text, ' ');
        int mlen = sp ? (int)(sp - l->text) : (int)strlen(l->text);
        if (l->label >= 0)   /* operands before the target (A64's tbnz x0, #0, target) stay */
            fprintf(f, "%8zx:  %-46s %-6.*s %s%s0x%llx\n", l->off, bytes, mlen, l->text, sp ? sp + 1 : "", sp ? " " : "",
                    (unsigned long long)e->labels[l->label]);
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

int emit_write_bin(const struct emit *e, FILE *f)
{
    if (fwrite(e->buf, 1, e->len, f) != e->len) {
        pm_error("cannot write the code bytes: %s", strerror(errno));
        return -1;
    }
    return 0;
}

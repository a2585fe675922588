/* The assembler's bytes, decoded by objdump (binutils), are exactly the intended instructions, and
 * the assembler's own listing says the same; code is never writable and executable at once. */
#include "arch/x86_64/x86_asm.h"
#include "tap.h"
#include <ctype.h>
#include <stdbool.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum op { MOVABS, NOP, JMP8, JMP32, JCC8, JCC32, CALL, RET, CALLR, JMPR, JMPM, CALLM, ADDI, SUBI, CMPI, ANDI,
          ADDR, SUBR, CMPR, MOVR, DEC, SHL, BT, LOAD, STORE, MOVQX, SQRT };

/* Expected text as objdump prints it; "@" stands for the row's own offset (branches jump to themselves). */
static const struct row {
    int line;
    enum op op;
    int a, b;
    long long imm;
    int len;
    const char *want;
} rows[] = {
    {__LINE__, MOVABS, RAX, 0, 0x1122334455667788ll, 10, "movabs $0x1122334455667788,%rax"},
    {__LINE__, MOVABS, R11, 0, 1, 10, "movabs $0x1,%r11"},
    {__LINE__, MOVABS, RDI, 0, 0, 10, "movabs $0x0,%rdi"},
    {__LINE__, NOP, 1, 0, 0, 1, "nop"},
    {__LINE__, NOP, 2, 0, 0, 2, "xchg %ax,%ax"},
    {__LINE__, NOP, 3, 0, 0, 3, "nopl (%rax)"},
    {__LINE__, NOP, 4, 0, 0, 4, "nopl 0x0(%rax)"},
    {__LINE__, NOP, 5, 0, 0, 5, "nopl 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 6, 0, 0, 6, "nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 7, 0, 0, 7, "nopl 0x0(%rax)"},
    {__LINE__, NOP, 8, 0, 0, 8, "nopl 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 9, 0, 0, 9, "nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 10, 0, 0, 10, "data16 nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 11, 0, 0, 11, "data16 data16 nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 12, 0, 0, 12, "data16 data16 data16 nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 13, 0, 0, 13, "data16 data16 data16 data16 nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 14, 0, 0, 14, "data16 data16 data16 data16 data16 nopw 0x0(%rax,%rax,1)"},
    {__LINE__, NOP, 15, 0, 0, 15, "data16 data16 data16 data16 data16 data16 nopw 0x0(%rax,%rax,1)"},
    {__LINE__, JMP8, 0, 0, 0, 2, "jmp @"},
    {__LINE__, JMP32, 0, 0, 0, 5, "jmp @"},
    {__LINE__, JCC8, CC_AE, 0, 0, 2, "jae @"},
    {__LINE__, JCC8, CC_B, 0, 0, 2, "jb @"},
    {__LINE__, JCC8, CC_NE, 0, 0, 2, "jne @"},
    {__LINE__, JCC32, CC_AE, 0, 0, 6, "jae @"},
    {__LINE__, JCC32, CC_E, 0, 0, 6, "je @"},
    {__LINE__, CALL, 0, 0, 0, 5, "call @"},
    {__LINE__, RET, 0, 0, 0, 1, "ret"},
    {__LINE__, CALLR, RAX, 0, 0, 2, "call *%rax"},
    {__LINE__, CALLR, R9, 0, 0, 3, "call *%r9"},
    {__LINE__, JMPR, RDX, 0, 0, 2, "jmp *%rdx"},
    {__LINE__, JMPR, R12, 0, 0, 3, "jmp *%r12"},
    {__LINE__, JMPM, RAX, 0, 0, 2, "jmp *(%rax)"},
    {__LINE__, JMPM, RSI, 0, 0x40, 3, "jmp *0x40(%rsi)"},
    {__LINE__, JMPM, RSP, 0, 8, 4, "jmp *0x8(%rsp)"},
    {__LINE__, CALLM, RSI, 0, 0x1000, 6, "call *0x1000(%rsi)"},
    {__LINE__, CALLM, RBP, 0, 0, 3, "call *0x0(%rbp)"},
    {__LINE__, ADDI, RDI, 0, 1, 4, "add $0x1,%rdi"},
    {__LINE__, SUBI, RDI, 0, 1, 4, "sub $0x1,%rdi"},
    {__LINE__, SUBI, R10, 0, 1000, 7, "sub $0x3e8,%r10"},
    {__LINE__, CMPI, RCX, 0, 127, 4, "cmp $0x7f,%rcx"},
    {__LINE__, CMPI, RCX, 0, -1, 4, "cmp $0xffffffffffffffff,%rcx"},
    {__LINE__, ANDI, RAX, 0, 0xffff, 7, "and $0xffff,%rax"},
    {__LINE__, ADDR, RAX, RSI, 0, 3, "add %rsi,%rax"},
    {__LINE__, ADDR, R8, R15, 0, 3, "add %r15,%r8"},
    {__LINE__, SUBR, RDX, RCX, 0, 3, "sub %rcx,%rdx"},
    {__LINE__, CMPR, RDI, R9, 0, 3, "cmp %r9,%rdi"},
    {__LINE__, MOVR, RAX, RDI, 0, 3, "mov %rdi,%rax"},
    {__LINE__, DEC, RDI, 0, 0, 3, "dec %rdi"},
    {__LINE__, DEC, R13, 0, 0, 3, "dec %r13"},
    {__LINE__, SHL, RAX, 0, 3, 4, "shl $0x3,%rax"},
    {__LINE__, BT, RDX, 0, 0, 5, "bt $0x0,%rdx"},
    {__LINE__, BT, RDX, 0, 63, 5, "bt $0x3f,%rdx"},
    {__LINE__, LOAD, RAX, RAX, 0, 3, "mov (%rax),%rax"},
    {__LINE__, LOAD, RDX, RAX, 8, 4, "mov 0x8(%rax),%rdx"},
    {__LINE__, LOAD, R8, RSI, -8, 4, "mov -0x8(%rsi),%r8"},
    {__LINE__, LOAD, RCX, R12, 0, 4, "mov (%r12),%rcx"},
    {__LINE__, LOAD, RCX, R13, 0, 4, "mov 0x0(%r13),%rcx"},
    {__LINE__, LOAD, RDX, RAX, 0x2000, 7, "mov 0x2000(%rax),%rdx"},
    {__LINE__, STORE, RAX, RSI, 0x18, 4, "mov %rax,0x18(%rsi)"},
    {__LINE__, STORE, R11, RDI, 0, 3, "mov %r11,(%rdi)"},
    {__LINE__, MOVQX, 1, RAX, 0, 5, "movq %rax,%xmm1"},
    {__LINE__, SQRT, 0, 1, 0, 4, "sqrtsd %xmm1,%xmm0"},
    {__LINE__, SQRT, 2, 2, 0, 4, "sqrtsd %xmm2,%xmm2"},
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static void assemble_row(struct assembler *as, const struct row *r)
{
    int self = -1;
    if (r->op >= JMP8 && r->op <= CALL) {
        self = asm_label(as);
        asm_bind(as, self);
    }
    switch (r->op) {
    case MOVABS: x86_asm_movabs(as, r->a, (uint64_t)r->imm); break;
    case NOP: x86_asm_nop(as, r->a); break;
    case JMP8: x86_asm_jmp(as, self, REL8); break;
    case JMP32: x86_asm_jmp(as, self, REL32); break;
    case JCC8: x86_asm_jcc(as, r->a, self, REL8); break;
    case JCC32: x86_asm_jcc(as, r->a, self, REL32); break;
    case CALL: x86_asm_call(as, self); break;
    case RET: asm_ret(as); break;
    case CALLR: x86_asm_call_reg(as, r->a); break;
    case JMPR: x86_asm_jmp_reg(as, r->a); break;
    case JMPM: x86_asm_jmp_mem(as, r->a, (int32_t)r->imm); break;
    case CALLM: x86_asm_call_mem(as, r->a, (int32_t)r->imm); break;
    case ADDI: x86_asm_add_imm(as, r->a, (int32_t)r->imm); break;
    case SUBI: x86_asm_sub_imm(as, r->a, (int32_t)r->imm); break;
    case CMPI: x86_asm_cmp_imm(as, r->a, (int32_t)r->imm); break;
    case ANDI: x86_asm_and_imm(as, r->a, (int32_t)r->imm); break;
    case ADDR: x86_asm_add_reg(as, r->a, r->b); break;
    case SUBR: x86_asm_sub_reg(as, r->a, r->b); break;
    case CMPR: x86_asm_cmp_reg(as, r->a, r->b); break;
    case MOVR: x86_asm_mov_reg(as, r->a, r->b); break;
    case DEC: x86_asm_dec(as, r->a); break;
    case SHL: x86_asm_shl_imm(as, r->a, (int)r->imm); break;
    case BT: x86_asm_bt_imm(as, r->a, (int)r->imm); break;
    case LOAD: x86_asm_load(as, r->a, r->b, (int32_t)r->imm); break;
    case STORE: x86_asm_store(as, r->a, r->b, (int32_t)r->imm); break;
    case MOVQX: x86_asm_movq_to_xmm(as, r->a, r->b); break;
    case SQRT: x86_asm_sqrtsd(as, r->a, r->b); break;
    }
}

/* Collapse runs of blanks to one space, drop trailing blanks and objdump's "# comment". */
static void normalize(char *s)
{
    char *h = strchr(s, '#');
    if (h)
        *h = 0;
    char *w = s;
    bool blank = false;
    for (char *p = s; *p; p++) {
        if (isspace((unsigned char)*p)) {
            blank = w != s;
            continue;
        }
        if (blank)
            *w++ = ' ';
        blank = false;
        *w++ = *p;
    }
    *w = 0;
}

static void expected(const struct row *r, size_t off, char *out, size_t n)
{
    const char *at = strchr(r->want, '@');
    if (at)
        snprintf(out, n, "%.*s0x%zx", (int)(at - r->want), r->want, off);
    else
        snprintf(out, n, "%s", r->want);
}

/* objdump's decode of the file: offset, length, text of each instruction. */
struct decoded {
    size_t off;
    int len;
    char text[160];
};

static int decode(const char *path, struct decoded *d, int max)
{
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "objdump -D -b binary -m i386:x86-64 --insn-width=16 %s", path);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[512];
    int n = 0;
    while (fgets(line, sizeof(line), p) && n < max) {
        unsigned long off;
        int used = 0;
        if (sscanf(line, " %lx:%n", &off, &used) != 1 || line[used] != '\t')
            continue;
        char *bytes = line + used + 1, *tab = strchr(bytes, '\t');
        if (!tab)
            continue;
        int len = 0;
        for (char *q = bytes; q < tab; q++)
            if (isxdigit((unsigned char)q[0]) && isxdigit((unsigned char)q[1])) {
                len++;
                q++;
            }
        d[n].off = off;
        d[n].len = len;
        snprintf(d[n].text, sizeof(d[n].text), "%s", tab + 1);
        normalize(d[n].text);
        n++;
    }
    return pclose(p) == 0 ? n : -1;
}

static void check_wx(void)
{
    struct assembler as;
    asm_init(&as, 0, false);
    x86_asm_movabs(&as, RAX, 42);
    asm_ret(&as);
    asm_finish(&as);
    struct code c;
    int mapped = asm_map(&as, false, &c, "test");
    CHECK(mapped == 0, __LINE__, "asm_map maps the code");
    uint64_t (*f)(void) = (uint64_t(*)(void))(uintptr_t)c.base;
    uint64_t got = f();
    CHECK(got == 42, __LINE__, "the mapped code runs: movabs $42,%%rax; ret returns 42");
    /* /proc/self/maps: the region is r-x, never w. */
    FILE *m = fopen("/proc/self/maps", "r");
    char line[512], perms[8] = "";
    while (m && fgets(line, sizeof(line), m)) {
        unsigned long lo, hi;
        char p[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, p) == 3 && lo <= (uintptr_t)c.base && (uintptr_t)c.base < hi)
            snprintf(perms, sizeof(perms), "%s", p);
    }
    if (m)
        fclose(m);
    CHECK(!strncmp(perms, "r-x", 3), __LINE__, "/proc/self/maps shows the code region as %s, want r-x", perms);
    /* A write into the code must fault: try it in a child. */
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        *(volatile uint8_t *)c.base = 0xc3;
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, __LINE__,
          "a store into the mapped code dies with SIGSEGV (status 0x%x)", st);
    code_unmap(&c);
    asm_free(&as);
}

int main(void)
{
    if (system("objdump --version >/dev/null 2>&1")) {
        printf("ok 1 # SKIP objdump (binutils) not installed\n");
        check_wx();
        return done_testing();
    }
    struct assembler as;
    asm_init(&as, 0, true);
    size_t off[NROWS];
    for (size_t i = 0; i < NROWS; i++) {
        off[i] = as.len;
        assemble_row(&as, &rows[i]);
    }
    asm_finish(&as);
    char path[] = "/tmp/pmucal-asm-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    /* CHECK evaluates its condition twice: side effects stay outside it. */
    bool written = f && asm_write_bin(&as, f) == 0;
    written = f && fclose(f) == 0 && written;
    CHECK(written, __LINE__, "raw bytes written to %s", path);
    static struct decoded d[NROWS + 8];
    int n = decode(path, d, (int)NROWS + 8);
    unlink(path);
    CHECK(n == (int)NROWS, __LINE__, "objdump decodes %d instructions, want %zu", n, NROWS);
    size_t line_i = 0;
    for (size_t i = 0; i < NROWS && (int)i < n; i++) {
        const struct row *r = &rows[i];
        char want[160], listed[160];
        expected(r, off[i], want, sizeof(want));
        CHECK(d[i].off == off[i] && d[i].len == r->len, r->line, "%s: objdump sees %d bytes at 0x%zx, want %d at 0x%zx",
              want, d[i].len, d[i].off, r->len, off[i]);
        CHECK(!strcmp(d[i].text, want), r->line, "objdump says '%s', want '%s'", d[i].text, want);
        while (line_i < as.nlines && !as.lines[line_i].len)
            line_i++;
        const struct asm_line *l = &as.lines[line_i++];
        if (l->label >= 0)
            snprintf(listed, sizeof(listed), "%s 0x%zx", l->text, asm_label_offset(&as, l->label));
        else
            snprintf(listed, sizeof(listed), "%s", l->text);
        normalize(listed);
        CHECK(!strcmp(listed, want), r->line, "the assembler's listing says '%s', want '%s'", listed, want);
    }
    asm_free(&as);
    check_wx();
    return done_testing();
}

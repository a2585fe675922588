/* The user's code on x86-64 (arch/snippet.h): GNU as in AT&T syntax, objdump for where each
 * instruction starts and how it is spelled, the operands read from that spelling. */
#include "arch/isa.h"
#include "arch/snippet.h"
#include <linux/audit.h>
#include "arch/snippet_objdump.h"
#include "base/subprocess.h"
#include "base/util.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

const char *const isa_snippet_assemblers[] = {"as", "x86_64-linux-gnu-as", NULL};
const char *const isa_snippet_as_flags[] = {"--64", NULL};
const char isa_snippet_preamble[] = ".att_syntax prefix\n.text\n";
const uint32_t isa_snippet_audit_arch = AUDIT_ARCH_X86_64;
const char isa_snippet_scratch_reg[] = "rsi";
const char isa_snippet_init_doc[] =
    "%rsi points at a 64 KiB scratch buffer whose every 8-byte word holds the buffer's own address (a load\n"
    "through any register holding it gives it back: a pointer chase); %rdx starts at 0 (DIV's high half);\n"
    "every other general register at 1; %xmm0-15 at 1.0 in the low double (the rest 0). %rsp and %rdi\n"
    "(the loop's counter) are the loop's own: a snippet naming them is refused.";

/* Numbers: 0-15 the general registers (enum reg), 16-47 xmm/ymm/zmm 0-31, 48-55 k0-k7. */
#define VEC0 16
#define MASK0 48
static const char *const gpr_names[16][5] = {
    {"rax", "eax", "ax", "al", "ah"},    {"rcx", "ecx", "cx", "cl", "ch"},    {"rdx", "edx", "dx", "dl", "dh"},
    {"rbx", "ebx", "bx", "bl", "bh"},    {"rsp", "esp", "sp", "spl", NULL},  {"rbp", "ebp", "bp", "bpl", NULL},
    {"rsi", "esi", "si", "sil", NULL},   {"rdi", "edi", "di", "dil", NULL},  {"r8", "r8d", "r8w", "r8b", NULL},
    {"r9", "r9d", "r9w", "r9b", NULL},   {"r10", "r10d", "r10w", "r10b", NULL}, {"r11", "r11d", "r11w", "r11b", NULL},
    {"r12", "r12d", "r12w", "r12b", NULL}, {"r13", "r13d", "r13w", "r13b", NULL}, {"r14", "r14d", "r14w", "r14b", NULL},
    {"r15", "r15d", "r15w", "r15b", NULL},
};
static const char *const vec_prefix[3] = {"xmm", "ymm", "zmm"};

const char *const isa_snippet_regs[SNIPPET_NREGS] = {
    "rax", "rcx", "rdx", "rbx", NULL, "rbp", "rsi", NULL, "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
    "xmm13", "xmm14", "xmm15",
};

uint64_t isa_snippet_reg_default(int i, uint64_t scratch)
{
    if (i == RSI)
        return scratch;
    if (i == RDX)
        return 0;
    if (i >= VEC0)
        return 0x3ff0000000000000ull;   /* 1.0 */
    return 1;
}

/* Name n of register r at width w (0 widest); NULL when it has none. */
static const char *reg_name(int r, int w, char *buf, size_t n)
{
    if (r >= 0 && r < 16)
        return w < 5 ? gpr_names[r][w] : NULL;
    if (r >= VEC0 && r < MASK0 && w < 3) {
        snprintf(buf, n, "%s%d", vec_prefix[w], r - VEC0);
        return buf;
    }
    if (r >= MASK0 && r < MASK0 + 8 && w == 0) {
        snprintf(buf, n, "k%d", r - MASK0);
        return buf;
    }
    return NULL;
}

/* The register and width of a name (without '%'), or -1. */
static int reg_parse(const char *s, size_t len, int *width)
{
    char buf[16];
    for (int r = 0; r < MASK0 + 8; r++)
        for (int w = 0; w < 5; w++) {
            const char *nm = reg_name(r, w, buf, sizeof(buf));
            if (nm && strlen(nm) == len && !strncasecmp(nm, s, len)) {
                if (width)
                    *width = w;
                return r;
            }
        }
    return -1;
}

int isa_snippet_reg_lookup(const char *name)
{
    if (*name == '%')
        name++;
    return reg_parse(name, strlen(name), NULL);
}

/* Calls fn on each %register of text, with its span; stops when fn returns true. */
static bool each_reg(const char *text, bool (*fn)(void *, const char *at, size_t len, int r, int w), void *arg)
{
    for (const char *p = text; (p = strchr(p, '%')); ) {
        const char *s = ++p;
        while (isalnum((unsigned char)*p))
            p++;
        int w, r = reg_parse(s, (size_t)(p - s), &w);
        if (r >= 0 && fn(arg, s, (size_t)(p - s), r, w))
            return true;
    }
    return false;
}

static bool is_reserved(void *arg, const char *at, size_t len, int r, int w)
{
    (void)w;
    if (r != RSP && r != RDI)
        return false;
    snprintf(arg, 16, "%%%.*s", (int)len, at);
    return true;
}

const char *isa_snippet_reserved(const char *text)
{
    static char found[16];
    return each_reg(text, is_reserved, found) ? found : NULL;
}

static bool is_r(void *arg, const char *at, size_t len, int r, int w)
{
    (void)at, (void)len, (void)w;
    return r == *(int *)arg;
}

bool isa_snippet_names(const char *text, int r)
{
    return each_reg(text, is_r, &r);
}

bool isa_snippet_rename(const char *text, int from, int to, char *out, size_t n)
{
    size_t o = 0;
    char buf[16];
    for (const char *p = text; *p; ) {
        const char *s = p + 1;
        const char *q = s;
        int w = 0, r = -1;
        if (*p == '%') {
            while (isalnum((unsigned char)*q))
                q++;
            r = reg_parse(s, (size_t)(q - s), &w);
        }
        const char *nm = r == from ? reg_name(to, w, buf, sizeof(buf)) : NULL;
        if (r == from && !nm)
            return false;
        int k = nm ? snprintf(out + o, n - o, "%%%s", nm) : snprintf(out + o, n - o, "%c", *p);
        if (k < 0 || (size_t)k >= n - o)
            return false;
        o += (size_t)k;
        p = nm ? q : p + 1;
    }
    return true;
}

int isa_snippet_spares(int r, int *out, int max)
{
    static const int gprs[] = {R8, R9, R10, R11, R12, R13, R14, R15, RBX, RBP, RCX, RAX};
    int n = 0;
    if (r < 16) {
        for (size_t i = 0; i < ARRAY_SIZE(gprs) && n < max; i++)
            out[n++] = gprs[i];
    } else if (r < MASK0) {
        for (int v = 15; v >= 0 && n < max; v--)   /* xmm15 down: away from the low ones snippets name */
            out[n++] = VEC0 + v;
    }
    return n;
}

/* The mnemonic (after prefixes) and the operands of an objdump line, split at top-level commas. */
struct parsed {
    char mnem[32];
    bool rep;
    int nops;
    char ops[4][48];
};

static void parse_text(const char *text, struct parsed *p)
{
    memset(p, 0, sizeof(*p));
    static const char *const prefixes[] = {"lock", "rep", "repz", "repe", "repnz", "repne", "notrack", "bnd",
                                           "data16", "addr32", "cs", "ds", "es", "ss", "fs", "gs", "{vex}",
                                           "{vex3}", "{evex}", "xacquire", "xrelease"};
    const char *s = text;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        size_t len = strcspn(s, " \t");
        bool pre = false;
        for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++)
            if (strlen(prefixes[i]) == len && !strncmp(s, prefixes[i], len)) {
                pre = true;
                p->rep |= !strncmp(s, "rep", 3);
            }
        if (!pre || !s[len]) {
            snprintf(p->mnem, sizeof(p->mnem), "%.*s", (int)len, s);
            s += len;
            break;
        }
        s += len;
    }
    while (*s == ' ' || *s == '\t')
        s++;
    int depth = 0;
    size_t k = 0;
    for (; *s && *s != '#' && *s != '<' && p->nops < 4; s++) {
        if (*s == '(' || *s == '{')
            depth++;
        if (*s == ')' || *s == '}')
            depth--;
        if (*s == ',' && depth == 0) {
            p->nops++;
            k = 0;
            continue;
        }
        if (k + 1 < sizeof(p->ops[0]) && !(k == 0 && *s == ' '))
            p->ops[p->nops][k++] = *s, p->ops[p->nops][k] = 0;
    }
    if (p->ops[p->nops][0])
        p->nops++;
    for (int i = 0; i < p->nops; i++) {   /* trailing blanks */
        size_t l = strlen(p->ops[i]);
        while (l && p->ops[i][l - 1] == ' ')
            p->ops[i][--l] = 0;
    }
}

static bool starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static bool starts_any(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (starts(s, *list))
            return true;
    return false;
}

/* What an instruction does to the memory its operands name, by mnemonic as objdump spells it: the
 * one table the loads and stores of a snippet's model come from (tests/unit/test_x86_snippet_mem.c
 * holds a row for each form, checked against the CPU). */
enum mem_use {
    MEM_READ = 1,   /* reads it: a source, whichever operand it is */
    MEM_WRITE,      /* writes it without reading it */
    MEM_RMW,        /* reads and writes the same place (one access to a simulator) */
    MEM_STRING,     /* a string instruction: its own accesses (string_use), rep-prefixed a count %rcx decides */
    MEM_NONE,       /* names an address but accesses nothing (lea, nop) */
    MEM_UNKNOWN,    /* accesses what its operands do not say (a gather, a prefetch, a save area) */
};
/* How a table name matches a mnemonic: with an AT&T size suffix or none (cmpq), with an x87 one
 * (fildll, fstpt, fadds), as a string instruction (its suffix and an operand spelled %ds:(%rsi) or
 * %es:(%rdi): movsb, never movss), or as its start (vmovdqu, setne). */
enum mem_match { M_SUFFIX, M_X87, M_STRING, M_PREFIX };
struct mem_form {
    const char *name;
    enum mem_match match;
    enum mem_use use;
    bool no_reg_out;   /* writes no register its operands name: flags, RDX:RAX, the x87 stack */
};
static const struct mem_form mem_forms[] = {
    /* x87: arithmetic and compares read their memory operand into the register stack */
    {"fadd", M_X87, MEM_READ, true},   {"fiadd", M_X87, MEM_READ, true}, {"fsub", M_X87, MEM_READ, true},
    {"fsubr", M_X87, MEM_READ, true},  {"fisub", M_X87, MEM_READ, true}, {"fisubr", M_X87, MEM_READ, true},
    {"fmul", M_X87, MEM_READ, true},   {"fimul", M_X87, MEM_READ, true}, {"fdiv", M_X87, MEM_READ, true},
    {"fdivr", M_X87, MEM_READ, true},  {"fidiv", M_X87, MEM_READ, true}, {"fidivr", M_X87, MEM_READ, true},
    {"fcom", M_X87, MEM_READ, true},   {"fcomp", M_X87, MEM_READ, true}, {"ficom", M_X87, MEM_READ, true},
    {"ficomp", M_X87, MEM_READ, true}, {"fld", M_X87, MEM_READ, true},   {"fild", M_X87, MEM_READ, true},
    {"fbld", M_X87, MEM_READ, true},   {"fldcw", M_X87, MEM_READ, true},
    /* x87 stores, and its environment and save areas (several accesses of several sizes) */
    {"fst", M_X87, MEM_WRITE, true},   {"fstp", M_X87, MEM_WRITE, true}, {"fist", M_X87, MEM_WRITE, true},
    {"fistp", M_X87, MEM_WRITE, true}, {"fisttp", M_X87, MEM_WRITE, true}, {"fbstp", M_X87, MEM_WRITE, true},
    {"fnstcw", M_X87, MEM_WRITE, true}, {"fstcw", M_X87, MEM_WRITE, true}, {"fnstsw", M_X87, MEM_WRITE, true},
    {"fstsw", M_X87, MEM_WRITE, true}, {"fldenv", M_X87, MEM_UNKNOWN, true}, {"frstor", M_X87, MEM_UNKNOWN, true},
    {"fnstenv", M_X87, MEM_UNKNOWN, true}, {"fstenv", M_X87, MEM_UNKNOWN, true},
    {"fnsave", M_X87, MEM_UNKNOWN, true}, {"fsave", M_X87, MEM_UNKNOWN, true},
    /* read and written in one instruction */
    {"xchg", M_SUFFIX, MEM_RMW, false},   {"xadd", M_SUFFIX, MEM_RMW, false},  {"cmpxchg", M_PREFIX, MEM_RMW, false},
    /* string instructions (%rsi and %rdi their addresses) and xlat (%rbx + %al) */
    {"lods", M_STRING, MEM_STRING, false}, {"stos", M_STRING, MEM_STRING, false}, {"movs", M_STRING, MEM_STRING, false},
    {"cmps", M_STRING, MEM_STRING, true}, {"scas", M_STRING, MEM_STRING, true},  {"ins", M_STRING, MEM_STRING, false},
    {"outs", M_STRING, MEM_STRING, true}, {"xlat", M_STRING, MEM_READ, false},
    /* read only, the last operand included: flags, RDX:RAX or a control register their only output */
    {"cmp", M_SUFFIX, MEM_READ, true},    {"test", M_SUFFIX, MEM_READ, true},  {"bt", M_SUFFIX, MEM_READ, true},
    {"div", M_SUFFIX, MEM_READ, true},    {"idiv", M_SUFFIX, MEM_READ, true},  {"mul", M_SUFFIX, MEM_READ, true},
    {"comiss", M_SUFFIX, MEM_READ, true}, {"comisd", M_SUFFIX, MEM_READ, true}, {"ucomiss", M_SUFFIX, MEM_READ, true},
    {"ucomisd", M_SUFFIX, MEM_READ, true}, {"vcomiss", M_SUFFIX, MEM_READ, true}, {"vcomisd", M_SUFFIX, MEM_READ, true},
    {"vucomiss", M_SUFFIX, MEM_READ, true}, {"vucomisd", M_SUFFIX, MEM_READ, true}, {"ptest", M_SUFFIX, MEM_READ, true},
    {"vptest", M_SUFFIX, MEM_READ, true}, {"vtestps", M_SUFFIX, MEM_READ, true}, {"vtestpd", M_SUFFIX, MEM_READ, true},
    {"push", M_SUFFIX, MEM_READ, true},   {"jmp", M_SUFFIX, MEM_READ, true},   {"call", M_SUFFIX, MEM_READ, true},
    {"ldmxcsr", M_SUFFIX, MEM_READ, true}, {"vldmxcsr", M_SUFFIX, MEM_READ, true},
    /* written without being read */
    {"mov", M_PREFIX, MEM_WRITE, false},  {"vmov", M_PREFIX, MEM_WRITE, false}, {"set", M_PREFIX, MEM_WRITE, false},
    {"vextract", M_PREFIX, MEM_WRITE, false}, {"extract", M_PREFIX, MEM_WRITE, false}, {"pextr", M_PREFIX, MEM_WRITE, false},
    {"vpextr", M_PREFIX, MEM_WRITE, false}, {"vcompress", M_PREFIX, MEM_WRITE, false},
    {"vpcompress", M_PREFIX, MEM_WRITE, false}, {"vpmov", M_PREFIX, MEM_WRITE, false},
    {"stmxcsr", M_SUFFIX, MEM_WRITE, false}, {"vstmxcsr", M_SUFFIX, MEM_WRITE, false}, {"sgdt", M_SUFFIX, MEM_WRITE, false},
    {"sidt", M_SUFFIX, MEM_WRITE, false}, {"sldt", M_SUFFIX, MEM_WRITE, false}, {"smsw", M_SUFFIX, MEM_WRITE, false},
    {"str", M_SUFFIX, MEM_WRITE, false},
    /* an address, no access */
    {"lea", M_SUFFIX, MEM_NONE, false},   {"nop", M_PREFIX, MEM_NONE, false},
    /* accesses the operands do not say */
    {"prefetch", M_PREFIX, MEM_UNKNOWN, false}, {"clflush", M_PREFIX, MEM_UNKNOWN, false},
    {"clwb", M_PREFIX, MEM_UNKNOWN, false}, {"cldemote", M_PREFIX, MEM_UNKNOWN, false},
    {"vgather", M_PREFIX, MEM_UNKNOWN, false}, {"vpgather", M_PREFIX, MEM_UNKNOWN, false},
    {"vscatter", M_PREFIX, MEM_UNKNOWN, false}, {"vpscatter", M_PREFIX, MEM_UNKNOWN, false},
    {"vmaskmov", M_PREFIX, MEM_UNKNOWN, false}, {"vpmaskmov", M_PREFIX, MEM_UNKNOWN, false},
    {"maskmov", M_PREFIX, MEM_UNKNOWN, false}, {"xsave", M_PREFIX, MEM_UNKNOWN, false},
    {"xrstor", M_PREFIX, MEM_UNKNOWN, false}, {"fxsave", M_PREFIX, MEM_UNKNOWN, false},
    {"fxrstor", M_PREFIX, MEM_UNKNOWN, false}, {"enqcmd", M_PREFIX, MEM_UNKNOWN, false},
    {"movdir", M_PREFIX, MEM_UNKNOWN, false}, {"tile", M_PREFIX, MEM_UNKNOWN, false},
};

/* m is base, or base with an AT&T size suffix (cmpq, testl). */
static bool is_op(const char *m, const char *base)
{
    size_t l = strlen(base);
    return !strncmp(m, base, l) && (!m[l] || (strchr("bwlq", m[l]) && !m[l + 1]));
}

/* The same with x87's suffixes: fadds, faddl, fldt, fildll. */
static bool is_x87_op(const char *m, const char *base)
{
    size_t l = strlen(base);
    return !strncmp(m, base, l) && (!m[l] || (strchr("slt", m[l]) && !m[l + 1]) || !strcmp(m + l, "ll"));
}

/* An operand a string instruction or xlat names: its implicit address, spelled with the segment. */
static bool string_operand(const struct parsed *p)
{
    for (int i = 0; i < p->nops; i++)
        if (starts(p->ops[i], "%ds:(%r") || starts(p->ops[i], "%es:(%r"))
            return true;
    return false;
}

/* The table's row for mnemonic m, or NULL (an ordinary instruction: a memory operand it names
 * before the last is a source, the last one is read and written). The specific rows come before
 * the shorter names that would also match: the longest name wins (cmpxchg over cmp, fstp over fst). */
static const struct mem_form *mem_form(const struct parsed *p)
{
    const struct mem_form *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < ARRAY_SIZE(mem_forms); i++) {
        const struct mem_form *f = &mem_forms[i];
        size_t l = strlen(f->name);
        bool match = f->match == M_SUFFIX   ? is_op(p->mnem, f->name)
                   : f->match == M_X87      ? is_x87_op(p->mnem, f->name)
                   : f->match == M_STRING   ? is_op(p->mnem, f->name) && string_operand(p)
                                            : starts(p->mnem, f->name);
        if (match && l > best_len)
            best = f, best_len = l;
    }
    return best;
}

/* Reads its operands without writing any it names: flags, RDX:RAX or the x87 stack its output
 * (a one-operand multiply or divide, a compare, an x87 operation on memory). */
static bool reads_last_only(const struct parsed *p)
{
    const struct mem_form *f = mem_form(p);
    return f && f->use == MEM_READ && f->no_reg_out;
}

/* (String instructions name %rdi, the loop's counter, in objdump's spelling: refused before.) */
/* Mnemonics that leave the snippet or the loop behind. */
static const char *const away[] = {"call", "ret", "lret", "iret", "syscall", "sysenter", "sysexit", "sysret", "int",
                                   "into", "ljmp", "lcall", NULL};

void isa_snippet_classify(struct snippet_insn *in)
{
    struct parsed p;
    parse_text(in->text, &p);
    in->target = -1;
    if (is_op(p.mnem, "imul") && p.nops == 1)
        strcpy(p.mnem, "mul");   /* one operand: RDX:RAX = RAX x src, read-only like mul */
    const char *m = p.mnem;
    /* branches */
    if (starts_any(m, away) && strcmp(m, "int3") != 0) {
        in->kind = SN_BR_AWAY;
    } else if (m[0] == 'j' || starts(m, "loop") || !strcmp(m, "int3") || starts(m, "xbegin")) {
        /* xbegin: its abort handler is a branch target like a jump's */
        bool indirect = p.nops && p.ops[0][0] == '*';
        in->kind = indirect || !strcmp(m, "int3") ? SN_BR_AWAY : starts(m, "jmp") ? SN_BR_UNCOND : SN_BR_COND;
        if (!indirect && p.nops) {
            char *end;
            unsigned long long t = strtoull(p.ops[0], &end, 16);
            if (end != p.ops[0])
                in->target = (int64_t)t;
        }
    }
    if (is_op(m, "push") || is_op(m, "pop") || is_op(m, "pushf") || is_op(m, "popf") || is_op(m, "leave") ||
        is_op(m, "enter"))
        in->why_not = "it moves the stack pointer, which the loop needs unchanged";
    /* What pmucal's own code relies on and no epilogue could put back safely. */
    const char *last = p.nops ? p.ops[p.nops - 1] : "";
    if (starts(m, "wrfsbase") || starts(m, "wrgsbase"))
        in->why_not = "it sets the FS or GS base, where the C library keeps its thread block";
    else if (((is_op(m, "mov") || is_op(m, "pop")) && last[0] == '%' && strchr("cdefgs", last[1]) && last[1] &&
              last[2] == 's' && !last[3]) || is_op(m, "lfs") || is_op(m, "lgs") || is_op(m, "lss"))
        in->why_not = "it loads a segment register (FS and GS address the C library's thread block)";
    else if (strstr(in->text, "%fs:") || strstr(in->text, "%gs:"))
        in->why_not = "it addresses memory through FS or GS, the C library's thread block (its stack guard at "
                      "%fs:0x28): the scratch buffer is the snippet's memory";
    else if (strstr(in->text, "%rip") || strstr(in->text, "%eip"))
        in->why_not = "it addresses memory through %rip, next to pmucal's own code and data (a store there "
                      "escapes the trial, a load reads pmucal's pointers): the scratch buffer is the snippet's memory";
    else if (starts(m, "wrpkru") || starts(m, "xrstor"))
        in->why_not = "it can change the protection keys (PKRU) of pmucal's own memory";
    /* extensions by the registers it names */
    if (strstr(in->text, "%zmm") || strstr(in->text, "%k") || strchr(in->text, '{'))
        in->ext |= ISA_AVX512;
    for (int v = 16; v < 32; v++) {
        char nm[12];
        snprintf(nm, sizeof(nm), "mm%d", v);
        if (strstr(in->text, nm))
            in->ext |= ISA_AVX512;
    }
    if (strstr(in->text, "%ymm"))
        in->ext |= ISA_AVX2;
    if (starts(m, "vfmadd") || starts(m, "vfmsub") || starts(m, "vfnmadd") || starts(m, "vfnmsub"))
        in->ext |= ISA_FMA;
    /* What the simulator (valgrind 3.19) runs otherwise than the CPU: checked outside pmucal. */
    const struct mem_form *f = mem_form(&p);
    if (p.rep && f && f->use == MEM_STRING && is_op(m, "lods"))
        in->sim_why_not = "valgrind 3.19 runs a rep-prefixed lods as one lods whatever %rcx holds (rep lodsb with "
                          "%rcx=5 reads one byte and leaves %rcx at 5; with %rcx=0 it still reads one)";
    else if (f && f->use == MEM_READ && is_op(m, "xlat"))
        in->sim_why_not = "valgrind 3.19's translator does not decode xlat (vex amd64->IR: unhandled instruction "
                          "bytes: 0xD7): it would raise SIGILL where the CPU runs it";
    else if (is_x87_op(m, "ficom") || is_x87_op(m, "ficomp") || is_x87_op(m, "fbld") || is_x87_op(m, "fbstp"))
        in->sim_why_not = "valgrind 3.19's translator does not decode this x87 form (ficom, ficomp, fbld, fbstp with "
                          "memory: 'unhandled opc_aux'): it would raise SIGILL where the CPU runs it";
    /* memory: a parenthesised operand that is no x87 register (%st(1)) and no indirect target */
    int mem = -1;
    for (int i = 0; i < p.nops; i++)
        if (strchr(p.ops[i], '(') && p.ops[i][0] != '*' && !starts(p.ops[i], "%st("))
            mem = i;
    enum mem_use use = f ? f->use : mem < 0 ? MEM_NONE : mem < p.nops - 1 ? MEM_READ : MEM_RMW;
    if (use == MEM_WRITE && mem >= 0 && mem < p.nops - 1)
        use = MEM_READ;   /* a move's source: mov (%rsi),%rax */
    if (use == MEM_UNKNOWN || (p.rep && (use == MEM_STRING || mem >= 0))) {
        in->loads = in->stores = -1;   /* rep: as many as %rcx says */
        return;
    }
    in->loads = in->stores = 0;
    if (in->kind != SN_OTHER || use == MEM_NONE || (mem < 0 && use != MEM_STRING))
        return;
    if (use == MEM_STRING) {
        in->loads = is_op(m, "cmps") ? 2 : is_op(m, "movs") || is_op(m, "lods") || is_op(m, "scas") || is_op(m, "outs");
        in->stores = is_op(m, "movs") || is_op(m, "stos") || is_op(m, "ins");
    } else if (use == MEM_READ) {
        in->loads = 1;
    } else if (use == MEM_WRITE) {
        in->stores = 1;
    } else {
        in->loads = in->stores = 1;
        in->rmw = true;
    }
}

int isa_snippet_dest(const struct snippet_insn *in)
{
    struct parsed p;
    parse_text(in->text, &p);
    if (!p.nops)
        return -1;
    const char *m = p.mnem;
    if (p.nops == 1 && (is_op(m, "mul") || is_op(m, "imul") || is_op(m, "div") || is_op(m, "idiv")))
        return RAX;   /* the quotient or the low half: RAX */
    if (reads_last_only(&p))
        return -1;
    const char *last = p.ops[p.nops - 1];
    if (last[0] != '%')
        return -1;
    const char *brace = strchr(last, '{');
    size_t len = brace ? (size_t)(brace - last - 1) : strlen(last) - 1;
    return reg_parse(last + 1, len, NULL);
}

static bool names_r(const char *op, int r)
{
    char buf[64];
    snprintf(buf, sizeof(buf), " %s", op);   /* each_reg wants the '%' inside */
    return isa_snippet_names(buf, r);
}

bool isa_snippet_reads(const struct snippet_insn *in, int r)
{
    struct parsed p;
    parse_text(in->text, &p);
    const char *m = p.mnem;
    if (p.nops == 1 && (is_op(m, "mul") || is_op(m, "imul") || is_op(m, "div") || is_op(m, "idiv")) &&
        (r == RAX || ((is_op(m, "div") || is_op(m, "idiv")) && r == RDX)))
        return true;
    static const char *const zeroing[] = {"xor", "sub", "pxor", "xorps", "xorpd", "vpxor", "vpxord", "vpxorq", "vxorps",
                                          "vxorpd", "psubb", "psubw", "psubd", "psubq", "vpsubb", "vpsubw", "vpsubd",
                                          "vpsubq", "pcmpgtb", "pcmpgtw", "pcmpgtd", "pcmpgtq", "sbb"};
    bool same = p.nops >= 2 && !strcmp(p.ops[0], p.ops[1]) && (p.nops == 2 || !strcmp(p.ops[1], p.ops[2]));
    for (size_t i = 0; same && i < ARRAY_SIZE(zeroing) && strcmp(m, "sbb"); i++)
        if (is_op(m, zeroing[i]))
            return false;
    for (int i = 0; i + 1 < p.nops; i++)
        if (names_r(p.ops[i], r))
            return true;
    if (!p.nops)
        return false;
    const char *last = p.ops[p.nops - 1];
    if (last[0] != '%')   /* memory: the registers of its address are read */
        return names_r(last, r);
    if (!names_r(last, r))
        return false;
    static const char *const reads_dest[] = {"vfm", "vfnm", "vpermt2", "vpermi2", "vpdp", "vpmadd52", "vpshld",
                                             "vpshrd", "vpternlog", NULL};
    if (strchr(last, '{') || starts_any(m, reads_dest))
        return true;   /* merge-masking, FMA, two-table permutes: the destination is a source too */
    static const char *const write_only[] = {"mov", "vmov", "lea", "set", "pop", "cvt", "vcvt", "vbroadcast", "vpbroadcast",
                                             "pmov", "vpmov", "bsf", "bsr", "lzcnt", "tzcnt", "popcnt", "rdtsc", "rdrand",
                                             "rdseed", "pshuf", "vpshuf", "vextract",
                                             "extract", "pextr", "vpextr", NULL};
    return p.nops <= 2 && !starts_any(m, write_only);
}

uintptr_t isa_snippet_fault_pc(const void *ucontext)
{
    return (uintptr_t)((const ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RIP];
}

int isa_snippet_decode(const char *obj, const uint8_t *bytes, size_t len, struct snippet_insn **out, size_t *n,
                       char *why, size_t wn)
{
    (void)bytes;
    static const char *const dis[] = {"objdump", "x86_64-linux-gnu-objdump", NULL};
    if (snippet_objdump(dis, obj, len, out, n, why, wn))
        return -1;
    for (size_t i = 0; i < *n; i++)
        isa_snippet_classify(&(*out)[i]);
    return 0;
}

/* Callee-saved: the caller keeps them. */
static const enum reg saved[] = {RBX, RBP, R12, R13, R14, R15};

/* An instruction of fixed bytes, with its listing text. */
static void fixed_insn(struct assembler *as, const uint8_t *bytes, size_t n, const char *text)
{
    size_t s = as->len;
    asm_put(as, bytes, n);
    asm_insn(as, s, -1, "%s", text);
}

uint64_t isa_snippet_state_save(void)
{
    uint32_t mxcsr;
    uint16_t fcw;
    __asm__ volatile("stmxcsr %0; fnstcw %1" : "=m"(mxcsr), "=m"(fcw));
    return mxcsr | (uint64_t)fcw << 32;
}

void isa_snippet_state_restore(uint64_t state)
{
    uint32_t mxcsr = (uint32_t)state;
    uint16_t fcw = (uint16_t)(state >> 32);
    __asm__ volatile("cld; fninit; ldmxcsr %0; fldcw %1" : : "m"(mxcsr), "m"(fcw) : "memory");
}

void isa_snippet_prologue(struct assembler *as)
{
    asm_comment(as, "prologue: keep the caller's registers, then every register from the block at %%rsi");
    for (size_t i = 0; i < ARRAY_SIZE(saved); i++)
        x86_asm_push(as, saved[i]);
    /* The caller's MXCSR at 0(%rsp), its x87 control word at 4(%rsp): the snippet may change both */
    x86_asm_sub_imm(as, RSP, 8);
    fixed_insn(as, (const uint8_t[]){0x0f, 0xae, 0x1c, 0x24}, 4, "stmxcsr (%rsp)");
    fixed_insn(as, (const uint8_t[]){0xd9, 0x7c, 0x24, 0x04}, 4, "fnstcw 0x4(%rsp)");
    for (int v = 0; v < 16; v++) {
        x86_asm_load(as, RAX, RSI, 8 * (VEC0 + v));
        x86_asm_movq_to_xmm(as, v, RAX);
    }
    for (int r = 0; r < 16; r++)
        if (r != RSP && r != RDI && r != RSI)
            x86_asm_load(as, (enum reg)r, RSI, 8 * r);
    x86_asm_load(as, RSI, RSI, 8 * RSI);
}

void isa_snippet_epilogue(struct assembler *as)
{
    asm_comment(as, "epilogue: the caller's direction flag (clear), x87 stack (empty), MXCSR and x87 control word");
    fixed_insn(as, (const uint8_t[]){0xfc}, 1, "cld");
    fixed_insn(as, (const uint8_t[]){0xdb, 0xe3}, 2, "fninit");
    fixed_insn(as, (const uint8_t[]){0x0f, 0xae, 0x14, 0x24}, 4, "ldmxcsr (%rsp)");
    fixed_insn(as, (const uint8_t[]){0xd9, 0x6c, 0x24, 0x04}, 4, "fldcw 0x4(%rsp)");
    x86_asm_add_imm(as, RSP, 8);
    for (size_t i = ARRAY_SIZE(saved); i-- > 0;)
        x86_asm_pop(as, saved[i]);
    asm_ret(as);
}

void isa_snippet_jump(struct assembler *as, int label)
{
    x86_asm_jmp(as, label, REL32);
}

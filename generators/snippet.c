/* code: the user's snippet (generators/snippet.h), assembled, copied into the exact loop
 *
 *     entry: prologue (arch/snippet.h: registers from the block at the data pointer); jump to test
 *     body:  copy 1 .. copy U of the snippet (throughput: of the snippet with its output renamed)
 *     test:  the loop test (asm_loop_test); epilogue; return
 *
 * so that loop(n) - loop(0) is exactly n bodies and n tests, as every generated kernel. The model
 * is the snippet's own: its instructions from the assembled object, its loads, stores and jumps
 * as the encoding says, what the user states (expect=) beside them. The snippet is input: it runs
 * in a sandboxed process of its own (generators/snippet_run.h), trial and measured loops alike; a
 * fault (SIGILL, SIGSEGV, SIGFPE, SIGBUS, SIGTRAP), a system call or a hang (the watchdog) is
 * named with its instruction and fails the case cleanly; pmucal goes on to the next.
 * docs/measure-code.md says what is refused and why. */
#include "generators/snippet.h"
#include "base/elfobj.h"
#include "base/stop.h"
#include "base/subprocess.h"
#include "base/util.h"
#include "generators/codegen.h"
#include "generators/snippet_digest.h"
#include "generators/snippet_file.h"
#include "generators/snippet_run.h"
#include "host/clock.h"
#include "sources/sim.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#define SCRATCH_BYTES 65536     /* as documented (isa_snippet_init_doc); one address loaded again is an L1 hit */
#define SCRATCH_GUARD (2ul << 30)   /* inaccessible on each side: the reach of a 32-bit displacement */
#define SCRATCH_ROOM 64         /* bytes after scratch+N the widest access (a zmm register) reaches */
#define TRIAL_SECONDS 5.0       /* the trial loop's watchdog: two iterations of any snippet take far less */
#define WATCHDOG_FLOOR_SECONDS 2.0
#define WATCHDOG_SLACK 100      /* a loop may take this many times what the pace predicts */
#define THROUGHPUT_CHAINS 8     /* renamed copies in flight: 8 x a 1-cycle rate hides 8 cycles of latency */
#define BODY_INSNS 64           /* instructions a body aims at (the loop test's share stays small) */
#define MAX_COPIES 4096

static char last_problem[768];

const char *snippet_last_problem(void)
{
    return last_problem;
}

static void problem(char *why, size_t wn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void problem(char *why, size_t wn, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, wn, fmt, ap);
    va_end(ap);
}

void snippet_free(struct snippet *s)
{
    free(s->bytes);
    free(s->insn);
    memset(s, 0, sizeof(*s));
}

/* The assembler's first error, its file name replaced by the snippet's line: "line 2: Error: ...". */
static void assembler_message(const char *err_path, const char *src_path, int preamble_lines, const char *where,
                              char *why, size_t wn)
{
    FILE *f = fopen(err_path, "r");
    char line[512], first[512] = "";
    size_t sl = strlen(src_path);
    while (f && fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, src_path, sl) && line[sl] == ':' && isdigit((unsigned char)line[sl + 1])) {
            char *end;
            long n = strtol(line + sl + 1, &end, 10) - preamble_lines;
            problem(why, wn, "%s does not assemble: line %ld: %s", where, n, *end == ':' ? end + 1 + (end[1] == ' ') : end);
            fclose(f);
            return;
        }
        if (!first[0] && !strstr(line, "Assembler messages"))
            snprintf(first, sizeof(first), "%s", line);
    }
    if (f)
        fclose(f);
    problem(why, wn, "%s does not assemble: %s", where, first[0] ? first : "the assembler failed without a message");
}

/* What follows from the decoded instructions: counts of one lap of the code and the refusals. */
static int snippet_judge(struct snippet *s, const char *where, char *why, size_t wn)
{
    if (!s->n || !s->len) {
        problem(why, wn, "%s holds no instruction", where);
        return -1;
    }
    s->loads = s->stores = 0;
    s->exec_known = true;
    for (size_t i = 0; i < s->n; i++) {
        const struct snippet_insn *in = &s->insn[i];
        const char *reserved = isa_snippet_reserved(in->text);
        if (reserved) {
            problem(why, wn, "%s: '%s' names %s, which the loop keeps for itself (%s)", where, in->text, reserved,
                    isa_snippet_init_doc);
            return -1;
        }
        if (in->kind == SN_BR_AWAY) {
            problem(why, wn, "%s: '%s' (offset %zu) leaves the snippet (a call, return, indirect jump or system call): "
                    "the loop cannot continue after it; branch only to labels inside the snippet", where, in->text, in->off);
            return -1;
        }
        if (in->why_not) {
            problem(why, wn, "%s: '%s' cannot be looped: %s", where, in->text, in->why_not);
            return -1;
        }
        if ((in->kind == SN_BR_COND || in->kind == SN_BR_UNCOND) &&
            (in->target < 0 || (uint64_t)in->target > s->len)) {
            problem(why, wn, "%s: '%s' (offset %zu) branches out of the snippet (its bytes are 0..%zu); branch only "
                    "to labels inside it", where, in->text, in->off, s->len);
            return -1;
        }
        if (in->kind == SN_BR_COND || in->kind == SN_BR_UNCOND) {
            /* Every byte the CPU can reach is one the decoder saw: a target inside an instruction
             * would run bytes hidden in it (an immediate that encodes a system call). */
            size_t t = 0;
            while (t < s->n && s->insn[t].off != (uint64_t)in->target)
                t++;
            if (t == s->n && (uint64_t)in->target != s->len) {
                problem(why, wn, "%s: '%s' (offset %zu): a jump lands inside an instruction (offset %lld); branch only "
                        "to labels", where, in->text, in->off, (long long)in->target);
                return -1;
            }
        }
        if (in->kind == SN_BR_COND)
            s->exec_known = false;
        s->ext |= in->ext;
        s->rmw |= in->rmw;
    }
    /* One lap: from offset 0, jumps followed, until the end; a jump back would never end. */
    size_t off = 0, steps = 0;
    s->executed = 0;
    while (off < s->len && s->exec_known) {
        size_t i = 0;
        while (i < s->n && s->insn[i].off != off)
            i++;
        if (i == s->n) {
            problem(why, wn, "%s: a jump lands inside an instruction (offset %zu)", where, off);
            return -1;
        }
        const struct snippet_insn *in = &s->insn[i];
        if (++steps > s->n) {
            problem(why, wn, "%s: its jumps loop forever (through '%s')", where, in->text);
            return -1;
        }
        s->executed++;
        if (in->kind == SN_BR_UNCOND) {
            s->br_uncond++;
            off = (size_t)in->target;
        } else {
            off += in->len;
        }
        if (s->loads >= 0)
            s->loads = in->loads < 0 ? -1 : s->loads + in->loads;
        if (s->stores >= 0)
            s->stores = in->stores < 0 ? -1 : s->stores + in->stores;
    }
    return 0;
}

static int snippet_from_object(const char *obj, const char *where, struct snippet *s, char *why, size_t wn)
{
    struct elf_text t;
    char err[512];
    if (elf_text_read(obj, &t, err, sizeof(err))) {
        problem(why, wn, "%s: %s", where, err);
        return -1;
    }
    if (t.nrelocs) {
        problem(why, wn, "%s refers to %s%s%s outside itself (offset %llu): it must be whole, every branch to a label "
                "inside it", where, t.reloc_symbol[0] ? "'" : "an address", t.reloc_symbol, t.reloc_symbol[0] ? "'" : "",
                (unsigned long long)t.reloc_offset);
        elf_text_free(&t);
        return -1;
    }
    s->bytes = t.bytes, s->len = t.len;
    t.bytes = NULL;
    elf_text_free(&t);
    if (isa_snippet_decode(obj, s->bytes, s->len, &s->insn, &s->n, err, sizeof(err))) {
        problem(why, wn, "%s: %s", where, err);
        return -1;
    }
    return snippet_judge(s, where, why, wn);
}

static const char *temp_base(void)
{
    const char *tmp = getenv("TMPDIR");
    return tmp && *tmp ? tmp : "/tmp";
}

/* A private folder for the assembler's files in temp_base(); NULL with errno. */
static char *temp_folder(const char *what)
{
    char *dir = xasprintf("%s/pmucal-%s-XXXXXX", temp_base(), what);
    if (!mkdtemp(dir)) {
        int e = errno;
        free(dir);
        errno = e;
        return NULL;
    }
    return dir;
}

/* Writes a whole file; false when any step failed (the FILE is closed either way). */
static bool write_whole(const char *path, const char *mode, const void *bytes, size_t len)
{
    FILE *f = fopen(path, mode);
    if (!f)
        return false;
    bool whole = fwrite(bytes, 1, len, f) == len;
    return !fclose(f) && whole;
}

int snippet_load_object(const char *path, struct snippet *s, char *why, size_t wn)
{
    memset(s, 0, sizeof(*s));
    char where[300], err[400];
    snprintf(where, sizeof(where), "the object %s", path);
    /* Read once, bounded, a regular file only (a FIFO would block the open), and decoded from a
     * private copy: the bytes run are the bytes judged. */
    size_t len;
    char *bytes = read_file_bounded(path, SNIPPET_OBJECT_MAX, &len, err, sizeof(err));
    if (!bytes || snippet_bytes_check(path, bytes, len, err, sizeof(err))) {
        problem(why, wn, "cannot read the object: %s", err);
        free(bytes);
        return -1;
    }
    char *dir = temp_folder("obj");
    if (!dir) {
        problem(why, wn, "cannot make a temporary folder for the object in %s (TMPDIR, else /tmp): %s",
                temp_base(), strerror(errno));
        free(bytes);
        return -1;
    }
    char *copy = xasprintf("%s/snippet.o", dir);
    int rc = -1;
    if (!write_whole(copy, "wb", bytes, len))
        problem(why, wn, "cannot copy the object into %s", dir);
    else
        rc = snippet_from_object(copy, where, s, why, wn);
    if (rc)
        snippet_free(s);
    unlink(copy), rmdir(dir);
    free(copy), free(dir);
    free(bytes);
    return rc;
}

int snippet_assemble(const char *text, const char *where, struct snippet *s, char *why, size_t wn)
{
    memset(s, 0, sizeof(*s));
    const char *reserved = isa_snippet_reserved(text);
    if (reserved) {
        problem(why, wn, "%s names %s, which the loop keeps for itself (%s)", where, reserved, isa_snippet_init_doc);
        return -1;
    }
    char *dir = temp_folder("asm");
    if (!dir) {
        problem(why, wn, "cannot make a temporary folder for the assembler in %s (TMPDIR, else /tmp): %s",
                temp_base(), strerror(errno));
        return -1;
    }
    char *src = xasprintf("%s/snippet.s", dir), *obj = xasprintf("%s/snippet.o", dir),
         *err = xasprintf("%s/as.err", dir);
    int rc = -1, preamble_lines = 0;
    for (const char *p = isa_snippet_preamble; *p; p++)
        preamble_lines += *p == '\n';
    char *source = xasprintf("%s%s\n", isa_snippet_preamble, text);
    bool written = write_whole(src, "w", source, strlen(source));
    free(source);
    if (!written) {
        problem(why, wn, "cannot write the snippet for the assembler in %s", dir);
        goto out;
    }
    const char *forced = getenv("PMUCAL_AS");
    int st = SPAWN_NOT_STARTED;
    const char *used = NULL;
    for (size_t i = 0; (forced ? i < 1 : isa_snippet_assemblers[i] != NULL) && st == SPAWN_NOT_STARTED; i++) {
        char *argv[16];
        int a = 0;
        argv[a++] = (char *)(used = forced ? forced : isa_snippet_assemblers[i]);
        for (size_t k = 0; isa_snippet_as_flags[k] && a < 10; k++)
            argv[a++] = (char *)isa_snippet_as_flags[k];
        argv[a++] = "-o", argv[a++] = obj, argv[a++] = src, argv[a] = NULL;
        st = spawn_run(argv, &(struct spawn_opts){.err_path = err, .timeout_ms = 20000});
    }
    if (st == SPAWN_NOT_STARTED) {
        /* A cross assembler TARGET-as comes in Debian's binutils-TARGET. */
        const char *as0 = isa_snippet_assemblers[0];
        size_t len = strlen(as0), target = len > 3 && !strcmp(as0 + len - 3, "-as") ? len - 3 : 0;
        problem(why, wn, forced ? "PMUCAL_AS=%s cannot be started" : "no assembler: %s is not installed (Debian "
                "package binutils%s%.*s)", forced ? forced : as0, target ? "-" : "", (int)target, as0);
        goto out;
    }
    if (st != 0) {
        if (st == SPAWN_TIMED_OUT)
            problem(why, wn, "%s: the assembler %s ran over 20 s", where, used);
        else
            assembler_message(err, src, preamble_lines, where, why, wn);
        goto out;
    }
    rc = snippet_from_object(obj, where, s, why, wn);
out:
    if (rc)
        snippet_free(s);
    unlink(src), unlink(obj), unlink(err), rmdir(dir);
    free(src), free(obj), free(err), free(dir);
    return rc;
}

int snippet_chain_reg(const struct snippet *s, const char *chain, char *why, size_t wn)
{
    int r;
    if (chain && *chain && strcmp(chain, "auto")) {
        r = isa_snippet_reg_lookup(chain);
        char named[48];
        snprintf(named, sizeof(named), "%s%.40s", *chain == '%' ? "" : "%", chain);
        const char *reserved = r >= 0 ? isa_snippet_reserved(named) : NULL;
        if (r < 0)
            problem(why, wn, "chain=%s is not a register of %s", chain, ISA_NAME);
        else if (reserved)
            problem(why, wn, "chain=%s: the loop keeps %s for itself (%s)", chain, reserved, isa_snippet_init_doc);
        return reserved ? -1 : r;
    }
    const struct snippet_insn *last = &s->insn[s->n - 1];
    r = isa_snippet_dest(last);
    if (r < 0) {
        problem(why, wn, "the snippet cannot chain: its last instruction '%s' names no register it writes; name the "
                "register the chain runs through (chain=REG), or measure throughput only", last->text);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        if (isa_snippet_reads(&s->insn[i], r))
            return r;
    problem(why, wn, "the snippet cannot chain: it writes %s ('%s') but no instruction reads it, so its copies "
            "would not wait for each other (a zeroing idiom or a move breaks the chain); make it read its own "
            "output, or name another register (chain=REG)", isa_snippet_regs[r] ? isa_snippet_regs[r] : "its output",
            last->text);
    return -1;
}

/* ---- the kernel ---- */


static const struct param code_params[] = {
    {"asm", PARAM_TEXT, "", "the instructions, separated by ';' (a bare word is this)", NULL, NULL},
    {"file", PARAM_TEXT, "", "a file of assembly: the whole file is one snippet", NULL, NULL},
    {"object", PARAM_TEXT, "", "an object file an assembler made elsewhere (its .text is the snippet)", NULL, NULL},
    {"mode", PARAM_ENUM, "latency", "latency: each copy waits for the one before through the chain register; "
     "throughput: copies renamed onto spare registers, independent", "latency|throughput", NULL},
    {"chain", PARAM_TEXT, "auto", "the register the copies chain through: auto (the last instruction's destination) "
     "or a name", NULL, NULL},
    {"init", PARAM_TEXT, "", "starting values, REG=VALUE,... (a number, 0x.., a double with a '.', scratch or "
     "scratch+N)", NULL, NULL},
    {"expect", PARAM_TEXT, "", "what a copy does that its encoding does not say, QUANTITY=N,... (ld.all=2)", NULL, NULL},
    {"copies", PARAM_UINT, "0", "copies of the snippet a loop iteration (0: about 64 instructions)", NULL, NULL},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

/* init= into regs; set[r] says which the user gave. */
static int set_init(const char *text, uint64_t *regs, bool set[SNIPPET_NREGS], uint64_t scratch, char *why, size_t wn)
{
    int n;
    char **items = split_list(text, ',', &n);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        char *eq = strchr(items[i], '=');
        if (!eq) {
            problem(why, wn, "init=%s: '%s' is not REG=VALUE", text, items[i]);
            rc = -1;
            break;
        }
        *eq = 0;
        int r = isa_snippet_reg_lookup(items[i]);
        if (r < 0 || r >= SNIPPET_NREGS || !isa_snippet_regs[r]) {
            problem(why, wn, "init: '%s' is not a register the snippet may set (%s)", items[i], isa_snippet_init_doc);
            rc = -1;
            break;
        }
        if (set[r]) {   /* which value was meant is not for pmucal to guess */
            problem(why, wn, "init=%s: %s is given twice; give each register once", text, isa_snippet_regs[r]);
            rc = -1;
            break;
        }
        set[r] = true;
        const char *v = eq + 1;
        char *end = NULL;
        uint64_t x = 0;
        if (!strncmp(v, "scratch", 7)) {
            uint64_t add = 0;
            if (v[7] && (v[7] != '+' || !parse_u64(v + 8, &add) || add > SCRATCH_BYTES - SCRATCH_ROOM)) {
                problem(why, wn, "init: %s=%s: scratch+N wants N from 0 to %d (the buffer is %d KiB, and %d bytes "
                        "past N are left for the widest access)", items[i], v, SCRATCH_BYTES - SCRATCH_ROOM,
                        SCRATCH_BYTES / 1024, SCRATCH_ROOM);
                rc = -1;
                break;
            }
            x = scratch + add;
        } else if (strchr(v, '.')) {
            errno = 0;
            double d = strtod(v, &end);
            if (errno || *end || end == v) {
                problem(why, wn, "init: %s=%s is not a number", items[i], v);
                rc = -1;
                break;
            }
            memcpy(&x, &d, 8);
        } else {
            errno = 0;
            long long sx = strtoll(v, &end, 0);
            if (errno == ERANGE || *end || end == v) {
                errno = 0;
                x = strtoull(v, &end, 0);
                if (errno || *end || end == v || *v == '-') {
                    problem(why, wn, "init: %s=%s is not a number (decimal, 0x.., a double with a '.', scratch)", items[i], v);
                    rc = -1;
                    break;
                }
            } else {
                x = (uint64_t)sx;
            }
        }
        regs[r] = x;
    }
    free_list(items);
    return rc;
}

static int set_expect(const char *text, struct quantities *q, char *why, size_t wn)
{
    int n;
    char **items = split_list(text, ',', &n);
    int rc = 0;
    bool seen[Q_COUNT] = {false};
    for (int i = 0; i < n && !rc; i++) {
        char *eq = strchr(items[i], '=');
        int id = eq ? (*eq = 0, quantity_lookup(items[i])) : -1;
        char *end = NULL;
        double v = eq ? strtod(eq + 1, &end) : NAN;
        if (id < 0 || !end || *end || end == eq + 1 || !(v >= 0 && v <= 1e6)) {
            problem(why, wn, "expect=%s: '%s' is not QUANTITY=N with a quantity of 'pmucal quantities' and N from 0 "
                    "to 1e6", text, items[i]);
            rc = -1;
        } else if (seen[id]) {
            problem(why, wn, "expect=%s: %s is given twice; give each quantity once", text, items[i]);
            rc = -1;
        } else {
            q->v[id] = v;
            seen[id] = true;
        }
    }
    free_list(items);
    return rc;
}

/* The unit of one loop: the snippet itself (latency), or THROUGHPUT_CHAINS copies each with its
 * output register renamed to a spare one the snippet does not name. */
static int build_unit(struct case_ *c, struct code_kernel *k, char *why, size_t wn)
{
    const char *text = case_str(c, "asm"), *file = case_str(c, "file"), *object = case_str(c, "object");
    bool lat = case_is(c, "mode", "latency");
    if (!!*text + !!*file + !!*object != 1) {
        problem(why, wn, "code: give the snippet once: asm=TEXT (or the bare text), file=PATH or object=PATH");
        return -1;
    }
    char *owned = NULL;
    if (*file) {
        size_t flen;
        char err[400];
        owned = read_file_bounded(file, SNIPPET_FILE_MAX, &flen, err, sizeof(err));
        if (!owned || snippet_bytes_check(file, owned, flen, err, sizeof(err))) {
            problem(why, wn, "cannot read the snippet: %s", err);
            free(owned);
            return -1;
        }
        int nul = snippet_text_nul_line(owned, flen);
        if (nul) {
            problem(why, wn, "%s:%d: a NUL byte; the snippet is text (what follows it would be dropped)", file, nul);
            free(owned);
            return -1;
        }
        text = owned;
    }
    struct snippet base;
    int rc = *object ? snippet_load_object(object, &base, why, wn) : snippet_assemble(text, *file ? file : "the snippet",
                                                                                     &base, why, wn);
    if (rc) {
        free(owned);
        return -1;
    }
    int chain = -1;
    const char *chain_name = case_str(c, "chain");
    bool none = !strcmp(chain_name, "none");
    if (!none)
        chain = snippet_chain_reg(&base, chain_name, why, wn);
    if (lat || *object || none) {
        if (lat && chain < 0 && !none) {
            snippet_free(&base);
            free(owned);
            return -1;
        }
        if (!lat && *object) {
            problem(why, wn, "code: object= is measured as it is (latency); throughput renames registers in the "
                    "source, which an object does not have");
            snippet_free(&base);
            free(owned);
            return -1;
        }
        k->unit = base;
        k->per_unit = 1;
        free(owned);
        return 0;
    }
    if (chain < 0) {
        snippet_free(&base);
        free(owned);
        return -1;
    }
    int spares[32], ns = isa_snippet_spares(chain, spares, 32), used = 0;
    k->renamed_from = chain;
    size_t cap = strlen(text) * 2 * THROUGHPUT_CHAINS + 256, len = 0;
    char *all = xmalloc(cap), *one = xmalloc(strlen(text) * 2 + 64);
    bool unchanged = false;
    for (int i = 0; i < ns && used < THROUGHPUT_CHAINS; i++) {
        if (spares[i] == chain || isa_snippet_names(text, spares[i]))
            continue;
        if (!isa_snippet_rename(text, chain, spares[i], one, strlen(text) * 2 + 64))
            continue;
        if (!strcmp(one, text)) {   /* nothing renamed: copies that would still wait for each other */
            unchanged = true;
            break;
        }
        len += (size_t)snprintf(all + len, cap - len, "%s%s", used ? "\n" : "", one);
        k->renamed_to[used++] = spares[i];
    }
    free(one);
    snippet_free(&base);
    if (unchanged) {
        problem(why, wn, "throughput: renaming the chain register %s changes nothing in the snippet's text (it does "
                "not name it in the syntax the renamer reads: .intel_syntax is not renamed), so the copies would still wait "
                "for each other; write the independent form yourself and measure it with chain=none",
                isa_snippet_regs[chain] ? isa_snippet_regs[chain] : "?");
        free(all);
        free(owned);
        return -1;
    }
    if (used < 2) {
        problem(why, wn, "throughput: the snippet's chain register %s has no spare registers to rename it to "
                "(it names them all, or an implicit register carries the chain); write the independent form yourself "
                "and measure it with chain=none", isa_snippet_regs[chain] ? isa_snippet_regs[chain] : "?");
        free(all);
        free(owned);
        return -1;
    }
    char where[64];
    snprintf(where, sizeof(where), "the snippet renamed for throughput");
    rc = snippet_assemble(all, where, &k->unit, why, wn);
    k->per_unit = (size_t)used;
    k->nrenamed = used;
    free(all);
    free(owned);
    return rc;
}

/* The watchdog's limit for a loop of iters: far more than the pace predicts. */
static double loop_limit(const struct code_kernel *k, uint64_t iters)
{
    double t = WATCHDOG_FLOOR_SECONDS + WATCHDOG_SLACK * k->pace * ((double)iters + 1);
    return t > 600 ? 600 : t;
}

/* The scratch buffer in a mapping of its own between two inaccessible regions of 2 GiB, address
 * space only: any displacement an instruction encodes (32 bits, signed) from an address inside
 * the buffer lands in them, so a near or far miss faults and is named instead of writing over
 * pmucal's heap or another mapping. */
static void *scratch_map(size_t *map_len)
{
    *map_len = SCRATCH_BYTES + 2 * SCRATCH_GUARD;
    uint8_t *m = mmap(NULL, *map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + SCRATCH_GUARD, SCRATCH_BYTES, PROT_READ | PROT_WRITE)) {
        munmap(m, *map_len);
        return NULL;
    }
    return m + SCRATCH_GUARD;
}

/* Under the simulator (--source sim, valgrind): a snippet it does not run as the CPU does is
 * refused with the reason, never measured into a verdict that blames a right model. */
static bool sim_refuses(const struct code_kernel *k, char *why, size_t wn)
{
    bool loads = false;
    for (size_t i = 0; i < k->unit.n; i++) {
        const struct snippet_insn *in = &k->unit.insn[i];
        if (in->sim_why_not) {
            problem(why, wn, "--source sim does not run '%s' as the CPU does: %s", in->text, in->sim_why_not);
            return true;
        }
        loads |= in->loads != 0;
    }
    if (loads && !getenv(SIM_ENV_LOADS)) {
        problem(why, wn, "--source sim would not count every load: valgrind removes one whose value nothing reads "
                "unless its command line names the code kernel (pmucal then passes --vex-iropt-level=0)");
        return true;
    }
    return false;
}

static int code_setup(struct case_ *c)
{
    struct code_kernel *k = xcalloc(1, sizeof(*k));
    c->priv = k;
    last_problem[0] = 0;
    char *why = last_problem;
    size_t wn = sizeof(last_problem);
    quantities_unstated(&k->stated);
    uint64_t want = case_uint(c, "copies");
    if (want > MAX_COPIES) {
        problem(why, wn, "copies=%s: give 0 (about %d instructions a body) to %d", case_str(c, "copies"), BODY_INSNS,
                MAX_COPIES);
        goto fail;
    }
    if (build_unit(c, k, why, wn) || set_expect(case_str(c, "expect"), &k->stated, why, wn))
        goto fail;
    if (!case_isa_usable(c, k->unit.ext)) {
        char reason[sizeof(c->skip)];
        snprintf(reason, sizeof(reason), "%s", c->skip);
        snprintf(c->skip, sizeof(c->skip), "CPUID does not advertise what the snippet needs: %.190s", reason);
        if (k->unit.ext & c->isa_limits)
            snprintf(c->skip, sizeof(c->skip), "%s", reason);
        snprintf(last_problem, sizeof(last_problem), "%s", c->skip);
        return CASE_SKIP;
    }
    if (RUNNING_ON_VALGRIND && getenv(SIM_ENV_DIR) && sim_refuses(k, c->skip, sizeof(c->skip))) {
        snprintf(last_problem, sizeof(last_problem), "%s", c->skip);
        return CASE_SKIP;
    }
    k->scratch = scratch_map(&k->scratch_len);
    if (!k->scratch) {
        problem(why, wn, "cannot map the %d KiB scratch buffer: %s", SCRATCH_BYTES / 1024, strerror(errno));
        goto fail;
    }
    for (size_t i = 0; i < SCRATCH_BYTES / 8; i++)
        k->scratch[i] = (uint64_t)(uintptr_t)k->scratch;
    k->regs = xcalloc(SNIPPET_NREGS, 8);
    for (int r = 0; r < SNIPPET_NREGS; r++)
        k->regs[r] = isa_snippet_regs[r] ? isa_snippet_reg_default(r, (uint64_t)(uintptr_t)k->scratch) : 0;
    bool given[SNIPPET_NREGS] = {false};
    if (set_init(case_str(c, "init"), k->regs, given, (uint64_t)(uintptr_t)k->scratch, why, wn))
        goto fail;
    /* A renamed copy starts as the chain register does, init= included (the copies of 'mov
     * (%rax),%rax' with rax=scratch chase the buffer through %r8, %r9, ... as the first does). */
    for (int i = 0; i < k->nrenamed; i++) {
        int to = k->renamed_to[i], from = k->renamed_from;
        if (given[to]) {
            problem(why, wn, "init: throughput mode renames the chain register %s onto %s in a copy (a register the "
                    "snippet does not name), which starts with %s's value: give that (init=%s=...), not %s's",
                    isa_snippet_regs[from], isa_snippet_regs[to], isa_snippet_regs[from], isa_snippet_regs[from],
                    isa_snippet_regs[to]);
            goto fail;
        }
        k->regs[to] = k->regs[from];
    }
    size_t per = k->unit.n ? k->unit.n : 1;
    k->units = want ? (size_t)((want + k->per_unit - 1) / k->per_unit) : (BODY_INSNS + per - 1) / per;
    if (k->units < 1)
        k->units = 1;
    k->copies = k->units * k->per_unit;
    gen_init(&k->g, k->units * k->unit.len + 1024);
    struct assembler *as = &k->g.as;
    int entry = asm_label(as), body = asm_label(as), test = asm_label(as);
    asm_bind(as, entry);
    isa_snippet_prologue(as);
    isa_snippet_jump(as, test);
    asm_align(as, 64);
    asm_bind(as, body);
    k->body_off = as->len;
    asm_comment(as, "body: %zu copies of the snippet (%s)", k->copies, case_str(c, "mode"));
    for (size_t u = 0; u < k->units; u++) {
        size_t start = as->len;
        asm_put(as, k->unit.bytes, k->unit.len);
        for (size_t i = 0; i < k->unit.n; i++) {
            as->ninsn++;
            if (as->listing) {
                size_t at = start + k->unit.insn[i].off;
                size_t end = as->len;
                as->len = at + k->unit.insn[i].len;   /* the line spans this instruction's bytes */
                asm_line_add(as, at, -1, "%s", k->unit.insn[i].text);
                as->len = end;
            }
        }
    }
    asm_bind(as, test);
    k->loop = gen_loop_test_counts(asm_loop_test(as, body));
    isa_snippet_epilogue(as);
    if (gen_map(&k->g, entry, false, "code"))
        goto fail;
    /* The trial loop, the sandbox's first act: a snippet that faults, calls the system or never
     * ends is named now, before anything is measured; its pace there bounds every later loop's. */
    int trial = snippet_run_start(k, TRIAL_SECONDS, why, wn);
    if (trial > 0) {
        problem(why, wn, "stopped during the snippet's trial loop");
        return CASE_ERROR;
    }
    if (trial)
        goto fail;
    c->times_itself = true;
    /* The pace, outside any measured loop (loop() does the same work whatever its count, so that
     * loop(n) - loop(0) stays exact): loops of 4, 16, ... iterations until one lasts 1 ms. Each
     * loop's own ticks, not the wall time around it: the round trip to the sandbox's process
     * waits for a CPU on a busy machine, and that wait once ended the probe at a few iterations
     * (beside four busy loops, a hang's watchdog allowed 4.9 s, 10 s, then over 30 s; in
     * make test SAN=1, test 68's hang ran to the 600 s cap). */
    k->pace = 1;   /* the probe's own watchdog: seconds an iteration, generous */
    for (uint64_t it = 4;; it *= 4) {
        trial = snippet_run(k, it, it > 4 ? loop_limit(k, it) : TRIAL_SECONDS, why, wn);
        double took = (double)k->ticks / clock_get()->tsc_hz;
        if (trial > 0) {
            problem(why, wn, "stopped during the snippet's trial loop");
            return CASE_ERROR;
        }
        if (trial)
            goto fail;
        k->pace = took / (double)it;
        if (took >= 1e-3 || it >= (1u << 20))
            break;
    }
    c->warm_iters = 64;
    snprintf(c->detail, sizeof(c->detail), "%zu copies of %zu instruction%s (%zu bytes)%s", k->copies,
             k->unit.n / k->per_unit, k->unit.n / k->per_unit == 1 ? "" : "s", k->unit.len / k->per_unit,
             k->per_unit > 1 ? ", renamed onto independent registers" : "");
    return CASE_OK;
fail:
    pm_error("code: %s", last_problem);
    return CASE_ERROR;
}

/* A fault or a hang ends the case: c->failed says why, the measurement core stops at it, and the
 * case's verdict is a failure naming it (never a figure from loops that did not run). */
static void code_loop(struct case_ *c, uint64_t iters)
{
    struct code_kernel *k = c->priv;
    if (c->failed[0] || stop_requested())
        return;
    if (snippet_run(k, iters, loop_limit(k, iters), c->failed, sizeof(c->failed)) < 0)
        snprintf(last_problem, sizeof(last_problem), "%s", c->failed);
    c->loop_ticks = k->ticks;
    c->loop_switches = snippet_run_worker(k) ? k->switches : 0;
}

static void code_model(const struct case_ *c, struct quantities *q)
{
    const struct code_kernel *k = c->priv;
    const struct snippet *u = &k->unit;
    double units = (double)k->units, copies = (double)k->copies;
    q->v[Q_COPIES] = copies;
    q->v[Q_PF_MINOR] = q->v[Q_CTX_SWITCH] = q->v[Q_CPU_MIGRATION] = 0;
    q->v[Q_BR_CALL] = q->v[Q_BR_RET] = q->v[Q_BR_INDIRECT] = 0;
    if (u->exec_known) {
        q->v[Q_INST] = units * (double)u->executed;
        q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = q->v[Q_BR_COND_NTAKEN] = 0;
        q->v[Q_BR_UNCOND] = q->v[Q_BR_ALL] = units * u->br_uncond;
        gen_model_loop_test(&k->loop, q);
        q->v[Q_BR_MISPRED] = 0;
        if (u->loads >= 0 && !u->rmw)
            q->v[Q_LD_ALL] = units * u->loads;
        if (u->stores >= 0)
            q->v[Q_ST_ALL] = units * u->stores;
    }
    /* What the user states, per copy; the loop's test added where it counts. */
    for (int i = 0; i < Q_COUNT; i++) {
        if (isnan(k->stated.v[i]) || i == Q_ITER)
            continue;
        q->v[i] = copies * k->stated.v[i] + gen_loop_test_part(&k->loop, i);
    }
    if (u->rmw && isnan(k->stated.v[Q_LD_ALL]))
        q->unstated_why = "ld.all: an instruction reads and writes one place, a load on hardware but one modify access "
                          "to a simulator; state it with expect=ld.all=N";
    else if (!u->exec_known)
        q->unstated_why = "inst, ld.all, st.all, br.*: a conditional branch inside the snippet decides what runs; state "
                          "them with expect=";
}

static void code_teardown(struct case_ *c)
{
    struct code_kernel *k = c->priv;
    if (k) {
        snippet_run_end(k);
        gen_free(&k->g);
        snippet_free(&k->unit);
        free(k->regs);
        if (k->scratch)
            munmap((uint8_t *)k->scratch - (k->scratch_len - SCRATCH_BYTES) / 2, k->scratch_len);
    }
    free(k);
    c->priv = NULL;
}

static const struct assembler *code_code(const struct case_ *c)
{
    const struct code_kernel *k = c->priv;
    return &k->g.as;
}

static const struct kernel code_kernel = {
    .name = "code",
    .summary = "your own instructions (assembled by binutils as), copied into the exact loop: latency or throughput "
               "in cycles per copy, counts from the snippet's bytes",
    .params = code_params,
    .setup = code_setup,
    .loop = code_loop,
    .model = code_model,
    .teardown = code_teardown,
    .per = Q_COPIES,
    .per_name = "copy of the snippet",
    .code = code_code,
    .bare_param = "asm",
};
PMUCAL_KERNEL(code_kernel)

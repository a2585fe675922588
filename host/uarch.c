#include "host/uarch.h"
#include "base/util.h"
#include "host/topo.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define UARCH_FILE_BYTES (1u << 20)

/* One line's fields: '#' ends it, blanks separate them; rest[i] is the line from field i on. */
struct fields {
    int n;
    char **f;
    const char **rest;
};

struct parse {
    const char *origin;
    int line;
    bool (*recipe_known)(const char *);
};

static int fail(const struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const struct parse *p, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    pm_error("%s:%d: %s", p->origin, p->line, msg);
    return -1;
}

static void fields_free(struct fields *fs)
{
    for (int i = 0; i < fs->n; i++)
        free(fs->f[i]);
    free(fs->f);
    free(fs->rest);
    memset(fs, 0, sizeof(*fs));
}

/* line is the line's text without its newline; the comment is cut off in place. */
static void fields_split(struct fields *fs, char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    memset(fs, 0, sizeof(*fs));
    for (char *s = line;;) {
        s += strspn(s, " \t\r\v\f");
        if (!*s)
            break;
        size_t len = strcspn(s, " \t\r\v\f");
        fs->f = xgrow(fs->f, sizeof(*fs->f), fs->n);
        fs->rest = xgrow(fs->rest, sizeof(*fs->rest), fs->n);
        fs->rest[fs->n] = s;
        fs->f[fs->n] = xmalloc(len + 1);
        memcpy(fs->f[fs->n], s, len);
        fs->f[fs->n++][len] = '\0';
        s += len;
    }
}

/* The rest of the line from field i, trailing blanks dropped; NULL when there is none. */
static char *rest_text(const struct fields *fs, int i)
{
    if (i >= fs->n)
        return NULL;
    char *t = xstrdup(fs->rest[i]);
    size_t len = strlen(t);
    while (len && strchr(" \t\r\v\f", t[len - 1]))
        t[--len] = '\0';
    return t;
}

static bool name_ok(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9')))
        return false;
    return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(s);
}

static bool id_ok(const char *s)
{
    return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

/* Decimal, or hex after 0x; at most max. No sign, no octal, no trailing junk. */
static bool number_of(const char *s, uint64_t max, uint64_t *v)
{
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    const char *digits = hex ? s + 2 : s;
    if (!*digits || strspn(digits, hex ? "0123456789abcdefABCDEF" : "0123456789") != strlen(digits))
        return false;
    errno = 0;
    unsigned long long x = strtoull(digits, NULL, hex ? 16 : 10);
    if (errno || x > max)
        return false;
    *v = x;
    return true;
}

/* "N" or "N-M" with N <= M. */
static bool range_of(char *s, uint64_t max, struct uarch_range *r)
{
    char *dash = strchr(s, '-');
    uint64_t lo, hi;
    if (dash)
        *dash = '\0';
    bool ok = number_of(s, max, &lo) && (!dash || number_of(dash + 1, max, &hi));
    if (dash)
        *dash = '-';
    if (!ok)
        return false;
    r->lo = (unsigned)lo, r->hi = (unsigned)(dash ? hi : lo);
    return r->lo <= r->hi;
}

/* A figure: digits with at most one '.', above 0 and at most 1e15 cycles (no penalty is near it;
 * the bound keeps a figure printed back no longer than it was read). */
static bool figure_of(const char *s, double *v)
{
    size_t len = strlen(s);
    if (!len || len > 32 || strspn(s, "0123456789.") != len || strchr(s, '.') != strrchr(s, '.') || *s == '.' ||
        s[len - 1] == '.')
        return false;
    *v = strtod(s, NULL);
    return *v > 0 && *v <= 1e15;
}

/* A number printed so that figure_of reads it back to the same double: the fewest decimals that
 * do (a figure read from k decimals needs at most k). */
static void figure_text(char *buf, size_t n, double v)
{
    for (int prec = 0; prec <= 40; prec++) {
        snprintf(buf, n, "%.*f", prec, v);
        /* Fixed notation without needless zeros: "12.9", "4". */
        char *dot = strchr(buf, '.');
        if (dot) {
            char *end = buf + strlen(buf) - 1;
            while (end > dot && *end == '0')
                *end-- = '\0';
            if (end == dot)
                *end = '\0';
        }
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* KEY=VALUE fields from field `from` on, each key once and one of keys[]; vals[k] borrowed. */
static int keys_of(const struct parse *p, const struct fields *fs, int from, const char *const *keys, int nkeys,
                   const char **vals, const char *what)
{
    for (int k = 0; k < nkeys; k++)
        vals[k] = NULL;
    for (int i = from; i < fs->n; i++) {
        char *eq = strchr(fs->f[i], '=');
        if (!eq || eq == fs->f[i] || !eq[1])
            return fail(p, "%s: \"%.60s\" is not KEY=VALUE; write one of %s%s%s%s%s%s%s%s=VALUE", what, fs->f[i],
                        keys[0], nkeys > 1 ? ", " : "", nkeys > 1 ? keys[1] : "", nkeys > 2 ? ", " : "",
                        nkeys > 2 ? keys[2] : "", nkeys > 3 ? ", " : "", nkeys > 3 ? keys[3] : "",
                        nkeys > 4 ? ", ..." : "");
        int k = 0;
        while (k < nkeys && ((size_t)(eq - fs->f[i]) != strlen(keys[k]) || strncmp(fs->f[i], keys[k], strlen(keys[k]))))
            k++;
        if (k == nkeys) {
            char known[200] = "";
            for (int j = 0; j < nkeys; j++)
                snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s=", j ? ", " : "", keys[j]);
            return fail(p, "%s: unknown key \"%.*s\"; the keys here are %s", what, (int)(eq - fs->f[i] > 40 ? 40 :
                        eq - fs->f[i]), fs->f[i], known);
        }
        if (vals[k])
            return fail(p, "%s: %s= given twice; keep one", what, keys[k]);
        vals[k] = eq + 1;
    }
    return 0;
}

static int need(const struct parse *p, const char *v, const char *key, const char *what, const char *example)
{
    return v ? 0 : fail(p, "%s: %s= is missing; add %s=%s", what, key, key, example);
}

/* A path under eventdata/: relative, no "..", no empty part. */
static bool table_ok(const char *s)
{
    if (*s == '/' || strstr(s, "//"))
        return false;
    for (const char *c = s; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
        if (!strncmp(c, "..", 2) && (c[2] == '/' || !c[2]))
            return false;
    return s[strlen(s) - 1] != '/';
}

static int parse_cpu(const struct parse *p, struct uarch *u, const struct fields *fs)
{
    if (fs->n < 2 || strchr(fs->f[1], '='))
        return fail(p, "cpu: no name; write cpu NAME KEY=VALUE ... (e.g. cpu zen5 vendor=AuthenticAMD family=0x1a "
                       "model=0x00-0x2f table=amd/amdzen5)");
    if (!name_ok(fs->f[1]) || strlen(fs->f[1]) > 64)
        return fail(p, "cpu %.60s: not a name; use lower-case letters, digits and '-' (e.g. sapphirerapids)",
                    fs->f[1]);
    for (int i = 0; i < u->ncpus; i++)
        if (!strcmp(u->cpus[i].name, fs->f[1]))
            return fail(p, "cpu %s: named twice (line %d); give each CPU one line", fs->f[1], u->cpus[i].line);
    static const char *const x86[] = {"vendor", "family", "model", "table", "pfm", "core"};
    static const char *const arm[] = {"implementer", "part", "table", "pfm"};
    static const char *const rv[] = {"mvendorid", "marchid", "mimpid", "table", "pfm"};
    const char *v[6] = {NULL};
    char what[100];
    snprintf(what, sizeof(what), "cpu %s", fs->f[1]);
    struct uarch_cpu c = {.name = xstrdup(fs->f[1]), .line = p->line};
    int rc = 0;
    const char *table = NULL, *pfm = NULL;
    uint64_t x;
    if (u->isa == CPU_X86_64) {
        rc = keys_of(p, fs, 2, x86, 6, v, what);
        if (!rc && (rc = need(p, v[0], "vendor", what, "AuthenticAMD")) == 0 &&
            strcmp(v[0], "GenuineIntel") && strcmp(v[0], "AuthenticAMD") && strcmp(v[0], "HygonGenuine"))
            rc = fail(p, "%s: vendor=%.40s is not a CPUID vendor; write GenuineIntel, AuthenticAMD or HygonGenuine",
                      what, v[0]);
        if (!rc && (rc = need(p, v[1], "family", what, "0x19")) == 0 && !number_of(v[1], 0x10e, &x))
            rc = fail(p, "%s: family=%.40s is not a CPUID display family (decimal, or hex after 0x, at most 0x10e)",
                      what, v[1]);
        if (!rc && (rc = need(p, v[2], "model", what, "0x10-0x1f,0x60")) == 0) {
            c.family = (unsigned)x;
            char *list = xstrdup(v[2]);
            for (char *r = list, *next; r && !rc; r = next) {
                next = strchr(r, ',');
                if (next)
                    *next++ = '\0';
                struct uarch_range rg;
                if (!range_of(r, 0xff, &rg))
                    rc = fail(p, "%s: model=%.60s: \"%.20s\" is not a model or range N-M (N <= M <= 0xff, decimal "
                              "or hex after 0x)", what, v[2], r);
                else {
                    c.models = xgrow(c.models, sizeof(*c.models), c.nmodels);
                    c.models[c.nmodels++] = rg;
                }
            }
            free(list);
            if (!rc)
                c.vendor = xstrdup(v[0]);
        }
        /* A hybrid part's core types share its family and model (CPUID 0x1A tells them apart). */
        if (!rc && v[5]) {
            if (!strcmp(v[5], "atom"))
                c.core_type = 0x20;
            else if (!strcmp(v[5], "core"))
                c.core_type = 0x40;
            else
                rc = fail(p, "%s: core=%.40s is not a core type; write core=atom or core=core (CPUID 0x1A's "
                          "Atom and Core), or leave it out for a part of one kind", what, v[5]);
        }
        table = v[3], pfm = v[4];
    } else if (u->isa == CPU_AARCH64) {
        rc = keys_of(p, fs, 2, arm, 4, v, what);
        if (!rc && (rc = need(p, v[0], "implementer", what, "0x41")) == 0 && !number_of(v[0], 0xff, &x))
            rc = fail(p, "%s: implementer=%.40s is not an MIDR implementer (0x00-0xff)", what, v[0]);
        if (!rc && (rc = need(p, v[1], "part", what, "0xd0c")) == 0) {
            c.implementer = (unsigned)x;
            char *list = xstrdup(v[1]);
            for (char *r = list, *next; r && !rc; r = next) {
                next = strchr(r, ',');
                if (next)
                    *next++ = '\0';
                if (!number_of(r, 0xfff, &x))
                    rc = fail(p, "%s: part=%.60s: \"%.20s\" is not an MIDR part number (0x000-0xfff)", what, v[1], r);
                else {
                    c.models = xgrow(c.models, sizeof(*c.models), c.nmodels);
                    c.models[c.nmodels++] = (struct uarch_range){(unsigned)x, (unsigned)x};
                }
            }
            free(list);
        }
        table = v[2], pfm = v[3];
    } else {
        rc = keys_of(p, fs, 2, rv, 5, v, what);
        const char *names[] = {"mvendorid", "marchid", "mimpid"};
        uint64_t *dst[] = {&c.mvendorid, &c.marchid, &c.mimpid};
        for (int k = 0; k < 3 && !rc; k++) {
            if (k < 2 && (rc = need(p, v[k], names[k], what, "0x489")))
                break;
            if (v[k] && !number_of(v[k], UINT64_MAX, dst[k]))
                rc = fail(p, "%s: %s=%.40s is not a 64-bit number (decimal, or hex after 0x)", what, names[k], v[k]);
        }
        c.has_mimpid = v[2] != NULL;
        table = v[3], pfm = v[4];
    }
    if (!rc && (rc = need(p, table, "table", what, "amd/amdzen5")) == 0 && !table_ok(table))
        rc = fail(p, "%s: table=%.80s is not a path under eventdata/ (relative, without \"..\")", what, table);
    if (rc) {
        free(c.name);
        free(c.vendor);
        free(c.models);
        return -1;
    }
    c.table = xstrdup(table);
    c.pfm = pfm ? xstrdup(pfm) : NULL;
    u->cpus = xgrow(u->cpus, sizeof(*u->cpus), u->ncpus);
    u->cpus[u->ncpus++] = c;
    return 0;
}

static int recipe_check(const struct parse *p, const char *what, const char *recipe)
{
    if (!id_ok(recipe) || strlen(recipe) > 64)
        return fail(p, "%s %.60s: not a recipe name (lower_snake: pmucal calibrate --list names them)", what, recipe);
    if (p->recipe_known && !p->recipe_known(recipe))
        return fail(p, "%s %s: no such recipe; pmucal calibrate --list names them", what, recipe);
    return 0;
}

static int parse_event(const struct parse *p, struct uarch *u, const struct fields *fs)
{
    if (fs->n < 2 || strchr(fs->f[1], '='))
        return fail(p, "event: no recipe; write event RECIPE perf=EVENT [pfm=EVENT]");
    if (recipe_check(p, "event", fs->f[1]))
        return -1;
    for (int i = 0; i < u->nevents; i++)
        if (!strcmp(u->events[i].recipe, fs->f[1]))
            return fail(p, "event %s: given twice (line %d); keep one", fs->f[1], u->events[i].line);
    static const char *const keys[] = {"perf", "pfm"};
    const char *v[2];
    char what[100];
    snprintf(what, sizeof(what), "event %s", fs->f[1]);
    if (keys_of(p, fs, 2, keys, 2, v, what) || need(p, v[0], "perf", what, "EVENT_NAME"))
        return -1;
    u->events = xgrow(u->events, sizeof(*u->events), u->nevents);
    u->events[u->nevents++] = (struct uarch_event){xstrdup(fs->f[1]), xstrdup(v[0]), v[1] ? xstrdup(v[1]) : NULL,
                                                   p->line};
    return 0;
}

static int parse_reference(const struct parse *p, struct uarch *u, const struct fields *fs, int *source_of)
{
    if (fs->n < 6)
        return fail(p, "reference: %d fields; write reference RECIPE FIGURE check|indicative penalty|whole SOURCE-ID "
                       "[NOTE]", fs->n);
    if (recipe_check(p, "reference", fs->f[1]))
        return -1;
    for (int i = 0; i < u->nrefs; i++)
        if (!strcmp(u->refs[i].recipe, fs->f[1]))
            return fail(p, "reference %s: given twice (line %d); keep one", fs->f[1], u->refs[i].line);
    struct uarch_reference r = {.line = p->line};
    char *fig = fs->f[2], *dash = strchr(fig, '-');
    if (dash)
        *dash = '\0';
    bool ok = figure_of(fig, &r.lo) && (dash ? figure_of(dash + 1, &r.hi) : (r.hi = r.lo, true));
    if (dash)
        *dash = '-';
    if (!ok || r.lo > r.hi)
        return fail(p, "reference %s: figure \"%.40s\" is not a number (4, 12.9) or a range LO-HI (50-54) of core "
                       "cycles, above 0 and at most 1e15", fs->f[1], fig);
    if (strcmp(fs->f[3], "check") && strcmp(fs->f[3], "indicative"))
        return fail(p, "reference %s: \"%.40s\" is not a kind; write check or indicative", fs->f[1], fs->f[3]);
    if (strcmp(fs->f[4], "penalty") && strcmp(fs->f[4], "whole"))
        return fail(p, "reference %s: \"%.40s\" is not a part; write penalty or whole", fs->f[1], fs->f[4]);
    int s = 0;
    while (s < u->nsources && strcmp(u->sources[s].id, fs->f[5]))
        s++;
    if (s == u->nsources)
        return fail(p, "reference %s: source %.60s is not defined above; add a line source %.60s TEXT before it",
                    fs->f[1], fs->f[5], fs->f[5]);
    r.indicative = !strcmp(fs->f[3], "indicative");
    r.whole = !strcmp(fs->f[4], "whole");
    r.recipe = xstrdup(fs->f[1]);
    r.note = rest_text(fs, 6);
    u->refs = xgrow(u->refs, sizeof(*u->refs), u->nrefs);
    source_of[u->nrefs] = s;
    u->refs[u->nrefs++] = r;
    return 0;
}

static int parse_line(const struct parse *p, struct uarch *u, const struct fields *fs, int **source_of,
                      int *cycles_line)
{
    const char *kw = fs->f[0];
    if (!strcmp(kw, "uarch"))
        return fail(p, "a second uarch line; a file describes one uarch");
    if (!strcmp(kw, "isa"))
        return 0;   /* read first */
    if (!strcmp(kw, "cycles")) {
        if (*cycles_line)
            return fail(p, "cycles given twice (line %d); keep one", *cycles_line);
        static const char *const keys[] = {"perf", "pfm"};
        const char *v[2];
        if (keys_of(p, fs, 1, keys, 2, v, "cycles") || need(p, v[0], "perf", "cycles", "ls_not_halted_cyc"))
            return -1;
        *cycles_line = p->line;
        u->cycles_perf = xstrdup(v[0]);
        u->cycles_pfm = v[1] ? xstrdup(v[1]) : NULL;
        return 0;
    }
    if (!strcmp(kw, "cpu"))
        return parse_cpu(p, u, fs);
    if (!strcmp(kw, "event"))
        return parse_event(p, u, fs);
    if (!strcmp(kw, "source")) {
        if (fs->n < 3 || !id_ok(fs->f[1]) || strlen(fs->f[1]) > 64)
            return fail(p, "source: write source ID TEXT (ID: lower-case letters, digits, '_' and '-'; TEXT: the "
                           "publication's title, number, table)");
        for (int i = 0; i < u->nsources; i++)
            if (!strcmp(u->sources[i].id, fs->f[1]))
                return fail(p, "source %s: defined twice (line %d); keep one", fs->f[1], u->sources[i].line);
        u->sources = xgrow(u->sources, sizeof(*u->sources), u->nsources);
        u->sources[u->nsources++] = (struct uarch_source){xstrdup(fs->f[1]), rest_text(fs, 2), p->line};
        return 0;
    }
    if (!strcmp(kw, "reference")) {
        *source_of = xgrow(*source_of, sizeof(**source_of), u->nrefs);
        return parse_reference(p, u, fs, *source_of);
    }
    return fail(p, "unknown keyword \"%.40s\"; a line is one of isa, cycles, cpu, event, source, reference "
                   "(docs/grammar.md)", kw);
}

int uarch_parse(struct uarch *u, const char *text, const char *origin, const char *name,
                bool (*recipe_known)(const char *))
{
    memset(u, 0, sizeof(*u));
    struct parse p = {origin, 0, recipe_known};
    /* An editor's byte order mark would otherwise read as part of the first keyword, and the
     * message would quote a line that looks right. */
    if (!strncmp(text, "\xef\xbb\xbf", 3)) {
        p.line = 1;
        return fail(&p, "begins with a UTF-8 byte order mark; save the file without it (plain UTF-8 or ASCII)");
    }
    /* Lines as fields, so that isa (which the cpu lines' keys depend on) is read before them. */
    char *copy = xstrdup(text);
    struct fields *lines = NULL;
    int nlines = 0, rc = 0, uarch_line = 0, isa_line = 0, cycles_line = 0;
    for (char *line = copy, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!next && !*line)
            break;
        lines = xgrow(lines, sizeof(*lines), nlines);
        fields_split(&lines[nlines++], line);
    }
    for (int i = 0; i < nlines && !rc; i++) {
        struct fields *fs = &lines[i];
        p.line = i + 1;
        if (!fs->n)
            continue;
        if (!uarch_line) {
            if (strcmp(fs->f[0], "uarch") || fs->n != 2)
                rc = fail(&p, "the first line must be uarch NAME (the file's name without .txt)");
            else if (!name_ok(fs->f[1]) || strlen(fs->f[1]) > 64)
                rc = fail(&p, "uarch %.60s: not a name; use lower-case letters, digits and '-' (e.g. zen5)", fs->f[1]);
            else if (name && strcmp(name, fs->f[1]))
                rc = fail(&p, "uarch %.60s, but the file is %s.txt; make them the same", fs->f[1], name);
            else
                uarch_line = p.line, u->name = xstrdup(fs->f[1]);
        } else if (!strcmp(fs->f[0], "isa")) {
            if (isa_line)
                rc = fail(&p, "isa given twice (line %d); keep one", isa_line);
            else if (fs->n != 2 || (strcmp(fs->f[1], "x86_64") && strcmp(fs->f[1], "aarch64") &&
                                     strcmp(fs->f[1], "riscv64")))
                rc = fail(&p, "write isa x86_64, isa aarch64 or isa riscv64");
            else
                isa_line = p.line, u->isa = !strcmp(fs->f[1], "x86_64") ? CPU_X86_64 : !strcmp(fs->f[1], "aarch64")
                                                                                       ? CPU_AARCH64 : CPU_RISCV64;
        }
    }
    int *source_of = NULL;
    for (int i = 0; i < nlines && !rc; i++) {
        p.line = i + 1;
        if (lines[i].n && p.line > uarch_line)
            rc = parse_line(&p, u, &lines[i], &source_of, &cycles_line);
    }
    p.line = uarch_line;
    if (!rc && !uarch_line) {
        pm_error("no uarch line in %s; a microarchitecture file begins uarch NAME (docs/grammar.md)", origin);
        rc = -1;
    } else if (!rc && !isa_line)
        rc = fail(&p, "uarch %s has no isa line; add isa x86_64, aarch64 or riscv64", u->name);
    else if (!rc && !cycles_line)
        rc = fail(&p, "uarch %s has no cycles line; add cycles perf=EVENT (its unhalted core cycles)", u->name);
    else if (!rc && !u->ncpus)
        rc = fail(&p, "uarch %s has no cpu line; add cpu NAME with how the CPU is recognised", u->name);
    for (int i = 0; i < u->nrefs; i++)
        u->refs[i].source = &u->sources[source_of[i]];
    for (int i = 0; i < u->ncpus; i++)
        u->cpus[i].uarch = u;
    for (int i = 0; i < u->ncpus && !rc; i++)
        for (int j = 0; j < i && !rc; j++) {
            char why[300];
            if (uarch_cpus_overlap(&u->cpus[j], &u->cpus[i], why, sizeof(why))) {
                p.line = u->cpus[i].line;
                rc = fail(&p, "cpu %s recognises %s, as cpu %s (line %d) does; give each CPU its own", u->cpus[i].name,
                          why, u->cpus[j].name, u->cpus[j].line);
            }
        }
    free(source_of);
    for (int i = 0; i < nlines; i++)
        fields_free(&lines[i]);
    free(lines);
    free(copy);
    if (rc)
        uarch_free(u);
    return rc;
}

void uarch_free(struct uarch *u)
{
    for (int i = 0; i < u->ncpus; i++) {
        free(u->cpus[i].name);
        free(u->cpus[i].vendor);
        free(u->cpus[i].models);
        free(u->cpus[i].table);
        free(u->cpus[i].pfm);
    }
    for (int i = 0; i < u->nevents; i++)
        free(u->events[i].recipe), free(u->events[i].perf), free(u->events[i].pfm);
    for (int i = 0; i < u->nsources; i++)
        free(u->sources[i].id), free(u->sources[i].text);
    for (int i = 0; i < u->nrefs; i++)
        free(u->refs[i].recipe), free(u->refs[i].note);
    free(u->cpus), free(u->events), free(u->sources), free(u->refs);
    free(u->name), free(u->file), free(u->cycles_perf), free(u->cycles_pfm);
    memset(u, 0, sizeof(*u));
}

const char *uarch_isa_name(enum cpu_isa isa)
{
    return isa == CPU_X86_64 ? "x86_64" : isa == CPU_AARCH64 ? "aarch64" : "riscv64";
}

struct buf {
    char *s;
    size_t len, cap;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)need + 1 > b->cap)
        b->s = xrealloc(b->s, b->cap = 2 * (b->len + (size_t)need + 1));
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)need;
}

char *uarch_text(const struct uarch *u)
{
    struct buf b = {xstrdup(""), 0, 1};
    put(&b, "uarch %s\nisa %s\ncycles perf=%s%s%s\n", u->name, uarch_isa_name(u->isa), u->cycles_perf,
        u->cycles_pfm ? " pfm=" : "", u->cycles_pfm ? u->cycles_pfm : "");
    for (int i = 0; i < u->ncpus; i++) {
        const struct uarch_cpu *c = &u->cpus[i];
        put(&b, "cpu %s", c->name);
        if (u->isa == CPU_X86_64)
            put(&b, " vendor=%s family=0x%x model=", c->vendor, c->family);
        else if (u->isa == CPU_AARCH64)
            put(&b, " implementer=0x%02x part=", c->implementer);
        else
            put(&b, " mvendorid=0x%llx marchid=0x%llx", (unsigned long long)c->mvendorid,
                (unsigned long long)c->marchid);
        for (int m = 0; u->isa != CPU_RISCV64 && m < c->nmodels; m++) {
            put(&b, "%s0x%x", m ? "," : "", c->models[m].lo);
            if (c->models[m].hi != c->models[m].lo)
                put(&b, "-0x%x", c->models[m].hi);
        }
        if (c->core_type)
            put(&b, " core=%s", c->core_type == 0x20 ? "atom" : "core");
        if (c->has_mimpid)
            put(&b, " mimpid=0x%llx", (unsigned long long)c->mimpid);
        put(&b, " table=%s%s%s\n", c->table, c->pfm ? " pfm=" : "", c->pfm ? c->pfm : "");
    }
    for (int i = 0; i < u->nevents; i++)
        put(&b, "event %s perf=%s%s%s\n", u->events[i].recipe, u->events[i].perf, u->events[i].pfm ? " pfm=" : "",
            u->events[i].pfm ? u->events[i].pfm : "");
    for (int i = 0; i < u->nsources; i++)
        put(&b, "source %s %s\n", u->sources[i].id, u->sources[i].text);
    for (int i = 0; i < u->nrefs; i++) {
        const struct uarch_reference *r = &u->refs[i];
        char lo[128], hi[128];
        figure_text(lo, sizeof(lo), r->lo);
        figure_text(hi, sizeof(hi), r->hi);
        put(&b, "reference %s %s%s%s %s %s %s%s%s\n", r->recipe, lo, r->hi != r->lo ? "-" : "",
            r->hi != r->lo ? hi : "", r->indicative ? "indicative" : "check", r->whole ? "whole" : "penalty",
            r->source->id, r->note ? " " : "", r->note ? r->note : "");
    }
    return b.s;
}

bool uarch_cpus_overlap(const struct uarch_cpu *a, const struct uarch_cpu *b, char *why, size_t n)
{
    if (a->uarch->isa != b->uarch->isa)
        return false;
    if (a->uarch->isa == CPU_RISCV64) {
        if (a->mvendorid != b->mvendorid || a->marchid != b->marchid ||
            (a->has_mimpid && b->has_mimpid && a->mimpid != b->mimpid))
            return false;
        snprintf(why, n, "mvendorid 0x%llx marchid 0x%llx", (unsigned long long)a->mvendorid,
                 (unsigned long long)a->marchid);
        return true;
    }
    if (a->uarch->isa == CPU_X86_64 ? strcmp(a->vendor, b->vendor) || a->family != b->family ||
                                          (a->core_type && b->core_type && a->core_type != b->core_type)
                                    : a->implementer != b->implementer)
        return false;
    for (int i = 0; i < a->nmodels; i++)
        for (int j = 0; j < b->nmodels; j++) {
            unsigned lo = a->models[i].lo > b->models[j].lo ? a->models[i].lo : b->models[j].lo;
            if (lo <= a->models[i].hi && lo <= b->models[j].hi) {
                if (a->uarch->isa == CPU_X86_64)
                    snprintf(why, n, "%s family 0x%x model 0x%x", a->vendor, a->family, lo);
                else
                    snprintf(why, n, "implementer 0x%02x part 0x%03x", a->implementer, lo);
                return true;
            }
        }
    return false;
}

/* The registry: every file of uarch_dir(), read once. */
static struct {
    bool loaded;
    struct uarch *u;
    int n;
    bool (*recipe_known)(const char *);
} reg;

void uarch_recipes_known(bool (*known)(const char *))
{
    reg.recipe_known = known;
}

const char *uarch_dir(void)
{
    static char dir[4096];
    /* Beside the binary: bin/pmucal, build/KIND/pmucal or a unit test's build/KIND/tests/NAME in
     * the tree, or PREFIX/bin/pmucal installed. */
    static const char *const beside[] = {"../uarch", "../share/pmucal/uarch", "../../uarch", "../../../uarch"};
    return data_dir("PMUCAL_UARCH_DIR", "microarchitecture files (uarch/ in the source tree)", beside,
                    ARRAY_SIZE(beside), dir, sizeof(dir));
}

/* Why a CPU is not recognised: no file claims its identity, or there are no files at all. */
static void unrecognised(char *out, size_t n, const char *what)
{
    int count;
    uarch_all(&count);
    if (count)
        snprintf(out, n, "none of the %d uarch files in %s recognises %s (see docs/add-a-cpu-model.md)", count,
                 uarch_dir(), what);
    else
        snprintf(out, n, "no uarch files (*.txt) in %s, so none recognises %s (see docs/add-a-cpu-model.md)",
                 uarch_dir(), what);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load(void)
{
    reg.loaded = true;
    const char *dir = uarch_dir();
    DIR *d = opendir(dir);
    if (!d)
        return;   /* none: no CPU is recognised, and uarch_names() says where none were found */
    char **names = NULL;
    int nn = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len > 4 && !strcmp(e->d_name + len - 4, ".txt") && e->d_name[0] != '.') {
            names = xgrow(names, sizeof(*names), nn);
            names[nn++] = xstrdup(e->d_name);
        }
    }
    closedir(d);
    if (nn)   /* qsort may not be given NULL, even for no elements */
        qsort(names, (size_t)nn, sizeof(*names), by_name);
    reg.u = xcalloc((size_t)(nn ? nn : 1), sizeof(*reg.u));
    for (int i = 0; i < nn; i++) {
        char *path = xasprintf("%s/%s", dir, names[i]), err[512];
        size_t len;
        char *text = read_file_bounded(path, UARCH_FILE_BYTES, &len, err, sizeof(err));
        names[i][strlen(names[i]) - 4] = '\0';
        if (!text) {
            pm_error("cannot read the microarchitecture file %s; fix it or set PMUCAL_UARCH_DIR to another folder",
                     err);
            exit(2);
        }
        if (strlen(text) != len) {
            int line = 1;
            for (const char *c = text; *c; c++)
                line += *c == '\n';
            pm_error("%s:%d: a NUL byte: a microarchitecture file is text", path, line);
            exit(2);
        }
        if (uarch_parse(&reg.u[i], text, path, names[i], reg.recipe_known))
            exit(2);
        reg.u[i].file = path;
        reg.n = i + 1;
        free(text);
        free(names[i]);
    }
    free(names);
    for (int i = 0; i < reg.n; i++)
        for (int c = 0; c < reg.u[i].ncpus; c++) {
            reg.u[i].cpus[c].uarch = &reg.u[i];
            const struct uarch_cpu *a = &reg.u[i].cpus[c];
            for (int j = 0; j < i; j++) {
                if (!strcmp(a->name, reg.u[j].name)) {
                    pm_error("%s:%d: cpu %s has the name of the uarch of %s; give each CPU and uarch its own name",
                             reg.u[i].file, a->line, a->name, reg.u[j].file);
                    exit(2);
                }
                for (int k = 0; k < reg.u[j].ncpus; k++) {
                    const struct uarch_cpu *b = &reg.u[j].cpus[k];
                    char why[300];
                    if (!strcmp(reg.u[i].name, b->name)) {
                        pm_error("%s:%d: cpu %s has the name of the uarch of %s; give each CPU and uarch its own "
                                 "name", reg.u[j].file, b->line, b->name, reg.u[i].file);
                        exit(2);
                    }
                    if (!strcmp(a->name, b->name) || uarch_cpus_overlap(a, b, why, sizeof(why))) {
                        if (!strcmp(a->name, b->name))
                            snprintf(why, sizeof(why), "the name %s", a->name);
                        pm_error("%s:%d: cpu %s claims %s, as cpu %s does at %s:%d; one CPU is one file's", reg.u[i].file,
                                 a->line, a->name, why, b->name, reg.u[j].file, b->line);
                        exit(2);
                    }
                }
            }
        }
}

const struct uarch *uarch_all(int *n)
{
    if (!reg.loaded)
        load();
    *n = reg.n;
    return reg.u;
}

const struct uarch *uarch_named(const char *name, const struct uarch_cpu **cpu)
{
    int n;
    const struct uarch *u = uarch_all(&n);
    if (cpu)
        *cpu = NULL;
    for (int i = 0; name && i < n; i++) {
        if (!strcmp(u[i].name, name))
            return &u[i];
        for (int c = 0; c < u[i].ncpus; c++)
            if (!strcmp(u[i].cpus[c].name, name)) {
                if (cpu)
                    *cpu = &u[i].cpus[c];
                return &u[i];
            }
    }
    return NULL;
}

const struct uarch_cpu *uarch_cpu_of(const struct cpu_ident *id)
{
    int n;
    const struct uarch *u = uarch_all(&n);
    for (int i = 0; i < n; i++)
        for (int c = 0; u[i].isa == id->isa && c < u[i].ncpus; c++) {
            const struct uarch_cpu *cpu = &u[i].cpus[c];
            if (id->isa == CPU_RISCV64) {
                if (cpu->mvendorid == id->mvendorid && cpu->marchid == id->marchid &&
                    (!cpu->has_mimpid || cpu->mimpid == id->mimpid))
                    return cpu;
                continue;
            }
            if (id->isa == CPU_X86_64 ? strcmp(cpu->vendor, id->vendor) || cpu->family != id->family ||
                                            (cpu->core_type && id->core_type && cpu->core_type != id->core_type)
                                      : cpu->implementer != id->implementer)
                continue;
            unsigned m = id->isa == CPU_X86_64 ? id->model : id->part;
            for (int r = 0; r < cpu->nmodels; r++)
                if (m >= cpu->models[r].lo && m <= cpu->models[r].hi)
                    return cpu;
        }
    return NULL;
}

const struct uarch_cpu *uarch_cpu_of_pfm(const char *pfm)
{
    int n;
    const struct uarch *u = uarch_all(&n);
    for (int i = 0; pfm && i < n; i++)
        for (int c = 0; c < u[i].ncpus; c++)
            if (u[i].cpus[c].pfm && !strcmp(u[i].cpus[c].pfm, pfm))
                return &u[i].cpus[c];
    return NULL;
}

void cpu_ident_text(const struct cpu_ident *id, char *out, size_t n)
{
    if (id->isa == CPU_X86_64)
        snprintf(out, n, "%s family %u model 0x%02x%s", id->vendor, id->family, id->model,
                 id->core_type == 0x20 ? " core=atom" : id->core_type == 0x40 ? " core=core" : "");
    else if (id->isa == CPU_AARCH64)
        snprintf(out, n, "MIDR implementer 0x%02x part 0x%03x", id->implementer, id->part);
    else
        snprintf(out, n, "mvendorid 0x%llx marchid 0x%llx mimpid 0x%llx", (unsigned long long)id->mvendorid,
                 (unsigned long long)id->marchid, (unsigned long long)id->mimpid);
}

bool riscv_signature_parse(const char *s, uint64_t id[3], char *sig, size_t n)
{
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        char *end;
        if (strncmp(p, "0x", 2) || !isxdigit((unsigned char)p[2]))
            return false;
        errno = 0;
        id[i] = strtoull(p + 2, &end, 16);
        if (errno || *end != (i < 2 ? '-' : '\0'))
            return false;
        p = end + (i < 2);
    }
    /* The kernel's /proc/cpuinfo spelling, 0x%lx, which perf joins with '-'. */
    if (sig)
        snprintf(sig, n, "0x%llx-0x%llx-0x%llx", (unsigned long long)id[0], (unsigned long long)id[1],
                 (unsigned long long)id[2]);
    return true;
}

/* PMUCAL_CPUID (VENDOR-FAMILY-MODEL[-STEPPING], an Arm MIDR 0x..., or a RISC-V
 * mvendorid-marchid-mimpid) stands for every CPU, as it
 * does for the vendor tables (events/catalog.c, which refuses a malformed one at start); else the
 * CPU's own identity. */
static bool ident_of(int cpu, struct cpu_ident *id, char *how, size_t hn)
{
    const char *env = getenv("PMUCAL_CPUID");
    if (!env || !*env)
        return isa_cpu_ident(cpu, id, how, hn);
    memset(id, 0, sizeof(*id));
    uint64_t rv[3];
    if (riscv_signature_parse(env, rv, NULL, 0)) {   /* mvendorid-marchid-mimpid */
        id->isa = CPU_RISCV64;
        id->mvendorid = rv[0], id->marchid = rv[1], id->mimpid = rv[2];
        return true;
    }
    if (!strncmp(env, "0x", 2)) {
        unsigned long long midr = strtoull(env, NULL, 16);
        id->isa = CPU_AARCH64;
        id->implementer = (unsigned)(midr >> 24 & 0xff), id->part = (unsigned)(midr >> 4 & 0xfff);
        return true;
    }
    id->isa = CPU_X86_64;
    if (sscanf(env, "%15[A-Za-z]-%u-%x", id->vendor, &id->family, &id->model) == 3)
        return true;
    snprintf(how, hn, "PMUCAL_CPUID=%.60s is not VENDOR-FAMILY-MODEL nor an Arm MIDR", env);
    return false;
}

const struct uarch_cpu *uarch_cpu_of_logical(int cpu, char *why, size_t n)
{
    struct cpu_ident id;
    char how[700];
    if (!ident_of(cpu, &id, how, sizeof(how))) {
        if (why)
            snprintf(why, n, "%s", how);
        return NULL;
    }
    const struct uarch_cpu *c = uarch_cpu_of(&id);
    if (!c && why) {
        char t[200];
        cpu_ident_text(&id, t, sizeof(t));
        char u[600];
        unrecognised(u, sizeof(u), "it");
        snprintf(why, n, "%s: %s", t, u);
    }
    return c;
}

const char *uarch_names(void)
{
    static char *names;
    if (names)
        return names;
    int n;
    const struct uarch *u = uarch_all(&n);
    struct buf b = {xstrdup(""), 0, 1};
    for (int i = 0; i < n; i++)
        put(&b, "%s%s", i ? ", " : "", u[i].name);
    if (!n)
        put(&b, "none: no uarch/*.txt in %s", uarch_dir());
    return names = b.s;
}

const struct uarch_event *uarch_event(const struct uarch *u, const char *recipe)
{
    for (int i = 0; u && i < u->nevents; i++)
        if (!strcmp(u->events[i].recipe, recipe))
            return &u->events[i];
    return NULL;
}

const struct uarch_reference *uarch_reference(const struct uarch *u, const char *recipe)
{
    for (int i = 0; u && i < u->nrefs; i++)
        if (!strcmp(u->refs[i].recipe, recipe))
            return &u->refs[i];
    return NULL;
}

/* cpu appended to a list "0-3,8" whose last CPU was last (-1: none yet). */
static void cpu_list_add(char *list, size_t n, int last, int cpu)
{
    size_t len = strlen(list);
    if (last >= 0 && cpu == last + 1) {
        /* Extend the run: drop a "-last" written before, write "-cpu". */
        char *dash = strrchr(list, '-'), *comma = strrchr(list, ',');
        if (dash && (!comma || dash > comma))
            *dash = '\0', len = strlen(list);
        snprintf(list + len, n - len, "-%d", cpu);
    } else
        snprintf(list + len, n - len, "%s%d", len ? "," : "", cpu);
}

int uarch_groups(struct uarch_group **out)
{
    int max = 256, ncpus, *cpus = NULL, n = 0;
    for (;; max *= 2) {   /* as many as the machine has */
        cpus = xrealloc(cpus, (size_t)max * sizeof(*cpus));
        if ((ncpus = topo_cpus(cpus, max)) < max)
            break;
    }
    struct uarch_group *g = NULL;
    int *last = NULL;
    for (int i = 0; i < ncpus; i++) {
        struct uarch_group one = {0};
        struct cpu_ident id;
        char how[400];
        if (ident_of(cpus[i], &id, how, sizeof(how))) {
            cpu_ident_text(&id, one.ident, sizeof(one.ident));
            one.cpu = uarch_cpu_of(&id);
            if (!one.cpu)
                unrecognised(one.why, sizeof(one.why), "them");
        } else
            snprintf(one.why, sizeof(one.why), "%s", how);
        int k = 0;
        while (k < n && !(g[k].cpu == one.cpu && !strcmp(g[k].ident, one.ident) && !strcmp(g[k].why, one.why)))
            k++;
        if (k == n) {
            g = xgrow(g, sizeof(*g), n);
            last = xgrow(last, sizeof(*last), n);
            g[n] = one, last[n++] = -1;
        }
        cpu_list_add(g[k].cpus, sizeof(g[k].cpus), last[k], cpus[i]);
        last[k] = cpus[i];
    }
    free(cpus);
    free(last);
    *out = g;
    return n;
}

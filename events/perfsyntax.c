#include "events/perfsyntax.h"
#include "base/util.h"
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int perf_modifiers(const char *mods, struct event_spec *spec, char *err, size_t n)
{
    bool u = false, k = false;
    if (*mods == ':')
        mods++;
    for (const char *p = mods; *p; p++) {
        if (*p == 'u')
            u = true;
        else if (*p == 'k')
            k = true;
        else {
            snprintf(err, n, "modifier '%c' in ':%s': pmucal counts with :u (user, the default), :k (the Linux "
                     "kernel's side) or :uk (both); it does not sample, so p/P/S/G/H/h do not apply", *p, mods);
            return -1;
        }
    }
    spec->count_kernel = k;
    spec->exclude_user = k && !u;
    return 0;
}

/* in_kernel: the event happens in the kernel (a context switch, a migration): counted user-side
 * only, as other events are by default, it reads 0 by construction, so without a modifier it is
 * counted on both sides (perf stat beside a busy loop on the CPU: 0 context-switches:u, 64
 * context-switches). */
static const struct {
    const char *name;
    uint32_t type;
    uint64_t config;
    bool in_kernel;
} generic[] = {
    {"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, false},
    {"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, false},
    {"cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, false},
    {"cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, false},
    {"branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false},
    {"branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, false},
    {"branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, false},
    {"bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, false},
    {"stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, false},
    {"stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, false},
    {"ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, false},
    {"cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, false},
    {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, false},
    {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, false},
    {"minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, false},
    {"major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, false},
    {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, true},
    {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, true},
    {"alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, false},
    {"emulation-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, false},
};

static const char *perf_generic_name(uint32_t type, uint64_t config);

/* perf's generic cache events (PERF_TYPE_HW_CACHE): CACHE-OP-misses or CACHE-OPs (the accesses),
 * config = cache | op << 8 | result << 16. The names are perf's (tools/perf/util/evsel.c): the
 * first spelling of each is the one perf prints. A RISC-V SBI PMU maps some of them to its
 * counters (QEMU's virt machine: dTLB read and write misses, iTLB read misses) and has no other
 * name for those counts. */
static const char *const cache_names[][3] = {
    [PERF_COUNT_HW_CACHE_L1D] = {"L1-dcache", "l1-d", "L1-data"},
    [PERF_COUNT_HW_CACHE_L1I] = {"L1-icache", "l1-i", "L1-instruction"},
    [PERF_COUNT_HW_CACHE_LL] = {"LLC", "L2", NULL},
    [PERF_COUNT_HW_CACHE_DTLB] = {"dTLB", "d-tlb", "Data-TLB"},
    [PERF_COUNT_HW_CACHE_ITLB] = {"iTLB", "i-tlb", "Instruction-TLB"},
    [PERF_COUNT_HW_CACHE_BPU] = {"branch", "branches", "bpu"},
    [PERF_COUNT_HW_CACHE_NODE] = {"node", NULL, NULL},
};
static const char *const cache_ops[][3] = {
    [PERF_COUNT_HW_CACHE_OP_READ] = {"load", "loads", "read"},
    [PERF_COUNT_HW_CACHE_OP_WRITE] = {"store", "stores", "write"},
    [PERF_COUNT_HW_CACHE_OP_PREFETCH] = {"prefetch", "prefetches", "speculative-read"},
};

/* The index of word (its first len characters) among names' spellings, -1 when none. */
static int cache_word(const char *const (*names)[3], size_t n, const char *word, size_t len)
{
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            if (names[i][k] && strlen(names[i][k]) == len && !strncasecmp(names[i][k], word, len))
                return (int)i;
    return -1;
}

/* "dTLB-read-misses" or "L1-dcache-loads" (name without modifiers, base characters long) into
 * *config; false when it is not one. */
static bool cache_event(const char *name, size_t base, uint64_t *config)
{
    for (size_t c = 0; c < ARRAY_SIZE(cache_names); c++)
        for (int k = 0; k < 3; k++) {
            const char *cn = cache_names[c][k];
            size_t cl = cn ? strlen(cn) : 0;
            if (!cn || cl + 1 >= base || strncasecmp(name, cn, cl) || name[cl] != '-')
                continue;
            const char *op = name + cl + 1, *dash = memchr(op, '-', base - cl - 1);
            size_t oplen = dash ? (size_t)(dash - op) : base - cl - 1;
            int o = cache_word(cache_ops, ARRAY_SIZE(cache_ops), op, oplen);
            int result = -1;
            if (o >= 0 && !dash)
                result = oplen == strlen(cache_ops[o][1]) && !strncasecmp(op, cache_ops[o][1], oplen)
                             ? PERF_COUNT_HW_CACHE_RESULT_ACCESS : -1;   /* "loads": the accesses */
            else if (o >= 0) {
                size_t rl = base - (size_t)(dash + 1 - name);
                const char *r = dash + 1;
                if ((rl == 6 && !strncasecmp(r, "misses", 6)) || (rl == 4 && !strncasecmp(r, "miss", 4)))
                    result = PERF_COUNT_HW_CACHE_RESULT_MISS;
                else if ((rl == 4 && !strncasecmp(r, "refs", 4)) || (rl == 6 && !strncasecmp(r, "access", 6)))
                    result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
            }
            if (result < 0)
                continue;
            *config = (uint64_t)c | (uint64_t)o << 8 | (uint64_t)result << 16;
            return true;
        }
    return false;
}

/* perf's name of a PERF_TYPE_HW_CACHE config ("dTLB-load-misses", "L1-dcache-loads"); NULL when
 * the config is none. Caller frees. */
static char *cache_event_name(uint64_t config)
{
    uint64_t c = config & 0xff, o = config >> 8 & 0xff, r = config >> 16 & 0xff;
    if (config >> 24 || c >= ARRAY_SIZE(cache_names) || o >= ARRAY_SIZE(cache_ops) ||
        r > PERF_COUNT_HW_CACHE_RESULT_MISS)
        return NULL;
    return r == PERF_COUNT_HW_CACHE_RESULT_MISS ? xasprintf("%s-%s-misses", cache_names[c][0], cache_ops[o][0])
                                                : xasprintf("%s-%s", cache_names[c][0], cache_ops[o][1]);
}

int perf_hardware_each(int (*fn)(const char *name, void *arg), void *arg)
{
    int rc = 0;
    for (size_t i = 0; i < ARRAY_SIZE(generic) && !rc; i++)
        if (generic[i].type == PERF_TYPE_HARDWARE && perf_generic_name(generic[i].type, generic[i].config) == generic[i].name)
            rc = fn(generic[i].name, arg);   /* each config once, by perf's own name */
    for (uint64_t c = 0; c < ARRAY_SIZE(cache_names) && !rc; c++)
        for (uint64_t o = 0; o < ARRAY_SIZE(cache_ops) && !rc; o++)
            for (uint64_t r = 0; r < 2 && !rc; r++) {
                char *name = cache_event_name(c | o << 8 | (r ? PERF_COUNT_HW_CACHE_RESULT_MISS : 0ull) << 16);
                rc = fn(name, arg);
                free(name);
            }
    return rc;
}

bool perf_generic_event(const char *name, struct event_spec *spec)
{
    size_t base = strcspn(name, ":");
    uint64_t cache;
    if (cache_event(name, base, &cache)) {
        char err[256];
        if (name[base] && perf_modifiers(name + base, spec, err, sizeof(err)))
            return false;
        spec->canonical = cache_event_name(cache);
        spec->type = PERF_TYPE_HW_CACHE;
        spec->config = cache;
        spec->programmable = true;
        return true;
    }
    for (size_t i = 0; i < ARRAY_SIZE(generic); i++)
        if (strlen(generic[i].name) == base && !strncmp(generic[i].name, name, base)) {
            char err[256];
            if (name[base] && perf_modifiers(name + base, spec, err, sizeof(err)))
                return false;   /* a modifier pmucal does not take: the next resolver says which */
            if (!name[base] && generic[i].in_kernel)
                spec->count_kernel = true;
            spec->canonical = xstrdup(generic[i].name);
            spec->type = generic[i].type;
            spec->config = generic[i].config;
            spec->programmable = generic[i].type == PERF_TYPE_HARDWARE;
            return true;
        }
    return false;
}

/* perf's own name of a generic hardware or software event (the first of its spellings), or NULL. */
static const char *perf_generic_name(uint32_t type, uint64_t config)
{
    for (size_t i = 0; i < ARRAY_SIZE(generic); i++)
        if (generic[i].type == type && generic[i].config == config)
            return generic[i].name;
    return NULL;
}

static bool hex_number(const char *s, uint64_t *v)
{
    char *end;
    if (!isxdigit((unsigned char)*s))
        return false;
    errno = 0;
    *v = strtoull(s, &end, 16);
    return !errno && !*end;
}

/* "0x1f" or "31" (perf's terms take both). */
static bool term_number(const char *s, uint64_t *v)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return hex_number(s + 2, v);
    char *end;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return !errno && !*end;
}

static const struct term {
    const char *name;
    int shift;            /* bit position in config; -1: config1; -2: the whole config */
    uint64_t max;
} terms[] = {
    {"event", 0, 0xfff}, {"umask", 8, 0xff}, {"edge", 18, 1}, {"any", 21, 1}, {"inv", 23, 1}, {"cmask", 24, 0xff},
    {"config", -2, UINT64_MAX}, {"config1", -1, UINT64_MAX}, {"offcore_rsp", -1, UINT64_MAX},
    {"ldlat", -1, 0xffff}, {"frontend", -1, 0xffffff},
};

static int parse_terms(char *list, struct event_spec *spec, char *err, size_t n)
{
    char *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(t, '=');
        const char *val = eq ? eq + 1 : "1";
        if (eq)
            *eq = '\0';
        if (!strcmp(t, "name"))
            continue;   /* perf's display name: pmucal keeps the name as written */
        const struct term *tm = NULL;
        for (size_t i = 0; i < ARRAY_SIZE(terms) && !tm; i++)
            if (!strcmp(terms[i].name, t))
                tm = &terms[i];
        uint64_t v;
        if (!tm) {
            snprintf(err, n, "unknown term '%s'; cpu/.../ takes event, umask, cmask, inv, edge, any, config, "
                     "config1, offcore_rsp, ldlat, frontend", t);
            return -1;
        }
        if (!term_number(val, &v) || v > tm->max) {
            snprintf(err, n, "term %s=%s: give a number from 0 to 0x%llx (hex with 0x, or decimal)", t, val,
                     (unsigned long long)tm->max);
            return -1;
        }
        if (tm->shift == -2)
            spec->config = v;
        else if (tm->shift == -1)
            spec->config1 = v;
        else if (!strcmp(t, "event"))   /* AMD's event select bits 11:8 live in config 35:32 */
            spec->config = (spec->config & ~0xf000000ffull) | (v & 0xff) | ((v >> 8) & 0xf) << 32;
        else
            spec->config = (spec->config & ~(tm->max << tm->shift)) | v << tm->shift;
    }
    return 0;
}

int perf_syntax_parse(const char *name, struct event_spec *spec, char *err, size_t n)
{
    const char *colon = strchr(name, ':');
    size_t base = colon ? (size_t)(colon - name) : strlen(name);
    char *head = xasprintf("%.*s", (int)base, name);
    uint64_t raw;
    int rc = 0;
    if (head[0] == 'r' && head[1] && !head[1 + strspn(head + 1, "0123456789abcdefABCDEF")] && !hex_number(head + 1, &raw)) {
        snprintf(err, n, "raw event '%s': the code %s is more than 64 bits; perf's rNNNN takes at most 16 hex digits",
                 head, head + 1);
        rc = -1;
    } else if (head[0] == 'r' && head[1] && hex_number(head + 1, &raw)) {
        rc = perf_modifiers(name + base, spec, err, n) ? -1 : 1;
        spec->config = raw;
    } else if (strchr(name, '/')) {
        const char *slash = strchr(name, '/'), *close = strrchr(name, '/');
        char *pmu = xasprintf("%.*s", (int)(slash - name), name);
        char *list = xasprintf("%.*s", (int)(close > slash ? close - slash - 1 : 0), slash + 1);
        if (close == slash)
            snprintf(err, n, "'%s' has no closing '/'; perf's form is cpu/event=0x..,umask=0x../", name), rc = -1;
        else if (!*pmu)
            snprintf(err, n, "'%s' is not an event: perf's form is cpu/event=0x..,umask=0x../ (a PMU name before "
                     "the first '/')", name), rc = -1;
        else if (strcmp(pmu, "cpu"))
            snprintf(err, n, "PMU '%s' in '%s': pmucal takes the core PMU, cpu/event=0x..,umask=0x../, or rNNNN",
                     pmu, name), rc = -1;
        else if (parse_terms(list, spec, err, n))
            rc = -1;
        else
            rc = perf_modifiers(close + 1, spec, err, n) ? -1 : 1;
        free(pmu);
        free(list);
    }
    if (rc > 0) {
        spec->type = 4;   /* PERF_TYPE_RAW */
        spec->programmable = true;
        spec->canonical = spec->config1 ? xasprintf("cpu/config=0x%llx,config1=0x%llx/",
                                                    (unsigned long long)spec->config, (unsigned long long)spec->config1)
                                        : xasprintf("r%llx", (unsigned long long)spec->config);
    }
    free(head);
    return rc;
}

char *perf_syntax_of(const struct event_spec *spec)
{
    const char *mods = spec->count_kernel ? (spec->exclude_user ? "k" : "uk") : "u";
    if (spec->uncore[0])   /* perf stat sums every instance of a PMU named so (amd_umc_0, amd_umc_1, ...) */
        return xasprintf("%s/config=0x%llx/", spec->uncore, (unsigned long long)spec->config);
    if (spec->type == 4 && spec->config1)
        return xasprintf("cpu/config=0x%llx,config1=0x%llx/%s", (unsigned long long)spec->config,
                         (unsigned long long)spec->config1, mods);
    if (spec->type == 4)
        return xasprintf("r%llx:%s", (unsigned long long)spec->config, mods);
    /* perf's generic and software names are perf's own, whatever spelling resolved them (libpfm4's
     * perf::PERF_COUNT_HW_INSTRUCTIONS:k=1... is not one perf stat reads). */
    char *cache = spec->type == PERF_TYPE_HW_CACHE ? cache_event_name(spec->config) : NULL;
    const char *generic = cache ? cache : perf_generic_name(spec->type, spec->config);
    char *s = xasprintf("%s:%s", generic ? generic : spec->canonical ? spec->canonical : spec->name, mods);
    free(cache);
    return s;
}

int perf_split_list(const char *s, char ***items, int **group, int *count, char *err, size_t n)
{
    char **it = NULL;
    int *gr = NULL, k = 0, depth = 0, groups = 0;
    bool slash = false;
    const char *start = s;
    for (const char *p = s;; p++) {
        if (!*p && slash)
            break;   /* an unclosed '/': said below; the end is not a separator inside one */
        if (*p == '/' && !slash && (p == start || strspn(start, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                                            "0123456789_ \t") < (size_t)(p - start))) {
            /* PMU/terms/ (docs/grammar.md): a '/' opens terms only after a PMU name */
            snprintf(err, n, "'%s': a '/' that does not follow a PMU name; perf's form is cpu/event=0x..,umask=0x../", s);
            goto bad;
        }
        if (*p == '/')
            slash = !slash;
        else if (*p == '{' && !slash) {
            if (depth++) {
                snprintf(err, n, "'%s': a group inside a group; perf's groups are {a,b,c}", s);
                goto bad;
            }
            groups++;
            start = p + 1;
        } else if ((*p == ',' || *p == '}' || !*p) && !slash) {
            const char *e = p;
            while (start < e && isspace((unsigned char)*start))
                start++;
            while (e > start && isspace((unsigned char)e[-1]))
                e--;
            if (e > start) {
                it = xrealloc(it, sizeof(*it) * (size_t)(k + 2));
                gr = xrealloc(gr, sizeof(*gr) * (size_t)(k + 1));
                it[k] = xasprintf("%.*s", (int)(e - start), start);
                gr[k++] = depth ? groups : 0;
                it[k] = NULL;
            }
            if (*p == '}') {
                if (!depth--) {
                    snprintf(err, n, "'%s': a '}' without its '{'", s);
                    goto bad;
                }
                if (p[1] && p[1] != ',') {
                    snprintf(err, n, "'%s': after '}' comes ',' or the end (put modifiers such as :u on each "
                             "event of the group)", s);
                    goto bad;
                }
                if (p[1])
                    p++;
            }
            start = p + 1;
            if (!*p)
                break;
        }
    }
    if (depth || slash) {
        snprintf(err, n, "'%s': an unclosed %s", s, depth ? "'{'" : "'/' (perf's form is cpu/event=0x../)");
        goto bad;
    }
    *items = it ? it : xcalloc(1, sizeof(char *));
    *group = gr;
    *count = k;
    return 0;
bad:
    for (int i = 0; i < k; i++)
        free(it[i]);
    free(it);
    free(gr);
    return -1;
}

int perf_syntax_like(const char *arg)
{
    if (strchr(arg, '{'))
        return 1;
    /* An item of the list that starts "pmu/" and has its closing '/' with terms: "a,cpu/event=1/". */
    for (const char *p = arg; *p; p++) {
        if (p != arg && p[-1] != ',')
            continue;
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        if (q > p && *q == '/' && strchr(q + 1, '/') && strchr(q + 1, '='))
            return 1;
    }
    return 0;
}

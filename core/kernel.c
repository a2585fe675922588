#include "core/kernel.h"
#include "arch/isa.h"
#include "base/util.h"
#include "core/lru.h"
#include "core/mem.h"
#include "host/geometry.h"
#include "host/topo.h"
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct kernel *kernels[64];
static struct {
    const struct kernel *k;
    const char *file;
} kernel_files[64];
static int nkernels;

void kernel_register(const struct kernel *k, const char *file)
{
    if (nkernels == (int)ARRAY_SIZE(kernels) - 1)
        pm_fatal("kernel table full registering %s", k->name);
    kernel_files[nkernels].k = k;
    kernel_files[nkernels].file = file;
    kernels[nkernels++] = k;
}

/* A table beside kernels[], which kernel_list sorts in place: looked up by descriptor. */
const char *kernel_file(const struct kernel *k)
{
    for (int i = 0; i < nkernels; i++)
        if (kernel_files[i].k == k)
            return kernel_files[i].file;
    return "";
}

const struct kernel *kernel_find(const char *name)
{
    for (int i = 0; i < nkernels; i++)
        if (!strcmp(kernels[i]->name, name))
            return kernels[i];
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const struct kernel *const *)a)->name, (*(const struct kernel *const *)b)->name);
}

const struct kernel **kernel_list(void)
{
    qsort(kernels, nkernels, sizeof(kernels[0]), by_name);
    kernels[nkernels] = NULL;
    return kernels;
}

static bool is_level_name(const char *s)
{
    return !strcasecmp(s, "DRAM") || ((s[0] == 'L' || s[0] == 'l') && s[1] >= '1' && s[1] <= '3' && !s[2]);
}

/* A size well inside a level: the middle between it and the level below on a log scale, as far
 * from spilling out as from fitting below; a power of two when one lies strictly above the level
 * below. A level less than twice the one below (a VM's share of a busy L3) has no such power of
 * two: then the arithmetic middle, in whole lines. */
static uint64_t level_middle(uint64_t below, uint64_t size)
{
    uint64_t mid = (uint64_t)sqrt((double)size * (double)below), p2 = 1;
    while (p2 * 2 <= mid)
        p2 *= 2;
    return p2 > below ? p2 : (below + size) / 2 / 64 * 64;
}

uint64_t level_usable_size(const struct topo *t, int l)
{
    return t->usable[l] && !t->simulated && t->usable[l] < t->data[l].size ? t->usable[l] : t->data[l].size;
}

uint64_t level_size(const char *level)
{
    /* Only a level's name needs the levels: a byte count never costs a curve measurement. */
    return is_level_name(level) ? level_size_of(topo_resolved(), level) : 0;
}

uint64_t level_size_of(const struct topo *t, const char *level)
{
    if (!t)
        return 0;
    if (!strcasecmp(level, "DRAM")) {
        int last = topo_last_level(t);
        uint64_t s = last ? 16 * t->data[last].size : 0;
        /* A simulated cache has no prefetcher to outrun: 16 x its last level is beyond it. */
        if (t->simulated && s)
            return s;
        return s < (256u << 20) ? (256u << 20) : s;
    }
    if ((level[0] == 'L' || level[0] == 'l') && level[1] >= '1' && level[1] <= '3' && !level[2]) {
        int l = level[1] - '0';
        uint64_t size = level_usable_size(t, l), below = l > 1 ? level_usable_size(t, l - 1) : 0;
        if (!size)
            return 0;
        if (!below)
            return size / 2;
        return level_middle(below, size);
    }
    return 0;
}

int level_of_size(uint64_t bytes)
{
    const struct topo *t = topo_resolved();
    for (int l = 1; t && l <= TOPO_MAX_LEVEL; l++)
        if (t->data[l].size && bytes <= level_usable_size(t, l))
            return l;
    return 4;
}

uint64_t code_level_size(const char *level)
{
    const struct topo *t = is_level_name(level) ? topo_resolved() : NULL;
    if (!t)
        return 0;
    uint64_t l1i = t->l1i.size ? t->l1i.size : t->data[1].size;
    if (!strcasecmp(level, "L1"))
        return l1i / 2;
    if (!strcasecmp(level, "L2") && t->data[2].size)
        return level_middle(l1i, level_usable_size(t, 2));
    if (!strcasecmp(level, "L3") && t->data[3].size)
        return level_middle(level_usable_size(t, 2), level_usable_size(t, 3));
    if (!strcasecmp(level, "DRAM")) {
        int last = topo_last_level(t);
        uint64_t s = last ? 2 * t->data[last].size : 0;
        return s < (64u << 20) ? (64u << 20) : s;
    }
    return 0;
}

int code_level_of_size(uint64_t bytes)
{
    const struct topo *t = topo_resolved();
    if (!t)
        return 4;
    uint64_t l1i = t->l1i.size ? t->l1i.size : t->data[1].size;
    if (bytes <= l1i)
        return 1;
    for (int l = 2; l <= TOPO_MAX_LEVEL; l++)
        if (t->data[l].size && bytes <= level_usable_size(t, l))
            return l;
    return 4;
}

static int param_index(const struct kernel *k, const char *name, size_t len)
{
    for (int i = 0; k->params[i].name; i++)
        if (strlen(k->params[i].name) == len && !strncmp(k->params[i].name, name, len))
            return i;
    return -1;
}

static bool choice_ok(const char *choices, const char *v)
{
    size_t n = strlen(v);
    for (const char *p = choices; p && *p;) {
        const char *e = strchr(p, '|');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && !strncmp(p, v, n))
            return true;
        p = e ? e + 1 : NULL;
    }
    return false;
}

/* A level name the machine lacks (no L3 here): a valid value, but a case that cannot run. */
static void note_missing_level(struct case_ *c, const struct param *p, const char *v)
{
    const struct topo *t = topo_get();
    int l = toupper((unsigned char)v[0]) == 'L' ? v[1] - '0' : 0;
    const char *why = t && l >= 1 && l <= TOPO_MAX_LEVEL ? t->absent_why[l] : "";
    if (t && !t->simulated && why[0]) {   /* the host has the level, its size unknown */
        snprintf(c->skip, sizeof(c->skip), "%s=%s: this machine's %s cache is left out: %s", p->name, v, v, why);
        return;
    }
    /* The simulator names every host level it leaves out (absent_why): no reason means no such level.
     * The levels' source is hwloc, or sysfs in a build without it. */
    char from[48];
    snprintf(from, sizeof(from), "%s(%s)", t && t->simulated ? ": the host has none " : " ",
             topo_source_name(TOPO_FROM_HWLOC));
    snprintf(c->skip, sizeof(c->skip), "%s=%s: %s has no %s cache%s%s%s", p->name, v,
             t && t->simulated ? "the simulated machine" : "this machine", v, why[0] ? ": " : "", why,
             why[0] ? "" : from);
}

int param_domain(const struct param *p, struct param_domain *d, char *err, size_t n)
{
    *d = (struct param_domain){.step = 1};
    if (!p->range) {
        snprintf(err, n, "%s declares no range", p->name);
        return -1;
    }
    char lo[32], hi[32], words[64] = "";
    if (sscanf(p->range, "%31[^.]..%31s %63[^\n]", lo, hi, words) < 2 || !parse_size(lo, &d->lo)) {
        snprintf(err, n, "%s's range '%s' is not LO..HI [pow2|step N|levels]", p->name, p->range);
        return -1;
    }
    if (!strcmp(hi, "cpus")) {
        int cpus[1024];
        d->hi = (uint64_t)topo_cpus(cpus, 1024);
    } else if (!parse_size(hi, &d->hi)) {
        snprintf(err, n, "%s's range '%s': '%s' is not a number, a size or 'cpus'", p->name, p->range, hi);
        return -1;
    }
    for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
        if (!strcmp(w, "pow2"))
            d->pow2 = true;
        else if (!strcmp(w, "levels"))
            d->levels = true;
        else if (!strcmp(w, "step") && (w = strtok(NULL, " ")) && parse_size(w, &d->step) && d->step)
            continue;
        else {
            snprintf(err, n, "%s's range '%s': unknown word '%s' (pow2, step N, levels)", p->name, p->range, w);
            return -1;
        }
    }
    if (d->lo > d->hi) {
        snprintf(err, n, "%s's range '%s' is empty", p->name, p->range);
        return -1;
    }
    return 0;
}

bool param_domain_has(const struct param_domain *d, uint64_t x)
{
    return x >= d->lo && x <= d->hi && x % d->step == 0 && (!d->pow2 || (x & (x - 1)) == 0);
}

static bool value_ok(const struct kernel *k, const struct param *p, const char *v)
{
    uint64_t x;
    switch (p->type) {
    case PARAM_SIZE:
        if (parse_size(v, &x) && !is_level_name(v)) {
            /* Caught here, before a run folder exists, rather than as a failed setup mid-run. */
            uint64_t avail = mem_available();
            if (!x && strcmp(p->def, "0")) {
                pm_error("%s: %s=0 measures nothing; give a size of at least one byte (default %s)", k->name,
                         p->name, p->def);
                return false;
            }
            if (avail && x > avail) {
                pm_error("%s: %s=%s is more than this machine's available memory (%s); choose a smaller size",
                         k->name, p->name, v, fmt_size(avail));
                return false;
            }
            return true;
        }
        if (level_size(v) || parse_size(v, &x) || (is_level_name(v) && topo_get()))
            return true;
        pm_error("%s: %s=%s is not a size; give bytes (4096, 64k, 2M) or a cache level (L1, L2, L3, DRAM)",
                 k->name, p->name, v);
        return false;
    case PARAM_UINT:
        if (isdigit((unsigned char)v[0]) && parse_u64(v, &x)) {   /* strtoull takes " -1" as 2^64 - 1 */
            struct param_domain d;
            char err[160];
            if (!p->range || param_domain(p, &d, err, sizeof(err)) || param_domain_has(&d, x))
                return true;
            pm_error("%s: %s=%s is outside its domain %s; give a value in it (default %s)", k->name, p->name, v,
                     p->range, p->def);
            return false;
        }
        pm_error("%s: %s=%s is not a whole number", k->name, p->name, v);
        return false;
    case PARAM_ENUM:
        if (choice_ok(p->choices, v))
            return true;
        pm_error("%s: %s=%s is not one of %s", k->name, p->name, v, p->choices);
        return false;
    case PARAM_TEXT:
        return true;
    case PARAM_CPU:
        if (parse_u64(v, &x) && x < 1u << 20 && topo_cpu_valid((int)x))
            return true;
        {
            char list[256];
            topo_cpu_list(list, sizeof(list));
            pm_error("%s: %s=%s is not a CPU this process may run on (its affinity mask, taskset or a cgroup, "
                     "allows %s); give one of those", k->name, p->name, v, list);
        }
        return false;
    }
    return false;
}

struct case_ *case_new(const struct kernel *k, int nargs, char **args)
{
    struct case_ *c = xcalloc(1, sizeof(*c));
    c->kernel = k;
    for (int a = 0; a < nargs; a++) {
        const char *eq = strchr(args[a], '=');
        int i = eq ? param_index(k, args[a], (size_t)(eq - args[a])) : -1;
        const char *v = eq ? eq + 1 : NULL;
        if (i < 0 && k->bare_param) {   /* the whole word is that parameter's value */
            i = param_index(k, k->bare_param, strlen(k->bare_param));
            v = args[a];
        }
        if (i < 0) {
            pm_error("%s: unknown parameter '%.*s'; 'pmucal kernels %s' lists its parameters", k->name,
                     eq ? (int)(eq - args[a]) : (int)strlen(args[a]), args[a], k->name);
            case_free(c);
            return NULL;
        }
        if (c->given[i]) {   /* "size=4k size=8k": which one was meant is not for pmucal to guess */
            pm_error("%s: parameter %s is given twice ('%s' and '%s'); give it once", k->name, k->params[i].name,
                     c->value[i], v);
            case_free(c);
            return NULL;
        }
        if (!value_ok(k, &k->params[i], v)) {
            case_free(c);
            return NULL;
        }
        free(c->value[i]);
        c->value[i] = xstrdup(v);
        c->given[i] = true;
    }
    size_t cap = 256, len = 0;
    c->label = xmalloc(cap);
    len = (size_t)snprintf(c->label, cap, "%s", k->name);
    for (int i = 0; k->params[i].name; i++) {
        if (!c->value[i]) {
            c->value[i] = xstrdup(k->params[i].def);
            continue;
        }
        if (!strcmp(c->value[i], k->params[i].def))
            continue;
        size_t need = len + strlen(k->params[i].name) + strlen(c->value[i]) + 3;
        if (need > cap)
            c->label = xrealloc(c->label, cap = need * 2);
        len += (size_t)snprintf(c->label + len, cap - len, " %s=%s", k->params[i].name, c->value[i]);
    }
    return c;
}

struct case_ *case_from_text(const struct kernel *k, const char *text)
{
    int n;
    char **words = split_list(text, ' ', &n);
    struct case_ *c = case_new(k, n, words);
    free_list(words);
    return c;
}

void case_free(struct case_ *c)
{
    if (!c)
        return;
    for (int i = 0; i < KERNEL_MAX_PARAMS; i++)
        free(c->value[i]);
    free(c->label);
    free(c);
}

const char *case_str(const struct case_ *c, const char *name)
{
    int i = param_index(c->kernel, name, strlen(name));
    if (i < 0)
        pm_fatal("kernel %s has no parameter %s", c->kernel->name, name);
    return c->value[i];
}

bool case_is(const struct case_ *c, const char *name, const char *value)
{
    return !strcmp(case_str(c, name), value);
}

uint64_t case_uint(const struct case_ *c, const char *name)
{
    uint64_t v = 0;
    parse_u64(case_str(c, name), &v);
    return v;
}

uint64_t case_size(const struct case_ *c, const char *name)
{
    const char *s = case_str(c, name);
    uint64_t v = level_size(s);
    if (!v)
        parse_size(s, &v);
    return v;
}

int case_cpu(const struct case_ *c, const char *name)
{
    return (int)case_uint(c, name);
}

bool kernel_has_param(const struct kernel *k, const char *name)
{
    return param_index(k, name, strlen(name)) >= 0;
}

bool case_given(const struct case_ *c, const char *name)
{
    int i = param_index(c->kernel, name, strlen(name));
    return i >= 0 && c->given[i];
}

void case_adopt_cpu(struct case_ *c, int cpu, int second)
{
    const struct kernel *k = c->kernel;
    char text[16];
    snprintf(text, sizeof(text), "%d", cpu);
    for (int i = 0; k->params[i].name; i++)
        if (k->params[i].type == PARAM_CPU && !c->given[i] &&
            (!strcmp(k->params[i].name, "run_cpu") || !strcmp(k->params[i].name, "init_cpu"))) {
            free(c->value[i]);
            c->value[i] = xstrdup(text);
        }
    /* A second thread's CPU (snoop's writer) left at its default: another CPU of the mask than the
     * measuring one, the first; with none, it stays and host_lacks says why. */
    int w = param_index(k, "writer_cpu", 10), cpus[1024], n = topo_cpus(cpus, 1024);
    if (w >= 0 && !c->given[w] && second >= 0) {   /* the pair the user named */
        snprintf(text, sizeof(text), "%d", second);
        free(c->value[w]);
        c->value[w] = xstrdup(text);
        return;
    }
    if (w < 0 || c->given[w] || case_cpu(c, "writer_cpu") != case_run_cpu(c))
        return;
    for (int i = 0; i < n; i++)
        if (cpus[i] != case_run_cpu(c)) {
            snprintf(text, sizeof(text), "%d", cpus[i]);
            free(c->value[w]);
            c->value[w] = xstrdup(text);
            return;
        }
}

int case_run_cpu(const struct case_ *c)
{
    if (param_index(c->kernel, "run_cpu", 7) >= 0)
        return case_cpu(c, "run_cpu");
    int cpus[1];
    return topo_cpus(cpus, 1) ? cpus[0] : 0;
}

/* Does a size name a level this machine lacks, or a default CPU one it does not have? Asked at
 * setup, not when the case is made: resolving a level may measure the latency curve. */
static bool host_lacks(struct case_ *c)
{
    const struct kernel *k = c->kernel;
    for (int i = 0; k->params[i].name; i++) {
        const char *v = c->value[i];
        uint64_t cpu;
        if (k->params[i].type == PARAM_SIZE && is_level_name(v) && !level_size(v)) {
            note_missing_level(c, &k->params[i], v);
            return true;
        }
        /* A default CPU (writer_cpu=1) on a machine without it; a CPU the user names was checked. */
        if (k->params[i].type == PARAM_CPU && !strcmp(v, k->params[i].def) && parse_u64(v, &cpu) &&
            !topo_cpu_valid((int)cpu)) {
            int cpus[2], n = topo_cpus(cpus, 2);
            const struct topo *t = topo_get();
            if (n < 2 && t && t->pus >= 2)   /* the machine has more: taskset or a cgroup keeps them */
                snprintf(c->skip, sizeof(c->skip), "%s=%s by default, but this process may use only CPU %d of "
                         "the machine's %d (its affinity mask); give it two CPUs", k->params[i].name, v,
                         n ? cpus[0] : 0, t->pus);
            else
                snprintf(c->skip, sizeof(c->skip), "%s=%s by default, but this machine has %s%s",
                         k->params[i].name, v, n < 2 ? "only one CPU" : "no CPU ", n < 2 ? "" : v);
            return true;
        }
    }
    int w = param_index(k, "writer_cpu", 10);
    if (w >= 0 && !c->given[w] && case_cpu(c, "writer_cpu") == case_run_cpu(c)) {
        snprintf(c->skip, sizeof(c->skip), "a writer on another CPU than the measuring CPU %d, but this process may "
                 "use only that one (its affinity mask); give it two CPUs", case_run_cpu(c));
        return true;
    }
    return false;
}

int case_setup(struct case_ *c)
{
    if (host_lacks(c))
        return CASE_SKIP;
    return c->kernel->setup(c);
}

bool case_isa_usable(struct case_ *c, unsigned isa)
{
    for (size_t i = 0; i < isa_nexts; i++) {
        if (!(isa & isa_exts[i].bit))
            continue;
        /* The source's limit first: under valgrind cpuid hides what the simulator cannot run,
         * and "the CPU lacks it" would then be the wrong reason. */
        if (c->isa_limits & isa_exts[i].bit) {
            snprintf(c->skip, sizeof(c->skip), "%s code cannot be executed under the %s counter source", isa_exts[i].name,
                     c->isa_limits_by ? c->isa_limits_by : "chosen");
            return false;
        }
        if (!isa_ext_present(isa_exts[i].bit)) {
            snprintf(c->skip, sizeof(c->skip), "this CPU lacks %s", isa_exts[i].name);
            return false;
        }
    }
    return true;
}

/* A model defect seeded on purpose, as counter defects are seeded into the sim source: a test
 * shows that a parameter sweep finds a wrong model (tests/60-validate-sim-sweep.t). PMUCAL_MODEL_DEFECT is
 * "KERNEL [p=v ...]: QUANTITY +N" (or "*F"): in that kernel's cases whose parameters have those
 * values, the model's QUANTITY is off by N (or F times itself), before what derives from it. */
#define MODEL_DEFECT_ENV "PMUCAL_MODEL_DEFECT"

static bool first_word_is_kernel(const char *text, const char *end)
{
    char name[64];
    size_t n = strcspn(text, " :");
    snprintf(name, sizeof(name), "%.*s", (int)(n < (size_t)(end - text) ? n : (size_t)(end - text)), text);
    return kernel_find(name) != NULL;
}

static void seed_model_defect(const struct case_ *c, struct quantities *q)
{
    const char *spec = getenv(MODEL_DEFECT_ENV);
    if (!spec || !*spec)
        return;
    char *text = xstrdup(spec), *colon = strchr(text, ':'), qname[64], op;
    double by;
    int id = -1;
    if (!colon || sscanf(colon + 1, " %63s %c%lf", qname, &op, &by) != 3 || (op != '+' && op != '*') ||
        (id = quantity_lookup(qname)) < 0 || !first_word_is_kernel(text, colon)) {
        pm_error("%s='%s': give 'KERNEL [p=v ...]: QUANTITY +N' or '... *F', a kernel 'pmucal kernels' lists and a "
                 "quantity 'pmucal quantities' lists", MODEL_DEFECT_ENV, spec);
        exit(2);
    }
    *colon = 0;
    bool match = true;
    char *save = NULL;
    for (char *w = strtok_r(text, " ", &save); w && match; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        if (w == text && !eq)
            match = !strcmp(w, c->kernel->name);
        else if (!eq || (*eq = 0, !kernel_has_param(c->kernel, w)))
            match = false;
        else
            match = !strcmp(case_str(c, w), eq + 1);
    }
    static bool told;
    if (!told)
        pm_warn("%s seeds a model defect: %s", MODEL_DEFECT_ENV, spec);
    told = true;
    if (match && !isnan(q->v[id]))
        q->v[id] = op == '+' ? q->v[id] + by : q->v[id] * by;
    free(text);
}

/* The instruction side of a kernel whose model leaves it out: code that holds at most half the
 * ways of every set of the L1I never misses there warm, nor in the last level. The harness's code
 * between two loops (under sim, reading a dump back through libc) shares those sets: a chain of
 * 1396 calls, 6 of 8 ways a set, lost 100 lines a loop to it. More code is the kernel's own to
 * model (ifetch does), and unstated here with the reason. A compiled kernel's loop is a few lines
 * of pmucal's own text; a generated one's is its assembler's bytes, placed anywhere (one line more
 * covers any start). */
static void model_code_side(const struct case_ *c, struct quantities *q)
{
    /* A model that states them, or says why it leaves them out (its reason names them), has its own. */
    if (quantity_stated(q, Q_I1_MISS_WARM) || quantity_stated(q, Q_IL_MISS_WARM) ||
        (q->unstated_why && strstr(q->unstated_why, quantity_name(Q_I1_MISS_WARM))))
        return;
    const struct assembler *as = c->kernel->code ? c->kernel->code(c) : NULL;
    const struct topo *t = topo_resolved();
    uint64_t bytes = as ? as->len : 0, misses[2] = {0, 0}, crowded[2] = {0, 0};
    if (as && t) {
        int ways = t->l1i.size ? t->l1i.ways : t->data[1].ways;
        lru_count_code(t, 0, (bytes + 63) / 64 + 1, ways > 0 ? (unsigned)(ways + 1) / 2 : 1, misses, crowded);
    }
    if (as && !t)
        misses[0] = 1;   /* no topology to tell: leave it unstated */
    if (!misses[0] && !crowded[0]) {
        q->v[Q_I1_MISS_WARM] = q->v[Q_IL_MISS_WARM] = 0;
        return;
    }
    static char why[512];
    snprintf(why, sizeof(why), "%s%si1.miss.warm, il.miss.warm: the kernel's %llu bytes of code %s some sets of the "
             "L1I, %s", q->unstated_why ? q->unstated_why : "", q->unstated_why ? "; " : "", (unsigned long long)bytes,
             misses[0] ? "overfill" : "take more than half the ways of",
             misses[0] ? "and the order it fetches their lines in is not modelled"
                       : "which the harness's code between loops shares");
    q->unstated_why = why;
}

void case_model(const struct case_ *c, struct quantities *q)
{
    quantities_unstated(q);
    c->kernel->model(c, q);
    model_code_side(c, q);
    seed_model_defect(c, q);
    quantities_derive(q);
}

/* ifetch: straight-line code of a chosen size, independent instruction after instruction (x86's
 * 10-byte movabs, A64's mov: Gooda's linear_gen idea), looping back at the end, so every
 * iteration fetches every line of the code once and nothing else is in the way: cycles per
 * 64-byte line of code, by the level the code lives in. The ISA writes the code (arch/isa.h). */
#include "base/util.h"
#include "generators/codegen.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

struct ifetch {
    struct gen g;
    uint64_t insns, bytes, lines, pages;
    struct shape_counts n;
    int level;
};

static const struct param ifetch_params[] = {
    {"size", PARAM_SIZE, "L1", "code bytes: bytes, or a level of the instruction side: L1 (half of L1I), L2, L3 "
     "(well inside the unified levels), DRAM (2 x the last level, at least 64 MiB)", NULL, "32..2G levels"},
    {"page", PARAM_ENUM, "4k", "pages backing the code: 4k, or 2m (transparent huge pages; SKIP where not obtained)", "4k|2m", NULL},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

static uint64_t code_size(const struct case_ *c)
{
    const char *s = case_str(c, "size");
    uint64_t v = code_level_size(s);
    if (!v)
        parse_size(s, &v);
    return v;
}

static int ifetch_setup(struct case_ *c)
{
    struct ifetch *k = xcalloc(1, sizeof(*k));
    c->priv = k;
    uint64_t size = code_size(c);
    if (size < 32 || size > isa_ifetch_max_bytes) {
        pm_error("ifetch: size=%s gives %s of code; choose between 32 bytes and %s (or a level: L1, L2, L3, DRAM)",
                 case_str(c, "size"), fmt_size(size), fmt_size(isa_ifetch_max_bytes));
        return KERNEL_ERROR;
    }
    /* The loop starts at the first byte of the mapping, so it spans exactly ceil(bytes / 64) lines. */
    struct assembler *as = &k->g.as;
    gen_init(&k->g, size + 64);
    int entry = isa_ifetch_assemble(as, size, &k->bytes, &k->insns, &k->n);
    bool huge = case_is(c, "page", "2m");
    if (gen_map(&k->g, entry, huge, "ifetch"))
        return KERNEL_ERROR;
    if (huge && !k->g.code.huge) {
        snprintf(c->skip, sizeof(c->skip), "page=2m: the code did not get transparent huge pages "
                 "(/sys/kernel/mm/transparent_hugepage/enabled must be always or madvise)");
        return KERNEL_SKIP;
    }
    uint64_t page = huge ? 2u << 20 : 4096;
    k->lines = (k->bytes + 63) / 64;
    k->pages = (k->bytes + page - 1) / page;
    k->level = code_level_of_size(k->bytes);
    c->warm_iters = 2;
    snprintf(c->detail, sizeof(c->detail), "code=%s %s=%llu lines=%llu pages=%llu page=%s level=%s",
             fmt_size(k->bytes), isa_ifetch_insn, (unsigned long long)k->insns, (unsigned long long)k->lines,
             (unsigned long long)k->pages, huge ? "2m-thp" : "4k",
             k->level == 4 ? "DRAM" : k->level == 3 ? "L3" : k->level == 2 ? "L2" : "L1I");
    return KERNEL_OK;
}

static void ifetch_loop(struct case_ *c, uint64_t iters)
{
    struct ifetch *k = c->priv;
    k->g.entry(iters, NULL);
}

static void ifetch_model(const struct case_ *c, struct quantities *q)
{
    const struct ifetch *k = c->priv;
    gen_model_base(q);
    gen_model_shape(&k->n, q);
    q->v[Q_IFETCH_LINES] = (double)k->lines;
    /* Where the lines come from: the level the code fits in (fetched ahead by the instruction
     * prefetcher or on demand; either way from there). */
    q->v[Q_IFETCH_LINES_L2] = k->level == 2 ? (double)k->lines : 0;
    q->v[Q_IFETCH_LINES_L3] = k->level == 3 ? (double)k->lines : 0;
    q->v[Q_IFETCH_LINES_DRAM] = k->level == 4 ? (double)k->lines : 0;
    q->v[Q_ITLB_PAGES] = (double)k->pages;
    q->v[Q_D1_MISS_WARM] = q->v[Q_LL_MISS_WARM] = 0;
}

static void ifetch_teardown(struct case_ *c)
{
    struct ifetch *k = c->priv;
    if (k)
        gen_free(&k->g);
    free(k);
    c->priv = NULL;
}

static const struct assembler *ifetch_code(const struct case_ *c)
{
    const struct ifetch *k = c->priv;
    return &k->g.as;
}

static const char *const ifetch_matrix[] = {
    "size=L1",
    "size=L2",
    "size=L3",
    "size=DRAM",
    "size=L2 page=2m",
    NULL,
};

static const struct kernel ifetch_kernel = {
    .name = "ifetch",
    .summary = "straight-line code of independent instructions of a chosen size, looping: cycles per 64-byte line "
               "of code",
    .params = ifetch_params,
    .setup = ifetch_setup,
    .loop = ifetch_loop,
    .model = ifetch_model,
    .teardown = ifetch_teardown,
    .matrix = ifetch_matrix,
    .per = Q_IFETCH_LINES,
    .per_name = "64-byte line of code",
    .code = ifetch_code,
};
PMUCAL_KERNEL(ifetch_kernel)

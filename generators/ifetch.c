/* ifetch: straight-line code of a chosen size, independent instruction after instruction (x86's
 * 10-byte movabs, A64's mov: Gooda's linear_gen idea), looping back at the end, so every
 * iteration fetches every line of the code once and nothing else is in the way: cycles per
 * 64-byte line of code, by the level the code lives in. The ISA writes the code (arch/isa.h).
 * Straight-line code is what a sequential instruction prefetcher streams, so its cycles a line are
 * not a demand fetch's latency. order=random lays the same lines out as a chain of jumps, one a
 * line, in a random order (the branch kernel's chain, arch/shapes.c), which no sequential
 * prefetcher follows: docs/penalties.md has both orders' figures on an Emerald Rapids guest. */
#include "base/util.h"
#include "core/lru.h"
#include "generators/codegen.h"
#include "host/geometry.h"
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

/* The chain's order: fixed, so that a case is the same code in every run. */
#define IFETCH_CHAIN_SEED 1

static const struct param ifetch_params[] = {
    {"size", PARAM_SIZE, "L1", "code bytes: bytes, or a level of the instruction side: L1 (half of L1I), L2, L3 "
     "(well inside the unified levels), DRAM (2 x the last level, at least 64 MiB)", NULL, "32..2G levels"},
    {"page", PARAM_ENUM, "4k", "pages backing the code: 4k, or 2m (transparent huge pages; SKIP where not obtained)", "4k|2m", NULL},
    {"order", PARAM_ENUM, "linear", "linear: straight-line code, which sequential instruction prefetchers stream; "
     "random: each 64-byte line one jump to another in a fixed random order, which they cannot follow (up to the "
     "reach of this ISA's loop branch)", "linear|random", NULL},
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
        return CASE_ERROR;
    }
    /* The code starts at the first byte of the mapping, so it spans exactly ceil(bytes / 64) lines. */
    struct assembler *as = &k->g.as;
    bool chain = case_is(c, "order", "random");   /* one jump a line */
    /* The loop test, after the last line, jumps back to the chain's first, which may be line 0. */
    if (chain && (size < 128 || size > isa_branch_max_bytes - 64)) {
        pm_error("ifetch: order=random takes sizes from 128 bytes (two lines) to %llu bytes (%s less a line), as far "
                 "as this ISA's loop branch reaches back; size=%s gives %llu bytes",
                 (unsigned long long)(isa_branch_max_bytes - 64), fmt_size(isa_branch_max_bytes), case_str(c, "size"),
                 (unsigned long long)size);
        return CASE_ERROR;
    }
    gen_init(&k->g, size + 64);
    int entry;
    if (chain) {
        uint64_t n = size / 64;
        int body = asm_label(as), test = asm_label(as);
        asm_comment(as, "%llu lines, each one jump to the next in a random order", (unsigned long long)n);
        struct loop_test lt;
        /* The instructions as the ISA wrote them: one jump a line on every ISA so far. */
        k->insns = gen_jump_chain(as, body, test, n, 64, true, IFETCH_CHAIN_SEED, &lt);
        k->bytes = as->len;   /* the lines and the loop test */
        k->n = gen_loop_test_counts(lt);
        k->n.inst += (double)k->insns;
        k->n.uncond += (double)n;
        entry = isa_asm_entry(as, test);
    } else {
        entry = isa_ifetch_assemble(as, size, &k->bytes, &k->insns, &k->n);
    }
    bool huge = case_is(c, "page", "2m");
    if (gen_map(&k->g, entry, huge, "ifetch"))
        return CASE_ERROR;
    if (huge && !k->g.code.huge) {
        snprintf(c->skip, sizeof(c->skip), "page=2m: the code did not get transparent huge pages "
                 "(/sys/kernel/mm/transparent_hugepage/enabled must be always or madvise)");
        return CASE_SKIP;
    }
    uint64_t page = huge ? 2u << 20 : 4096;
    k->lines = (k->bytes + 63) / 64;
    k->pages = (k->bytes + page - 1) / page;
    k->level = code_level_of_size(k->bytes);
    c->warm_iters = 2;
    snprintf(c->detail, sizeof(c->detail), "code=%s %s=%llu lines=%llu pages=%llu page=%s level=%s",
             fmt_size(k->bytes), chain ? "jumps" : isa_ifetch_insn, (unsigned long long)k->insns,
             (unsigned long long)k->lines, (unsigned long long)k->pages, huge ? "2m-thp" : "4k",
             k->level == 4 ? "DRAM" : k->level == 3 ? "L3" : k->level == 2 ? "L2" : "L1I");
    return CASE_OK;
}

static void ifetch_loop(struct case_ *c, uint64_t iters)
{
    struct ifetch *k = c->priv;
    k->g.entry(iters, NULL);
}

/* Each of the harness's code lines between prepare()'s lap and the loop (7 on x86-64 built by
 * gcc 12, as counted under callgrind) costs a full set of misses where the code fills a set exactly;
 * with at most 8 ways they stay within the sim source's 64 counts a loop. */
#define IFETCH_EDGE_WAYS_MAX 8

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
    /* The front end under LRU: each line is fetched once a lap (in address order, or in the chain's
     * order, the same each lap, which under LRU comes to the same in every set), so the lines of
     * a set holding more than its ways miss every lap and the others never (lru.h). Sets filled to
     * the edge stay exact because prepare() runs a lap just before each loop: only the few lines
     * of the harness between it and the loop stand between the code and its own last lap. */
    const struct topo *t = topo_resolved();
    uint64_t misses[2], edges[2];
    lru_count_code(t, (uintptr_t)k->g.code.base, k->lines, 1, misses, edges);
    q->v[Q_I1_MISS_WARM] = (double)misses[0];
    q->v[Q_IL_MISS_WARM] = (double)misses[1];
    const struct cache_level *i1 = t->l1i.size ? &t->l1i : &t->data[1];
    if (edges[0] && i1->ways > IFETCH_EDGE_WAYS_MAX) {
        q->v[Q_I1_MISS_WARM] = q->v[Q_IL_MISS_WARM] = NAN;
        q->unstated_why = "i1.miss.warm, il.miss.warm: the code fills sets of a more than 8-way L1I exactly, where "
                          "each line of the harness's code between the last lap and the loop costs a miss on every "
                          "way of its set";
    } else if (edges[1]) {
        /* The last level is unified: the harness's data lines between the lap and the loop land in
         * sets that move with ASLR (17.03 to 17.05 against 17 a lap in a 64K 16-way one, run to run). */
        q->v[Q_IL_MISS_WARM] = NAN;
        q->unstated_why = "il.miss.warm: the code fills sets of the last level exactly, which also holds the "
                          "harness's data lines between the last lap and the loop, in sets that move with ASLR";
    }
}

/* One uncounted lap right before each counted loop: the harness's code between two loops (a
 * simulator's dump read back, the protocol's bookkeeping) evicts some of the code's lines, and in
 * a set the code fills to the edge one foreign line costs a miss on every line of that set in the
 * next lap (LRU). The lap refetches them where no count sees it. */
static void ifetch_prepare(struct case_ *c)
{
    struct ifetch *k = c->priv;
    k->g.entry(1, NULL);
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
    "size=L2 order=random",
    NULL,
};

static const struct kernel ifetch_kernel = {
    .name = "ifetch",
    .summary = "straight-line code of independent instructions of a chosen size, looping (or its lines chained by "
               "jumps in a random order): cycles per 64-byte line of code",
    .params = ifetch_params,
    .setup = ifetch_setup,
    .prepare = ifetch_prepare,
    .loop = ifetch_loop,
    .model = ifetch_model,
    .teardown = ifetch_teardown,
    .matrix = ifetch_matrix,
    .per = Q_IFETCH_LINES,
    .per_name = "64-byte line of code",
    .code = ifetch_code,
};
PMUCAL_KERNEL(ifetch_kernel)

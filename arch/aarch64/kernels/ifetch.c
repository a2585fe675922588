/* ifetch on A64: straight-line code of a chosen size, one 4-byte mov (movz) after another,
 * looping back at the end, so every iteration fetches every line of the code once and nothing
 * else is in the way: cycles per 64-byte line of code, by the level the code lives in. */
#include "arch/aarch64/a64_emit.h"
#include "base/util.h"
#include "generators/gen.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>

struct ifetch {
    struct gen g;
    uint64_t movs, bytes, lines, pages;
    bool far;   /* the loop's b.cs (+-1 MiB) cannot reach back: b.cc out, b back (+-128 MiB) */
    int level;
};

static const struct param ifetch_params[] = {
    {"size", PARAM_SIZE, "L1", "code bytes: bytes, or a level of the instruction side: L1 (half of L1I), L2, L3 "
     "(well inside the unified levels), DRAM (2 x the last level, at least 64 MiB)", NULL},
    {"page", PARAM_ENUM, "4k", "pages backing the code: 4k, or 2m (transparent huge pages; SKIP where not obtained)", "4k|2m"},
    {NULL, 0, NULL, NULL, NULL},
};

/* Registers written in turn: all caller-saved, none the loop uses (x0, x1). */
static const enum reg targets[] = {X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15};

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
    if (size < 16 || size > (120ull << 20)) {
        pm_error("ifetch: size=%s gives %s of code; choose between 16 bytes and 120M, as far as one A64 branch "
                 "reaches back (or a level: L1, L2, L3, DRAM)",
                 case_str(c, "size"), fmt_size(size));
        return KERNEL_ERROR;
    }
    /* body: mov x K; test: subs x0, x0, #1; b.cs body (4 bytes each), or past 1 MiB of code,
     * where b.cs cannot reach back: subs; b.cc out; b body. The loop starts at the first byte
     * of the mapping, so it spans exactly ceil(bytes / 64) lines. */
    k->far = size > (1u << 20) - 64;
    k->movs = (size - (k->far ? 12 : 8)) / 4;
    k->bytes = k->movs * 4 + (k->far ? 12 : 8);
    struct emit *e = &k->g.e;
    gen_init(&k->g, k->bytes + 64);
    int body = emit_label(e), test = emit_label(e), entry = emit_label(e);
    emit_bind(e, body);
    emit_comment(e, "body: %llu x mov, 4 bytes each", (unsigned long long)k->movs);
    for (uint64_t i = 0; i < k->movs; i++)
        emit_movz(e, targets[i % ARRAY_SIZE(targets)], (unsigned)(i & 0xffff));
    emit_bind(e, test);
    emit_comment(e, "loop test: run(n) executes n bodies and n+1 tests");
    if (k->far) {
        int out = emit_label(e);
        emit_subs_imm(e, X0, X0, 1);
        emit_bcond(e, CC_CC, out);
        emit_b(e, body);
        emit_bind(e, out);
    } else {
        emit_loop_test(e, body);
    }
    emit_ret(e);
    emit_comment(e, "entry: the function starts here, jumping to the test");
    emit_bind(e, entry);
    emit_b(e, test);
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
    snprintf(c->detail, sizeof(c->detail), "code=%s movs=%llu lines=%llu pages=%llu page=%s level=%s",
             fmt_size(k->bytes), (unsigned long long)k->movs, (unsigned long long)k->lines,
             (unsigned long long)k->pages, huge ? "2m-thp" : "4k",
             k->level == 4 ? "DRAM" : k->level == 3 ? "L3" : k->level == 2 ? "L2" : "L1I");
    return KERNEL_OK;
}

static void ifetch_run(struct case_ *c, uint64_t iters)
{
    struct ifetch *k = c->priv;
    k->g.entry(iters, NULL);
}

static void ifetch_model(const struct case_ *c, struct quantities *q)
{
    const struct ifetch *k = c->priv;
    gen_model_base(q);
    q->v[Q_INST] = (double)k->movs + (k->far ? 3 : 2);
    q->v[Q_BR_COND] = 1;
    q->v[Q_BR_COND_TAKEN] = k->far ? 0 : 1;   /* far: b.cc falls through until the last test */
    q->v[Q_BR_COND_NTAKEN] = k->far ? 1 : 0;
    q->v[Q_BR_UNCOND] = k->far ? 1 : 0;
    q->v[Q_BR_ALL] = k->far ? 2 : 1;
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

static const struct emit *ifetch_code(const struct case_ *c)
{
    const struct ifetch *k = c->priv;
    return &k->g.e;
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
    .summary = "straight-line 4-byte mov code of a chosen size, looping: cycles per 64-byte line of code",
    .params = ifetch_params,
    .setup = ifetch_setup,
    .run = ifetch_run,
    .model = ifetch_model,
    .teardown = ifetch_teardown,
    .matrix = ifetch_matrix,
    .per = Q_IFETCH_LINES,
    .per_name = "64-byte line of code",
    .code = ifetch_code,
};
PMUCAL_KERNEL(ifetch_kernel)

/* callchain: a chain of D nested calls and their returns per iteration, direct or indirect, so
 * the return stack overflows past its depth and the outer returns are mispredicted. The ISA
 * writes the code (arch/isa.h): on A64 each level also saves and restores x30. */
#include "base/util.h"
#include "core/lru.h"
#include "generators/codegen.h"
#include "host/geometry.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

struct callchain {
    struct gen g;
    uint64_t depth, ras;
    bool indirect;
    uint64_t *table;   /* indirect: address of function k + 1 at [k] */
    struct shape_counts n;
};

static const struct param callchain_params[] = {
    {"depth", PARAM_UINT, "8", "nested calls per iteration, 1..4096", NULL, "1..4096"},
    {"kind", PARAM_ENUM, "direct", "direct: a call of the next level; indirect: its address loaded from a table, "
     "called through a register ('pmucal gen callchain kind=indirect --asm' lists the code)", "direct|indirect", NULL},
    {"ras", PARAM_UINT, "32", "return-stack entries the model assumes: returns beyond them are expected to "
     "mispredict. 32 is the depth AMD gave for Zen's return stack; check it on a CPU with a depth sweep "
     "(cycles per call jump past it)", NULL, "0..4096"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

static int callchain_setup(struct case_ *c)
{
    struct callchain *k = xcalloc(1, sizeof(*k));
    c->priv = k;
    k->depth = case_uint(c, "depth");
    k->ras = case_uint(c, "ras");
    k->indirect = case_is(c, "kind", "indirect");
    if (k->depth < 1 || k->depth > 4096) {
        pm_error("callchain: depth=%s must be 1..4096", case_str(c, "depth"));
        return CASE_ERROR;
    }
    struct assembler *as = &k->g.as;
    gen_init(&k->g, k->depth * 20 + 256);
    int *fn = xmalloc((k->depth + 1) * sizeof(int));
    for (uint64_t d = 1; d <= k->depth; d++)
        fn[d] = asm_label(as);
    int entry = isa_callchain_assemble(as, k->depth, k->indirect, fn, &k->n);
    if (gen_map(&k->g, entry, false, "callchain")) {
        free(fn);
        return CASE_ERROR;
    }
    if (k->indirect) {
        k->table = xcalloc(k->depth, 8);
        for (uint64_t d = 1; d <= k->depth; d++)
            k->table[d - 1] = (uint64_t)(uintptr_t)(k->g.code.base + asm_label_offset(as, fn[d]));
    }
    free(fn);
    c->warm_iters = 16;
    snprintf(c->detail, sizeof(c->detail), "code=%s depth=%llu ras=%llu (assumed)", fmt_size(k->g.code.size),
             (unsigned long long)k->depth, (unsigned long long)k->ras);
    return CASE_OK;
}

static void callchain_loop(struct case_ *c, uint64_t iters)
{
    struct callchain *k = c->priv;
    k->g.entry(iters, k->table);
}

static void callchain_model(const struct case_ *c, struct quantities *q)
{
    const struct callchain *k = c->priv;
    gen_model_base(q);
    double d = (double)k->depth;
    gen_model_shape(&k->n, q);
    q->v[Q_BR_CALL] = d;
    q->v[Q_BR_RET] = d;
    q->v[Q_BR_INDIRECT] = k->indirect ? d : 0;
    q->v[Q_BR_ALL] += 2 * d;
    /* A return stack of R entries keeps the innermost R return addresses: the outer D - R
     * returns find wrong (overwritten) entries. Expected, not exact: it is the model's R. */
    double miss = k->depth > k->ras ? (double)(k->depth - k->ras) : 0;
    q->v[Q_BR_RET_MISPRED] = miss;
    q->v[Q_BR_COND_MISPRED] = 0;       /* the loop branch */
    /* Every indirect call has one target, the next level. A textbook last-target table (callgrind's:
     * 512 entries indexed by address bits) aliases the sites of deep chains: here from about 48. */
    bool aliases = c->simple_predictor && k->indirect && k->depth > 32;
    q->v[Q_BR_INDIRECT_MISPRED] = aliases ? NAN : 0;
    q->v[Q_BR_MISPRED] = aliases ? NAN : miss;
    /* The data: the return addresses the calls push (8 bytes a level, on the stack wherever it is)
     * and the target table's line a level reads. Where they fit every set of D1 with ways to spare
     * nothing misses warm; deeper, the pushes down and the pops back up revisit lines in an order
     * the model does not follow. */
    const struct topo *t = topo_resolved();
    uint64_t stack_lines = (8 * k->depth + 63) / 64 + 1, table_lines = k->indirect ? stack_lines : 0;
    uint64_t sets = t && t->data[1].ways > 0 ? t->data[1].size / (uint64_t)t->data[1].linesize / (uint64_t)t->data[1].ways : 0;
    bool fits = sets && (stack_lines + sets - 1) / sets + (table_lines + sets - 1) / sets + LRU_EDGE_WAYS <=
                            (uint64_t)t->data[1].ways;
    q->v[Q_D1_MISS_WARM] = q->v[Q_LL_MISS_WARM] = fits ? 0 : NAN;
    if (aliases || !fits)
        q->unstated_why = aliases && !fits
            ? "br.indirect.mispred, br.mispred: callgrind's 512-entry last-target table, indexed by address, aliases "
              "the call sites of a chain deeper than 32 in a way not modelled; d1.miss.warm, ll.miss.warm: the "
              "pushed return addresses and the target table fill sets of the L1D to the edge, pushed down and "
              "popped back up in an order not modelled"
            : aliases ? "br.indirect.mispred, br.mispred: callgrind's 512-entry last-target table, indexed by address, "
                        "aliases the call sites of a chain deeper than 32 in a way not modelled"
                      : "d1.miss.warm, ll.miss.warm: the pushed return addresses fill sets of the L1D to the edge, "
                        "pushed down and popped back up in an order not modelled";
}

static void callchain_teardown(struct case_ *c)
{
    struct callchain *k = c->priv;
    if (k) {
        gen_free(&k->g);
        free(k->table);
    }
    free(k);
    c->priv = NULL;
}

static const struct assembler *callchain_code(const struct case_ *c)
{
    const struct callchain *k = c->priv;
    return &k->g.as;
}

static const char *const callchain_matrix[] = {
    "depth=8",
    "depth=8 kind=indirect",
    "depth=24",
    "depth=64",
    "depth=64 kind=indirect",
    NULL,
};

static const struct kernel callchain_kernel = {
    .name = "callchain",
    .summary = "D nested calls and returns per iteration, direct or indirect: return-stack overflow",
    .params = callchain_params,
    .setup = callchain_setup,
    .loop = callchain_loop,
    .model = callchain_model,
    .teardown = callchain_teardown,
    .matrix = callchain_matrix,
    .per = Q_BR_CALL,
    .per_name = "call+return",
    .code = callchain_code,
};
PMUCAL_KERNEL(callchain_kernel)

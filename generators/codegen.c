#include "generators/codegen.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/mem.h"
#include <stdlib.h>
#include <string.h>

bool gen_listing;

void gen_init(struct gen *g, size_t cap_hint)
{
    memset(g, 0, sizeof(*g));
    asm_init(&g->as, cap_hint, gen_listing);
}

int gen_map(struct gen *g, int entry_label, bool huge, const char *who)
{
    asm_finish(&g->as);
    if (asm_map(&g->as, huge, &g->code, who))
        return -1;
    if (huge)
        g->code.huge = thp_fraction(g->code.base, g->code.map_size) > 0.5;
    g->entry = (void (*)(uint64_t, void *))(uintptr_t)(g->code.base + asm_label_offset(&g->as, entry_label));
    return 0;
}

void gen_free(struct gen *g)
{
    code_unmap(&g->code);
    asm_free(&g->as);
    g->entry = NULL;
}

void gen_model_base(struct quantities *q)
{
    static const enum quantity_id zero[] = {
        Q_BR_COND_NTAKEN, Q_BR_UNCOND, Q_BR_INDIRECT, Q_BR_CALL, Q_BR_RET, Q_BR_MISPRED, Q_BR_RET_MISPRED,
        Q_CTX_SWITCH, Q_CPU_MIGRATION, Q_PF_MINOR, Q_FP_SCALAR_DP, Q_FP_128_DP, Q_FP_256_DP, Q_FP_512_DP,
        Q_FLOPS_DP, Q_SQRT_OPS, Q_LD_ALL, Q_ST_ALL, Q_BYTES_READ, Q_BYTES_WRITTEN,
    };
    for (size_t i = 0; i < ARRAY_SIZE(zero); i++)
        q->v[zero[i]] = 0;
}

/* next[i], the block visited after block i (n after the last: the loop test); *first, the first. */
static uint64_t *chain_next(uint64_t n, bool random, uint64_t seed, uint64_t *first)
{
    uint64_t *order = xmalloc(n * sizeof(*order)), *next = xmalloc(n * sizeof(*next));   /* order[k]: k-th visited */
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    if (random) {
        struct rng r;
        rng_seed(&r, seed);
        for (uint64_t i = n - 1; i > 0; i--) {
            uint64_t j = rng_below(&r, i + 1), t = order[i];
            order[i] = order[j], order[j] = t;
        }
    }
    for (uint64_t k = 0; k < n; k++)
        next[order[k]] = k + 1 < n ? order[k + 1] : n;
    *first = order[0];
    free(order);
    return next;
}

uint64_t gen_jump_chain(struct assembler *as, int body, int test, uint64_t n, uint64_t spacing, bool random,
                        uint64_t seed, struct loop_test *loop)
{
    uint64_t first, *next = chain_next(n, random, seed, &first);
    uint64_t insns = isa_branch_uncond(as, body, test, n, spacing, first, next, loop);
    free(next);
    return insns;
}

struct shape_counts gen_loop_test_counts(struct loop_test t)
{
    return (struct shape_counts){.inst = t.inst, .cond_taken = t.cond_taken, .cond_ntaken = t.cond_ntaken, .uncond = t.uncond};
}

double gen_loop_test_part(const struct shape_counts *loop, int i)
{
    switch (i) {
    case Q_INST: return loop->inst;
    case Q_BR_COND: return loop->cond_taken + loop->cond_ntaken;
    case Q_BR_COND_TAKEN: return loop->cond_taken;
    case Q_BR_COND_NTAKEN: return loop->cond_ntaken;
    case Q_BR_UNCOND: return loop->uncond;
    case Q_BR_ALL: return loop->cond_taken + loop->cond_ntaken + loop->uncond;
    default: return 0;
    }
}

void gen_model_loop_test(const struct shape_counts *loop, struct quantities *q)
{
    static const int parts[] = {Q_INST, Q_BR_COND, Q_BR_COND_TAKEN, Q_BR_COND_NTAKEN, Q_BR_UNCOND, Q_BR_ALL};
    for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
        q->v[parts[i]] += gen_loop_test_part(loop, parts[i]);
}

void gen_model_shape(const struct shape_counts *n, struct quantities *q)
{
    q->v[Q_INST] = n->inst;
    q->v[Q_LD_ALL] = n->loads;
    q->v[Q_ST_ALL] = n->stores;
    q->v[Q_BYTES_READ] = n->bytes_read;
    q->v[Q_BYTES_WRITTEN] = n->bytes_written;
    q->v[Q_BR_COND] = n->cond_taken + n->cond_ntaken;
    q->v[Q_BR_COND_TAKEN] = n->cond_taken;
    q->v[Q_BR_COND_NTAKEN] = n->cond_ntaken;
    q->v[Q_BR_UNCOND] = n->uncond;
    q->v[Q_BR_ALL] = n->cond_taken + n->cond_ntaken + n->uncond;
}

/* callchain on A64: a chain of D nested calls and their returns per iteration, direct (bl) or
 * indirect (ldr; blr), so the return stack overflows past its depth and the outer returns are
 * mispredicted. bl writes the return address to x30, not the stack, so every function that calls
 * on saves x30 first (stp/ldp): a store and a load a level, where x86's call and ret have them. */
#include "arch/aarch64/a64_emit.h"
#include "base/util.h"
#include "generators/gen.h"
#include <stdio.h>
#include <stdlib.h>

struct callchain {
    struct gen g;
    uint64_t depth, ras;
    bool indirect;
    uint64_t *table;   /* indirect: address of function k + 1 at [k] */
};

static const struct param callchain_params[] = {
    {"depth", PARAM_UINT, "8", "nested calls per iteration, 1..4096", NULL},
    {"kind", PARAM_ENUM, "direct", "direct: bl; indirect: ldr x16, [x1, #8k]; blr x16", "direct|indirect"},
    {"ras", PARAM_UINT, "32", "return-stack entries the model assumes: returns beyond them are expected to "
     "mispredict; check the depth on a CPU with a depth sweep (cycles per call jump past it)", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

/* The call of level d + 1 (d = 0: the loop body's). */
static void call_next(struct emit *e, const struct callchain *k, const int *fn, uint64_t d)
{
    if (k->indirect) {
        emit_ldr(e, X16, X1, (unsigned)(8 * d));
        emit_blr(e, X16);
    } else {
        emit_bl(e, fn[d + 1]);
    }
}

static int callchain_setup(struct case_ *c)
{
    struct callchain *k = xcalloc(1, sizeof(*k));
    c->priv = k;
    k->depth = case_uint(c, "depth");
    k->ras = case_uint(c, "ras");
    k->indirect = case_is(c, "kind", "indirect");
    if (k->depth < 1 || k->depth > 4096) {
        pm_error("callchain: depth=%s must be 1..4096", case_str(c, "depth"));
        return KERNEL_ERROR;
    }
    struct emit *e = &k->g.e;
    gen_init(&k->g, k->depth * 20 + 256);
    int body = emit_label(e), test = emit_label(e), entry = emit_label(e);
    int *fn = xmalloc((k->depth + 1) * sizeof(int));
    for (uint64_t d = 1; d <= k->depth; d++)
        fn[d] = emit_label(e);
    /* body: call f1. f_d: save x30; call f_(d+1); restore x30; ret. f_D: ret. */
    emit_bind(e, body);
    call_next(e, k, fn, 0);
    emit_bind(e, test);
    emit_loop_test(e, body);
    emit_pop_lr(e);
    emit_ret(e);
    for (uint64_t d = 1; d <= k->depth; d++) {
        emit_comment(e, "f%llu", (unsigned long long)d);
        emit_bind(e, fn[d]);
        if (d < k->depth) {
            emit_push_lr(e);
            call_next(e, k, fn, d);
            emit_pop_lr(e);
        }
        emit_ret(e);
    }
    emit_comment(e, "entry: the function starts here, saving its own return address, jumping to the test");
    emit_bind(e, entry);
    emit_push_lr(e);
    emit_b(e, test);
    if (gen_map(&k->g, entry, false, "callchain")) {
        free(fn);
        return KERNEL_ERROR;
    }
    if (k->indirect) {
        k->table = xcalloc(k->depth, 8);
        for (uint64_t d = 1; d <= k->depth; d++)
            k->table[d - 1] = (uint64_t)(uintptr_t)(k->g.code.base + emit_label_offset(e, fn[d]));
    }
    free(fn);
    c->warm_iters = 16;
    snprintf(c->detail, sizeof(c->detail), "code=%s depth=%llu ras=%llu (assumed)", fmt_size(k->g.code.size),
             (unsigned long long)k->depth, (unsigned long long)k->ras);
    return KERNEL_OK;
}

static void callchain_run(struct case_ *c, uint64_t iters)
{
    struct callchain *k = c->priv;
    k->g.entry(iters, k->table);
}

static void callchain_model(const struct case_ *c, struct quantities *q)
{
    const struct callchain *k = c->priv;
    gen_model_base(q);
    double d = (double)k->depth, saves = d - 1;
    /* Per iteration: D calls and D returns, a save and a restore of x30 in each of the D - 1
     * functions that call on, the loop test (subs, b.cs); indirect adds D table loads. */
    q->v[Q_INST] = 2 * d + 2 * saves + 2 + (k->indirect ? d : 0);
    q->v[Q_BR_CALL] = d;
    q->v[Q_BR_RET] = d;
    q->v[Q_BR_INDIRECT] = k->indirect ? d : 0;
    q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = 1;
    q->v[Q_BR_ALL] = 2 * d + 1;
    /* ret reads x30, not memory: the loads are the restores (ldp, 16 bytes) and the table's. */
    q->v[Q_LD_ALL] = saves + (k->indirect ? d : 0);
    q->v[Q_ST_ALL] = saves;
    q->v[Q_BYTES_READ] = 16 * saves + (k->indirect ? 8 * d : 0);
    q->v[Q_BYTES_WRITTEN] = 16 * saves;
    /* A return stack of R entries keeps the innermost R return addresses: the outer D - R
     * returns find wrong entries. Expected, not exact: it is the model's R. */
    double miss = k->depth > k->ras ? (double)(k->depth - k->ras) : 0;
    q->v[Q_BR_RET_MISPRED] = miss;
    q->v[Q_BR_COND_MISPRED] = 0;
    q->v[Q_BR_INDIRECT_MISPRED] = 0;   /* every indirect call has one target, the next level */
    q->v[Q_BR_MISPRED] = miss;
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

static const struct emit *callchain_code(const struct case_ *c)
{
    const struct callchain *k = c->priv;
    return &k->g.e;
}

static const char *const callchain_matrix[] = {
    "depth=8",
    "depth=8 kind=indirect",
    "depth=64",
    NULL,
};

static const struct kernel callchain_kernel = {
    .name = "callchain",
    .summary = "D nested calls and returns per iteration, direct or indirect: return-stack overflow",
    .params = callchain_params,
    .setup = callchain_setup,
    .run = callchain_run,
    .model = callchain_model,
    .teardown = callchain_teardown,
    .matrix = callchain_matrix,
    .per = Q_BR_CALL,
    .per_name = "call+return",
    .code = callchain_code,
};
PMUCAL_KERNEL(callchain_kernel)

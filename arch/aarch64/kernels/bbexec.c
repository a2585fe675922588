/* bbexec on A64: the odd/even loop. Each iteration tests the parity of the iteration counter;
 * odd ones copy words, even ones take square roots. Every basic block's execution count is known
 * exactly, for sampling and branch-record studies:
 *
 *   head  (tbnz x0, #0, odd)                1   per iteration
 *   even  (fsqrt x S; b join)               1/2
 *   odd   (ldr; str) x W                    1/2
 *   join  (subs x0, x0, #1; b.cs head)      1
 *
 * The counter runs n-1 .. 0, so n iterations have floor(n/2) odd and ceil(n/2) even ones: the
 * halves are exact for even n (and within 1/(2n) per iteration otherwise). */
#include "arch/aarch64/a64_emit.h"
#include "base/util.h"
#include "generators/gen.h"
#include <stdio.h>
#include <stdlib.h>

struct bbexec {
    struct gen g;
    uint64_t words, sqrts;
    uint64_t *data;
};

static const struct param bbexec_params[] = {
    {"copy", PARAM_UINT, "4", "words copied on the odd side, 1..64 (a load and a store each)", NULL},
    {"sqrts", PARAM_UINT, "1", "fsqrt on the even side, 1..64", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

static int bbexec_setup(struct case_ *c)
{
    struct bbexec *k = xcalloc(1, sizeof(*k));
    c->priv = k;
    k->words = case_uint(c, "copy");
    k->sqrts = case_uint(c, "sqrts");
    if (k->words < 1 || k->words > 64 || k->sqrts < 1 || k->sqrts > 64) {
        pm_error("bbexec: copy=%s and sqrts=%s must each be 1..64", case_str(c, "copy"), case_str(c, "sqrts"));
        return KERNEL_ERROR;
    }
    k->data = xcalloc(2 * k->words, 8);
    for (uint64_t w = 0; w < k->words; w++)
        k->data[w] = w + 1;
    struct emit *e = &k->g.e;
    gen_init(&k->g, 4096);
    int head = emit_label(e), odd = emit_label(e), join = emit_label(e), entry = emit_label(e);
    emit_comment(e, "head: odd iterations copy, even ones take square roots");
    emit_bind(e, head);
    emit_tbnz(e, X0, 0, odd);
    emit_comment(e, "even: %llu x fsqrt", (unsigned long long)k->sqrts);
    for (uint64_t s = 0; s < k->sqrts; s++)
        emit_fsqrt_d(e, 0, 1);
    emit_b(e, join);
    emit_comment(e, "odd: copy %llu words from data[0..] to data[%llu..]", (unsigned long long)k->words,
                 (unsigned long long)k->words);
    emit_bind(e, odd);
    for (uint64_t w = 0; w < k->words; w++) {
        emit_ldr(e, X2, X1, (unsigned)(8 * w));
        emit_str(e, X2, X1, (unsigned)(8 * (k->words + w)));
    }
    emit_comment(e, "join: the loop test");
    emit_bind(e, join);
    emit_loop_test(e, head);
    emit_ret(e);
    emit_comment(e, "entry: d1 = 2.0, then the test");
    emit_bind(e, entry);
    emit_fmov_d_2(e, 1);
    emit_b(e, join);
    if (gen_map(&k->g, entry, false, "bbexec"))
        return KERNEL_ERROR;
    c->warm_iters = 1024;
    c->iters_multiple = 2;   /* the odd and even halves are exact per iteration over pairs */
    snprintf(c->detail, sizeof(c->detail), "blocks per iteration: head 1, even(sqrt) 0.5, odd(copy) 0.5, join 1 "
             "(exact for even iteration counts)");
    return KERNEL_OK;
}

static void bbexec_run(struct case_ *c, uint64_t iters)
{
    struct bbexec *k = c->priv;
    k->g.entry(iters, k->data);
}

static void bbexec_model(const struct case_ *c, struct quantities *q)
{
    const struct bbexec *k = c->priv;
    gen_model_base(q);
    double w = (double)k->words, s = (double)k->sqrts;
    q->v[Q_INST] = 1 + 0.5 * (s + 1) + 0.5 * (2 * w) + 2;
    q->v[Q_BR_COND] = 2;
    q->v[Q_BR_COND_TAKEN] = 1.5;    /* tbnz on odd iterations, b.cs always */
    q->v[Q_BR_COND_NTAKEN] = 0.5;
    q->v[Q_BR_UNCOND] = 0.5;        /* even side's b join */
    q->v[Q_BR_ALL] = 2.5;
    q->v[Q_BR_MISPRED] = 0;         /* strict alternation: predicted by any history predictor */
    q->v[Q_SQRT_OPS] = 0.5 * s;
    q->v[Q_FP_SCALAR_DP] = 0.5 * s;
    q->v[Q_FLOPS_DP] = 0.5 * s;
    q->v[Q_LD_ALL] = q->v[Q_ST_ALL] = 0.5 * w;
    q->v[Q_BYTES_READ] = q->v[Q_BYTES_WRITTEN] = 4 * w;
    q->v[Q_D1_MISS_WARM] = q->v[Q_LL_MISS_WARM] = 0;
}

static void bbexec_teardown(struct case_ *c)
{
    struct bbexec *k = c->priv;
    if (k) {
        gen_free(&k->g);
        free(k->data);
    }
    free(k);
    c->priv = NULL;
}

static const struct emit *bbexec_code(const struct case_ *c)
{
    const struct bbexec *k = c->priv;
    return &k->g.e;
}

static const char *const bbexec_matrix[] = {
    "copy=4 sqrts=1",
    "copy=16 sqrts=4",
    NULL,
};

static const struct kernel bbexec_kernel = {
    .name = "bbexec",
    .summary = "odd/even loop, a copy on one side and sqrt on the other: exact basic-block counts",
    .params = bbexec_params,
    .setup = bbexec_setup,
    .run = bbexec_run,
    .model = bbexec_model,
    .teardown = bbexec_teardown,
    .matrix = bbexec_matrix,
    .per = Q_ITER,
    .per_name = "iteration",
    .code = bbexec_code,
};
PMUCAL_KERNEL(bbexec_kernel)

/* bbexec: the odd/even loop. Each iteration tests the parity of the iteration counter; odd ones
 * copy words, even ones take square roots. Every basic block's execution count is known exactly,
 * for sampling and branch-record studies (the ISA writes the code, arch/isa.h):
 *
 *   head  (x86: bt $0,%rdi; jb odd    A64: tbnz x0, #0, odd)        1   per iteration
 *   even  (sqrtsd / fsqrt x S; a jump to join)                      1/2
 *   odd   (a load and a store) x W                                  1/2
 *   join  (the loop test)                                           1
 *
 * The counter runs n-1 .. 0, so n iterations have floor(n/2) odd and ceil(n/2) even ones: the
 * halves are exact for even n (and within 1/(2n) per iteration otherwise). */
#include "base/util.h"
#include "generators/codegen.h"
#include <stdio.h>
#include <stdlib.h>

struct bbexec {
    struct gen g;
    uint64_t words, sqrts;
    uint64_t *data;
    struct shape_counts n;
};

static const struct param bbexec_params[] = {
    {"copy", PARAM_UINT, "4", "words copied on the odd side, 1..64 (a load and a store each)", NULL, "1..64"},
    {"sqrts", PARAM_UINT, "1", "square roots of 2.0 (sqrtsd, fsqrt) on the even side, 1..64", NULL, "1..64"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

static int bbexec_setup(struct case_ *c)
{
    struct bbexec *k = xcalloc(1, sizeof(*k));
    c->priv = k;
    k->words = case_uint(c, "copy");
    k->sqrts = case_uint(c, "sqrts");
    if (k->words < 1 || k->words > 64 || k->sqrts < 1 || k->sqrts > 64) {
        pm_error("bbexec: copy=%s and sqrts=%s must each be 1..64", case_str(c, "copy"), case_str(c, "sqrts"));
        return CASE_ERROR;
    }
    k->data = xcalloc(2 * k->words, 8);
    for (uint64_t w = 0; w < k->words; w++)
        k->data[w] = w + 1;
    struct assembler *as = &k->g.as;
    gen_init(&k->g, 4096);
    int entry = isa_bbexec_assemble(as, k->words, k->sqrts, &k->n);
    if (gen_map(&k->g, entry, false, "bbexec"))
        return CASE_ERROR;
    c->warm_iters = 1024;
    c->iters_multiple = 2;   /* the odd and even halves are exact per iteration over pairs */
    snprintf(c->detail, sizeof(c->detail), "blocks per iteration: head 1, even(sqrt) 0.5, odd(copy) 0.5, join 1 "
             "(exact for even iteration counts)");
    return CASE_OK;
}

static void bbexec_loop(struct case_ *c, uint64_t iters)
{
    struct bbexec *k = c->priv;
    k->g.entry(iters, k->data);
}

static void bbexec_model(const struct case_ *c, struct quantities *q)
{
    const struct bbexec *k = c->priv;
    gen_model_base(q);
    double s = (double)k->sqrts;
    gen_model_shape(&k->n, q);
    q->v[Q_BR_MISPRED] = 0;         /* strict alternation: predicted by any history predictor */
    q->v[Q_SQRT_OPS] = 0.5 * s;
    q->v[Q_FP_SCALAR_DP] = 0.5 * s;
    q->v[Q_FLOPS_DP] = 0.5 * s;
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

static const struct assembler *bbexec_code(const struct case_ *c)
{
    const struct bbexec *k = c->priv;
    return &k->g.as;
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
    .loop = bbexec_loop,
    .model = bbexec_model,
    .teardown = bbexec_teardown,
    .matrix = bbexec_matrix,
    .per = Q_ITER,
    .per_name = "iteration",
    .code = bbexec_code,
};
PMUCAL_KERNEL(bbexec_kernel)

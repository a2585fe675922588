/* fpassist: a dependent chain of scalar double multiplies (x * 1.0) or adds (x + 0.0) whose value
 * never changes: a normal 1.5, or a denormal 2^-1050 (operand and result denormal). MXCSR is set
 * inside the measured region (in the zero-iteration run too, so it cancels): mxcsr=strict clears
 * DAZ and FTZ (the Linux default), so denormals take the slow path; mxcsr=daz_ftz sets both, so
 * the denormal reads as zero and no assist happens. x86-64's only: DAZ and FTZ are MXCSR's (SSE);
 * AArch64 flushes with FPCR.FZ and has no DAZ of its own, a kernel of its own. */
#include "base/util.h"
#include "core/kernel.h"
#include "microkernels/loopmodel.h"
#include <stdio.h>
#include <stdlib.h>

static const struct param fpassist_params[] = {
    {"op", PARAM_ENUM, "mul", "mul: MULSD x, 1.0; add: ADDSD x, 0.0", "mul|add", NULL},
    {"operand", PARAM_ENUM, "normal", "normal: x = 1.5; denormal: x = 2^-1050", "normal|denormal", NULL},
    {"mxcsr", PARAM_ENUM, "strict", "strict: DAZ and FTZ off (IEEE, the Linux default); daz_ftz: both on",
     "strict|daz_ftz", NULL},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

struct fpassist {
    bool mul, denormal, daz;
    double x, k;
    unsigned mxcsr;
};

static int fpassist_setup(struct case_ *c)
{
    struct fpassist *s = xcalloc(1, sizeof(*s));
    c->priv = s;
    s->mul = case_is(c, "op", "mul");
    s->denormal = case_is(c, "operand", "denormal");
    s->daz = case_is(c, "mxcsr", "daz_ftz");
    s->x = s->denormal ? 0x1p-1050 : 1.5;
    s->k = s->mul ? 1.0 : 0.0;
    unsigned cur;
    __asm__ __volatile__("stmxcsr %0" : "=m"(cur));
    /* DAZ is bit 6, FTZ bit 15; exceptions stay masked as they are. */
    s->mxcsr = s->daz ? (cur | 0x8040u) : (cur & ~0x8040u);
    snprintf(c->detail, sizeof(c->detail), "x=%a, MXCSR=0x%04x in the region", s->x, s->mxcsr);
    return CASE_OK;
}

static void fpassist_loop(struct case_ *c, uint64_t iters)
{
    struct fpassist *s = c->priv;
    uint64_t n = iters;
    unsigned saved;
    __asm__ __volatile__("stmxcsr %0" : "=m"(saved));
    if (s->mul)
        __asm__ __volatile__("ldmxcsr %[m]\n\tmovsd %[x], %%xmm0\n\tmovsd %[k], %%xmm1\n\t"
                             "jmp 2f\n\t.p2align 6\n1:\n\t.rept " ISSUE_OPS_S "\n\tmulsd %%xmm1, %%xmm0\n\t.endr\n"
                             "2:\n\tsub $1, %[n]\n\tjnc 1b\n\tldmxcsr %[saved]"
                             : [n] "+r"(n)
                             : [m] "m"(s->mxcsr), [x] "m"(s->x), [k] "m"(s->k), [saved] "m"(saved)
                             : "cc", "memory", "xmm0", "xmm1");
    else
        __asm__ __volatile__("ldmxcsr %[m]\n\tmovsd %[x], %%xmm0\n\tmovsd %[k], %%xmm1\n\t"
                             "jmp 2f\n\t.p2align 6\n1:\n\t.rept " ISSUE_OPS_S "\n\taddsd %%xmm1, %%xmm0\n\t.endr\n"
                             "2:\n\tsub $1, %[n]\n\tjnc 1b\n\tldmxcsr %[saved]"
                             : [n] "+r"(n)
                             : [m] "m"(s->mxcsr), [x] "m"(s->x), [k] "m"(s->k), [saved] "m"(saved)
                             : "cc", "memory", "xmm0", "xmm1");
}

static void fpassist_model(const struct case_ *c, struct quantities *q)
{
    const struct fpassist *s = c->priv;
    double L = ISSUE_OPS;
    loop_model(q, L, 0, 0, 0, 0);
    q->v[Q_FP_SCALAR_DP] = q->v[Q_FLOPS_DP] = L;
    q->v[Q_FP_ASSIST] = s->denormal && !s->daz ? L : 0;
}

static void fpassist_teardown(struct case_ *c)
{
    free(c->priv);
    c->priv = NULL;
}

static const char *const fpassist_matrix[] = {"operand=denormal", "operand=normal", "operand=denormal mxcsr=daz_ftz", NULL};

static const struct kernel fpassist_kernel = {
    .name = "fpassist",
    .summary = "FP multiply/add chains on denormal vs normal operands, with DAZ/FTZ off or on",
    .params = fpassist_params,
    .setup = fpassist_setup,
    .loop = fpassist_loop,
    .model = fpassist_model,
    .teardown = fpassist_teardown,
    .matrix = fpassist_matrix,
    .per = Q_ITER,
    .per_name = "iteration (" ISSUE_OPS_S " ops)",
};
PMUCAL_KERNEL(fpassist_kernel)

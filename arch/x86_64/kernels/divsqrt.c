/* divsqrt: divide and square-root units. chain=latency makes every operation wait for the one
 * before (cycles per op = latency); chain=throughput gives each operation its own inputs
 * (cycles per op = reciprocal throughput). Operands are fixed so the result never changes and
 * data-dependent timing is pinned down: integer div divides 2^63-1 (width=64) or 2^31-1
 * (width=32) by 1; fdiv divides 1.5 by 1.0; sqrt takes the root of 1.0.
 * x86-64's only: its parameters are x86's (DIV's RDX:RAX dividend, DIVSS/DIVSD, SQRTSS/SQRTSD). */
#include "base/util.h"
#include "core/kernel.h"
#include "microkernels/loopmodel.h"
#include <stdio.h>
#include <stdlib.h>

static const struct param divsqrt_params[] = {
    {"op", PARAM_ENUM, "div", "div: integer DIV; fdiv: DIVSS/DIVSD; sqrt: SQRTSS/SQRTSD", "div|fdiv|sqrt", NULL},
    {"width", PARAM_ENUM, "64", "operand width in bits: 32 (DIV r32, single) or 64 (DIV r64, double)", "32|64", NULL},
    {"chain", PARAM_ENUM, "latency", "latency: each op depends on the last; throughput: independent ops "
     "(integer: fresh RAX and a zeroed RDX each; FP: 8 registers in turn)", "latency|throughput", NULL},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

struct divsqrt {
    int op;          /* 0 div, 1 fdiv, 2 sqrt */
    bool w64, lat;
};

static int divsqrt_setup(struct case_ *c)
{
    struct divsqrt *s = xcalloc(1, sizeof(*s));
    c->priv = s;
    s->op = case_is(c, "op", "div") ? 0 : case_is(c, "op", "fdiv") ? 1 : 2;
    s->w64 = case_is(c, "width", "64");
    s->lat = case_is(c, "chain", "latency");
    snprintf(c->detail, sizeof(c->detail), "%d ops per iteration", ISSUE_OPS);
    return CASE_OK;
}

#define LOOP_HEAD "jmp 2f\n\t.p2align 6\n1:\n\t.rept " ISSUE_OPS_S "\n\t"
#define LOOP_TAIL ".endr\n2:\n\tsub $1, %[n]\n\tjnc 1b"
/* The 8 FP registers used in turn by the throughput loops, loaded with one value each. */
#define FP8_LOAD(M) M " %[x], %%xmm2\n\t" M " %[x], %%xmm3\n\t" M " %[x], %%xmm4\n\t" M " %[x], %%xmm5\n\t" \
                    M " %[x], %%xmm6\n\t" M " %[x], %%xmm7\n\t" M " %[x], %%xmm8\n\t" M " %[x], %%xmm9\n\t"
#define FP8_OP(I, SRC) I " " SRC ", %%xmm2\n\t" I " " SRC ", %%xmm3\n\t" I " " SRC ", %%xmm4\n\t" \
                       I " " SRC ", %%xmm5\n\t" I " " SRC ", %%xmm6\n\t" I " " SRC ", %%xmm7\n\t" \
                       I " " SRC ", %%xmm8\n\t" I " " SRC ", %%xmm9\n\t"
#define FP8_SELF(I) I " %%xmm2, %%xmm2\n\t" I " %%xmm3, %%xmm3\n\t" I " %%xmm4, %%xmm4\n\t" \
                    I " %%xmm5, %%xmm5\n\t" I " %%xmm6, %%xmm6\n\t" I " %%xmm7, %%xmm7\n\t" \
                    I " %%xmm8, %%xmm8\n\t" I " %%xmm9, %%xmm9\n\t"
#define FP_CLOBBER "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9"

/* The FP loops run ISSUE_OPS/8 = 2 rounds of the 8-register group per .rept copy; to keep
 * ISSUE_OPS ops per iteration the throughput bodies are 8 ops repeated ISSUE_OPS/8 times. */
#define LOOP_HEAD8 "jmp 2f\n\t.p2align 6\n1:\n\t.rept " ISSUE_OPS_S "/8\n\t"

static void divsqrt_loop(struct case_ *c, uint64_t iters)
{
    const struct divsqrt *s = c->priv;
    uint64_t n = iters;
    static const double d15 = 1.5, d1 = 1.0;
    static const float f15 = 1.5f, f1 = 1.0f;
    if (s->op == 0) {
        uint64_t a = s->w64 ? 0x7fffffffffffffffull : 0x7fffffffull, d = 0, one = 1;
        if (s->lat && s->w64)
            __asm__ __volatile__(LOOP_HEAD "div %[one]\n\t" LOOP_TAIL
                                 : "+a"(a), "+d"(d), [n] "+r"(n) : [one] "r"(one) : "cc");
        else if (s->lat)
            __asm__ __volatile__(LOOP_HEAD "div %k[one]\n\t" LOOP_TAIL
                                 : "+a"(a), "+d"(d), [n] "+r"(n) : [one] "r"(one) : "cc");
        else if (s->w64)
            __asm__ __volatile__(LOOP_HEAD "mov %[a0], %%rax\n\txor %%edx, %%edx\n\tdiv %[one]\n\t" LOOP_TAIL
                                 : "+a"(a), "+d"(d), [n] "+r"(n) : [one] "r"(one), [a0] "r"(a) : "cc");
        else
            __asm__ __volatile__(LOOP_HEAD "mov %k[a0], %%eax\n\txor %%edx, %%edx\n\tdiv %k[one]\n\t" LOOP_TAIL
                                 : "+a"(a), "+d"(d), [n] "+r"(n) : [one] "r"(one), [a0] "r"(a) : "cc");
        return;
    }
    if (s->op == 1 && s->w64) {
        if (s->lat)
            __asm__ __volatile__("movsd %[x], %%xmm0\n\tmovsd %[y], %%xmm1\n\t" LOOP_HEAD "divsd %%xmm1, %%xmm0\n\t" LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(d15), [y] "m"(d1) : FP_CLOBBER);
        else
            __asm__ __volatile__("movsd %[y], %%xmm1\n\t" FP8_LOAD("movsd") LOOP_HEAD8 FP8_OP("divsd", "%%xmm1") LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(d15), [y] "m"(d1) : FP_CLOBBER);
    } else if (s->op == 1) {
        if (s->lat)
            __asm__ __volatile__("movss %[x], %%xmm0\n\tmovss %[y], %%xmm1\n\t" LOOP_HEAD "divss %%xmm1, %%xmm0\n\t" LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(f15), [y] "m"(f1) : FP_CLOBBER);
        else
            __asm__ __volatile__("movss %[y], %%xmm1\n\t" FP8_LOAD("movss") LOOP_HEAD8 FP8_OP("divss", "%%xmm1") LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(f15), [y] "m"(f1) : FP_CLOBBER);
    } else if (s->w64) {
        if (s->lat)
            __asm__ __volatile__("movsd %[x], %%xmm0\n\t" LOOP_HEAD "sqrtsd %%xmm0, %%xmm0\n\t" LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(d1) : FP_CLOBBER);
        else
            __asm__ __volatile__(FP8_LOAD("movsd") LOOP_HEAD8 FP8_SELF("sqrtsd") LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(d1) : FP_CLOBBER);
    } else {
        if (s->lat)
            __asm__ __volatile__("movss %[x], %%xmm0\n\t" LOOP_HEAD "sqrtss %%xmm0, %%xmm0\n\t" LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(f1) : FP_CLOBBER);
        else
            __asm__ __volatile__(FP8_LOAD("movss") LOOP_HEAD8 FP8_SELF("sqrtss") LOOP_TAIL
                                 : [n] "+r"(n) : [x] "m"(f1) : FP_CLOBBER);
    }
}

static void divsqrt_model(const struct case_ *c, struct quantities *q)
{
    const struct divsqrt *s = c->priv;
    double L = ISSUE_OPS;
    if (s->op == 0) {
        loop_model(q, s->lat ? L : 3 * L, 0, 0, 0, 0);
        q->v[Q_ARITH_DIV] = L;
        return;
    }
    loop_model(q, L, 0, 0, 0, 0);
    q->v[s->op == 1 ? Q_FP_DIV : Q_FP_SQRT] = L;
    q->v[Q_FP_SCALAR_DP] = q->v[Q_FLOPS_DP] = s->w64 ? L : 0;
}

static void divsqrt_teardown(struct case_ *c)
{
    free(c->priv);
    c->priv = NULL;
}

static const char *const divsqrt_matrix[] = {
    "op=div width=64", "op=div width=32 chain=throughput", "op=fdiv width=64", "op=sqrt width=32 chain=throughput", NULL,
};

static const struct kernel divsqrt_kernel = {
    .name = "divsqrt",
    .summary = "integer and FP divide, FP square root: dependent chains (latency) and independent ops (throughput)",
    .params = divsqrt_params,
    .setup = divsqrt_setup,
    .loop = divsqrt_loop,
    .model = divsqrt_model,
    .teardown = divsqrt_teardown,
    .matrix = divsqrt_matrix,
    .per = Q_ITER,
    .per_name = "iteration (" ISSUE_OPS_S " ops)",
};
PMUCAL_KERNEL(divsqrt_kernel)

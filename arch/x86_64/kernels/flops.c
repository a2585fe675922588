/* flops: peak floating-point throughput (and the FMA / add / multiply latency) by vector width and
 * precision. Each iteration is FLOP_OPS instructions of one kind over FLOP_ACC independent
 * accumulators (chain=throughput: enough to cover a 4-cycle latency on 3 pipes, with two operand
 * registers 16 fit in the 16 xmm/ymm/zmm registers every width has), or all on one accumulator
 * (chain=latency: each waits for the one before). Operands are 1.0 (multiplier) and 0.5 (addend),
 * so no value ever becomes denormal or infinite. threads=N runs the loop on N pinned threads at once
 * (core/team.h). x86-64's only: the widths are SSE/AVX2/AVX-512. */
#include "arch/isa.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/team.h"
#include "host/topo.h"
#include "microkernels/loopmodel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLOP_ACC 12   /* independent accumulators of chain=throughput */
#define FLOP_OPS 12   /* instructions per iteration */

typedef void (*flop_loop)(uint64_t n, const void *one, const void *half);

/* One instruction on accumulator K (a string literal): two-operand legacy SSE (acc op= operand),
 * three-operand VEX/EVEX (acc = acc op operand), FMA (acc += 1.0 * 0.5). Register 14 holds 1.0,
 * 15 holds 0.5: adds add 0.5, multiplies multiply by 1.0. */
#define I_ADD2(M, R, K) M " %%" R "15, %%" R K "\n\t"
#define I_MUL2(M, R, K) M " %%" R "14, %%" R K "\n\t"
#define I_ADD3(M, R, K) M " %%" R "15, %%" R K ", %%" R K "\n\t"
#define I_MUL3(M, R, K) M " %%" R "14, %%" R K ", %%" R K "\n\t"
#define I_FMA(M, R, K) M " %%" R "14, %%" R "15, %%" R K "\n\t"
/* Accumulator selectors: each its own (throughput) or all the first (latency). */
#define ACC_T(K) K
#define ACC_L(K) "0"
#define BODY12(I, M, R, S)                                                                        \
    I(M, R, S("0")) I(M, R, S("1")) I(M, R, S("2")) I(M, R, S("3")) I(M, R, S("4")) I(M, R, S("5")) \
    I(M, R, S("6")) I(M, R, S("7")) I(M, R, S("8")) I(M, R, S("9")) I(M, R, S("10")) I(M, R, S("11"))
/* Adds and multiplies in turn: both kinds of pipe busy without FMA. */
#define MIX12(IA, MA, IM, MM, R, S)                                                                       \
    IA(MA, R, S("0")) IM(MM, R, S("1")) IA(MA, R, S("2")) IM(MM, R, S("3")) IA(MA, R, S("4"))           \
    IM(MM, R, S("5")) IA(MA, R, S("6")) IM(MM, R, S("7")) IA(MA, R, S("8")) IM(MM, R, S("9"))           \
    IA(MA, R, S("10")) IM(MM, R, S("11"))
/* Load the operands, every accumulator starts at 1.0. */
#define INIT(MOV, MOVR, R)                                                                           \
    MOV " (%[one]), %%" R "14\n\t" MOV " (%[half]), %%" R "15\n\t"                                 \
    MOVR " %%" R "14, %%" R "0\n\t" MOVR " %%" R "14, %%" R "1\n\t" MOVR " %%" R "14, %%" R "2\n\t"   \
    MOVR " %%" R "14, %%" R "3\n\t" MOVR " %%" R "14, %%" R "4\n\t" MOVR " %%" R "14, %%" R "5\n\t"   \
    MOVR " %%" R "14, %%" R "6\n\t" MOVR " %%" R "14, %%" R "7\n\t" MOVR " %%" R "14, %%" R "8\n\t"   \
    MOVR " %%" R "14, %%" R "9\n\t" MOVR " %%" R "14, %%" R "10\n\t" MOVR " %%" R "14, %%" R "11\n\t"
#define INIT_X INIT("movups", "movaps", "xmm")
#define INIT_Y INIT("vmovups", "vmovaps", "ymm")
#define INIT_Z INIT("vmovups", "vmovaps", "zmm")
/* The exact loop's shape (ISA_EXACT_LOOP): loop(n) - loop(0) is n bodies and n loop tests. */
#define FLOPFN(NAME, INITS, BODY, FINI)                                                               \
    static void NAME(uint64_t n, const void *one, const void *half)                                  \
    {                                                                                                 \
        __asm__ __volatile__(INITS "jmp 2f\n\t.p2align 6\n1:\n\t" BODY "2:\n\tsub $1, %[n]\n\tjnc 1b\n\t" FINI \
                             : [n] "+r"(n)                                                            \
                             : [one] "r"(one), [half] "r"(half)                                       \
                             : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6",  \
                               "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"); \
    }
/* The 8 loops of one width and precision: op (fma add mul addmul) x chain (throughput latency). */
#define FLOP_SET(TAG, R, INITS, FINI, IA, IM, MA, MM, MF)                                   \
    FLOPFN(TAG##_fma_t, INITS, BODY12(I_FMA, MF, R, ACC_T), FINI)                          \
    FLOPFN(TAG##_fma_l, INITS, BODY12(I_FMA, MF, R, ACC_L), FINI)                          \
    FLOPFN(TAG##_add_t, INITS, BODY12(IA, MA, R, ACC_T), FINI)                             \
    FLOPFN(TAG##_add_l, INITS, BODY12(IA, MA, R, ACC_L), FINI)                             \
    FLOPFN(TAG##_mul_t, INITS, BODY12(IM, MM, R, ACC_T), FINI)                             \
    FLOPFN(TAG##_mul_l, INITS, BODY12(IM, MM, R, ACC_L), FINI)                             \
    FLOPFN(TAG##_addmul_t, INITS, MIX12(IA, MA, IM, MM, R, ACC_T), FINI)                   \
    FLOPFN(TAG##_addmul_l, INITS, MIX12(IA, MA, IM, MM, R, ACC_L), FINI)                   \
    static const flop_loop TAG##_loops[4][2] = {{TAG##_fma_t, TAG##_fma_l}, {TAG##_add_t, TAG##_add_l}, \
                                                {TAG##_mul_t, TAG##_mul_l}, {TAG##_addmul_t, TAG##_addmul_l}};

#define VZ "vzeroupper\n\t"
FLOP_SET(sd, "xmm", INIT_X, "", I_ADD2, I_MUL2, "addsd", "mulsd", "vfmadd231sd")
FLOP_SET(ss, "xmm", INIT_X, "", I_ADD2, I_MUL2, "addss", "mulss", "vfmadd231ss")
FLOP_SET(pd2, "xmm", INIT_X, "", I_ADD2, I_MUL2, "addpd", "mulpd", "vfmadd231pd")
FLOP_SET(ps4, "xmm", INIT_X, "", I_ADD2, I_MUL2, "addps", "mulps", "vfmadd231ps")
FLOP_SET(pd4, "ymm", INIT_Y, VZ, I_ADD3, I_MUL3, "vaddpd", "vmulpd", "vfmadd231pd")
FLOP_SET(ps8, "ymm", INIT_Y, VZ, I_ADD3, I_MUL3, "vaddps", "vmulps", "vfmadd231ps")
FLOP_SET(pd8, "zmm", INIT_Z, VZ, I_ADD3, I_MUL3, "vaddpd", "vmulpd", "vfmadd231pd")
FLOP_SET(ps16, "zmm", INIT_Z, VZ, I_ADD3, I_MUL3, "vaddps", "vmulps", "vfmadd231ps")

/* width x precision: the loops, bits, what it needs beyond x86-64's SSE2, and its quantities. */
static const struct flop_width {
    const char *name;
    unsigned bits;
    const flop_loop (*loops[2])[2];   /* [dp, sp] */
    unsigned ext;                     /* for every op */
    enum quantity_id fp[2], fma[2];   /* [dp, sp] */
} flop_widths[] = {
    {"scalar", 0, {sd_loops, ss_loops}, 0, {Q_FP_SCALAR_DP, Q_FP_SCALAR_SP}, {Q_FMA_SCALAR_DP, Q_FMA_SCALAR_SP}},
    {"sse", 128, {pd2_loops, ps4_loops}, 0, {Q_FP_128_DP, Q_FP_128_SP}, {Q_FMA_128_DP, Q_FMA_128_SP}},
    {"avx2", 256, {pd4_loops, ps8_loops}, ISA_AVX2, {Q_FP_256_DP, Q_FP_256_SP}, {Q_FMA_256_DP, Q_FMA_256_SP}},
    {"avx512", 512, {pd8_loops, ps16_loops}, ISA_AVX512, {Q_FP_512_DP, Q_FP_512_SP}, {Q_FMA_512_DP, Q_FMA_512_SP}},
};
static const char *const flop_ops[] = {"fma", "add", "mul", "addmul"};

static const struct param flops_params[] = {
    {"width", PARAM_ENUM, "avx2", "scalar; sse: 128-bit; avx2: 256-bit; avx512: 512-bit (CPUID must advertise it)",
     "scalar|sse|avx2|avx512", NULL},
    {"prec", PARAM_ENUM, "dp", "dp: double; sp: single precision", "dp|sp", NULL},
    {"op", PARAM_ENUM, "fma", "fma: fused multiply-add (needs FMA); add; mul; addmul: adds and multiplies in turn",
     "fma|add|mul|addmul", NULL},
    {"chain", PARAM_ENUM, "throughput", "throughput: " "12" " independent accumulators; latency: one dependent chain",
     "throughput|latency", NULL},
    {"threads", PARAM_UINT, "1", "threads running the loop at once, one per allowed CPU (the measuring one first)", NULL, "1..cpus"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

struct flops {
    const struct flop_width *w;
    bool sp, fma, lat;
    unsigned op, threads;
    flop_loop loop;
    struct team *team;
    _Alignas(64) double one_dp[8], half_dp[8];
    _Alignas(64) float one_sp[16], half_sp[16];
};

static void flops_member(void *ctx, unsigned member, uint64_t iters)
{
    (void)member;
    const struct flops *f = ctx;
    if (f->sp)
        f->loop(iters, f->one_sp, f->half_sp);
    else
        f->loop(iters, f->one_dp, f->half_dp);
}

static int flops_setup(struct case_ *c)
{
    struct flops *f = xcalloc(1, sizeof(*f));
    c->priv = f;
    for (size_t i = 0; i < sizeof(flop_widths) / sizeof(flop_widths[0]); i++)
        if (case_is(c, "width", flop_widths[i].name))
            f->w = &flop_widths[i];
    for (unsigned i = 0; i < 4; i++)
        if (case_is(c, "op", flop_ops[i]))
            f->op = i;
    f->sp = case_is(c, "prec", "sp");
    f->fma = f->op == 0;
    f->lat = case_is(c, "chain", "latency");
    f->loop = f->w->loops[f->sp][f->op][f->lat];
    for (int i = 0; i < 8; i++)
        f->one_dp[i] = 1.0, f->half_dp[i] = 0.5;
    for (int i = 0; i < 16; i++)
        f->one_sp[i] = 1.0f, f->half_sp[i] = 0.5f;
    unsigned need = f->w->ext | (f->fma ? ISA_FMA : 0);
    if (need && !case_isa_usable(c, need))
        return CASE_SKIP;
    f->threads = (unsigned)case_uint(c, "threads");
    /* One thread runs the loop itself: the team's calls would count in every run. */
    int rc = f->threads == 1 ? CASE_OK : team_for_case(c, f->threads, flops_member, f, &f->team);
    if (rc != CASE_OK)
        return rc;
    snprintf(c->detail, sizeof(c->detail), "%d %s ops per iteration per thread, %u thread%s", FLOP_OPS,
             flop_ops[f->op], f->threads, f->threads == 1 ? "" : "s");
    return CASE_OK;
}

static void flops_loop(struct case_ *c, uint64_t iters)
{
    struct flops *f = c->priv;
    if (f->team)
        team_run(f->team, iters);
    else if (f->sp)
        f->loop(iters, f->one_sp, f->half_sp);
    else
        f->loop(iters, f->one_dp, f->half_dp);
}

static void flops_model(const struct case_ *c, struct quantities *q)
{
    const struct flops *f = c->priv;
    double N = f->threads, ops = FLOP_OPS * N;
    double lanes = f->w->bits ? f->w->bits / (f->sp ? 32 : 64) : 1;
    loop_model(q, FLOP_OPS, 0, 0, 0, 0);
    q->v[Q_INST] *= N;
    q->v[Q_BR_ALL] = q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = N;
    for (size_t i = 0; i < sizeof(flop_widths) / sizeof(flop_widths[0]); i++)
        for (int p = 0; p < 2; p++)
            q->v[flop_widths[i].fp[p]] = q->v[flop_widths[i].fma[p]] = 0;
    q->v[f->w->fp[f->sp]] = ops;
    q->v[f->w->fma[f->sp]] = f->fma ? ops : 0;
    q->v[f->sp ? Q_FLOPS_SP : Q_FLOPS_DP] = ops * lanes * (f->fma ? 2 : 1);
    q->v[f->sp ? Q_FLOPS_DP : Q_FLOPS_SP] = 0;
    q->v[Q_THREADS] = N;
}

static void flops_teardown(struct case_ *c)
{
    struct flops *f = c->priv;
    if (f)
        team_free(f->team);
    free(f);
    c->priv = NULL;
}

static const char *const flops_matrix[] = {
    "width=scalar op=add", "width=sse prec=sp op=mul", "width=avx2", "width=avx2 prec=sp op=addmul",
    "width=avx2 chain=latency", "width=avx512", NULL,   /* no team case: see triad's matrix */
};

static const struct kernel flops_kernel = {
    .name = "flops",
    .summary = "peak FP throughput (and latency) by width and precision: FMA, add, mul; exact FP-operation counts",
    .params = flops_params,
    .setup = flops_setup,
    .loop = flops_loop,
    .model = flops_model,
    .teardown = flops_teardown,
    .matrix = flops_matrix,
    .per = Q_ITER,
    .per_name = "iteration (" "12" " ops a thread)",
};
PMUCAL_KERNEL(flops_kernel)

/* What every exact-loop kernel shares in its model: the loop (ISA_EXACT_LOOP, arch/isa.h) makes
 * loop(n) - loop(0) n bodies plus n tests: body instructions + the test's per iteration, one
 * conditional branch, taken; no faults, no switches. */
#ifndef PMUCAL_LOOPMODEL_H
#define PMUCAL_LOOPMODEL_H
#include "arch/isa.h"
#include "core/quantity.h"

static inline void loop_model(struct quantities *q, double body_inst, double loads, double stores,
                              double bytes_read, double bytes_written)
{
    q->v[Q_INST] = body_inst + ISA_LOOP_TEST_INST;
    q->v[Q_LD_ALL] = loads;
    q->v[Q_ST_ALL] = stores;
    q->v[Q_BYTES_READ] = bytes_read;
    q->v[Q_BYTES_WRITTEN] = bytes_written;
    q->v[Q_BR_ALL] = q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = 1;
    q->v[Q_BR_COND_NTAKEN] = q->v[Q_BR_UNCOND] = q->v[Q_BR_INDIRECT] = 0;
    q->v[Q_BR_CALL] = q->v[Q_BR_RET] = q->v[Q_BR_MISPRED] = 0;
    q->v[Q_PF_MINOR] = q->v[Q_CTX_SWITCH] = q->v[Q_CPU_MIGRATION] = 0;
    /* The issue kernels' data is a few lines, warm in L1 and in the first-level TLB. */
    q->v[Q_D1_MISS_WARM] = q->v[Q_LL_MISS_WARM] = 0;
    q->v[Q_LD_L1] = loads;
    q->v[Q_LD_L2] = q->v[Q_LD_L3] = q->v[Q_LD_DRAM] = 0;
    q->v[Q_LINES_L2] = q->v[Q_LINES_L3] = q->v[Q_LINES_DRAM] = q->v[Q_LINES_RFO] = q->v[Q_LINES_NT] = 0;
    q->v[Q_DTLB_MISS] = q->v[Q_STLB_MISS] = 0;
    q->v[Q_ST_FWD] = q->v[Q_ST_FWD_BLOCK] = q->v[Q_LD_SPLIT] = q->v[Q_LD_ALIAS4K] = 0;
    q->v[Q_ARITH_DIV] = q->v[Q_FP_DIV] = q->v[Q_FP_SQRT] = q->v[Q_FP_ASSIST] = 0;
    q->v[Q_FP_SCALAR_DP] = q->v[Q_FP_128_DP] = q->v[Q_FP_256_DP] = q->v[Q_FP_512_DP] = q->v[Q_FLOPS_DP] = 0;
}

/* OPS copies of an instruction group per iteration in every issue kernel. */
#define ISSUE_OPS 16
#define ISSUE_OPS_S "16"

#endif

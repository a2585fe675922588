/* stlf: store-to-load forwarding. A chain through one memory word: each store's data is the
 * previous load's result and each load reads the word just stored, so every step waits for
 * the store's data to reach the load. variant=forward stores 8 bytes and loads the same 8
 * (forwardable, and an exact pair that memory renaming short-cuts on Zen 4 and 5: the load
 * becomes a register copy, well under a cycle); variant=partial stores 8 bytes and loads bytes
 * 4-7 of them (forwarded from inside the store, which renaming does not cover: the forwarding
 * latency the optimization guides publish); variant=block stores 4 bytes and loads 8
 * overlapping them (the load is larger than the store, so it cannot take the data from the
 * store buffer and waits for the store to commit); variant=none drops the store: the same
 * loads as a plain L1 chain. */
#include "arch/isa.h"
#include "base/util.h"
#include "core/kernel.h"
#include "microkernels/loopmodel.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct param stlf_params[] = {
    {"variant", PARAM_ENUM, "forward", "block: 4-byte store then an overlapping 8-byte load (forwarding fails); "
     "forward: 8-byte store then the same 8-byte load (renamed where the CPU renames memory); partial: 8-byte "
     "store then a 4-byte load of its bytes 4-7 (forwarded, not renamed); none: the loads alone (no store)",
     "block|forward|partial|none", NULL},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

struct stlf {
    void **word;     /* holds its own address: each load gives the next address */
    int variant;     /* 0 block, 1 forward, 2 none, 3 partial */
};

static int stlf_setup(struct case_ *c)
{
    struct stlf *s = xcalloc(1, sizeof(*s));
    c->priv = s;
    s->word = aligned_alloc(4096, 4096);
    if (!s->word) {
        pm_error("stlf: cannot allocate 4 KiB");
        return CASE_ERROR;
    }
    memset(s->word, 0, 4096);
    s->word[0] = s->word;   /* the 4-byte store writes the low half of this same value */
    s->variant = case_is(c, "variant", "block") ? 0 : case_is(c, "variant", "forward") ? 1
               : case_is(c, "variant", "partial") ? 3 : 2;
    snprintf(c->detail, sizeof(c->detail), "%d store/load pairs per iteration", ISSUE_OPS);
    return CASE_OK;
}

#define STLF_LOOP(BODY, ...) ISA_EXACT_LOOP(ISSUE_OPS_S, BODY, __VA_ARGS__)

static void stlf_loop(struct case_ *c, uint64_t iters)
{
    struct stlf *s = c->priv;
    void *p = s->word;
    uint64_t n = iters;
    switch (s->variant) {
    case 0: STLF_LOOP(ISA_STLF_BLOCKED); break;
    case 1: STLF_LOOP(ISA_STLF_FORWARD); break;
    /* The chain is the data alone here (the load's 4 bytes are no address): the word stays put.
     * p starts as another value than the word's address, or the compiler may give both one register. */
    case 3:
        p = NULL;
        STLF_LOOP(ISA_STLF_PARTIAL, [w] "r"(s->word));
        break;
    default: STLF_LOOP(ISA_CHASE_STEP); break;
    }
}

static void stlf_model(const struct case_ *c, struct quantities *q)
{
    const struct stlf *s = c->priv;
    double L = ISSUE_OPS;
    if (s->variant == 2) {
        loop_model(q, ISA_CHASE_STEP_INST * L, L, 0, 8 * L, 0);
        return;
    }
    loop_model(q, ISA_STLF_INST * L, L, L, s->variant == 3 ? 4 * L : 8 * L, s->variant == 0 ? 4 * L : 8 * L);
    q->v[Q_LD_L1] = NAN;   /* forwarded or waiting for the store: PMUs differ on calling that an L1 hit */
    q->v[Q_ST_FWD] = s->variant == 1 || s->variant == 3 ? L : 0;
    q->v[Q_ST_FWD_BLOCK] = s->variant == 0 ? L : 0;
}

static void stlf_teardown(struct case_ *c)
{
    struct stlf *s = c->priv;
    if (s)
        free(s->word);
    free(s);
    c->priv = NULL;
}

static const char *const stlf_matrix[] = {"variant=block", "variant=forward", "variant=partial", "variant=none",
                                          NULL};

static const struct kernel stlf_kernel = {
    .name = "stlf",
    .summary = "store-to-load forwarding: blocked (load wider than the store) vs forwarded vs no store",
    .params = stlf_params,
    .setup = stlf_setup,
    .loop = stlf_loop,
    .model = stlf_model,
    .teardown = stlf_teardown,
    .matrix = stlf_matrix,
    .per = Q_LD_ALL,
    .per_name = "load",
};
PMUCAL_KERNEL(stlf_kernel)

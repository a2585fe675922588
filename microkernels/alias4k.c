/* alias4k: a chain of loads from a word that holds its own address, each load preceded by a
 * store of an unrelated value to another address. store=alias puts the store exactly 4096 bytes
 * below the load (same low 12 bits: a core that compares only those bits first sees a possible
 * dependence and delays the load); store=apart puts it 4096 - 256 bytes below (different low
 * bits), the control with the same instructions. */
#include "arch/isa.h"
#include "base/util.h"
#include "core/kernel.h"
#include "microkernels/loopmodel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct param alias4k_params[] = {
    {"store", PARAM_ENUM, "apart", "alias: the store is 4096 bytes below the load (4K alias); apart: 3840 bytes below",
     "alias|apart", NULL},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

struct alias4k {
    char *buf;
    void **word;
    bool alias;
};

static int alias4k_setup(struct case_ *c)
{
    struct alias4k *s = xcalloc(1, sizeof(*s));
    c->priv = s;
    s->buf = aligned_alloc(4096, 3 * 4096);
    if (!s->buf) {
        pm_error("alias4k: cannot allocate 12 KiB");
        return CASE_ERROR;
    }
    memset(s->buf, 0, 3 * 4096);
    s->word = (void **)(s->buf + 4096 + 512);
    *s->word = s->word;
    s->alias = case_is(c, "store", "alias");
    snprintf(c->detail, sizeof(c->detail), "store %d bytes below each load", s->alias ? 4096 : 3840);
    return CASE_OK;
}

#define ALIAS_LOOP(DISP) ISA_EXACT_LOOP(ISSUE_OPS_S, ISA_STORE_THEN_CHASE(DISP), [v] "r"(v))

static void alias4k_loop(struct case_ *c, uint64_t iters)
{
    struct alias4k *s = c->priv;
    void *p = s->word;
    uint64_t n = iters, v = 7;
    if (s->alias)
        ALIAS_LOOP("-4096");
    else
        ALIAS_LOOP("-3840");
}

static void alias4k_model(const struct case_ *c, struct quantities *q)
{
    const struct alias4k *s = c->priv;
    double L = ISSUE_OPS;
    loop_model(q, ISA_STORE_THEN_CHASE_INST * L, L, L, 8 * L, 8 * L);
    q->v[Q_LD_ALIAS4K] = s->alias ? L : 0;
}

static void alias4k_teardown(struct case_ *c)
{
    struct alias4k *s = c->priv;
    if (s)
        free(s->buf);
    free(s);
    c->priv = NULL;
}

static const char *const alias4k_matrix[] = {"store=alias", "store=apart", NULL};

static const struct kernel alias4k_kernel = {
    .name = "alias4k",
    .summary = "load after a store 4096 bytes away (4K aliasing) vs a store elsewhere",
    .params = alias4k_params,
    .setup = alias4k_setup,
    .loop = alias4k_loop,
    .model = alias4k_model,
    .teardown = alias4k_teardown,
    .matrix = alias4k_matrix,
    .per = Q_LD_ALL,
    .per_name = "load",
};
PMUCAL_KERNEL(alias4k_kernel)

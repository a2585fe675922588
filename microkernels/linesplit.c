/* linesplit: a chain of 8-byte loads from one word that holds its own address, placed at a byte
 * offset in a 4 KiB-aligned page. offset 0 is aligned; an offset whose 8 bytes cross a 64-byte
 * line (57..63 within a line) makes every load a line split; an offset crossing the 4 KiB page
 * end (4089..4095) makes it a page split too. The chain exposes the extra latency of the split. */
#include "arch/isa.h"
#include "base/util.h"
#include "core/kernel.h"
#include "microkernels/loopmodel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct param linesplit_params[] = {
    {"offset", PARAM_UINT, "0", "byte offset of the 8-byte word in a 4 KiB page, 0..4095: 0 aligned, 60 crosses a "
     "cache line, 4092 crosses the page too", NULL, "0..4095"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

struct linesplit {
    char *buf;       /* two pages, so a page-crossing word has its second page */
    void *word;
    bool split, page_split;
};

static int linesplit_setup(struct case_ *c)
{
    struct linesplit *s = xcalloc(1, sizeof(*s));
    c->priv = s;
    uint64_t off = case_uint(c, "offset");
    if (off > 4095) {
        pm_error("linesplit: offset=%s must be 0..4095 (a byte offset in a 4 KiB page)", case_str(c, "offset"));
        return CASE_ERROR;
    }
    s->buf = aligned_alloc(4096, 8192);
    if (!s->buf) {
        pm_error("linesplit: cannot allocate 8 KiB");
        return CASE_ERROR;
    }
    memset(s->buf, 0, 8192);
    s->word = s->buf + off;
    memcpy(s->word, &s->word, sizeof(void *));   /* unaligned store of its own address */
    s->split = off % 64 > 56;
    s->page_split = off > 4088;
    snprintf(c->detail, sizeof(c->detail), "offset %llu: %s", (unsigned long long)off,
             s->page_split ? "page and line split" : s->split ? "line split" : "within one line");
    return CASE_OK;
}

static void linesplit_loop(struct case_ *c, uint64_t iters)
{
    struct linesplit *s = c->priv;
    void *p = s->word;
    uint64_t n = iters;
    ISA_CHASE_LOOP(ISSUE_OPS_S);
}

static void linesplit_model(const struct case_ *c, struct quantities *q)
{
    const struct linesplit *s = c->priv;
    double L = ISSUE_OPS;
    loop_model(q, ISA_CHASE_STEP_INST * L, L, 0, 8 * L, 0);
    q->v[Q_LD_SPLIT] = s->split ? L : 0;
}

static void linesplit_teardown(struct case_ *c)
{
    struct linesplit *s = c->priv;
    if (s)
        free(s->buf);
    free(s);
    c->priv = NULL;
}

static const char *const linesplit_matrix[] = {"offset=0", "offset=60", "offset=4092", NULL};

static const struct kernel linesplit_kernel = {
    .name = "linesplit",
    .summary = "dependent 8-byte loads crossing a cache line (or a page) vs aligned",
    .params = linesplit_params,
    .setup = linesplit_setup,
    .loop = linesplit_loop,
    .model = linesplit_model,
    .teardown = linesplit_teardown,
    .matrix = linesplit_matrix,
    .per = Q_LD_ALL,
    .per_name = "load",
};
PMUCAL_KERNEL(linesplit_kernel)

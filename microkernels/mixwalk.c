/* mixwalk: one chain of dependent loads whose steps come from three levels in proportions fixed
 * by construction, for the calibrator's closure check. Two regions: an "L3" region of lines each
 * visited once per lap, and a small "L2" region whose lines are each visited 8 times per lap,
 * once per 8-byte slot, so one line has 8 different successors. After each L3 line's load,
 * 'hops' more loads follow within that same line (L1 hits: the line has just arrived). The L3
 * region is by default (0) twice the L2 (2 MiB for a 1 MiB L2, 4 MiB for a 2 MiB one, at least 2 MiB):
 * the L2 region's reuse distance (its lines plus 1/8 of the L3 region, 320 KiB for a 1 MiB L2) is
 * inside L2 and outside L1, and the L3 region's is outside L2, so under LRU each step's source is
 * known. In 2 MiB pages the L3 lines are visited in random order, as l3_hit's walker order=random
 * visits them: in blocks of 64 KiB, blocks in order, the Emerald Rapids guest's prefetchers took
 * the L3 loads from 108 cycles to about 58, and the closure predicted from l3_hit missed by -45%.
 * In 4 KiB pages they stay random within 64 KiB blocks, blocks in order, as walker's order=block
 * does, keeping first-level TLB misses out of the L2 region's loads.
 * Under the sim source the misses of D1 and LL are the simulated lap's (lru.h), exact for any sizes
 * but one kind: sizes that fill some sets of a simulated cache exactly (a 2 MiB L3 region in a
 * 2 MiB 16-way L2) leave their hits at the edge, and the harness's own lines between measured loops turn them
 * into misses by the set-full; such a case is refused under sim, saying so. */
#include "arch/isa.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/lru.h"
#include "core/mem.h"
#include "host/geometry.h"
#include "microkernels/loopmodel.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const struct param mixwalk_params[] = {
    {"l3_size", PARAM_SIZE, "0", "bytes of lines visited once per lap (outside L2, inside L3); 0: twice the L2, at least 2M",
     NULL, "0..1G step 64k"},
    {"l2_size", PARAM_SIZE, "64k", "bytes of lines visited 8 times per lap (inside L2, outside L1)", NULL, "128..64M step 64"},
    {"hops", PARAM_UINT, "1", "loads within each L3 line after its first (L1 hits), 0..7", NULL, "0..7"},
    {"page", PARAM_ENUM, "auto", "page size, as walker's page parameter", "4k|2m|auto", NULL},
    {"seed", PARAM_UINT, "1", "seed of the random orders", NULL, "0..4294967295"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

/* Edge hits (lru.h) beyond one load in this many a lap refuse a case under sim: the first default
 * cases have under one in a thousand at D1 and none at LL, a region filling LL's sets a fifth. */
#define MIXWALK_EDGE_SHARE 256

struct mixwalk {
    struct buffer buf;
    void **cursor;
    uint64_t n2, n3, hops, nodes;
    uint64_t l3_block;                       /* L3 lines shuffled together: the region, or 64 KiB */
    uint64_t d1_lap_misses, ll_lap_misses;   /* the sim machine's D1 and LL, per lap in steady state (lru.h) */
};

static void shuffle(uint64_t *a, uint64_t n, struct rng *r)
{
    for (uint64_t i = n - 1; n > 1 && i > 0; i--) {
        uint64_t j = rng_below(r, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static int mixwalk_setup(struct case_ *c)
{
    struct mixwalk *w = xcalloc(1, sizeof(*w));
    c->priv = w;
    uint64_t s3 = case_size(c, "l3_size"), s2 = case_size(c, "l2_size");
    const struct topo *t = topo_get();
    int last = topo_last_level(t);
    /* Its misses come from simulating a lap through the L1D: a host that states none (QEMU's
     * RISC-V virt machine) has nothing to simulate. */
    if (!t->data[1].size) {
        snprintf(c->skip, sizeof(c->skip), "this machine has no L1 cache, whose misses mixwalk's model simulates");
        return CASE_SKIP;
    }
    if (!s3) {   /* outside the L2, whatever its size ... */
        s3 = 2 * t->data[2].size > (2u << 20) ? (2 * t->data[2].size + 65535) / 65536 * 65536 : 2u << 20;
        /* ... and inside the part of the L3 this machine can use, where the curve shows less of it
         * (level_size's middle of the usable L2 and L3). */
        uint64_t usable = level_usable_size(t, 3);
        if (usable < t->data[3].size && s3 + s2 > usable) {
            s3 = level_size("L3") / 65536 * 65536;
            if (s3 <= t->data[2].size) {
                snprintf(c->skip, sizeof(c->skip), "l3_size=0: this machine can keep only %s in its L3 (the latency "
                         "curve; hwloc says %s), too little for an L3 region outside its %s L2",
                         fmt_size(usable), fmt_size(t->data[3].size), fmt_size(t->data[2].size));
                return CASE_SKIP;
            }
        }
    }
    w->hops = case_uint(c, "hops");
    if (w->hops > 7) {
        pm_error("mixwalk: hops=%s must be 0..7 (8-byte slots left in a 64-byte line)", case_str(c, "hops"));
        return CASE_ERROR;
    }
    w->n3 = s3 / 64;
    w->n2 = s2 / 64;
    if (w->n3 < 1024 || w->n2 < 2 || w->n3 % 1024) {
        pm_error("mixwalk: l3_size=%s must be a multiple of 64 KiB (or 0: twice the L2) and l2_size=%s at least 128 "
                 "bytes", case_str(c, "l3_size"), case_str(c, "l2_size"));
        return CASE_ERROR;
    }
    if (buffer_alloc(&w->buf, s3 + s2, case_str(c, "page"), "mixwalk"))
        return CASE_ERROR;
    struct rng r;
    rng_seed(&r, case_uint(c, "seed"));
    /* L3 lines: random over the region in 2 MiB pages, else within blocks of 1024 lines (64 KiB),
     * blocks in order. */
    uint64_t *l3 = xmalloc(w->n3 * sizeof(*l3)), *l2 = xmalloc(w->n2 * sizeof(*l2));
    for (uint64_t i = 0; i < w->n3; i++)
        l3[i] = i;
    w->l3_block = w->buf.kind == PAGE_4K ? 1024 : w->n3;
    for (uint64_t b = 0; b < w->n3; b += w->l3_block)
        shuffle(l3 + b, w->l3_block, &r);
    w->nodes = w->n3 * (1 + w->hops) + 8 * w->n2;
    char **node = xmalloc(w->nodes * sizeof(*node));
    char *base3 = w->buf.base, *base2 = w->buf.base + s3;
    uint64_t k = 0, i3 = 0, v2 = 0, visits = w->n3 + 8 * w->n2;
    for (uint64_t v = 0; v < visits; v++) {
        /* Spread the 8*n2 L2 visits evenly among the n3 L3 visits. */
        bool is_l2 = (v + 1) * 8 * w->n2 / visits > v * 8 * w->n2 / visits;
        if (is_l2) {
            uint64_t lap = v2 / w->n2, at = v2 % w->n2;
            if (at == 0) {
                for (uint64_t i = 0; i < w->n2; i++)
                    l2[i] = i;
                shuffle(l2, w->n2, &r);
            }
            node[k++] = base2 + l2[at] * 64 + lap * 8;
            v2++;
        } else {
            char *line = base3 + l3[i3++] * 64;
            for (uint64_t h = 0; h <= w->hops; h++)
                node[k++] = line + h * 8;
        }
    }
    if (k != w->nodes || i3 != w->n3 || v2 != 8 * w->n2)
        pm_fatal("mixwalk: built %llu nodes, want %llu", (unsigned long long)k, (unsigned long long)w->nodes);
    for (uint64_t i = 0; i < w->nodes; i++)
        *(char **)node[i] = node[(i + 1) % w->nodes];
    /* The L2 region's reuse distances vary with its shuffles, and the last level sees only D1's
     * misses: a cache simulator's misses come from simulating the lap as callgrind does (lru.h),
     * not from the sizes' intent (a 2M L3 region in a 2M 16-way L2 misses it on half its lines,
     * not all). Those misses are not spread evenly over a lap (a set that overflows holds a block
     * of the region), so a run part-way round counts more or fewer than its share: runs take
     * whole laps, after a warm-up of two (D1's steady state, then LL's). */
    struct lru_lap lap;
    lru_lap_misses((void *const *)node, w->nodes, &t->data[1], last ? &t->data[last] : NULL, 0, &lap);   /* whole laps */
    w->d1_lap_misses = lap.misses[0];
    w->ll_lap_misses = lap.misses[1];
    for (int l = 0; t->simulated && l < 2 && !c->skip[0]; l++)
        if (lap.edge_hits[l] > w->nodes / MIXWALK_EDGE_SHARE) {
            const struct cache_level *lv = l ? &t->data[last] : &t->data[1];
            snprintf(c->skip, sizeof(c->skip), "l3_size=%s l2_size=%s fill sets of the simulated %s (%s %d-way): %llu "
                     "of %llu loads a lap hit with under %d ways to spare, so the harness's lines between loops decide "
                     "its misses; give sizes that do not fill them", fmt_size(s3), fmt_size(s2), l ? "LL" : "D1",
                     fmt_size(lv->size), lv->ways,
                     (unsigned long long)lap.edge_hits[l], (unsigned long long)w->nodes, LRU_EDGE_WAYS);
        }
    w->cursor = (void **)node[0];
    free(node);
    free(l2);
    free(l3);
    if (c->skip[0])
        return CASE_SKIP;
    uint64_t lap_iters = lru_lap_iters(w->nodes, ISSUE_OPS);
    c->iters_multiple = lap_iters;
    c->warm_iters = 2 * lap_iters;
    snprintf(c->detail, sizeof(c->detail), "page=%s loads per lap: %llu L3, %llu L2, %llu L1; L3 lines in random "
             "order %s", page_kind_name(w->buf.kind), (unsigned long long)w->n3, (unsigned long long)(8 * w->n2),
             (unsigned long long)(w->n3 * w->hops), w->l3_block == w->n3 ? "over the region" : "within 64K blocks");
    return CASE_OK;
}

static void mixwalk_loop(struct case_ *c, uint64_t iters)
{
    struct mixwalk *w = c->priv;
    void **p = w->cursor;
    uint64_t n = iters;
    ISA_CHASE_LOOP(ISSUE_OPS_S);
    w->cursor = p;
}

static void mixwalk_model(const struct case_ *c, struct quantities *q)
{
    const struct mixwalk *w = c->priv;
    double L = ISSUE_OPS, per = L / (double)w->nodes;
    loop_model(q, ISA_CHASE_STEP_INST * L, L, 0, 8 * L, 0);
    q->v[Q_LD_L1] = per * (double)(w->n3 * w->hops);
    q->v[Q_LD_L2] = per * (double)(8 * w->n2);
    q->v[Q_LD_L3] = per * (double)w->n3;
    q->v[Q_LINES_L2] = q->v[Q_LD_L2];
    q->v[Q_LINES_L3] = q->v[Q_LD_L3];
    q->v[Q_D1_MISS_WARM] = per * (double)w->d1_lap_misses;
    q->v[Q_LL_MISS_WARM] = per * (double)w->ll_lap_misses;
    q->v[Q_DTLB_MISS] = q->v[Q_STLB_MISS] = NAN;   /* depends on the page size obtained */
}

static void mixwalk_teardown(struct case_ *c)
{
    struct mixwalk *w = c->priv;
    if (w)
        buffer_free(&w->buf);
    free(w);
    c->priv = NULL;
}

static const char *const mixwalk_matrix[] = {"", NULL};

static const struct kernel mixwalk_kernel = {
    .name = "mixwalk",
    .summary = "one dependent-load chain mixing L1, L2 and L3 hits in known proportions (closure check)",
    .params = mixwalk_params,
    .setup = mixwalk_setup,
    .loop = mixwalk_loop,
    .model = mixwalk_model,
    .teardown = mixwalk_teardown,
    .matrix = mixwalk_matrix,
    .per = Q_LD_ALL,
    .per_name = "load",
};
PMUCAL_KERNEL(mixwalk_kernel)

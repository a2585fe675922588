/* walker: a linked-list walk over cache lines, one dependent load after another, so each load's
 * latency is exposed; the list's order and spacing choose where the data comes from. */
#include "arch/isa.h"
#include "base/rng.h"
#include "base/stop.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/lru.h"
#include "core/measure.h"
#include "core/mem.h"
#include "core/sites.h"
#include "core/team.h"
#include "host/geometry.h"
#include "host/tlb.h"
#include "host/topo.h"
#include "microkernels/loopmodel.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct walker {
    struct buffer buf;
    void **cursor;            /* where the walk stands; runs continue around the ring */
    uint64_t slots, spacing, lines, pages;
    uint64_t d1_lap_misses, ll_lap_misses;   /* elements missing a warm LRU L1D / last level each lap */
    unsigned loads;
    bool touch;
    unsigned threads;         /* phase=touch: a team, each member touching fresh pages of its own */
    struct buffer *member_buf;   /* members 1..threads-1's buffers (member 0's is buf) */
    struct team *team;
};

static const struct param walker_params[] = {
    {"size", PARAM_SIZE, "L1", "working set: bytes or a cache level (L1|L2|L3|DRAM, well inside it)", NULL},
    {"stride", PARAM_SIZE, "64", "bytes between list elements (a multiple of 8)", NULL},
    {"page_stride", PARAM_SIZE, "0", "if set, one element per this many bytes, line offset rotating (TLB work)", NULL},
    {"order", PARAM_ENUM, "block", "linear; random over the whole buffer; block: random within blocks of "
     "'block' 4 KiB pages, blocks in order (keeps TLB misses out of latencies, also where 2 MiB guest pages "
     "are backed by 4 KiB host pages)", "linear|random|block"},
    {"block", PARAM_UINT, "16", "order=block: pages per block", "1..1048576"},
    {"page", PARAM_ENUM, "auto", "page size: 4k, 2m (hugetlb or THP; an error if neither works), auto (2m where it works)", "4k|2m|auto"},
    {"init_cpu", PARAM_CPU, "0", "CPU that first touches the buffer", NULL},
    {"run_cpu", PARAM_CPU, "0", "CPU that walks", NULL},
    {"loads", PARAM_ENUM, "16", "dependent loads per iteration", "1|2|4|8|16|32"},
    {"phase", PARAM_ENUM, "walk", "walk: the dependent loads; touch: first touch of fresh 4 KiB pages, one store each", "walk|touch"},
    {"seed", PARAM_UINT, "1", "seed of the random order", NULL},
    {"threads", PARAM_UINT, "1", "phase=touch: threads at once, one per allowed CPU (run_cpu first), each touching "
     "fresh pages of a buffer of its own (size each)", NULL},
    {NULL, 0, NULL, NULL, NULL},
};

/* Element k's byte offset: plain spacing, or one per page_stride with the line offset rotating
 * so elements spread over all cache sets. */
static uint64_t slot_offset(uint64_t k, uint64_t stride, uint64_t page_stride)
{
    if (!page_stride)
        return k * stride;
    return k * page_stride + (k * stride) % page_stride;
}

struct build_args {
    struct case_ *c;
    struct walker *w;
    uint64_t size, stride, page_stride;
    int rc;
};

/* Building a list of millions of elements takes seconds: a stop is looked for every million. */
static bool stop_seen(uint64_t i)
{
    return !(i & 0xfffff) && stop_requested();
}

static void *build_list(void *arg)
{
    struct build_args *a = arg;
    struct walker *w = a->w;
    struct case_ *c = a->c;
    if (topo_bind_thread(case_cpu(c, "init_cpu")) ||
        buffer_alloc(&w->buf, w->slots * w->spacing, case_str(c, "page"), "walker")) {
        a->rc = KERNEL_ERROR;
        return NULL;
    }
    uint64_t *order = xmalloc(w->slots * sizeof(*order));
    for (uint64_t i = 0; i < w->slots; i++)
        order[i] = i;
    struct rng r;
    rng_seed(&r, case_uint(c, "seed"));
    if (case_is(c, "order", "random")) {
        for (uint64_t i = w->slots - 1; i > 1 && !stop_seen(i); i--) {   /* Sattolo: element 0 first, one cycle */
            uint64_t j = 1 + rng_below(&r, i);
            uint64_t t = order[i]; order[i] = order[j]; order[j] = t;
        }
    } else if (case_is(c, "order", "block")) {
        uint64_t per = case_uint(c, "block") * 4096 / w->spacing;
        if (per < 1)
            per = 1;
        for (uint64_t b = 0; b < w->slots; b += per) {
            uint64_t n = b + per > w->slots ? w->slots - b : per;
            for (uint64_t i = n - 1; i > 0; i--) {
                uint64_t j = rng_below(&r, i + 1);
                uint64_t t = order[b + i]; order[b + i] = order[b + j]; order[b + j] = t;
            }
        }
    }
    char *base = w->buf.base;
    for (uint64_t i = 0; i < w->slots && !stop_seen(i); i++) {
        char *from = base + slot_offset(order[i], a->stride, a->page_stride);
        char *to = base + slot_offset(order[(i + 1) % w->slots], a->stride, a->page_stride);
        *(void **)from = to;
    }
    w->cursor = (void **)(base + slot_offset(order[0], a->stride, a->page_stride));
    free(order);
    a->rc = stop_requested() ? KERNEL_ERROR : KERNEL_OK;   /* a half-linked list is never walked */
    return NULL;
}

/* Elements on lines of their own are each visited once a lap, in whatever order: a set that
 * holds more of them than it has ways misses on all of them, and the last level sees only the
 * lines that miss D1 (lru.h). */
struct walker_lines {
    const struct walker *w;
    uint64_t stride, page_stride;
};

static void add_walker_lines(struct lru_count *lc, const void *walk)
{
    const struct walker_lines *l = walk;
    if (!l->page_stride && l->stride == 64)
        lru_count_add_lines(lc, (uintptr_t)l->w->buf.base, l->w->slots);
    else
        for (uint64_t k = 0; k < l->w->slots; k++)
            lru_count_add(lc, (uintptr_t)l->w->buf.base + slot_offset(k, l->stride, l->page_stride));
}

static void count_lap_misses(struct walker *w, uint64_t stride, uint64_t page_stride)
{
    struct walker_lines l = {w, stride, page_stride};
    lru_count_walk(topo_get(), add_walker_lines, &l, &w->d1_lap_misses, &w->ll_lap_misses);
}

/* One store a fresh 4 KiB page; not inlined, so that one copy of the loop (and of its sites)
 * serves one thread and a team alike. */
static __attribute__((noinline)) void touch_pages(char *q, uint64_t n)
{
    ISA_TOUCH_LOOP(q, n);
}

static struct buffer *touch_buffer(struct walker *w, unsigned member)
{
    return member ? &w->member_buf[member - 1] : &w->buf;
}

static void touch_member(void *ctx, unsigned member, uint64_t iters)
{
    touch_pages(touch_buffer(ctx, member)->base, iters);
}

/* Each member's buffer is mapped here and first touched by the member itself, in the region. */
static int touch_setup(struct case_ *c, struct walker *w, uint64_t size)
{
    bool huge = !case_is(c, "page", "4k");
    if (w->threads > 1) {
        int rc = team_for_case(c, w->threads, touch_member, w, &w->team);
        if (rc != KERNEL_OK)
            return rc;
        w->member_buf = xcalloc(w->threads - 1, sizeof(*w->member_buf));
    }
    for (unsigned m = 0; m < w->threads; m++)
        if (buffer_alloc_untouched(touch_buffer(w, m), size, huge, "walker"))
            return KERNEL_ERROR;
    c->max_iters = w->buf.size / 4096;
    /* One fault a huge page, at its first 4 KiB: pf.minor (4096 / page bytes an iteration) is exact
     * over whole pages only. A few iterations a run (a pilot slowed by load) would count one whole
     * fault each over a fraction of a page. */
    c->iters_multiple = page_bytes(w->buf.kind) / 4096;
    snprintf(c->detail, sizeof(c->detail), "page=%s pages4k=%llu threads=%u", page_kind_name(w->buf.kind),
             (unsigned long long)c->max_iters, w->threads);
    return KERNEL_OK;
}

static int walker_setup(struct case_ *c)
{
    struct walker *w = xcalloc(1, sizeof(*w));
    c->priv = w;
    uint64_t size = case_size(c, "size"), stride = case_size(c, "stride"), pstride = case_size(c, "page_stride");
    w->loads = (unsigned)case_uint(c, "loads");
    w->touch = case_is(c, "phase", "touch");
    w->threads = (unsigned)case_uint(c, "threads");
    if (w->touch)
        return touch_setup(c, w, size);
    if (w->threads != 1) {
        pm_error("walker: threads=%s is for phase=touch; the walk runs on one thread (give threads=1)",
                 case_str(c, "threads"));
        return KERNEL_ERROR;
    }
    if (stride < 8 || stride % 8) {
        pm_error("walker: stride=%s must be a multiple of 8 bytes (a pointer)", case_str(c, "stride"));
        return KERNEL_ERROR;
    }
    if (pstride && (pstride < stride || pstride % 8)) {
        pm_error("walker: page_stride=%s must be a multiple of 8 and at least stride", case_str(c, "page_stride"));
        return KERNEL_ERROR;
    }
    /* The model needs the TLBs' entries: where the CPU states none, they are measured now (once
     * per host, cached), outside any measured region. */
    tlb_resolved();
    w->spacing = pstride ? pstride : stride;
    w->slots = size / w->spacing;
    if (w->slots < 2) {
        pm_error("walker: size=%s holds fewer than 2 elements %s bytes apart; raise size or lower the stride",
                 case_str(c, "size"), fmt_size(w->spacing));
        return KERNEL_ERROR;
    }
    w->lines = w->spacing >= 64 ? w->slots : (w->slots * w->spacing + 63) / 64;
    struct build_args a = {.c = c, .w = w, .stride = stride, .page_stride = pstride};
    pthread_t t;
    if (pthread_create(&t, NULL, build_list, &a)) {
        pm_error("walker: cannot start the initializing thread");
        return KERNEL_ERROR;
    }
    pthread_join(t, NULL);
    if (a.rc != KERNEL_OK)
        return a.rc;
    w->pages = (w->slots * w->spacing + page_bytes(w->buf.kind) - 1) / page_bytes(w->buf.kind);
    if (w->spacing >= 64)
        count_lap_misses(w, stride, pstride);
    c->warm_iters = w->slots / w->loads + 1;
    c->warm_in_parts = !w->touch;   /* the walk goes on from its cursor; a lap of DRAM is ~0.6 s */
    snprintf(c->detail, sizeof(c->detail), "page=%s elements=%llu lines=%llu pages=%llu", page_kind_name(w->buf.kind),
             (unsigned long long)w->slots, (unsigned long long)w->lines, (unsigned long long)w->pages);
    return KERNEL_OK;
}

static void walker_prepare(struct case_ *c)
{
    struct walker *w = c->priv;
    for (unsigned m = 0; w->touch && m < w->threads; m++)
        buffer_refresh(touch_buffer(w, m));
}

#define WALK(N) ISA_CHASE_LOOP(#N)

static void walker_run(struct case_ *c, uint64_t iters)
{
    struct walker *w = c->priv;
    uint64_t n = iters;
    if (w->team) {
        team_run(w->team, n);
        return;
    }
    if (w->touch) {
        touch_pages(w->buf.base, n);
        return;
    }
    void **p = w->cursor;
    switch (w->loads) {
    case 1: WALK(1); break;
    case 2: WALK(2); break;
    case 4: WALK(4); break;
    case 8: WALK(8); break;
    case 16: WALK(16); break;
    case 32: WALK(32); break;
    }
    w->cursor = p;
}

/* Under LRU replacement a ring larger than a cache (or TLB) misses on every access; one that
 * fits misses never. Real replacement is close to that on the half-level sizes used here. */
static double tlb_misses(const struct walker *w, int entries, bool random_order, uint64_t span_pages)
{
    if (!entries)
        return NAN;
    /* Elements a page or more apart leave the pages between them untouched. */
    uint64_t touched = w->spacing >= page_bytes(w->buf.kind) ? w->slots : w->pages;
    if (touched <= (uint64_t)entries)
        return 0;
    uint64_t per_page = w->slots / touched;
    if (per_page < 1)
        per_page = 1;
    if (random_order)
        span_pages = touched;
    if (span_pages <= (uint64_t)entries)   /* each page misses once, when the walk enters it */
        return (double)w->loads / (double)per_page;
    /* One element a page: the ring visits every page once a lap, in the same order each lap, so
     * by a page's next visit all the others have been since, and an LRU TLB of fewer entries has
     * dropped it: every load misses. Measured so on Zen 5: one load cost 11.0 cycles from 128 to
     * 512 pages, where "entries / pages of them stay mapped" predicted a cost growing with pages. */
    if (per_page == 1)
        return w->loads;
    /* Several elements a page in random order: a page is revisited after a random number of
     * others, and stays mapped with probability about entries / span. */
    return w->loads * (1.0 - (double)entries / (double)span_pages);
}

static void walker_model(const struct case_ *c, struct quantities *q)
{
    const struct walker *w = c->priv;
    q->v[Q_BR_ALL] = q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = 1;
    q->v[Q_BR_COND_NTAKEN] = q->v[Q_BR_UNCOND] = q->v[Q_BR_INDIRECT] = 0;
    q->v[Q_BR_CALL] = q->v[Q_BR_RET] = 0;
    q->v[Q_BR_MISPRED] = 0;
    q->v[Q_CTX_SWITCH] = q->v[Q_CPU_MIGRATION] = 0;
    q->v[Q_FP_SCALAR_DP] = q->v[Q_FP_128_DP] = q->v[Q_FP_256_DP] = q->v[Q_FP_512_DP] = q->v[Q_FLOPS_DP] = 0;
    if (w->touch) {
        q->v[Q_INST] = ISA_TOUCH_STEP_INST + ISA_LOOP_TEST_INST;
        q->v[Q_LD_ALL] = 0;
        q->v[Q_ST_ALL] = 1;
        q->v[Q_BYTES_WRITTEN] = 8;
        q->v[Q_BYTES_READ] = 0;
        q->v[Q_PF_MINOR] = 4096.0 / (double)page_bytes(w->buf.kind);
        /* Each member does one thread's work. */
        for (int k = 0; k < Q_COUNT; k++)
            if (k != Q_ITER && quantity_stated(q, (enum quantity_id)k))
                q->v[k] *= w->threads;
        q->v[Q_THREADS] = w->threads;
        return;
    }
    double L = w->loads;
    q->v[Q_INST] = ISA_CHASE_STEP_INST * L + ISA_LOOP_TEST_INST;
    q->v[Q_LD_ALL] = L;
    q->v[Q_ST_ALL] = 0;
    q->v[Q_BYTES_READ] = 8 * L;
    q->v[Q_BYTES_WRITTEN] = 0;
    q->v[Q_PF_MINOR] = 0;
    int level = level_of_size(w->lines * 64);
    bool random_order = !case_is(c, "order", "linear");
    /* A linear walk lets the prefetchers bring lines early: where a load "comes from" is then
     * the prefetcher's business, not the model's. */
    if (random_order || level == 1) {
        q->v[Q_LD_L1] = level == 1 ? L : 0;
        q->v[Q_LD_L2] = level == 2 ? L : 0;
        q->v[Q_LD_L3] = level == 3 ? L : 0;
        q->v[Q_LD_DRAM] = level == 4 ? L : 0;
        q->v[Q_LINES_L2] = q->v[Q_LD_L2];
        q->v[Q_LINES_L3] = q->v[Q_LD_L3];
        q->v[Q_LINES_DRAM] = q->v[Q_LD_DRAM];
    }
    /* Cache simulators (callgrind) see every line of the ring once per lap. */
    const struct topo *t = topo_get();
    int last = topo_last_level(t);
    if (w->spacing >= 64) {
        q->v[Q_D1_MISS_WARM] = L * (double)w->d1_lap_misses / (double)w->slots;
        q->v[Q_LL_MISS_WARM] = L * (double)w->ll_lap_misses / (double)w->slots;
    } else {
        double lines_per_load = (double)w->spacing / 64;
        q->v[Q_D1_MISS_WARM] = w->lines * 64 > t->data[1].size ? (random_order ? L : L * lines_per_load) : 0;
        q->v[Q_LL_MISS_WARM] = last && w->lines * 64 > t->data[last].size ? (random_order ? L : L * lines_per_load) : 0;
    }
    bool small = w->buf.kind == PAGE_4K;
    bool ring_random = case_is(c, "order", "random");
    uint64_t span = case_is(c, "order", "block") ? (case_uint(c, "block") * 4096 + page_bytes(w->buf.kind) - 1) / page_bytes(w->buf.kind)
                  : 1;
    const enum tlb_kind kinds[2] = {small ? TLB_L1_4K : TLB_L1_2M, small ? TLB_L2_4K : TLB_L2_2M};
    const enum quantity_id ids[2] = {Q_DTLB_MISS, Q_STLB_MISS};
    /* Without a level's entries its misses are not known: said so, for the verdicts and the
     * penalties that need them (one buffer a page size: the reason outlives the call). */
    static char because[2][600];
    const char *none[2] = {NULL, NULL};
    for (int l = 0; l < 2; l++) {
        int entries = tlb_entries(kinds[l], &none[l]);
        q->v[ids[l]] = tlb_misses(w, entries, ring_random, span);
    }
    if (none[0] || none[1]) {
        snprintf(because[small], sizeof(because[0]), "the %s DTLB's entries for %s pages are not known (%.400s)",
                 none[0] && none[1] ? "first and second level" : none[0] ? "first level" : "second level",
                 small ? "4 KiB" : "2 MiB", none[0] ? none[0] : none[1]);
        q->unstated_why = because[small];
    }
}

/* The loop's instructions from the labels its asm records (ISA_SITES): the touch loop names each
 * of its four; the chase loop names the body's start and the test, and its REPS one-instruction
 * bodies are equal in length (one instruction copied), so each lies at an equal step. */
static int walker_sites(const struct case_ *c, struct site_map *m)
{
    const struct walker *w = c->priv;
    int n;
    m->n = 0;
    if (w->threads > 1)   /* the sites are one thread's; a team's counts are the members' sum */
        return -1;
    if (w->touch) {
        const uintptr_t *a = sites_find("touch:" __FILE__, &n);
        if (!a || n != 5)
            return -1;
        const char *what[] = {"store", "add", "sub", "branch"};
        for (int i = 0; i < 4; i++)
            site_add(m, a[i], what[i]);
        m->addr[4] = a[4];
        site_all(m, Q_INST, 1);
        m->weight[0][Q_ST_ALL] = 1;
        m->weight[0][Q_PF_MINOR] = 4096.0 / (double)page_bytes(w->buf.kind);
        m->weight[3][Q_BR_COND] = m->weight[3][Q_BR_COND_TAKEN] = m->weight[3][Q_BR_ALL] = 1;
        return 0;
    }
    char key[96];
    snprintf(key, sizeof(key), "exact:%s:%u", __FILE__, w->loads);
    const uintptr_t *a = sites_find(key, &n);
    if (!a || n != 4 || w->loads + ISA_LOOP_TEST_INST > SITE_MAX_INST || (a[1] - a[0]) % w->loads)
        return -1;
    uintptr_t step = (a[1] - a[0]) / w->loads;
    for (unsigned i = 0; i < w->loads; i++) {
        site_add(m, a[0] + i * step, "load");
        m->weight[i][Q_LD_ALL] = 1;
    }
    site_add(m, a[1], "sub");
    site_add(m, a[2], "branch");
    m->addr[m->n] = a[3];
    site_all(m, Q_INST, 1);
    m->weight[m->n - 1][Q_BR_COND] = m->weight[m->n - 1][Q_BR_COND_TAKEN] = m->weight[m->n - 1][Q_BR_ALL] = 1;
    return 0;
}

static void walker_teardown(struct case_ *c)
{
    struct walker *w = c->priv;
    if (w) {
        team_free(w->team);
        buffer_free(&w->buf);
        for (unsigned m = 1; w->member_buf && m < w->threads; m++)
            buffer_free(&w->member_buf[m - 1]);
        free(w->member_buf);
    }
    free(w);
    c->priv = NULL;
}

static const char *const walker_matrix[] = {
    "size=L1",
    "size=L2",
    "size=L3",
    "size=DRAM",
    "size=L2 order=linear",
    "size=L1 loads=1",
    "size=16M page=4k page_stride=4096",
    "phase=touch size=4M page=4k",
    NULL,
};

static const struct kernel walker_kernel = {
    .name = "walker",
    .summary = "linked-list walk over cache lines: load-to-use latency per level, data source, TLB",
    .params = walker_params,
    .setup = walker_setup,
    .prepare = walker_prepare,
    .run = walker_run,
    .model = walker_model,
    .teardown = walker_teardown,
    .sites = walker_sites,
    .matrix = walker_matrix,
    .per = Q_LD_ALL,
    .per_name = "load",
};
PMUCAL_KERNEL(walker_kernel)

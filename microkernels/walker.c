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
#include "host/clock.h"
#include "host/geometry.h"
#include "host/tlb.h"
#include "host/topo.h"
#include "microkernels/loopmodel.h"
#include "microkernels/prefetch_check.h"
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
    bool prefetched;          /* this order's latency is not the level's on the host: the prefetchers
                               * follow it, or it loses to a random walk (prefetch_check.h) */
    char prefetch_why[400];   /* the check's figures, when it ran */
};

static const struct param walker_params[] = {
    {"size", PARAM_SIZE, "L1", "working set: bytes or a cache level (L1|L2|L3|DRAM, well inside it)", NULL, "16..1G levels"},
    {"stride", PARAM_SIZE, "64", "bytes between list elements (a multiple of 8)", NULL, "8..4096 step 8"},
    {"page_stride", PARAM_SIZE, "0", "if set, one element per this many bytes, line offset rotating (TLB work)", NULL, "0..1M step 8"},
    {"order", PARAM_ENUM, "block", "linear; random over the whole buffer; block: random within blocks of "
     "'block' 4 KiB pages, blocks in order (keeps TLB misses out of latencies, also where 2 MiB guest pages "
     "are backed by 4 KiB host pages)", "linear|random|block", NULL},
    {"block", PARAM_UINT, "16", "order=block: pages per block", NULL, "1..4096"},
    {"page", PARAM_ENUM, "auto", "page size: 4k, 2m (hugetlb or THP; an error if neither works), auto (2m where it works)", "4k|2m|auto", NULL},
    {"init_cpu", PARAM_CPU, "0", "CPU that first touches the buffer", NULL, NULL},
    {"run_cpu", PARAM_CPU, "0", "CPU that walks", NULL, NULL},
    {"loads", PARAM_ENUM, "16", "dependent loads per iteration", "1|2|4|8|16|32", NULL},
    {"phase", PARAM_ENUM, "walk", "walk: the dependent loads; touch: first touch of fresh 4 KiB pages, one store each", "walk|touch", NULL},
    {"seed", PARAM_UINT, "1", "seed of the random order", NULL, "0..4294967295"},
    {"threads", PARAM_UINT, "1", "phase=touch: threads at once, one per allowed CPU (run_cpu first), each touching "
     "fresh pages of a buffer of its own (size each)", NULL, "1..cpus"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

/* Element k's byte offset: plain spacing, or one per page_stride with the line offset rotating
 * so elements spread over all cache sets. */
static uint64_t slot_offset(uint64_t k, uint64_t stride, uint64_t page_stride)
{
    if (!page_stride)
        return k * stride;
    return k * page_stride + (k * stride) % page_stride;
}

/* Building a list of millions of elements takes seconds: a stop is looked for every million. */
static bool stop_seen(uint64_t i)
{
    return !(i & 0xfffff) && stop_requested();
}

/* order[] becomes one cycle through 0..n-1 starting at 0 (Sattolo), drawn from r. */
static void shuffle_one_cycle(uint64_t *order, uint64_t n, struct rng *r)
{
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    for (uint64_t i = n - 1; i > 1 && !stop_seen(i); i--) {
        uint64_t j = 1 + rng_below(r, i);
        uint64_t t = order[i]; order[i] = order[j]; order[j] = t;
    }
}

/* Element order[i] points to element order[i + 1], the last to the first: the ring, in base. */
static void link_ring(char *base, const uint64_t *order, uint64_t n, uint64_t stride, uint64_t page_stride)
{
    for (uint64_t i = 0; i < n && !stop_seen(i); i++)
        *(void **)(base + slot_offset(order[i], stride, page_stride)) =
            base + slot_offset(order[(i + 1) % n], stride, page_stride);
}

struct build_args {
    struct case_ *c;
    struct walker *w;
    uint64_t size, stride, page_stride;
    int rc;
};


static void *build_list(void *arg)
{
    struct build_args *a = arg;
    struct walker *w = a->w;
    struct case_ *c = a->c;
    if (topo_bind_thread(case_cpu(c, "init_cpu")) ||
        buffer_alloc(&w->buf, w->slots * w->spacing, case_str(c, "page"), "walker")) {
        a->rc = CASE_ERROR;
        return NULL;
    }
    uint64_t *order = xmalloc(w->slots * sizeof(*order));
    for (uint64_t i = 0; i < w->slots; i++)
        order[i] = i;
    struct rng r;
    rng_seed(&r, case_uint(c, "seed"));
    if (case_is(c, "order", "random")) {
        shuffle_one_cycle(order, w->slots, &r);
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
    link_ring(base, order, w->slots, a->stride, a->page_stride);
    w->cursor = (void **)(base + slot_offset(order[0], a->stride, a->page_stride));
    free(order);
    a->rc = stop_requested() ? CASE_ERROR : CASE_OK;   /* a half-linked list is never walked */
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

#define WALKER_EDGE_SHARE 32

/* The edge as simulate_lap_misses refuses it (below), for a ring of lines each visited once a lap:
 * the lines of sets it fills within LRU_EDGE_WAYS of their ways beyond a 256th of its loads (as
 * mixwalk's), every one of them a miss after a foreign line ('size=16M stride=1048
 * page_stride=31296', 536 lines in a 48K D1, missed 0.004 to 0.008 a load from run to run where
 * none was counted). */
#define WALKER_COUNT_EDGE_SHARE 256
static void edge_reason(struct case_ *c, int l, uint64_t edge, uint64_t loads);

static int count_lap_misses(struct case_ *c, struct walker *w, uint64_t stride, uint64_t page_stride)
{
    struct walker_lines l = {w, stride, page_stride};
    uint64_t misses[2], edges[2];
    lru_count_walk_edges(topo_get(), add_walker_lines, &l, LRU_EDGE_WAYS, misses, edges);
    w->d1_lap_misses = misses[0];
    w->ll_lap_misses = misses[1];
    for (int lv = 0; topo_get()->simulated && lv < 2; lv++)
        if (edges[lv] > w->slots / WALKER_COUNT_EDGE_SHARE) {
            edge_reason(c, lv, edges[lv], w->slots);
            return 1;
        }
    return 0;
}

/* Elements sharing lines (spacing under 64 bytes, or a page_stride off the line: 'size=16M stride=48
 * page_stride=336 order=linear' read 1.93 D1 misses for 2 loads, counted as 2) visit lines several times a lap, in the
 * ring's order: a random ring just beyond a cache finds many lines again before they leave it, so
 * the lap is simulated on the machine lru.h states, line by line in the ring's order (the model
 * said every load missed: 'walker size=52322 stride=8 order=random' reads 1.30 D1 misses an
 * iteration of 16 loads). Hits at the edge of a set are decided by the harness's lines between
 * runs: beyond a 32nd of the loads (52322 bytes: 18%, off by 2% of its misses; 16M stride=8 in a
 * 1M LL: 1.4%, exact) the case is refused under sim with the reason, as mixwalk's are. */

static void edge_reason(struct case_ *c, int l, uint64_t edge, uint64_t loads)
{
    const struct topo *t = topo_get();
    const struct cache_level *lv = l ? &t->data[topo_last_level(t)] : &t->data[1];
    snprintf(c->skip, sizeof(c->skip), "size=%s stride=%s page_stride=%s fill sets of the simulated %s (%s %d-way): "
             "%llu of %llu loads a lap hit with under %d ways to spare, so the harness's lines between loops decide its "
             "misses; give a size that does not fill them", case_str(c, "size"), case_str(c, "stride"),
             case_str(c, "page_stride"), l ? "LL" : "D1", fmt_size(lv->size), lv->ways, (unsigned long long)edge,
             (unsigned long long)loads, LRU_EDGE_WAYS);
}

/* Misses a run of fixed length may read beyond the lap's share, per iteration, before its runs
 * are made whole laps: a tenth of the sim rules' absolute tolerance (validate/expect/sim.txt). */
#define WALKER_WINDOW_SLACK 0.0005

/* A run shorter than a lap (sim's 10000 iterations) reads the misses of the part it walks. Where
 * the ring's misses bunch up ('size=814776 stride=8 block=185 page=2m loads=2': a 740K block then
 * a 57K one, in a 48K D1, read 1.891 misses an iteration for the lap's 1.790) the model holds only
 * for whole laps, and the case's runs are made whole laps. */
static void whole_laps_where_misses_bunch(struct case_ *c, const struct walker *w, const struct lru_lap *lap,
                                          uint64_t window)
{
    if (!window)
        return;
    double worst = 0;
    for (int l = 0; l < 2; l++) {
        double share = (double)lap->misses[l] * (double)window / (double)w->slots;
        double off = fmax((double)lap->window_hi[l] - share, share - (double)lap->window_lo[l]);
        worst = fmax(worst, off / (double)c->iters_fixed);
    }
    if (worst > WALKER_WINDOW_SLACK)
        c->iters_multiple = lru_lap_iters(w->slots, w->loads);
}

static int simulate_lap_misses(struct case_ *c, struct walker *w)
{
    const struct topo *t = topo_get();
    int last = topo_last_level(t);
    void **node = xmalloc(w->slots * sizeof(*node)), **p = w->cursor;
    for (uint64_t i = 0; i < w->slots; i++, p = (void **)*p)
        node[i] = p;
    struct lru_lap lap;
    uint64_t window = c->iters_fixed * w->loads % w->slots;   /* what a fixed run walks beyond whole laps */
    lru_lap_misses((void *const *)node, w->slots, &t->data[1], last > 1 ? &t->data[last] : NULL, window, &lap);
    free(node);
    w->d1_lap_misses = lap.misses[0];
    w->ll_lap_misses = lap.misses[1];
    whole_laps_where_misses_bunch(c, w, &lap, window);
    for (int l = 0; t->simulated && l < 2; l++)
        if (lap.edge_hits[l] > w->slots / WALKER_EDGE_SHARE) {
            edge_reason(c, l, lap.edge_hits[l], w->slots);
            return 1;
        }
    return 0;
}

static void walker_loop(struct case_ *c, uint64_t iters);

/* ns a load over about `loads` dependent loads from *start (where the walk stands after, in
 * *start): the case's own loop (walker_loop), so both walks run the same instructions. */
static double time_chain(struct case_ *c, void ***start, uint64_t loads)
{
    struct walker *w = c->priv;
    void **own = w->cursor;
    uint64_t iters = loads / w->loads ? loads / w->loads : 1;
    w->cursor = *start;
    double t0 = clock_now_seconds();
    walker_loop(c, iters);
    double t = clock_now_seconds() - t0;
    *start = w->cursor;
    w->cursor = own;
    return 1e9 * t / (double)(iters * w->loads);
}

#define PREFETCH_TIMINGS 31

/* The walk in its own order beside a full random ring of the same size and pages, in the same
 * run, each timed in turn (after a lap that warms it) in short windows, the fastest kept: where
 * the order's loads come faster beyond noise, the prefetchers follow it, and where slower, its own
 * misses cost it: either way the level's latency is not what it measures. Only where the order is not random and the ring leaves L2 (below that
 * nothing is fetched from far enough to gain), on the host (a simulated cache has no prefetcher). */
/* One decision a case a process: every run of a calibration (and its replay from the records)
 * sees the same one, and the reason the model gives outlives the case (a case's teardown frees
 * its walker; a penalty quotes the reason after). */
static struct prefetch_memo {
    char label[256];
    bool prefetched;
    char why[400];
} memo[32];
static int nmemo;

static struct prefetch_memo *prefetch_memo_of(const char *label)
{
    for (int i = 0; i < nmemo; i++)
        if (!strcmp(memo[i].label, label))
            return &memo[i];
    return NULL;
}

static int check_prefetchers_once(struct case_ *c, struct walker *w);

static int check_prefetchers(struct case_ *c, struct walker *w)
{
    if (topo_get()->simulated || case_is(c, "order", "random") || level_of_size(w->lines * 64) < 3)
        return CASE_OK;
    const struct prefetch_memo *m = prefetch_memo_of(c->label);
    if (m) {
        w->prefetched = m->prefetched;
        snprintf(w->prefetch_why, sizeof(w->prefetch_why), "%s", m->why);
        return CASE_OK;
    }
    int rc = check_prefetchers_once(c, w);
    if (rc == CASE_OK && nmemo < (int)(sizeof(memo) / sizeof(memo[0]))) {
        struct prefetch_memo *n = &memo[nmemo++];
        snprintf(n->label, sizeof(n->label), "%s", c->label);
        n->prefetched = w->prefetched;
        snprintf(n->why, sizeof(n->why), "%s", w->prefetch_why);
    }
    return rc;
}

static int check_prefetchers_once(struct case_ *c, struct walker *w)
{
    struct buffer rb;
    if (buffer_alloc(&rb, w->slots * w->spacing, case_str(c, "page"), "walker's random walk")) {
        w->prefetched = true;   /* not proven either way: withheld, saying why */
        snprintf(w->prefetch_why, sizeof(w->prefetch_why), "the prefetchers could not be checked: no memory for a "
                 "random walk of the same size beside it");
        return CASE_OK;
    }
    uint64_t *order = xmalloc(w->slots * sizeof(*order));
    struct rng r;
    rng_seed(&r, case_uint(c, "seed") + 1);
    shuffle_one_cycle(order, w->slots, &r);
    char *base = rb.base;
    link_ring(base, order, w->slots, case_size(c, "stride"), case_size(c, "page_stride"));
    free(order);
    if (stop_requested()) {   /* a half-linked ring is never walked */
        buffer_free(&rb);
        return CASE_ERROR;
    }
    uint64_t loads = 4096;   /* windows under a millisecond: a shared CPU preempts few of them */
    void **own = w->cursor, **rnd = (void **)base;
    time_chain(c, &own, w->slots);
    time_chain(c, &rnd, w->slots);
    double own_ns[PREFETCH_TIMINGS], rnd_ns[PREFETCH_TIMINGS];
    /* Each window follows an untimed one of the same ring: right after the other ring, a window
     * read the order cold (its prefetch streams not yet running), and on a busy CPU the order's
     * gain vanished from the check while the case's measured loops still had it (46.2 ns against 45.3
     * random in the check, 17.5 ns in the measured loops at 4M). */
    for (int k = 0; k < PREFETCH_TIMINGS && !stop_requested(); k++) {
        time_chain(c, &own, loads);
        own_ns[k] = time_chain(c, &own, loads);
        time_chain(c, &rnd, loads);
        rnd_ns[k] = time_chain(c, &rnd, loads);
    }
    buffer_free(&rb);
    if (stop_requested())
        return CASE_ERROR;
    w->cursor = own;
    w->prefetched = prefetch_withholds(own_ns, rnd_ns, PREFETCH_TIMINGS, w->prefetch_why, sizeof(w->prefetch_why));
    return CASE_OK;
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
        if (rc != CASE_OK)
            return rc;
        w->member_buf = xcalloc(w->threads - 1, sizeof(*w->member_buf));
    }
    for (unsigned m = 0; m < w->threads; m++)
        if (buffer_alloc_untouched(touch_buffer(w, m), size, huge, "walker"))
            return CASE_ERROR;
    c->max_iters = w->buf.size / 4096;
    /* One fault a huge page, at its first 4 KiB: pf.minor (4096 / page bytes an iteration) is exact
     * over whole pages only. A few iterations a run (a pilot slowed by load) would count one whole
     * fault each over a fraction of a page. */
    c->iters_multiple = page_bytes(w->buf.kind) / 4096;
    snprintf(c->detail, sizeof(c->detail), "page=%s pages4k=%llu threads=%u", page_kind_name(w->buf.kind),
             (unsigned long long)c->max_iters, w->threads);
    return CASE_OK;
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
        return CASE_ERROR;
    }
    if (stride < 8 || stride % 8) {
        pm_error("walker: stride=%s must be a multiple of 8 bytes (a pointer)", case_str(c, "stride"));
        return CASE_ERROR;
    }
    if (pstride && (pstride < stride || pstride % 8)) {
        pm_error("walker: page_stride=%s must be a multiple of 8 and at least stride", case_str(c, "page_stride"));
        return CASE_ERROR;
    }
    /* The model needs the TLBs' entries: where the CPU states none, they are measured now (once
     * per host, cached), outside any measured region. */
    tlb_resolved();
    w->spacing = pstride ? pstride : stride;
    w->slots = size / w->spacing;
    if (w->slots < 2) {
        pm_error("walker: size=%s holds fewer than 2 elements %s bytes apart; raise size or lower the stride",
                 case_str(c, "size"), fmt_size(w->spacing));
        return CASE_ERROR;
    }
    w->lines = w->spacing >= 64 ? w->slots : (w->slots * w->spacing + 63) / 64;
    struct build_args a = {.c = c, .w = w, .stride = stride, .page_stride = pstride};
    pthread_t t;
    if (pthread_create(&t, NULL, build_list, &a)) {
        pm_error("walker: cannot start the initializing thread");
        return CASE_ERROR;
    }
    pthread_join(t, NULL);
    if (a.rc != CASE_OK)
        return a.rc;
    w->pages = (w->slots * w->spacing + page_bytes(w->buf.kind) - 1) / page_bytes(w->buf.kind);
    c->warm_iters = w->slots / w->loads + 1;
    if (check_prefetchers(c, w))
        return CASE_ERROR;
    /* Elements share lines where they are closer than a line, or one a page_stride that is not
     * a multiple of a line (its rotating offset brings the next element into the same line). */
    if (w->spacing >= 64 && (!pstride || pstride % 64 == 0)) {
        if (count_lap_misses(c, w, stride, pstride))
            return CASE_SKIP;
    } else if (simulate_lap_misses(c, w))
        return CASE_SKIP;
    else
        c->warm_iters = 2 * (w->slots / w->loads + 1);   /* D1's steady state, then LL's (lru.h) */
    c->warm_in_parts = !w->touch;   /* the walk goes on from its cursor; a lap of DRAM is ~0.6 s */
    snprintf(c->detail, sizeof(c->detail), "page=%s elements=%llu lines=%llu pages=%llu", page_kind_name(w->buf.kind),
             (unsigned long long)w->slots, (unsigned long long)w->lines, (unsigned long long)w->pages);
    if (w->prefetched)
        snprintf(c->detail + strlen(c->detail), sizeof(c->detail) - strlen(c->detail),
                 " order not the level's: level figures withheld");
    return CASE_OK;
}

static void walker_prepare(struct case_ *c)
{
    struct walker *w = c->priv;
    for (unsigned m = 0; w->touch && m < w->threads; m++)
        buffer_refresh(touch_buffer(w, m));
}

#define WALK(N) ISA_CHASE_LOOP(#N)

static void walker_loop(struct case_ *c, uint64_t iters)
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
        q->unstated_why = "d1.miss.warm, ll.miss.warm: each iteration touches a fresh page, so no cache is ever warm "
                          "for it";
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
    /* Cache simulators (callgrind): each lap's misses, counted or simulated in setup (lru.h). */
    q->v[Q_D1_MISS_WARM] = L * (double)w->d1_lap_misses / (double)w->slots;
    q->v[Q_LL_MISS_WARM] = L * (double)w->ll_lap_misses / (double)w->slots;
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
    if (w->prefetched) {   /* the loads' level is the order's doing: the figure is not the level's */
        q->v[Q_LD_L1] = q->v[Q_LD_L2] = q->v[Q_LD_L3] = q->v[Q_LD_DRAM] = NAN;
        q->v[Q_LINES_L2] = q->v[Q_LINES_L3] = q->v[Q_LINES_DRAM] = NAN;
        const struct prefetch_memo *m = prefetch_memo_of(c->label);
        q->unstated_why = m ? m->why : "this order's latency is not the level's (the check's figures were not kept)";
    }
}

/* The latency figure of an order whose latency is not the level's (the prefetchers follow it, or
 * it is slower than a random walk) is withheld, with the check's figures. */
static void walker_report(struct case_ *c, const struct stats *cycles, double core_ghz, const struct quantities *q)
{
    (void)cycles, (void)core_ghz, (void)q;
    const struct walker *w = c->priv;
    if (w->prefetched)
        printf("# latency withheld: %s; order=random measures the level\n", w->prefetch_why);
    else if (w->prefetch_why[0])
        printf("# prefetchers checked: %s\n", w->prefetch_why);
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
    .loop = walker_loop,
    .model = walker_model,
    .teardown = walker_teardown,
    .sites = walker_sites,
    .report = walker_report,
    .matrix = walker_matrix,
    .per = Q_LD_ALL,
    .per_name = "load",
};
PMUCAL_KERNEL(walker_kernel)

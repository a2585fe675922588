/* triad: a[i] = b[i] + s*c[i] over three arrays, scalar or packed (the ISA's variants,
 * isa_triad_variants: SSE, AVX2, AVX-512 on x86, NEON on AArch64), with ordinary
 * (read-for-ownership) or non-temporal stores. The FP work and the memory traffic per
 * lap are known exactly, so FP-by-width events and bandwidth have exact expected values. */
#include "arch/isa.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/lru.h"
#include "core/mem.h"
#include "core/team.h"
#include "host/geometry.h"
#include "host/topo.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One thread's arrays. */
struct triad_arrays {
    struct buffer buf;
    double *a, *b, *c;
    int failed;        /* its allocation failed (the message is printed) */
};

struct triad {
    struct triad_arrays *arrays;   /* one per thread */
    uint64_t n;        /* elements per array */
    unsigned width;    /* doubles per instruction */
    unsigned threads;
    bool nt;
    const char *variant, *page;
    struct team *team;
};

static const struct param triad_params[] = {
    {"size", PARAM_SIZE, "L1", "the three arrays together: bytes or a cache level (L1|L2|L3|DRAM)", NULL, "192..1G levels"},
    {"variant", PARAM_ENUM, ISA_TRIAD_DEFAULT, ISA_TRIAD_HELP, ISA_TRIAD_CHOICES, NULL},
    {"store", PARAM_ENUM, "rfo", "rfo: ordinary stores (the line is read for ownership); nt: non-temporal stores",
     "rfo|nt", NULL},
    {"page", PARAM_ENUM, "auto", "page size: 4k, 2m, auto", "4k|2m|auto", NULL},
    {"run_cpu", PARAM_CPU, "0", "CPU that runs the loop (and first touches the arrays)", NULL, NULL},
    {"threads", PARAM_UINT, "1", "threads at once, one per allowed CPU (run_cpu first), each on arrays of its own "
     "(size each, first touched by itself)", NULL, "1..cpus"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

/* A thread's arrays, allocated and first touched on that thread (its NUMA node's memory). */
static void triad_touch(void *ctx, unsigned member)
{
    struct triad *t = ctx;
    struct triad_arrays *m = &t->arrays[member];
    uint64_t array = t->n * 8;
    if (buffer_alloc(&m->buf, 3 * array, t->page, "triad")) {
        m->failed = 1;
        return;
    }
    m->a = (double *)m->buf.base;
    m->b = (double *)(m->buf.base + array);
    m->c = (double *)(m->buf.base + 2 * array);
    for (uint64_t i = 0; i < t->n; i++) {
        m->b[i] = 1.0 + (double)(i % 7);
        m->c[i] = 0.5 * (double)(i % 5);
    }
}

/* Inlined where one thread runs it: the measured loop's entry stays as short as it was. */
static inline __attribute__((always_inline)) void triad_laps(const struct triad *t, const struct triad_arrays *m,
                                                             uint64_t iters)
{
    uint64_t n = iters, i, end = t->n * 8;
    const double s = 3.0;
    ISA_TRIAD_LAPS(t->width, t->nt, n, i, m->a, m->b, m->c, end, s);
}

static void triad_member(void *ctx, unsigned member, uint64_t iters)
{
    const struct triad *t = ctx;
    triad_laps(t, &t->arrays[member], iters);
}

static int triad_setup(struct case_ *c)
{
    struct triad *t = xcalloc(1, sizeof(*t));
    c->priv = t;
    t->variant = case_str(c, "variant");
    t->nt = case_is(c, "store", "nt");
    const struct isa_triad_variant *v = NULL;
    for (size_t i = 0; i < isa_ntriad_variants && !v; i++)
        if (!strcmp(isa_triad_variants[i].name, t->variant))
            v = &isa_triad_variants[i];
    if (!v)   /* case_new checked the value against the same ISA's choices */
        pm_fatal("triad: variant %s has no entry in isa_triad_variants", t->variant);
    t->width = v->width;
    if (v->ext && !case_isa_usable(c, v->ext))
        return CASE_SKIP;
    if (t->nt && v->no_nt) {
        pm_error("triad: store=nt needs a variant with a non-temporal store: %s", v->no_nt);
        return CASE_ERROR;
    }
    /* Each array a whole number of 64-byte lines and of vectors, so every lap is the same. */
    t->n = case_size(c, "size") / 24 / 8 * 8;
    if (t->n < 8) {
        pm_error("triad: size=%s is too small; the three arrays need at least 192 bytes", case_str(c, "size"));
        return CASE_ERROR;
    }
    t->page = case_str(c, "page");
    t->threads = (unsigned)case_uint(c, "threads");
    if (t->threads == 0 || t->threads > 1024) {
        pm_error("triad: threads=%s: give 1 to 1024 threads (one per CPU)", case_str(c, "threads"));
        return CASE_ERROR;
    }
    t->arrays = xcalloc(t->threads, sizeof(*t->arrays));
    if (t->threads == 1) {
        triad_touch(t, 0);
    } else {
        int rc = team_for_case(c, t->threads, triad_member, t, &t->team);
        if (rc != CASE_OK)
            return rc;
        team_each(t->team, triad_touch);
    }
    for (unsigned m = 0; m < t->threads; m++)
        if (t->arrays[m].failed)
            return CASE_ERROR;
    c->warm_iters = 2;
    snprintf(c->detail, sizeof(c->detail), "page=%s elements=%llu arrays=3x%s threads=%u",
             page_kind_name(t->arrays[0].buf.kind), (unsigned long long)t->n, fmt_size(t->n * 8), t->threads);
    return CASE_OK;
}

static void triad_loop(struct case_ *c, uint64_t iters)
{
    struct triad *t = c->priv;
    if (t->team)
        team_run(t->team, iters);
    else
        triad_laps(t, t->arrays, iters);
}

/* Every line of every member's three arrays, each once a lap (lru.h). A lap also reads lines of
 * its own between laps (the triad's fields, the member's arrays, the stack), so a set needs a
 * way more to spare than the harness alone takes: 'triad size=40061 variant=sse store=nt' (sets
 * of a 48K D1 holding 10 of their 12 ways) missed 0.056 a lap. */
#define TRIAD_SPARE_WAYS (LRU_EDGE_WAYS + 1)

static void add_team_lines(struct lru_count *lc, const void *walk)
{
    const struct triad *t = walk;
    for (unsigned m = 0; m < t->threads; m++) {
        const double *arr[3] = {t->arrays[m].a, t->arrays[m].b, t->arrays[m].c};
        for (int k = 0; k < 3; k++) {
            uintptr_t from = (uintptr_t)arr[k] & ~(uintptr_t)63;
            lru_count_add_lines(lc, from, ((uintptr_t)(arr[k] + t->n) - from + 63) / 64);
        }
    }
}

static void triad_model(const struct case_ *c, struct quantities *q)
{
    const struct triad *t = c->priv;
    double n = (double)t->n, vectors = n / t->width;
    /* n is a whole number of lines, and of trips at every width (a trip is a line or less). */
    double trips = vectors / ISA_TRIAD_STEP_VECTORS(t->width);
    q->v[Q_INST] = ISA_TRIAD_LAP_INST + ISA_TRIAD_STEP_INST(t->width) * trips + (t->nt ? ISA_TRIAD_NT_INST : 0);
    q->v[Q_LD_ALL] = 2 * vectors;
    q->v[Q_ST_ALL] = vectors;
    q->v[Q_BR_ALL] = q->v[Q_BR_COND] = trips + 1;
    q->v[Q_BR_COND_TAKEN] = trips;    /* every inner-loop branch but the last, and the laps' test */
    q->v[Q_BR_COND_NTAKEN] = 1;
    q->v[Q_BR_UNCOND] = q->v[Q_BR_INDIRECT] = q->v[Q_BR_CALL] = q->v[Q_BR_RET] = 0;
    /* At most the inner loop's exit, once a lap. The simulated predictor (core/bpred.h) tells the
     * exit apart by its 7 bits of history only while the taken run before it (trips - 1 inner
     * branches and the laps' test) leaves the last exit inside them: from 8 trips it sees
     * all-taken history, as at the taken branches before, and misses every exit. */
    q->v[Q_BR_MISPRED] = c->simple_predictor && trips < 8 ? 0 : 1;
    q->v[Q_FP_SCALAR_DP] = t->width == 1 ? 2 * vectors : 0;
    q->v[Q_FP_128_DP] = t->width == 2 ? 2 * vectors : 0;
    q->v[Q_FP_256_DP] = t->width == 4 ? 2 * vectors : 0;
    q->v[Q_FP_512_DP] = t->width == 8 ? 2 * vectors : 0;
    q->v[Q_FLOPS_DP] = 2 * n;
    /* A multiply and an add, never fused: the FMA parts are zero at every width. */
    q->v[Q_FMA_SCALAR_DP] = q->v[Q_FMA_128_DP] = q->v[Q_FMA_256_DP] = q->v[Q_FMA_512_DP] = 0;
    q->v[Q_BYTES_READ] = 16 * n;
    q->v[Q_BYTES_WRITTEN] = 8 * n;
    q->v[Q_PF_MINOR] = q->v[Q_CTX_SWITCH] = q->v[Q_CPU_MIGRATION] = 0;
    /* L1 and L2 are each thread's own; the last level and memory are shared by the team. */
    double N = t->threads, bytes = 24 * n;
    int level = level_of_size(24 * t->n);
    if (level == 3 && level_of_size((uint64_t)(N * bytes)) == 4)
        level = 4;
    double read_lines = n / 4, write_lines = n / 8;
    /* Lines of b and c come from the level the arrays live in; lines of a are read for
     * ownership by ordinary stores once they no longer stay in L1, never by NT stores. */
    q->v[Q_LINES_L2] = level == 2 ? read_lines : 0;
    q->v[Q_LINES_L3] = level == 3 ? read_lines : 0;
    q->v[Q_LINES_DRAM] = level == 4 ? read_lines : 0;
    q->v[Q_LINES_RFO] = !t->nt && level > 1 ? write_lines : 0;
    q->v[Q_LINES_NT] = t->nt ? write_lines : 0;
    /* Traffic beyond L2 and to memory, in steady state: b and c are read and a is read for
     * ownership (ordinary stores: 32 bytes moved per 24 the instructions name, a write-allocate
     * factor of 4/3; non-temporal stores: none read, 1.0), and every line of a written back. */
    double filled = read_lines + (t->nt ? 0 : write_lines);
    q->v[Q_L2_FILL_LINES] = level >= 3 ? filled : 0;
    q->v[Q_MEM_READ_LINES] = level == 4 ? filled : 0;
    q->v[Q_MEM_WRITE_LINES] = level == 4 || t->nt ? write_lines : 0;
    /* Every amount so far is one thread's: a team does it once a thread. */
    for (int k = 0; k < Q_COUNT; k++)
        if (k != Q_ITER && quantity_stated(q, (enum quantity_id)k))
            q->v[k] *= N;
    q->v[Q_THREADS] = N;
    /* Warm LRU misses of a simulated cache, one for all threads (callgrind runs a team's threads
     * on one simulated machine): none where no set holds more of the team's lines than ways, every
     * read line where every set does (lru.h counts them, D1 then LL fed by its misses); unstated
     * between, where which lines miss depends on the arrays' mutual order in a set and on how the
     * simulator interleaves the threads (the sweep found 'triad size=22587 threads=2' missing 0.057
     * a lap where the team's 45K fit a 48K D1 by bytes, not by sets). */
    uint64_t lines = 0;
    for (unsigned m = 0; m < t->threads; m++) {
        const double *arr[3] = {t->arrays[m].a, t->arrays[m].b, t->arrays[m].c};
        for (int k = 0; k < 3; k++)
            lines += ((uintptr_t)(arr[k] + t->n) - ((uintptr_t)arr[k] & ~(uintptr_t)63) + 63) / 64;
    }
    uint64_t counts[2], edges[2];
    lru_count_walk_edges(topo_get(), add_team_lines, t, TRIAD_SPARE_WAYS, counts, edges);
    double all = N * read_lines;
    enum quantity_id ids[2] = {Q_D1_MISS_WARM, Q_LL_MISS_WARM};
    for (int l = 0; l < 2; l++) {
        q->v[ids[l]] = counts[l] == 0 && !edges[l] ? 0 : counts[l] == lines ? all : NAN;
        if (isnan(q->v[ids[l]]))
            q->unstated_why = counts[l] ? "the arrays overfill some sets of the simulated cache and not others: which of "
                                          "their lines miss depends on their order in each set"
                                        : "the arrays fill sets of the simulated cache to the edge (under 3 ways to "
                                          "spare): the lines the harness and the loop read besides decide their misses";
    }
}

static void triad_teardown(struct case_ *c)
{
    struct triad *t = c->priv;
    if (t) {
        team_free(t->team);
        for (unsigned m = 0; t->arrays && m < t->threads; m++)
            buffer_free(&t->arrays[m].buf);
        free(t->arrays);
    }
    free(t);
    c->priv = NULL;
}

static const char *const triad_matrix[] = {
    ISA_TRIAD_MATRIX,
    /* No team case (threads=N) by default: a team takes every CPU it names from whatever else runs
     * there. tests/64-penalties-roofline.t checks teams under sim and perf, which count every member. */
    NULL,
};

static const struct kernel triad_kernel = {
    .name = "triad",
    .summary = "a[i] = b[i] + s*c[i]: FP operations by width, loads, stores, bandwidth by level, RFO vs NT",
    .params = triad_params,
    .setup = triad_setup,
    .loop = triad_loop,
    .model = triad_model,
    .teardown = triad_teardown,
    .matrix = triad_matrix,
    .per = Q_FLOPS_DP,
    .per_name = "flop",
};
PMUCAL_KERNEL(triad_kernel)

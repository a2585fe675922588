/* snoop: cache lines moving between cores. A writer thread on one core modifies (HITM) or only
 * reads (clean snoop hit) every line of a segment; the measuring thread on another core, the
 * reader, then walks the segment as a ring of dependent loads, so every load waits for one line
 * to come over from the writer's cache: the cycles per iteration are the one-way transfer
 * latency of a line.
 *
 * The handshake (token passing with C11 acquire/release atomics) lives in prepare(), which the
 * measurement core calls before every measured loop and never counts. The measured region is
 * only the reader's walk, exact inline asm with no waiting in it: the chase loop with one load
 * a trip (ISA_CHASE_LOOP, arch/isa.h), so loop(n) - loop(0) is exactly n loads and n loop tests,
 * with any counter source, however long the handshake spun. A run reads at most one segment (max_iters):
 * every load of a run finds its line where the writer left it. */
#include "arch/isa.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/mem.h"
#include "host/clock.h"
#include "host/geometry.h"
#include "host/topo.h"
#include "microkernels/snoop_transfer.h"
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() (RUNNING_ON_VALGRIND != 0)
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND() (getenv("LD_PRELOAD") && strstr(getenv("LD_PRELOAD"), "vgpreload"))
#endif

enum snoop_mode { MODE_HITM, MODE_SHARED, MODE_FLUSH, MODE_LOCAL };
static const char *const mode_names[] = {"hitm", "shared", "flush", "local"};

#define SNOOP_QUIT UINT32_MAX
#define SNOOP_TIMEOUT_S 30.0

struct snoop {
    alignas(64) _Atomic uint32_t request;  /* reader -> writer: sequence number of the job, or QUIT */
    alignas(64) _Atomic uint32_t done;     /* writer -> reader: the last sequence number finished */
    alignas(64) struct buffer buf;
    void **head;                           /* the ring's first element: every run starts there */
    uint64_t lines;
    enum snoop_mode mode;
    int writer_cpu, node;
    uint32_t seq;
    bool sleepy;                           /* under valgrind: the idle writer sleeps (futex) */
    pthread_t writer;
    bool writer_running;
    _Atomic int writer_rc;                 /* 0 running, -1 could not bind */
};

static const struct param snoop_params[] = {
    {"mode", PARAM_ENUM, "hitm", "hitm: the writer stores to every line (modified in its cache); shared: the "
     "writer only reads them after they were flushed (clean in its cache); flush: the lines are flushed "
     "(flushed from every cache), nobody holds them, they come from DRAM; local: the reader's own copies (reference)",
     "hitm|shared|flush|local", NULL},
    {"size", PARAM_SIZE, "L2", "segment the writer prepares and a run reads: bytes or L1|L2|L3|DRAM (well inside "
     "it); L1 and L2 stay in the writer's private caches, L3 mostly spills to the shared L3", NULL, "128..1G levels"},
    {"init_cpu", PARAM_CPU, "0", "CPU that first touches the buffer (builds the ring)", NULL, NULL},
    {"writer_cpu", PARAM_CPU, "1", "CPU of the writer thread; must differ from run_cpu", NULL, NULL},
    {"run_cpu", PARAM_CPU, "0", "CPU of the reader: the measuring thread, the one whose counters are read", NULL, NULL},
    {"numa", PARAM_ENUM, "local", "NUMA node of the buffer (first touch under hwloc memory binding): local to "
     "run_cpu, or remote (another node; SKIP on a one-node machine)", "local|remote", NULL},
    {"seed", PARAM_UINT, "1", "seed of the ring's random order", NULL, "0..4294967295"},
    {NULL, 0, NULL, NULL, NULL, NULL},
};

/* The writer's job on every line: a store to word 1 (the ring pointer in word 0 stays), or a load. */
static void writer_job(struct snoop *s, uint32_t seq)
{
    char *base = s->buf.base;
    if (s->mode == MODE_HITM)
        for (uint64_t i = 0; i < s->lines; i++)
            ((volatile uint64_t *)(base + i * 64))[1] = seq;
    else if (s->mode == MODE_SHARED)
        for (uint64_t i = 0; i < s->lines; i++)
            (void)((volatile uint64_t *)(base + i * 64))[1];
}

static void futex_wait(_Atomic uint32_t *word, uint32_t val)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* On hardware the idle writer spins (a spin-wait hint, a yield now and then) and never sleeps: a core that
 * sleeps may flush its caches, and the lines must stay in them while the reader walks. Under
 * valgrind, which runs one thread at a time, it sleeps on a futex instead, so it executes nothing
 * while the reader's region is measured, whether the simulator counts per thread or in total. */
static void *writer_main(void *arg)
{
    struct snoop *s = arg;
    if (topo_bind_thread(s->writer_cpu)) {
        atomic_store_explicit(&s->writer_rc, -1, memory_order_release);
        return NULL;
    }
    uint32_t last = 0;
    for (unsigned spins = 0;;) {
        uint32_t r = atomic_load_explicit(&s->request, memory_order_acquire);
        if (r == SNOOP_QUIT)
            return NULL;
        if (r == last) {
            if (s->sleepy) {
                futex_wait(&s->request, last);
                continue;
            }
            isa_cpu_relax();
            if (++spins % 256 == 0)
                sched_yield();
            continue;
        }
        writer_job(s, r);
        last = r;
        atomic_store_explicit(&s->done, r, memory_order_release);
    }
}

static void flush_lines(struct snoop *s)
{
    for (uint64_t i = 0; i < s->lines; i++)
        isa_flush_line(s->buf.base + i * 64);
    isa_flush_done();
}

/* Hands the token to the writer and waits for it back. Bounded: a writer that does not answer
 * (its CPU offline or starved) ends the process with a message instead of hanging it. */
static void handshake(struct snoop *s)
{
    uint32_t seq = ++s->seq;
    atomic_store_explicit(&s->request, seq, memory_order_release);
    if (s->sleepy)
        futex_wake(&s->request);
    double deadline = 0;
    for (unsigned spins = 1; atomic_load_explicit(&s->done, memory_order_acquire) != seq; spins++) {
        isa_cpu_relax();
        if (spins % 256)
            continue;
        sched_yield();
        double now = clock_now_seconds();
        if (!deadline)
            deadline = now + SNOOP_TIMEOUT_S;
        else if (now > deadline)
            pm_die("snoop: the writer thread on CPU %d did not answer within %.0f s; is that CPU offline "
                     "or saturated? choose another with writer_cpu=", s->writer_cpu, SNOOP_TIMEOUT_S);
    }
}

static void snoop_prepare(struct case_ *c)
{
    struct snoop *s = c->priv;
    switch (s->mode) {
    case MODE_HITM:
        handshake(s);
        break;
    case MODE_SHARED:
        flush_lines(s);
        handshake(s);
        break;
    case MODE_FLUSH:
        flush_lines(s);
        break;
    case MODE_LOCAL:
        break;
    }
}

struct init_args {
    struct case_ *c;
    struct snoop *s;
    uint64_t size;
    int rc;
};

/* First touch on init_cpu, with the pages bound to the chosen node beforehand. */
static void *init_main(void *arg)
{
    struct init_args *a = arg;
    struct snoop *s = a->s;
    a->rc = CASE_ERROR;
    if (topo_bind_thread(case_cpu(a->c, "init_cpu")) ||
        buffer_alloc_untouched(&s->buf, a->size, a->size >= (2u << 20), "snoop") ||
        topo_membind_area(s->buf.base, s->buf.size, s->node))
        return NULL;
    memset(s->buf.base, 0, s->buf.size);
    uint64_t *order = xmalloc(s->lines * sizeof(*order));
    for (uint64_t i = 0; i < s->lines; i++)
        order[i] = i;
    struct rng r;
    rng_seed(&r, case_uint(a->c, "seed"));
    for (uint64_t i = s->lines - 1; i > 1; i--) {   /* Sattolo: one cycle through every line */
        uint64_t j = 1 + rng_below(&r, i);
        uint64_t t = order[i]; order[i] = order[j]; order[j] = t;
    }
    char *base = s->buf.base;
    for (uint64_t i = 0; i < s->lines; i++)
        *(void **)(base + order[i] * 64) = base + order[(i + 1) % s->lines] * 64;
    s->head = (void **)(base + order[0] * 64);
    free(order);
    a->rc = CASE_OK;
    return NULL;
}

static int snoop_setup(struct case_ *c)
{
    /* aligned_alloc: the two token lines must each own a cache line, as their alignas says. */
    size_t bytes = (sizeof(struct snoop) + 63) / 64 * 64;
    struct snoop *s = aligned_alloc(64, bytes);
    if (!s)
        pm_die("out of memory");
    memset(s, 0, bytes);
    c->priv = s;
    for (int m = 0; m < (int)ARRAY_SIZE(mode_names); m++)
        if (case_is(c, "mode", mode_names[m]))
            s->mode = (enum snoop_mode)m;
#ifdef ISA_NO_FLUSH   /* an ISA whose user space cannot flush a line (arch/<ARCH>/regions.h says why) */
    if (s->mode == MODE_SHARED || s->mode == MODE_FLUSH) {
        snprintf(c->skip, sizeof(c->skip), "mode=%s flushes the lines first: %s", mode_names[s->mode], ISA_NO_FLUSH);
        return CASE_SKIP;
    }
#endif
    int reader = case_cpu(c, "run_cpu");
    s->writer_cpu = case_cpu(c, "writer_cpu");
    if (s->writer_cpu == reader) {
        pm_error("snoop: writer_cpu=%d and run_cpu=%d are the same CPU; a transfer needs two, e.g. "
                 "writer_cpu=%d run_cpu=%d (lscpu lists the CPUs)", s->writer_cpu, reader,
                 reader == 0 ? 1 : 0, reader);
        return CASE_ERROR;
    }
    int nodes[256], nn = topo_nodes(nodes, 256), home = topo_cpu_node(reader);
    s->node = home < 0 && nn ? nodes[0] : home;
    if (case_is(c, "numa", "remote")) {
        s->node = -1;
        for (int i = 0; i < nn && s->node < 0; i++)
            if (nodes[i] != home && topo_node_cpu(nodes[i]) >= 0)
                s->node = nodes[i];
        if (s->node < 0) {
            snprintf(c->skip, sizeof(c->skip), "numa=remote needs a second NUMA node; this machine has %d", nn);
            return CASE_SKIP;
        }
    }
    uint64_t size = case_size(c, "size");
    s->lines = size / 64;
    if (s->lines < 2) {
        pm_error("snoop: size=%s holds fewer than 2 cache lines; give at least 128 bytes", case_str(c, "size"));
        return CASE_ERROR;
    }
    struct init_args a = {.c = c, .s = s, .size = s->lines * 64};
    pthread_t t;
    if (pthread_create(&t, NULL, init_main, &a)) {
        pm_error("snoop: cannot start the initializing thread");
        return CASE_ERROR;
    }
    pthread_join(t, NULL);
    if (a.rc != CASE_OK)
        return a.rc;
    /* The core-clock ratio is measured before the writer spins: on a VM whose vCPUs are SMT
     * siblings of one host core, a spinning neighbour halves the add chain's speed. */
    clock_get();
    /* The writer runs in every mode, its job empty in flush and local: the reference walks see
     * the same spinning neighbour as the transfers. */
    s->sleepy = UNDER_VALGRIND();
    {
        if (pthread_create(&s->writer, NULL, writer_main, s)) {
            pm_error("snoop: cannot start the writer thread");
            return CASE_ERROR;
        }
        s->writer_running = true;
        /* One job proves the writer is bound and answering before anything is measured. */
        uint32_t seq = ++s->seq;
        atomic_store_explicit(&s->request, seq, memory_order_release);
        if (s->sleepy)
            futex_wake(&s->request);
        double deadline = clock_now_seconds() + SNOOP_TIMEOUT_S;
        while (atomic_load_explicit(&s->done, memory_order_acquire) != seq) {
            if (atomic_load_explicit(&s->writer_rc, memory_order_acquire))
                return CASE_ERROR;   /* topo_bind_thread said why */
            if (clock_now_seconds() > deadline) {
                pm_error("snoop: the writer thread on CPU %d did not start within %.0f s", s->writer_cpu,
                         SNOOP_TIMEOUT_S);
                return CASE_ERROR;
            }
            sched_yield();
        }
    }
    c->max_iters = s->lines;
    c->warm_iters = s->lines;
    snprintf(c->detail, sizeof(c->detail), "lines=%llu page=%s node=%d relation=%s",
             (unsigned long long)s->lines, page_kind_name(s->buf.kind), s->node,
             topo_relation_name(topo_relation(s->writer_cpu, reader)));
    return CASE_OK;
}

/* The measured region: n dependent loads along the ring from its head, nothing else. */
static void snoop_loop(struct case_ *c, uint64_t iters)
{
    struct snoop *s = c->priv;
    void **p = s->head;
    uint64_t n = iters;
    ISA_CHASE_LOOP("1");
}

/* Fractions of the segment's lines found in the writer's private caches, in the L3 and in DRAM
 * when the writer has just gone through all of them in order (LRU: the last ones stay closest). */
static void placement(uint64_t bytes, double *priv, double *l3, double *dram)
{
    const struct topo *t = topo_get();
    double seg = (double)bytes, l2 = (double)t->data[2].size, llc = (double)t->data[3].size;
    *priv = !l2 ? 0 : seg <= l2 ? 1 : l2 / seg;
    *l3 = llc ? fmin(1 - *priv, llc / seg) : 0;
    *dram = 1 - *priv - *l3;
}

static void snoop_model(const struct case_ *c, struct quantities *q)
{
    const struct snoop *s = c->priv;
    q->v[Q_INST] = ISA_CHASE_STEP_INST + ISA_LOOP_TEST_INST;
    q->v[Q_LD_ALL] = 1;
    q->v[Q_ST_ALL] = 0;
    q->v[Q_BYTES_READ] = 8;
    q->v[Q_BYTES_WRITTEN] = 0;
    q->v[Q_BR_ALL] = q->v[Q_BR_COND] = q->v[Q_BR_COND_TAKEN] = 1;
    q->v[Q_BR_COND_NTAKEN] = q->v[Q_BR_UNCOND] = q->v[Q_BR_INDIRECT] = q->v[Q_BR_CALL] = q->v[Q_BR_RET] = 0;
    q->v[Q_BR_MISPRED] = 0;
    q->v[Q_PF_MINOR] = 0;
    q->v[Q_CTX_SWITCH] = q->v[Q_CPU_MIGRATION] = 0;
    q->v[Q_FP_SCALAR_DP] = q->v[Q_FP_128_DP] = q->v[Q_FP_256_DP] = q->v[Q_FP_512_DP] = q->v[Q_FLOPS_DP] = 0;
    /* No mode leaves a stale copy for a snoop to miss: every L3 hit here needs no snoop. */
    q->v[Q_XSNP_MISS] = 0;
    double priv, l3, dram;
    placement(s->lines * 64, &priv, &l3, &dram);
    q->v[Q_LD_L1] = q->v[Q_LD_L2] = q->v[Q_LD_L3] = q->v[Q_LD_DRAM] = 0;
    q->v[Q_XSNP_HITM] = q->v[Q_XSNP_HIT] = q->v[Q_LINES_XFER] = 0;
    switch (s->mode) {
    case MODE_HITM:
    case MODE_SHARED:
        q->v[s->mode == MODE_HITM ? Q_XSNP_HITM : Q_XSNP_HIT] = priv;
        q->v[Q_LINES_XFER] = priv;
        q->v[Q_LD_L3] = l3;
        q->v[Q_LD_DRAM] = dram;
        break;
    case MODE_FLUSH:
        q->v[Q_LD_DRAM] = 1;
        break;
    case MODE_LOCAL: {
        int level = level_of_size(s->lines * 64);
        q->v[level == 1 ? Q_LD_L1 : level == 2 ? Q_LD_L2 : level == 3 ? Q_LD_L3 : Q_LD_DRAM] = 1;
        break;
    }
    }
    q->v[Q_LINES_L2] = q->v[Q_LD_L2];
    q->v[Q_LINES_L3] = q->v[Q_LD_L3];
    q->v[Q_LINES_DRAM] = q->v[Q_LD_DRAM];
    static const char *const why[] = {
        [MODE_HITM] = "d1.miss.warm, ll.miss.warm: the writer thread stores to the lines before each loop, in the "
                      "simulator's one set of caches, and the model does not follow which of them that evicts",
        [MODE_SHARED] = "d1.miss.warm, ll.miss.warm: the lines are flushed and read by the writer thread before each "
                        "run, which the model does not follow in the simulator's one set of caches",
        [MODE_FLUSH] = "d1.miss.warm, ll.miss.warm: the lines are flushed before each loop, and callgrind's caches "
                       "do not simulate a flush",
        [MODE_LOCAL] = "d1.miss.warm, ll.miss.warm: the model states where the reader's lines come from on a core, "
                       "not which of them a set-associative LRU cache keeps",
    };
    q->unstated_why = why[s->mode];
}

static void snoop_teardown(struct case_ *c)
{
    struct snoop *s = c->priv;
    if (!s)
        return;
    if (s->writer_running) {
        atomic_store_explicit(&s->request, SNOOP_QUIT, memory_order_release);
        futex_wake(&s->request);
        pthread_join(s->writer, NULL);
    }
    buffer_free(&s->buf);
    free(s);
    c->priv = NULL;
}

/* After the table of 'pmucal run': the transfer's cost per line over the same walk on local
 * copies, measured now as its own case. */
static void snoop_report(struct case_ *c, const struct stats *cycles, double core_ghz, const struct quantities *q)
{
    const struct snoop *s = c->priv;
    if (s->mode != MODE_HITM && s->mode != MODE_SHARED)
        return;
    struct snoop_penalty p;
    if (snoop_penalty_from_case(c, cycles, core_ghz, q, &p))
        return;
    snoop_penalty_print(&p, stdout);
}

static const char *const snoop_matrix[] = {
    "mode=hitm",
    "mode=shared",
    "mode=flush",
    "mode=local",
    "mode=hitm size=L1",
    "mode=shared size=L1",
    "mode=flush numa=remote",
    NULL,
};

static const struct kernel snoop_kernel = {
    .name = "snoop",
    .summary = "cache lines from another core: HITM vs clean snoop hit vs DRAM, one dependent load per line",
    .params = snoop_params,
    .setup = snoop_setup,
    .prepare = snoop_prepare,
    .loop = snoop_loop,
    .model = snoop_model,
    .teardown = snoop_teardown,
    .report = snoop_report,
    .matrix = snoop_matrix,
    .per = Q_LD_ALL,
    .per_name = "line",
};
PMUCAL_KERNEL(snoop_kernel)

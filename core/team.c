/* Members wait for a run by spinning on the generation count (a futex wake-up would add tens of
 * microseconds to a region timed in windows of about 100): a pause a turn, a yield every 256
 * turns so that a member sharing its CPU (a simulator runs one thread at a time) lets others on. */
#include "core/team.h"
#include "arch/isa.h"
#include "base/util.h"
#include "core/kernel.h"
#include "host/topo.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

void (*team_member_hook)(bool begin);

/* The live teams, for a counter source to find the members of the one its thread leads. */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct team *live;

enum job { JOB_RUN, JOB_EACH, JOB_QUIT };

struct member {
    struct team *team;
    unsigned index;
    int cpu;
    pid_t tid;            /* its thread id, for counters opened on it */
    pthread_t thread;
    _Atomic int bound;    /* 1 bound, -1 could not bind, 0 not yet */
};

struct team {
    unsigned n;
    team_work work;
    void *ctx;
    struct member *members;
    _Atomic uint64_t generation;
    _Atomic unsigned done;
    enum job job;
    uint64_t iters;
    void (*each)(void *ctx, unsigned member);
    struct team *next_live;
};

static void spin_turn(unsigned *turns)
{
    if (++*turns % 256 == 0)
        sched_yield();
    else
        isa_cpu_relax();
}

static void member_do(struct team *t, unsigned index)
{
    if (t->job == JOB_EACH) {
        t->each(t->ctx, index);
        return;
    }
    void (*hook)(bool) = team_member_hook;
    if (hook && index)
        hook(true);
    t->work(t->ctx, index, t->iters);
    if (hook && index)
        hook(false);
}

static void *member_main(void *arg)
{
    struct member *m = arg;
    struct team *t = m->team;
    uint64_t seen = 0;
    m->tid = (pid_t)syscall(SYS_gettid);
    atomic_store(&m->bound, topo_bind_thread(m->cpu) ? -1 : 1);
    for (;;) {
        unsigned turns = 0;
        uint64_t g;
        while ((g = atomic_load_explicit(&t->generation, memory_order_acquire)) == seen)
            spin_turn(&turns);
        seen = g;
        if (t->job == JOB_QUIT)
            return NULL;
        member_do(t, m->index);
        atomic_fetch_add_explicit(&t->done, 1, memory_order_release);
    }
}

/* Start a job on every member, do member 0's part here, wait for the rest. */
static void team_job(struct team *t, enum job job)
{
    t->job = job;
    atomic_store_explicit(&t->done, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&t->generation, 1, memory_order_release);
    if (job == JOB_QUIT)
        return;
    member_do(t, 0);
    if (t->n == 1)
        return;
    void (*hook)(bool) = job == JOB_RUN ? team_member_hook : NULL;
    if (hook)
        hook(false);
    unsigned turns = 0;
    while (atomic_load_explicit(&t->done, memory_order_acquire) < t->n - 1)
        spin_turn(&turns);
    if (hook)
        hook(true);
}

struct team *team_new(unsigned n, const int *cpus, team_work work, void *ctx)
{
    struct team *t = xcalloc(1, sizeof(*t));
    t->n = n;
    t->work = work;
    t->ctx = ctx;
    t->members = xcalloc(n, sizeof(*t->members));
    t->members[0].tid = (pid_t)syscall(SYS_gettid);
    for (unsigned i = 1; i < n; i++) {
        struct member *m = &t->members[i];
        *m = (struct member){.team = t, .index = i, .cpu = cpus[i]};
        if (pthread_create(&m->thread, NULL, member_main, m)) {
            pm_error("team: cannot start the thread for CPU %d", cpus[i]);
            t->n = i;
            team_free(t);
            return NULL;
        }
        while (!atomic_load(&m->bound))
            sched_yield();
        if (m->bound < 0) {   /* topo_bind_thread said why */
            t->n = i + 1;
            team_free(t);
            return NULL;
        }
    }
    pthread_mutex_lock(&live_lock);
    t->next_live = live;
    live = t;
    pthread_mutex_unlock(&live_lock);
    return t;
}

static __thread pid_t delegate;

void team_delegate(pid_t pid)
{
    delegate = pid;
}

unsigned team_led_tids(pid_t *tids, unsigned max)
{
    pid_t me = (pid_t)syscall(SYS_gettid);
    unsigned n = 0;
    pthread_mutex_lock(&live_lock);
    for (struct team *t = live; t && !n; t = t->next_live)
        if (t->members[0].tid == me)
            for (; n < t->n && n < max; n++)
                tids[n] = t->members[n].tid;
    pthread_mutex_unlock(&live_lock);
    if (!n && max)
        tids[n++] = delegate ? delegate : me;
    return n;
}

unsigned team_size(const struct team *t)
{
    return t->n;
}

void team_each(struct team *t, void (*fn)(void *ctx, unsigned member))
{
    t->each = fn;
    team_job(t, JOB_EACH);
}

void team_run(struct team *t, uint64_t iters)
{
    t->iters = iters;
    team_job(t, JOB_RUN);
}

void team_free(struct team *t)
{
    if (!t)
        return;
    pthread_mutex_lock(&live_lock);
    for (struct team **p = &live; *p; p = &(*p)->next_live)
        if (*p == t) {
            *p = t->next_live;
            break;
        }
    pthread_mutex_unlock(&live_lock);
    if (t->n > 1)
        team_job(t, JOB_QUIT);
    for (unsigned i = 1; i < t->n; i++)
        pthread_join(t->members[i].thread, NULL);
    free(t->members);
    free(t);
}

/* run_cpu first, then the other allowed CPUs in order; the count found (at most n). */
static unsigned team_pick(unsigned n, int run_cpu, int *cpus)
{
    int all[1024], k = topo_cpus(all, 1024);
    unsigned got = 0;
    cpus[got++] = run_cpu;
    for (int i = 0; i < k && got < n; i++)
        if (all[i] != run_cpu)
            cpus[got++] = all[i];
    return got;
}

int team_for_case(struct case_ *c, unsigned threads, team_work work, void *ctx, struct team **team)
{
    if (threads == 0) {
        pm_error("%s: threads=0: a team needs at least one thread (threads=1 runs on the measuring CPU alone)",
                 c->kernel->name);
        return CASE_ERROR;
    }
    if (threads > TEAM_MAX) {
        pm_error("%s: threads=%u is more than the %d CPUs a team can use", c->kernel->name, threads, TEAM_MAX);
        return CASE_ERROR;
    }
    int *cpus = xcalloc(threads, sizeof(*cpus));
    unsigned got = team_pick(threads, topo_current_cpu(), cpus);
    if (got < threads) {
        char list[160];
        topo_cpu_list(list, sizeof(list));
        snprintf(c->skip, sizeof(c->skip), "threads=%u needs %u CPUs; this process may use %u (%s)", threads,
                 threads, got, list);
        free(cpus);
        return CASE_SKIP;
    }
    *team = team_new(threads, cpus, work, ctx);
    free(cpus);
    return *team ? CASE_OK : CASE_ERROR;
}

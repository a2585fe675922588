/* Counter source "perf": perf_event_open groups on the calling thread, encoded by libpfm4, and on
 * every other member of the team it leads (core/team.h): one group a thread, the counts summed.
 * Per thread rather than one event per CPU: it needs no privilege (a CPU-wide event does at
 * perf_event_paranoid above 0), counts no other task sharing a team's CPU, and follows a member
 * the scheduler moves. Uncore events are the exception: a memory controller counts for its
 * socket, never for a task, so they open CPU-wide (pid -1) on a CPU of each instance of their unit
 * in the measuring CPU's socket (events/uncore.h), outside the group, and the instances are
 * summed; their count includes whatever else the socket did meanwhile. */
#include "base/stop.h"
#include "base/util.h"
#include "core/source.h"
#include "core/team.h"
#include "events/catalog.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include "events/uncore.h"
#include <errno.h>
#include <sched.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The counters on one thread. */
struct thread_group {
    pid_t tid;
    int fixed_leader;       /* the fixed counters' own group, -1 when the PMU has none */
    int fixed_fd[FIXED_COUNT];
    uint64_t fixed_id[FIXED_COUNT];
    int leader;
    int nfd;
    int fd[GROUP_MAX_EVENTS + NOISE_COUNT];
    uint64_t id[GROUP_MAX_EVENTS + NOISE_COUNT];
    int slot[GROUP_MAX_EVENTS + NOISE_COUNT];   /* event index, or -1 - noise index */
    uint64_t enabled_before, running_before;   /* the leader's times at the last read */
    bool noise_blind[NOISE_COUNT];   /* a detector the kernel would not let count its own side */
};

/* One instance of an uncore event, counting CPU-wide on its own. */
struct uncore_fd {
    int fd, slot;
    uint64_t enabled_before, running_before;
};

struct group {
    unsigned nthreads;          /* the calling thread first, then its team's other members */
    struct thread_group *t;
    int nunc;                   /* uncore instances opened (the measuring thread's socket) */
    struct uncore_fd unc[GROUP_MAX_EVENTS];
};

/* perf's generic names, perf's raw syntax (rNNNN, cpu/event=..,umask=../), libpfm4's names where it
 * knows the model, then the vendor table's names (catalog.h). */
static int perf_resolve(const char *name, struct event_spec *spec, char *err, size_t errlen)
{
    spec->name = xstrdup(name);
    if (perf_generic_event(name, spec))
        return 0;
    int rc = perf_syntax_parse(name, spec, err, errlen);
    const char *known = rc > 0 ? catalog_event_name(spec) : NULL;
    if (known) {   /* r00c0 is ex_ret_instr: the table's name finds its expectation */
        free(spec->canonical);
        spec->canonical = xstrdup(known);
    }
    if (rc)
        return rc > 0 ? 0 : -1;
    char pfm_err[512], why[512] = "";
    struct pfm_core core;
    if (pfm_encode(name, spec, pfm_err, sizeof(pfm_err)) == 0)
        return 0;
    rc = catalog_resolve(name, spec, err, errlen);
    if (rc)
        return rc > 0 ? 0 : -1;
    const struct catalog *c = catalog_active(why, sizeof(why));
    if (pfm_core_pmu(&core) || !c)
        snprintf(err, errlen, "%s%s%s", pfm_err, c ? "" : "; no vendor table either: ", c ? "" : why);
    else
        snprintf(err, errlen, "unknown event '%s': not in the %s table (%s) and " PFM_NO_CORE "; "
                 "'pmucal events' lists the table's names, or use perf's rNNNN / cpu/event=0x..,umask=0x../",
                 name, c->name, c->path);
    return -1;
}

/* kernel: count in the kernel too, for an event without a spec (a noise detector). */
static int open_one(struct thread_group *g, uint32_t type, uint64_t config, uint64_t c1, uint64_t c2, int slot,
                    const struct event_spec *spec, bool kernel)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = type;
    a.config = config;
    a.config1 = c1;
    a.config2 = c2;
    a.exclude_kernel = spec ? !spec->count_kernel : !kernel;
    a.exclude_user = spec && spec->exclude_user;
    a.exclude_hv = 1;
    a.disabled = g->leader < 0;   /* members follow the leader */
    a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
                    PERF_FORMAT_TOTAL_TIME_RUNNING;
    int fd = (int)syscall(SYS_perf_event_open, &a, g->tid, -1, g->leader, 0);
    if (fd < 0)
        return -errno;
    uint64_t id = 0;
    if (ioctl(fd, PERF_EVENT_IOC_ID, &id)) {
        int e = errno;
        close(fd);
        return -e;
    }
    if (g->leader < 0)
        g->leader = fd;
    g->fd[g->nfd] = fd;
    g->id[g->nfd] = id;
    g->slot[g->nfd++] = slot;
    return 0;
}

/* Does the event open by itself (it was refused as a member of a group)? */
static bool opens_alone(const struct event_spec *s)
{
    struct thread_group solo = {.leader = -1};
    if (open_one(&solo, s->type, s->config, s->config1, s->config2, 0, s, false))
        return false;
    close(solo.fd[0]);
    return true;
}

/* An uncore event on every instance of its unit in the socket of the CPU this thread runs on (the
 * measuring thread is pinned): NULL, or why it cannot be counted here. */
static const char *open_uncore(struct group *g, const struct event_spec *s, int slot, char *why, size_t n)
{
    struct uncore_instance inst[UNCORE_MAX_INSTANCES];
    int cpu = sched_getcpu();
    int count = uncore_instances(s->uncore, cpu < 0 ? 0 : cpu, inst, UNCORE_MAX_INSTANCES, why, n);
    if (!count)
        return why;
    int first = g->nunc;
    for (int i = 0; i < count; i++) {
        if (g->nunc == GROUP_MAX_EVENTS) {
            snprintf(why, n, "more than %d uncore instances in one group; measure fewer uncore events together",
                     GROUP_MAX_EVENTS);
            break;
        }
        struct perf_event_attr a;
        memset(&a, 0, sizeof(a));
        a.size = sizeof(a);
        a.type = inst[i].type;
        a.config = s->config;
        a.disabled = 1;   /* no exclude bits: an uncore unit counts every privilege level, and refuses them */
        a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
        int fd = (int)syscall(SYS_perf_event_open, &a, -1, inst[i].cpu, -1, 0);
        if (fd < 0) {
            int e = errno;
            if (e == EACCES || e == EPERM)
                perf_cpu_wide_denied(why, n);
            else {
                char r[256];
                snprintf(why, n, "%s on CPU %d: %s", inst[i].name, inst[i].cpu,
                         perf_open_reason(e, false, r, sizeof(r)));
            }
            break;
        }
        g->unc[g->nunc++] = (struct uncore_fd){.fd = fd, .slot = slot};
    }
    if (g->nunc - first == count)
        return NULL;
    while (g->nunc > first)   /* all instances or none: a part of the socket's channels is no count */
        close(g->unc[--g->nunc].fd);
    return why;
}

static const uint64_t noise_config[NOISE_COUNT] = {
    [NOISE_CTX_SWITCH] = PERF_COUNT_SW_CONTEXT_SWITCHES,
    [NOISE_MIGRATION] = PERF_COUNT_SW_CPU_MIGRATIONS,
    [NOISE_PAGE_FAULT] = PERF_COUNT_SW_PAGE_FAULTS,
};

static void close_thread(struct thread_group *g)
{
    for (int i = 0; i < g->nfd; i++)
        close(g->fd[i]);
    for (int k = 0; k < FIXED_COUNT; k++)
        if (g->fixed_fd[k] >= 0)
            close(g->fixed_fd[k]);
}

static void perf_close(struct group *g)
{
    for (unsigned i = 0; i < g->nthreads; i++)
        close_thread(&g->t[i]);
    for (int k = 0; k < g->nunc; k++)
        close(g->unc[k].fd);
    free(g->t);
    free(g);
}

static const uint64_t fixed_config[FIXED_COUNT] = {
    [FIXED_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
    [FIXED_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
    [FIXED_REF_CYCLES] = PERF_COUNT_HW_REF_CPU_CYCLES,
};

/* Only on PMUs with fixed counters (Intel): elsewhere these would take programmable counters
 * from the group under test. A fixed counter that will not open is simply absent (NaN). */
static void open_fixed(struct thread_group *g)
{
    struct pfm_core core;
    g->fixed_leader = -1;
    for (int k = 0; k < FIXED_COUNT; k++)
        g->fixed_fd[k] = -1;
    if (!pfm_core_pmu(&core) || core.fixed_counters <= 0)
        return;
    for (int k = 0; k < FIXED_COUNT; k++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof(a));
        a.size = sizeof(a);
        a.type = PERF_TYPE_HARDWARE;
        a.config = fixed_config[k];
        a.exclude_kernel = 1;
        a.exclude_hv = 1;
        a.disabled = g->fixed_leader < 0;
        a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
        int fd = (int)syscall(SYS_perf_event_open, &a, g->tid, -1, g->fixed_leader, 0);
        if (fd < 0)
            continue;
        if (ioctl(fd, PERF_EVENT_IOC_ID, &g->fixed_id[k])) {
            close(fd);
            continue;
        }
        g->fixed_fd[k] = fd;
        if (g->fixed_leader < 0)
            g->fixed_leader = fd;
    }
}

/* A context switch or a migration happens in the kernel: counted user-side only, as events of
 * user code are, they read 0 beside a busy loop on the same CPU (perf stat: 0 context-switches:u,
 * 64 context-switches), and no repetition another task interrupted was ever measured again. Where
 * the kernel will not count its side for this user (perf_event_paranoid 2 without CAP_PERFMON),
 * the detector is blind and reads NaN, never 0. */
static const bool noise_in_kernel[NOISE_COUNT] = {[NOISE_CTX_SWITCH] = true, [NOISE_MIGRATION] = true};

/* The noise detectors and events on one thread (the fixed counters apart). */
static int open_noise(struct thread_group *g)
{
    /* Software noise detectors: they always open, so where they come first (perf_open) they lead
     * and hardware members join. */
    for (int k = 0; k < NOISE_COUNT; k++) {
        int rc = open_one(g, PERF_TYPE_SOFTWARE, noise_config[k], 0, 0, -1 - k, NULL, noise_in_kernel[k]);
        if (noise_in_kernel[k] && (rc == -EACCES || rc == -EPERM)) {
            static bool said;
            if (!said)
                pm_note("context switches and migrations cannot be counted here (the Linux kernel counts them on its "
                        "side, which kernel.perf_event_paranoid %d keeps from this user): a repetition another task "
                        "interrupted is kept, not measured again; the timing windows still tell a preempted window "
                        "by its length. Give CAP_PERFMON or 'sudo sysctl kernel.perf_event_paranoid=1'",
                        perf_paranoid_level());
            said = true;
            g->noise_blind[k] = true;
            rc = open_one(g, PERF_TYPE_SOFTWARE, noise_config[k], 0, 0, -1 - k, NULL, false);
        }
        if (rc) {
            char why[256];
            if (!(rc == -ESRCH && stop_requested()))   /* the stop ended the task counted */
                pm_error("cannot open the software event %s on thread %ld: %s", noise_name[k], (long)g->tid,
                         perf_open_reason(-rc, false, why, sizeof(why)));
            return -1;
        }
    }
    return 0;
}

/* The measuring thread's group (and its uncore events, beside it): an event that will not open
 * here is marked unsupported. */
static void open_events(struct group *team, struct thread_group *g, struct event_spec **events, int n)
{
    int joined = 0;   /* hardware members in the group so far */
    for (int e = 0; e < n; e++) {
        struct event_spec *s = events[e];
        s->leads = false;
        if (s->unsupported)
            continue;
        if (s->uncore[0]) {
            char why[512];
            if (open_uncore(team, s, e, why, sizeof(why)))
                s->unsupported = xstrdup(why);
            continue;
        }
        bool hardware = s->type != PERF_TYPE_SOFTWARE;
        int rc = open_one(g, s->type, s->config, s->config1, s->config2, e, s, false);
        if (!rc) {
            joined += hardware;
            s->leads = g->fd[g->nfd - 1] == g->leader;
            continue;
        }
        char why[256];
        if (rc == -EINVAL && hardware && joined && opens_alone(s))
            /* arm64's PMU drivers check at open that a group fits their counters (x86 finds out
             * when it schedules the group): an encoding that opens alone did not fit. The
             * engine splits the group on this reason. */
            snprintf(why, sizeof(why), "no free counter (EINVAL on joining a group of %d hardware events, though "
                     "it opens alone): the group holds more events than the PMU has counters", joined);
        else if (!hardware && s->count_kernel && !s->exclude_user && (rc == -EACCES || rc == -EPERM))
            /* Counted user-side instead it would read 0 by construction: a rule on it could not fail. */
            snprintf(why, sizeof(why), "counted on the Linux kernel's side, where it happens, which "
                     "kernel.perf_event_paranoid=%d keeps from this user (user-side only it would read 0 by "
                     "construction); give CAP_PERFMON or 'sudo sysctl kernel.perf_event_paranoid=1'",
                     perf_paranoid_level());
        else
            perf_open_reason(-rc, hardware, why, sizeof(why));
        s->unsupported = xstrdup(why);
    }
}

/* Another team member's group: the same events, each of which opened on the measuring thread; one
 * that will not open on a member cannot be counted for the team. */
static int open_member_events(struct thread_group *g, struct event_spec **events, int n)
{
    for (int e = 0; e < n; e++) {
        struct event_spec *s = events[e];
        if (s->unsupported || s->uncore[0])   /* the socket's count covers every member in it */
            continue;
        int rc = open_one(g, s->type, s->config, s->config1, s->config2, e, s, false);
        if (rc) {
            char why[256];
            pm_error("%s opens on the measuring thread but not on its team's thread %ld: %s; a team's count "
                     "would miss that thread (measure the case with threads=1)", s->name, (long)g->tid,
                     perf_open_reason(-rc, s->type != PERF_TYPE_SOFTWARE, why, sizeof(why)));
            return -1;
        }
    }
    return 0;
}

/* Who leads a group decides what the kernel checks when a member joins. pmucal's own groups are
 * led by the software noise detectors: they always open, and an arm64 driver then counts every
 * hardware member against its counters, refusing one too many (EINVAL). A perf {a,b,c} group of
 * the -e list is led by its first event that opens, as perf leads it: the leader is created
 * disabled, and armv8_pmuv3 leaves a disabled leader out of that count, so a group one larger
 * than the counters opens and is then never scheduled (time_running 0), which the engine reports
 * and splits. The noise detectors join such a group after its events. */
static struct group *perf_open(struct event_spec **events, int n)
{
    bool perf_group = n > 0 && events[0]->group;
    pid_t tids[TEAM_MAX];
    struct group *g = xcalloc(1, sizeof(*g));
    unsigned members = team_led_tids(tids, TEAM_MAX);
    g->t = xcalloc(members, sizeof(*g->t));
    for (unsigned i = 0; i < members; i++) {
        struct thread_group *t = &g->t[i];
        /* 0: the calling thread, unless it counts another task (team_delegate) */
        *t = (struct thread_group){.tid = i || tids[0] != (pid_t)syscall(SYS_gettid) ? tids[i] : 0, .leader = -1};
        g->nthreads = i + 1;
        open_fixed(t);
        if ((!perf_group && open_noise(t)) || (i ? open_member_events(t, events, n) : (open_events(g, t, events, n), 0)) ||
            (perf_group && open_noise(t))) {
            perf_close(g);
            return NULL;
        }
    }
    return g;
}

/* The fixed groups are enabled first and disabled last, so they span the groups under test; the
 * zero-iteration run subtracts the ioctls it sees in between (and a team's members' spin on the
 * groups enabled before theirs). */
static void perf_start(struct group *g)
{
    for (unsigned i = 0; i < g->nthreads; i++)
        if (g->t[i].fixed_leader >= 0) {
            ioctl(g->t[i].fixed_leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
            ioctl(g->t[i].fixed_leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
        }
    for (int k = 0; k < g->nunc; k++) {   /* uncore around the task's groups, as the fixed ones */
        ioctl(g->unc[k].fd, PERF_EVENT_IOC_RESET, 0);
        ioctl(g->unc[k].fd, PERF_EVENT_IOC_ENABLE, 0);
    }
    for (unsigned i = 0; i < g->nthreads; i++) {
        ioctl(g->t[i].leader, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
        ioctl(g->t[i].leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    }
}

static void perf_stop(struct group *g)
{
    for (unsigned i = g->nthreads; i-- > 0;)
        ioctl(g->t[i].leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    for (int k = g->nunc; k-- > 0;)
        ioctl(g->unc[k].fd, PERF_EVENT_IOC_DISABLE, 0);
    for (unsigned i = g->nthreads; i-- > 0;)
        if (g->t[i].fixed_leader >= 0)
            ioctl(g->t[i].fixed_leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

static void read_fixed(struct thread_group *g, struct group_reading *r)
{
    uint64_t buf[1 + 2 * FIXED_COUNT];
    if (g->fixed_leader < 0 || read(g->fixed_leader, buf, sizeof(buf)) < (ssize_t)sizeof(uint64_t))
        return;
    for (uint64_t i = 0; i < buf[0] && i < FIXED_COUNT; i++)
        for (int k = 0; k < FIXED_COUNT; k++)
            if (g->fixed_fd[k] >= 0 && g->fixed_id[k] == buf[2 + 2 * i])
                r->fixed[k] += (double)buf[1 + 2 * i];
}

static double *count_of(struct group_reading *r, int slot)
{
    return slot >= 0 ? &r->value[slot] : &r->noise[-1 - slot];
}

/* One thread's group added to the reading; its enabled and running times in *enabled, *running. */
static int read_thread(struct thread_group *g, struct group_reading *r, uint64_t *enabled, uint64_t *running)
{
    uint64_t buf[3 + 2 * (GROUP_MAX_EVENTS + NOISE_COUNT)];
    ssize_t got = read(g->leader, buf, sizeof(buf));
    if (got < (ssize_t)(3 * sizeof(uint64_t))) {
        pm_error("reading the counter group%s failed: %s", g->tid ? " of a team member" : "",
                 got < 0 ? strerror(errno) : "short read");
        return -1;
    }
    read_fixed(g, r);
    uint64_t nr = buf[0];
    /* The kernel's times run from the open: this run's are the difference (core/source.h). */
    *enabled = buf[1] - g->enabled_before;
    *running = buf[2] - g->running_before;
    g->enabled_before = buf[1];
    g->running_before = buf[2];
    for (uint64_t i = 0; i < nr; i++) {
        uint64_t value = buf[3 + 2 * i], id = buf[4 + 2 * i];
        for (int f = 0; f < g->nfd; f++)
            if (g->id[f] == id)
                *count_of(r, g->slot[f]) += (double)value;
    }
    return 0;
}

/* The uncore instances summed per event; a counter the kernel multiplexed makes the reading so,
 * as a team member's does. */
static int read_uncore(struct group *g, struct group_reading *r)
{
    for (int k = 0; k < g->nunc; k++)
        r->value[g->unc[k].slot] = 0;
    for (int k = 0; k < g->nunc; k++) {
        struct uncore_fd *u = &g->unc[k];
        uint64_t buf[3];
        ssize_t got = read(u->fd, buf, sizeof(buf));
        if (got != (ssize_t)sizeof(buf)) {
            pm_error("reading an uncore counter failed: %s", got < 0 ? strerror(errno) : "short read");
            return -1;
        }
        r->value[u->slot] += (double)buf[0];
        group_reading_take_times(r, g->nthreads + (unsigned)k, buf[1] - u->enabled_before, buf[2] - u->running_before);
        u->enabled_before = buf[1];
        u->running_before = buf[2];
    }
    return 0;
}

/* The team's counts are the sum over its threads, its times those of the least scheduled one. */
static int perf_read(struct group *g, struct group_reading *r)
{
    /* Every thread opened the events the first did: those counts start from 0, the rest are left
     * as the caller set them (not counted). */
    const struct thread_group *first = &g->t[0];
    for (int f = 0; f < first->nfd; f++)
        *count_of(r, first->slot[f]) = 0;
    for (int k = 0; k < FIXED_COUNT; k++)
        if (first->fixed_fd[k] >= 0)
            r->fixed[k] = 0;
    for (unsigned i = 0; i < g->nthreads; i++) {
        uint64_t enabled, running;
        if (read_thread(&g->t[i], r, &enabled, &running))
            return -1;
        group_reading_take_times(r, i, enabled, running);
    }
    for (int k = 0; k < NOISE_COUNT; k++)
        if (first->noise_blind[k])
            r->noise[k] = NAN;
    return read_uncore(g, r);
}

static const struct source perf_source = {
    .name = "perf",
    .summary = "perf_event_open on this host (libpfm4 encodings, perf generic and software events)",
    .exact_floor = 0.01,
    .real_time = true,
    .libpfm_events = true,
    .hw_probe = true,
    .resolve = perf_resolve,
    .open = perf_open,
    .start = perf_start,
    .stop = perf_stop,
    .read = perf_read,
    .close = perf_close,
};
PMUCAL_SOURCE(perf_source)

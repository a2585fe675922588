/* Counter source "perfstat": the perf tool itself counts, so a perf upgrade is checked the way a
 * kernel upgrade is, and comparing it with the direct source shows what perf adds.
 *
 * Each group starts one 'perf stat' on the measuring thread (-t TID) with its events disabled
 * (-D -1), driven through its control pipe (--control fd:CTL,ACK): "enable" before the region,
 * "disable" after it, each answered by "ack". perf 6.1 prints counts only on its interval timer
 * (-I 10: the counts since the last print), so a run's counts are the sum of the prints between
 * its "Events disabled" and the previous one, the last of them printed after the disable. perf's
 * messages and its CSV (-x ';', to stderr) share one pipe, so their order is the order of events.
 * perf is started with an argv (no shell) on the other CPUs, so it never takes the measured one. */
#include "base/subprocess.h"
#include "base/util.h"
#include "core/source.h"
#include "core/team.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include "host/clock.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define NSLOTS (GROUP_MAX_EVENTS + NOISE_COUNT)
#define ACK_TIMEOUT_MS 10000

struct group {
    pid_t perf;
    int ctl, ack, out;                 /* our ends: commands to perf, its acks, its stderr */
    int n;                             /* perf's events: the group's counted ones, then the noise detectors */
    int slot[NSLOTS];                  /* event index, or -1 - noise index */
    char *spec[NSLOTS];                /* as given to perf -e */
    double total[NSLOTS], taken[NSLOTS];   /* counts printed so far; at the last read */
    double run_ns, enabled_ns, run_taken, enabled_taken;
    bool unsupported[NSLOTS];
    int disabled_seen, disables_sent;  /* "Events disabled" lines; disable commands sent (+1: -D -1) */
    bool block_after;                  /* a complete print came after the last disable */
    int blocks;                        /* complete prints so far */
    char line[8192];                   /* a partial line of perf's output */
    size_t len;
    char block_ts[64];                 /* the print being read and how many of its lines came */
    int block_lines;
    char log[2048];                    /* perf's last words, for a message */
};

static int perfstat_resolve(const char *name, struct event_spec *spec, char *err, size_t errlen)
{
    /* The same names and encodings as the direct source: the perf tool gets them in its syntax. */
    const struct source *perf = source_find("perf");
    return perf->resolve(name, spec, err, errlen);
}

static void remember(struct group *g, const char *line)
{
    size_t len = strlen(g->log);
    if (len + strlen(line) + 2 >= sizeof(g->log))
        len = 0;
    snprintf(g->log + len, sizeof(g->log) - len, "%s%s", len ? " | " : "", line);
}

/* One line of perf's stderr: a message, or "time;count;unit;event;runtime;pct;..." of a print. */
static void take_line(struct group *g, char *line)
{
    if (strstr(line, "Events disabled")) {
        g->disabled_seen++;
        g->block_after = false;
        return;
    }
    char *f[8] = {0};
    int nf = 0;
    for (char *p = line; nf < 8;) {
        f[nf++] = p;
        char *s = strchr(p, ';');
        if (!s)
            break;
        *s = '\0';
        p = s + 1;
    }
    char *end;
    strtod(f[0], &end);
    if (nf < 6 || end == f[0]) {
        if (line[0] && !strstr(line, "Events enabled"))
            remember(g, line);
        return;
    }
    if (strcmp(f[0], g->block_ts)) {
        snprintf(g->block_ts, sizeof(g->block_ts), "%s", f[0]);
        g->block_lines = 0;
    }
    int k = g->block_lines++;
    if (k >= g->n)
        return;
    if (strstr(f[1], "not supported"))
        g->unsupported[k] = true;
    else if (f[1][0] != '<')   /* perf prints times in msec; the direct source counts ns */
        g->total[k] += strtod(f[1], NULL) * (!strcmp(f[2], "msec") ? 1e6 : !strcmp(f[2], "usec") ? 1e3 : 1);
    double ns = strtod(f[4], NULL), pct = strtod(f[5], NULL);
    if (k == 0 && f[1][0] != '<') {
        g->run_ns += ns;
        g->enabled_ns += pct > 0 ? ns * 100 / pct : ns;
    }
    if (g->block_lines == g->n)
        g->block_after = true, g->blocks++;
}

/* Read what perf prints until wait_fd (the ack pipe, or -1) answered and done(g) (or NULL) holds;
 * -1 when perf stops talking. */
static int pump(struct group *g, int wait_fd, bool (*done)(struct group *))
{
    uint64_t deadline = (uint64_t)(clock_now_seconds() * 1000) + ACK_TIMEOUT_MS;
    while (wait_fd >= 0 || (done && !done(g))) {
        struct pollfd p[2] = {{.fd = g->out, .events = POLLIN}, {.fd = wait_fd, .events = POLLIN}};
        int left = (int)(deadline - (uint64_t)(clock_now_seconds() * 1000));
        if (left <= 0)
            return -1;
        int r = poll(p, wait_fd >= 0 ? 2 : 1, left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        if (p[0].revents) {
            ssize_t got = read(g->out, g->line + g->len, sizeof(g->line) - 1 - g->len);
            if (got <= 0)
                return -1;
            g->len += (size_t)got;
            g->line[g->len] = '\0';
            char *nl;
            while ((nl = strchr(g->line, '\n'))) {
                *nl = '\0';
                take_line(g, g->line);
                g->len -= (size_t)(nl + 1 - g->line);
                memmove(g->line, nl + 1, g->len + 1);
            }
            if (g->len == sizeof(g->line) - 1)
                g->len = 0;   /* a line longer than any perf prints: drop it */
        }
        if (wait_fd >= 0 && p[1].revents) {
            char ack[16];
            if (read(wait_fd, ack, sizeof(ack)) <= 0)
                return -1;
            wait_fd = -1;   /* answered; now only done() */
        }
    }
    return 0;
}

static bool never(struct group *g)
{
    (void)g;
    return false;
}

static bool printed_once(struct group *g)
{
    return g->blocks > 0;
}

static bool printed_after_disable(struct group *g)
{
    return g->disabled_seen >= g->disables_sent + 1 && g->block_after;
}

/* Send a command and wait for its ack (and, after a disable, the print that follows it). */
static int command(struct group *g, const char *cmd)
{
    if (write(g->ctl, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
        return -1;
    bool disable = !strncmp(cmd, "disable", 7);
    g->disables_sent += disable;
    /* After a disable, also the whole print that follows it: the run's last counts. */
    return pump(g, g->ack, disable ? printed_after_disable : NULL);
}

static void perfstat_close(struct group *g);

static struct group *perfstat_open(struct event_spec **events, int n)
{
    struct group *g = xcalloc(1, sizeof(*g));
    g->perf = -1;
    g->ctl = g->ack = g->out = -1;
    for (int e = 0; e < n; e++)
        if (events[e]->uncore[0] && !events[e]->unsupported)
            /* perf stat -t counts threads: an uncore unit counts a socket and takes no thread */
            events[e]->unsupported = xasprintf("%s is an uncore event (%s: the socket, CPU-wide), which perf stat "
                                               "-t cannot count for a thread; --source perf counts it CPU-wide",
                                               events[e]->name, events[e]->uncore);
        else if (!events[e]->unsupported) {
            g->slot[g->n] = e;
            g->spec[g->n++] = perf_syntax_of(events[e]);
        }
    /* A switch or a migration happens in the kernel: counted user-side only they read 0 (as the
     * perf source's detectors did). Where the kernel keeps its side from this user, they are
     * blind: unsupported, NaN, never 0. */
    bool kernel_side = geteuid() == 0 || perf_paranoid_level() <= 1;
    static const char *const noise_spec[NOISE_COUNT] = {"context-switches:uk", "cpu-migrations:uk", "page-faults:u"};
    int first_noise = g->n;
    for (int k = 0; k < NOISE_COUNT; k++) {
        g->slot[g->n] = -1 - k;
        g->spec[g->n++] = xstrdup(k == NOISE_PAGE_FAULT || kernel_side ? noise_spec[k] : "page-faults:u");
    }
    int ctl[2], ack[2], out[2];
    if (pipe2(ctl, O_CLOEXEC) || pipe2(ack, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
        pm_error("perfstat: cannot make pipes for perf: %s", strerror(errno));
        free(g);
        return NULL;
    }
    /* The measuring thread and its team's other members (core/team.h): perf sums the threads it
     * is given, and its running time falls short of enabled when one of them was not counted. */
    pid_t tids[TEAM_MAX];
    unsigned members = team_led_tids(tids, TEAM_MAX);
    char *tid = xmalloc(members * 12 + 1), control[64];
    for (unsigned i = 0, at = 0; i < members; i++)
        at += (unsigned)sprintf(tid + at, "%s%ld", i ? "," : "", (long)tids[i]);
    snprintf(control, sizeof(control), "fd:%d,%d", ctl[0], ack[1]);
    char *argv[16 + 2 * NSLOTS];
    int na = 0;
    argv[na++] = "perf";
    argv[na++] = "stat";
    argv[na++] = "-x;";
    argv[na++] = "-I";
    argv[na++] = "10";
    argv[na++] = "-D";
    argv[na++] = "-1";
    argv[na++] = "--control";
    argv[na++] = control;
    argv[na++] = "-t";
    argv[na++] = tid;
    for (int i = 0; i < g->n; i++) {
        argv[na++] = "-e";
        argv[na++] = g->spec[i];
    }
    argv[na] = NULL;
    /* perf runs on every CPU but the one this (pinned) thread measures on. */
    cpu_set_t mine, others;
    CPU_ZERO(&others);
    if (sched_getaffinity(0, sizeof(mine), &mine) == 0)
        for (int c = 0; c < CPU_SETSIZE && CPU_COUNT(&mine) == 1; c++)
            if (!CPU_ISSET(c, &mine))
                CPU_SET(c, &others);
    fflush(NULL);
    g->perf = fork();
    if (g->perf == 0) {
        /* Only the two control ends and stderr survive exec. */
        fcntl(ctl[0], F_SETFD, 0);
        fcntl(ack[1], F_SETFD, 0);
        dup2(out[1], 2);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0)
            dup2(null, 1), dup2(null, 0);
        if (CPU_COUNT(&others))
            sched_setaffinity(0, sizeof(others), &others);
        execvp("perf", argv);
        dprintf(2, "cannot run perf: %s\n", strerror(errno));
        _exit(127);
    }
    free(tid);
    close(ctl[0]);
    close(ack[1]);
    close(out[1]);
    g->ctl = ctl[1];
    g->ack = ack[0];
    g->out = out[0];
    if (g->perf < 0) {
        pm_error("perfstat: cannot start perf: %s", strerror(errno));
        perfstat_close(g);
        return NULL;
    }
    /* perf is ready when it answers its control pipe. */
    if (command(g, "ping\n")) {
        pump(g, -1, never);
        pm_error("perfstat: perf stat did not answer its control pipe (is the Debian package linux-perf installed, "
                 "perf_event_paranoid at most 2?): %s", g->log[0] ? g->log : "no output");
        perfstat_close(g);
        return NULL;
    }
    /* Its first print says which events it could open: the others are unsupported, as in the
     * direct source, and never a count. */
    if (pump(g, -1, printed_once)) {
        pm_error("perfstat: perf stat printed no counts: %s", g->log[0] ? g->log : "no output");
        perfstat_close(g);
        return NULL;
    }
    for (int k = 0; k < NOISE_COUNT && !kernel_side; k++)
        if (k != NOISE_PAGE_FAULT)
            g->unsupported[first_noise + k] = true;   /* a stand-in count, never read */
    char hw[256] = "";
    bool hw_ok = perf_hw_usable(hw, sizeof(hw));
    for (int i = 0; i < g->n; i++)
        if (g->unsupported[i] && g->slot[i] >= 0 && !events[g->slot[i]]->unsupported)
            events[g->slot[i]]->unsupported = xasprintf("perf stat -e %s: <not supported>%s%s", g->spec[i],
                                                        hw_ok ? "" : "; ", hw_ok ? "" : hw);
    return g;
}

static void perfstat_start(struct group *g)
{
    if (command(g, "enable\n"))
        remember(g, "no ack for enable");
}

static void perfstat_stop(struct group *g)
{
    if (command(g, "disable\n"))
        remember(g, "no ack or print after disable");
}

static int perfstat_read(struct group *g, struct group_reading *r)
{
    if (!printed_after_disable(g)) {
        pm_error("perfstat: perf stat stopped answering: %s", g->log[0] ? g->log : "no output");
        return -1;
    }
    for (int i = 0; i < g->n; i++) {
        double v = g->unsupported[i] ? NAN : g->total[i] - g->taken[i];
        g->taken[i] = g->total[i];
        if (g->slot[i] >= 0)
            r->value[g->slot[i]] = v;
        else
            r->noise[-1 - g->slot[i]] = v;
    }
    r->time_running = (uint64_t)(g->run_ns - g->run_taken);
    r->time_enabled = (uint64_t)(g->enabled_ns - g->enabled_taken);
    g->run_taken = g->run_ns;
    g->enabled_taken = g->enabled_ns;
    return 0;
}

static void perfstat_close(struct group *g)
{
    if (g->perf > 0) {
        kill(g->perf, SIGKILL);
        while (waitpid(g->perf, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    int fds[3] = {g->ctl, g->ack, g->out};
    for (int i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    for (int i = 0; i < g->n; i++)
        free(g->spec[i]);
    free(g);
}

/* Before anything is measured: perf must run, or the command stops with one message. */
static int perfstat_prepare(int argc, char **argv, int *status)
{
    (void)argc, (void)argv, (void)status;
    char version[128] = "";
    char *pargv[] = {"perf", "--version", NULL};
    struct spawn_opts o = {.capture = version, .capture_size = sizeof(version), .timeout_ms = 5000};
    if (spawn_run(pargv, &o) != 0 || strncmp(version, "perf version", 12)) {
        pm_error("--source perfstat needs the perf tool, and 'perf --version' did not run here; install the Debian "
                 "package linux-perf: sudo apt-get install linux-perf");
        return -1;
    }
    return SOURCE_CONTINUE;
}

static const struct source perfstat_source = {
    .name = "perfstat",
    .summary = "the perf tool: perf stat -t on the measuring thread, enabled around each region through "
               "its --control pipe; needs the Debian package linux-perf",
    .exact_floor = 0.01,
    .real_time = true,
    .libpfm_events = true,
    .resolve = perfstat_resolve,
    .open = perfstat_open,
    .start = perfstat_start,
    .stop = perfstat_stop,
    .read = perfstat_read,
    .close = perfstat_close,
    .prepare_process = perfstat_prepare,
};
PMUCAL_SOURCE(perfstat_source)

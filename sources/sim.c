/* Counter source "sim": exact, deterministic counts from valgrind's callgrind with its cache and
 * branch simulation. pmucal re-executes the command under callgrind (prepare_process); in that
 * child the group brackets the measured region with callgrind client requests and reads the
 * profile callgrind writes at each dump.
 *
 * Why instrumentation stays on for a whole group and collection is toggled per run: callgrind
 * clears its simulated caches whenever instrumentation is switched on (set_instrument_state in
 * callgrind/main.c calls cachesim.clear), so START/STOP_INSTRUMENTATION around every run would
 * make every run cold and the warm-up useless. Collection (TOGGLE_COLLECT, started off with
 * --collect-atstart=no) only decides whether costs are attributed; the cache and branch
 * simulators keep running, so the warm-up warms them exactly as on hardware. Instrumentation is
 * on from open() to close() only, so a case's setup (a 512 MiB list) runs uninstrumented. */
#include "arch/isa.h"
#include "base/json.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/source.h"
#include "host/topo.h"
#include "sources/sim.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/callgrind.h>
#include "core/team.h"

/* Callgrind's event names with --cache-sim=yes --branch-sim=yes, in its "events:" order. */
static const char *const sim_names[] = {"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr",
                                        "DLmr", "DLmw", "Bc", "Bcm", "Bi", "Bim"};
#define SIM_NEVENTS ((int)ARRAY_SIZE(sim_names))


struct group {
    int n;
    int idx[GROUP_MAX_EVENTS];   /* per group event: index into sim_names */
    bool collecting;
};

/* Between two runs the harness touches as little memory as it can (no getenv, no directory
 * scan, one static buffer): whatever it touches shares the simulated D1 with the kernel's data. */
static char dump_dir[2048];
static long dump_count;   /* callgrind numbers its dumps 1, 2, ... per process: <out>.<n> */

static bool under_sim(void)
{
    return RUNNING_ON_VALGRIND && getenv(SIM_ENV_DIR);
}

static int sim_resolve(const char *name, struct event_spec *spec, char *err, size_t errlen)
{
    spec->name = xstrdup(name);
    if (!strncasecmp(name, "sim::", 5))
        for (int i = 0; i < SIM_NEVENTS; i++)
            if (!strcasecmp(name + 5, sim_names[i])) {
                spec->canonical = xasprintf("sim::%s", sim_names[i]);
                spec->config = (uint64_t)i;
                spec->programmable = false;   /* no counter limit: every event in one group */
                return 0;
            }
    char list[256] = "";
    for (int i = 0; i < SIM_NEVENTS; i++)
        snprintf(list + strlen(list), sizeof(list) - strlen(list), "%ssim::%s", i ? " " : "", sim_names[i]);
    snprintf(err, errlen, "unknown event '%s' for --source sim; the sim events are: %s", name, list);
    return -1;
}

static void sim_start(struct group *g);
static void sim_stop(struct group *g);
static int rehearse(struct group *g);

static struct group *sim_open(struct event_spec **events, int n)
{
    if (!under_sim()) {
        pm_error("the sim source measures only inside the valgrind child that 'pmucal run|validate --source sim' "
                 "starts itself");
        return NULL;
    }
    snprintf(dump_dir, sizeof(dump_dir), "%s", getenv(SIM_ENV_DIR));
    struct group *g = xcalloc(1, sizeof(*g));
    g->n = n;
    for (int e = 0; e < n; e++)
        g->idx[e] = (int)events[e]->config;
    /* Cold simulated caches and predictor tables from here on; the core's warm-up warms them. */
    CALLGRIND_START_INSTRUMENTATION;
    if (rehearse(g)) {
        CALLGRIND_STOP_INSTRUMENTATION;
        free(g);
        return NULL;
    }
    return g;
}

static int sim_read(struct group *g, struct group_reading *r);

/* One empty start/stop/read before the core's warm-up: the first call through this code binds
 * libc symbols lazily and checks the geometry, touching far more memory than any later call.
 * Done here, that happens before the warm-up instead of between it and the first repetition. */
static int rehearse(struct group *g)
{
    static struct group_reading scratch;
    sim_start(g);
    sim_stop(g);
    return sim_read(g, &scratch);
}

/* callgrind's collection is a state of each thread: a team member (core/team.h) switches its own
 * on for its work while the measuring thread collects, and the measuring thread its own off while
 * it waits for them (a spin of no fixed length). The dump sums every thread. */
static _Atomic bool sim_collecting;

static void sim_member(bool begin)
{
    (void)begin;
    if (sim_collecting)
        CALLGRIND_TOGGLE_COLLECT;
}

static void sim_start(struct group *g)
{
    team_member_hook = sim_member;
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
    g->collecting = true;
    sim_collecting = true;
}

static void sim_stop(struct group *g)
{
    sim_collecting = false;
    CALLGRIND_TOGGLE_COLLECT;
    g->collecting = false;
    /* The profile file is written before the request returns (dump_profile runs in the request
     * handler and closes the file), so read() finds it complete. */
    CALLGRIND_DUMP_STATS_AT("pmucal");
    dump_count++;
}

/* The dump just written: "<dir>/cg.<pid>.<n>"; if callgrind numbered it otherwise, the newest. */
static int dump_path(char *path, size_t n)
{
    snprintf(path, n, "%s/cg.%d.%ld", dump_dir, (int)getpid(), dump_count);
    if (access(path, R_OK) == 0)
        return 0;
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "cg.%d.", (int)getpid());
    DIR *d = opendir(dump_dir);
    if (!d) {
        pm_error("sim: cannot open the callgrind output folder %s: %s", dump_dir, strerror(errno));
        return -1;
    }
    long best = -1;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, prefix, strlen(prefix)))
            continue;
        char *end;
        long k = strtol(de->d_name + strlen(prefix), &end, 10);
        if (*end == '\0' && k > best)
            best = k;
    }
    closedir(d);
    if (best < 0) {
        pm_error("sim: callgrind wrote no profile into %s (is this valgrind's callgrind tool?)", dump_dir);
        return -1;
    }
    dump_count = best;
    snprintf(path, n, "%s/%s%ld", dump_dir, prefix, best);
    return 0;
}

/* What the first profile says callgrind simulated, checked against what was asked for: a
 * geometry valgrind silently replaced would make every miss rule meaningless. */
static bool geometry_checked;
static char seen_geometry[3][64];

static int check_geometry(const char *path)
{
    geometry_checked = true;
    const char *asked = getenv(SIM_ENV_CACHES);
    static const char *const which[] = {"I1", "D1", "LL"};
    int n = 0;
    char **parts = split_list(asked ? asked : "", ' ', &n);
    int rc = 0;
    for (int i = 0; i < n && !rc; i++)
        for (int k = 0; k < 3; k++)
            if (!strncmp(parts[i], which[k], 2) && parts[i][2] == '=' && strcmp(parts[i] + 3, seen_geometry[k])) {
                pm_error("sim: callgrind simulated %s = %s (size,ways,line) but pmucal asked for %s (%s)", which[k],
                         seen_geometry[k][0] ? seen_geometry[k] : "nothing it reported", parts[i] + 3, path);
                rc = -1;
            }
    free_list(parts);
    return rc;
}

/* Parse "events:" and "totals:" (or "summary:") of one callgrind profile into counts per event
 * name. totals is the sum of the cost lines of the part, i.e. of what was collected since the
 * zeroing; summary is the thread's cost since the last dump and is only the fallback. */
static int parse_dump(const char *path, double count[SIM_NEVENTS])
{
    static char text[1 << 20];   /* static: the same memory every time, so the simulated caches see the same */
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        pm_error("sim: cannot read the callgrind profile %s: %s", path, strerror(errno));
        return -1;
    }
    size_t len = 0;
    ssize_t got;
    while (len < sizeof(text) - 1 && (got = read(fd, text + len, sizeof(text) - 1 - len)) > 0)
        len += (size_t)got;
    close(fd);
    text[len] = '\0';
    int order[SIM_NEVENTS + 8], nord = -1;
    const char *totals = NULL, *summary = NULL;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!strncmp(line, "events:", 7)) {
            nord = 0;
            for (char *tok = strtok(line + 7, " \t"); tok && nord < SIM_NEVENTS + 8; tok = strtok(NULL, " \t")) {
                order[nord] = -1;
                for (int i = 0; i < SIM_NEVENTS; i++)
                    if (!strcmp(tok, sim_names[i]))
                        order[nord] = i;
                nord++;
            }
        } else if (!strncmp(line, "desc: ", 6) && !geometry_checked) {
            int k = !strncmp(line + 6, "I1 cache: ", 10) ? 0 : !strncmp(line + 6, "D1 cache: ", 10) ? 1
                  : !strncmp(line + 6, "LL cache: ", 10) ? 2 : -1;
            unsigned long long size, line_size;
            int ways;
            if (k >= 0 && sscanf(line + 16, "%llu B, %llu B, %d-way", &size, &line_size, &ways) == 3)
                snprintf(seen_geometry[k], sizeof(seen_geometry[k]), "%llu,%d,%llu", size, ways, line_size);
        } else if (!strncmp(line, "totals:", 7)) {
            totals = line + 7;
        } else if (!strncmp(line, "summary:", 8)) {
            summary = line + 8;
        }
    }
    if (!geometry_checked && check_geometry(path))
        return -1;
    const char *costs = totals ? totals : summary;
    if (nord < 0 || !costs) {
        pm_error("sim: %s is not a callgrind profile with 'events:' and 'totals:' lines", path);
        return -1;
    }
    for (int i = 0; i < SIM_NEVENTS; i++)
        count[i] = NAN;
    const char *p = costs;
    for (int k = 0; k < nord; k++) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p)
            v = 0;   /* callgrind leaves trailing zero costs out */
        p = end;
        if (order[k] >= 0)
            count[order[k]] = (double)v;
    }
    for (int i = 0; i < SIM_NEVENTS; i++)
        if (isnan(count[i])) {
            pm_error("sim: %s has no %s column: was valgrind run with --cache-sim=yes --branch-sim=yes?", path,
                     sim_names[i]);
            return -1;
        }
    return 0;
}

static int sim_read(struct group *g, struct group_reading *r)
{
    static char path[sizeof(dump_dir) + 256];
    if (dump_path(path, sizeof(path)))
        return -1;
    double count[SIM_NEVENTS];
    int rc = parse_dump(path, count);
    unlink(path);
    if (rc)
        return -1;
    for (int e = 0; e < GROUP_MAX_EVENTS; e++)
        r->value[e] = e < g->n ? count[g->idx[e]] : NAN;
    for (int k = 0; k < NOISE_COUNT; k++)
        r->noise[k] = NAN;   /* a simulator is never disturbed */
    r->time_enabled = r->time_running = 0;
    return 0;
}

static void sim_close(struct group *g)
{
    if (g->collecting)
        CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_STOP_INSTRUMENTATION;
    free(g);
}

/* The simulated machine, for manifest.json: valgrind's version and the caches it simulated. */
static void sim_manifest(struct json *j)
{
    json_object_begin(j, "sim");
    json_string(j, "simulator", getenv(SIM_ENV_VERSION));
    json_string(j, "tool", "callgrind --cache-sim=yes --branch-sim=yes --instr-atstart=no --collect-atstart=no");
    /* What valgrind's translator leaves out before callgrind counts (sim_parent.c). */
    json_string(j, "loads", getenv(SIM_ENV_LOADS) ? "every load counted (--vex-iropt-level=0: the run measures the "
                                                    "user's code)"
                                                  : "a load whose value no later instruction reads is removed by "
                                                    "valgrind's translator, uncounted");
    const char *caches = getenv(SIM_ENV_CACHES);
    int n = 0;
    char **parts = split_list(caches ? caches : "", ' ', &n);
    for (int i = 0; i < n; i++) {
        char *eq = strchr(parts[i], '=');
        unsigned long long size, ways;
        int line;
        if (!eq || sscanf(eq + 1, "%llu,%llu,%d", &size, &ways, &line) != 3)
            continue;
        *eq = '\0';
        json_object_begin(j, parts[i]);
        json_uint(j, "size", size);
        json_uint(j, "ways", ways);
        json_int(j, "line", line);
        json_object_end(j);
    }
    free_list(parts);
    /* Where the simulated caches are not the host's, and why. */
    json_array_begin(j, "geometry_notes");
    parts = split_list(getenv(SIM_ENV_NOTES) ? getenv(SIM_ENV_NOTES) : "", ';', &n);
    for (int i = 0; i < n; i++)
        json_string(j, NULL, parts[i][0] == ' ' ? parts[i] + 1 : parts[i]);
    free_list(parts);
    json_array_end(j);
    json_string(j, "branch_predictor", "conditional: 16384 2-bit counters indexed by 7 bits of global history and "
                                       "7 address bits; indirect: 512-entry last-target table by address");
    json_object_end(j);
}

/* The most one zero-iteration run counts under callgrind, over the default matrix here: the
 * harness's toggles and dump (33 instructions, 10 loads, 4 stores, 2 conditional and 2 indirect
 * branches in the emptiest case) and a kernel's entry, exit and loop test (at most 23 more
 * instructions: triad's SSE variant, whose dispatch and team check take 9 conditional branches). A
 * little room above those, and far less than the 40 counts
 * per run a defect in the harness would add (issue 25). The loads' and branches' misses depend on
 * the simulated state, so they have no such bound. */
/* A team member beyond the first (core/team.h) adds its start, its calls into the kernel, its
 * collection toggles and the measuring thread's toggles around its wait: 118 instructions, 27
 * loads, 27 stores, 12 conditional and 5 indirect branches with flops threads=2; a little room. */
static const struct zero_most sim_zero_most[] = {
    {"sim::Ir", 64, 128}, {"sim::Dr", 24, 32}, {"sim::Dw", 8, 32}, {"sim::Bc", 10, 16}, {"sim::Bi", 4, 8}, {NULL, 0, 0},
};

/* Write misses: every kernel's model follows the lines its loads read (d1.miss.warm, ll.miss.warm);
 * none states which of its stores' lines miss. */
static const struct unjudged_event sim_unjudged[] = {
    {"sim::D1mw", "no kernel's model states its stores' misses in D1 (write misses)"},
    {"sim::DLmw", "no kernel's model states its stores' misses in the last level (write misses)"},
    {NULL, NULL},
};

static const struct source sim_source = {
    .name = "sim",
    .summary = "valgrind callgrind (cache and branch simulation): exact, deterministic counts; needs valgrind",
    .exact_floor = 0,
    .resolve = sim_resolve,
    .open = sim_open,
    .start = sim_start,
    .stop = sim_stop,
    .read = sim_read,
    .close = sim_close,
    .prepare_process = sim_prepare,   /* sim_parent.c */
    .default_events = "sim::Ir,sim::Dr,sim::Dw,sim::I1mr,sim::D1mr,sim::D1mw,sim::ILmr,sim::DLmr,sim::DLmw,"
                      "sim::Bc,sim::Bcm,sim::Bi,sim::Bim",
    .default_iters = 10000,
    /* A triad lap over a DRAM-sized array is 38M instructions: 10000 of them would take days.
     * 5M a loop, not the 20M of before: the level cases cost a quarter, and every rule held as it
     * did (tests/55-sources-sim.t and tests/60-validate-sim-sweep.t: 180 s of CPU at 20M, 121 s at
     * 5M, the same verdicts; a 60-case sweep under zen4, 0 not ok). */
    .max_inst_per_loop = 5000000,
    /* The harness's own lines (about 24 a loop), as many of the kernel's lines as they push out of
     * the sets they share (a 16K walk fills half of a 32K 8-way L1d: 44 misses a loop on a Zen 3
     * guest, whatever the iterations), and a loop exit or two of the simple predictor. */
    .slack_per_loop = 64,
    .deterministic = true,
    .zero_most = sim_zero_most,
    .unjudged = sim_unjudged,
    .expect_file = "sim",
    .isa_limits = ISA_SIM_LIMITS,
    /* valgrind translates each instruction before it runs and keeps a bounded translation cache:
     * 128 KiB of straight-line code took 12 s here, 4 MiB 450 s (retranslated every lap). */
    .max_code_bytes = 256 * 1024,
    .simple_predictor = true,
    .manifest = sim_manifest,
};
PMUCAL_SOURCE(sim_source)

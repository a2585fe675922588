/* The sim source's parent half: choose the machine callgrind simulates, hand it and the rest of
 * the resolved topology to the child, and start this same command under valgrind's callgrind.
 * The child discovers nothing itself: under valgrind hwloc sees no caches (its x86 backend is
 * off and a VM may have no sysfs cache data), and the models must use exactly the caches
 * callgrind simulates. */
#include "base/subprocess.h"
#include "base/util.h"
#include "core/lru.h"
#include "core/source.h"
#include "host/geometry.h"
#include "host/topo.h"
#include "sources/sim.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

static char *find_in_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/bin:/bin";
    int n;
    char **dirs = split_list(path, ':', &n);
    char *found = NULL;
    for (int i = 0; i < n && !found; i++) {
        char *p = xasprintf("%s/%s", dirs[i], prog);
        struct stat st;
        if (stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0)
            found = p;
        else
            free(p);
    }
    free_list(dirs);
    return found;
}

/* The sets a cache's lines make into a power-of-two count (valgrind wants one): its own when that
 * is one, else the largest power of two that divides the line count and is not above it, the ways
 * growing to keep the size (a 60 MiB 12-way L3's 81920 sets become 65536 of 15 ways). */
static uint64_t power_of_two_set_count(const struct cache_level *c)
{
    uint64_t lines = c->size / (uint64_t)c->linesize, ways = (uint64_t)c->ways, sets = lines / ways, p = 1;
    if (sets && !(sets & (sets - 1)) && sets * ways == lines)
        return sets;
    while (lines % (p * 2) == 0 && p * 2 <= (sets ? sets : 1))
        p *= 2;
    return p;
}

/* Why callgrind cannot simulate this cache (NULL: it can): valgrind 3.19 wants size, ways and a
 * power-of-two line of at least 16 bytes, keeps the size in a 32-bit int, and looks a set up way
 * by way (as lru.c does; hwloc says 0 ways where it does not know them, as for a VM's 508M L3,
 * and -1 for fully associative). */
static const char *unsimulatable(const struct cache_level *c, char *why, size_t n)
{
    if (!c->level || !c->size)
        snprintf(why, n, "no size");
    else if (c->ways <= 0)
        snprintf(why, n, "its associativity is unknown (%d-way)", c->ways);
    else if (c->linesize < 16 || (c->linesize & (c->linesize - 1)) || c->size % (uint64_t)c->linesize)
        snprintf(why, n, "its %d-byte lines are not a power of two of at least 16 dividing its size", c->linesize);
    else if (c->size > INT_MAX)
        snprintf(why, n, "valgrind takes cache sizes below 2 GiB");
    else if (c->size / (uint64_t)c->linesize / power_of_two_set_count(c) > LRU_SIM_MAX_WAYS)
        snprintf(why, n, "its %llu sets are no power of two, and as one they would need %llu ways (%d at most)", (unsigned long long)(c->size / (uint64_t)c->linesize / (uint64_t)c->ways),
                 (unsigned long long)(c->size / (uint64_t)c->linesize / power_of_two_set_count(c)), LRU_SIM_MAX_WAYS);
    else
        return NULL;
    return why;
}

static bool simulatable(const struct cache_level *c)
{
    char why[100];
    return !unsimulatable(c, why, sizeof(why));
}

static void add_note(char *notes, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_note(char *notes, size_t n, const char *fmt, ...)
{
    size_t len = strlen(notes);
    if (len && len + 2 < n)
        len += (size_t)snprintf(notes + len, n - len, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(notes + len, n - len, fmt, ap);
    va_end(ap);
}

/* valgrind wants a power-of-two number of sets: where the host's geometry has another count, the
 * size and line are kept and the ways grow to match (power_of_two_set_count), noted. */
static void power_of_two_sets(struct cache_level *c, const char *name, char *notes, size_t n)
{
    uint64_t lines = c->size / (uint64_t)c->linesize, p = power_of_two_set_count(c);
    if (p * (uint64_t)c->ways == lines)
        return;
    add_note(notes, n, "%s %s %d-way has a set count that is not a power of two: simulated %llu-way (same size)",
             name, fmt_size(c->size), c->ways, (unsigned long long)(lines / p));
    c->ways = (int)(lines / p);
}

static const char *level_name(int l)
{
    static const char *const names[] = {"L0", "L1D", "L2", "L3"};
    return names[l];
}

int sim_machine(const struct topo *host, struct topo *sim, char *notes, size_t n)
{
    /* Where hwloc gives no L1D at all, a common x86 one stands in, said in the notes. */
    static const struct cache_level stand_in = {.level = 1, .size = 32 << 10, .linesize = 64, .ways = 8,
                                                .sharing_pus = 1};
    notes[0] = '\0';
    *sim = *host;
    sim->simulated = true;
    if (!simulatable(&host->data[1])) {
        add_note(notes, n, "hwloc gives no L1D geometry callgrind can simulate (%s, %d-way, %d-byte lines): simulated "
                 "a 32K 8-way L1D", fmt_size(host->data[1].size), host->data[1].ways, host->data[1].linesize);
        sim->data[1] = stand_in;
    }
    /* The last level callgrind simulates (LL) is the largest one with a complete geometry; a
     * level above it without one is left out of the simulated machine, so no case is sized by it. */
    int ll = 1;
    for (int l = TOPO_MAX_LEVEL; l >= 2 && ll == 1; l--)
        if (simulatable(&host->data[l]))
            ll = l;
    for (int l = ll + 1; l <= TOPO_MAX_LEVEL; l++)
        if (host->data[l].size) {
            char why[100];
            unsimulatable(&host->data[l], why, sizeof(why));
            snprintf(sim->absent_why[l], sizeof(sim->absent_why[l]), "callgrind cannot simulate the host's %s (%s "
                     "%d-way, from %s): %s", level_name(l), fmt_size(host->data[l].size), host->data[l].ways,
                     topo_source_name(host->source[l]), why);
            add_note(notes, n, "%s; left out, the simulated last level is the %s", sim->absent_why[l], level_name(ll));
            memset(&sim->data[l], 0, sizeof(sim->data[l]));
        }
    if (ll == 1 && !host->data[2].size && !host->data[3].size)
        add_note(notes, n, "hwloc gives no L2 or L3: the simulated last level is the L1D's geometry");
    power_of_two_sets(&sim->data[1], "L1D", notes, n);
    if (ll > 1)
        power_of_two_sets(&sim->data[ll], level_name(ll), notes, n);
    if (!simulatable(&host->l1i)) {
        /* Virtual machines often hide the L1I; x86 cores have had one like their L1D for years. */
        add_note(notes, n, "hwloc reports no L1I geometry: simulated with the L1D's");
        sim->l1i = sim->data[1];
    } else {
        power_of_two_sets(&sim->l1i, "L1I", notes, n);
    }
    return ll;
}

/* Does the command line measure the user's code ('run code', 'code FILE', --case 'code ...',
 * --kernel code)? valgrind's translator removes a load whose value no later instruction reads
 * before callgrind counts it (VEX's dead-code pass: 64 copies of 'mov (%rsi),%rax' count 2 loads,
 * one a translated block); the built-in kernels use every value they load, a user's snippet need
 * not. For such a run valgrind optimises nothing (--vex-iropt-level=0), so every load is counted
 * as the CPU makes it; the code kernel refuses a snippet with loads under sim without it. A word
 * mistaken for the kernel's name costs only speed (a third slower). */
static bool names_user_code(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
        if (eq)
            a = eq + 1;
        if (!strncmp(a, "code", 4) && (!a[4] || a[4] == ' ' || a[4] == '\t'))
            return true;
    }
    return false;
}

static pid_t sim_child;

static void forward_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    /* A Ctrl-C reaches the child by itself (same process group); a kill aimed at this process
     * alone is passed on, so 'kill -INT <pmucal>' still stops the run and keeps its results. */
    if (si && si->si_code == SI_USER && sim_child > 0)
        kill(sim_child, sig);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
            char *p = xasprintf("%s/%s", dir, de->d_name);
            unlink(p);
            free(p);
        }
    closedir(d);
    rmdir(dir);
}

/* valgrind's log without the cache auto-detection notes that the --I1/--D1/--LL options override,
 * and without its diagnosis of an instruction it cannot decode (--sigill-diagnostics): the code
 * kernel names that instruction itself, from the same log. */
static void pass_on_log(const char *dir)
{
    char *p = xasprintf("%s/" SIM_LOG_NAME, dir);
    FILE *f = fopen(p, "r");
    free(p);
    if (!f)
        return;
    char line[1024];
    bool in_sigill = false;
    while (fgets(line, sizeof(line), f)) {
        if (strstr(line, "valgrind: Unrecognised instruction at address"))
            in_sigill = true;
        bool drop = in_sigill || strstr(line, "->IR: ") || strstr(line, "cache found, using its data for the LL simulation") ||
                    strstr(line, "warning: specified LL cache:") || strstr(line, "warning: simulated LL cache:");
        if (in_sigill && strstr(line, "probably kill your program."))
            in_sigill = false;
        if (!drop)
            fputs(line, stderr);
    }
    fclose(f);
}

#if defined(__SANITIZE_ADDRESS__)
static const bool asan_build = true;
#else
static const bool asan_build = false;
#endif

int sim_prepare(int argc, char **argv, int *status)
{
    if (asan_build) {
        pm_error("--source sim cannot run in an AddressSanitizer build (make SAN=1): ASan and valgrind both need to "
                 "own the process's memory; build with plain 'make' for the sim source");
        return -1;
    }
    if (RUNNING_ON_VALGRIND) {
        if (!getenv(SIM_ENV_DIR)) {
            pm_error("--source sim: this pmucal already runs under valgrind but was not started by pmucal; run "
                     "'pmucal %s --source sim' directly, it starts valgrind's callgrind itself", argv[0]);
            return -1;
        }
        return SOURCE_CONTINUE;
    }
    char *valgrind = find_in_path("valgrind");
    if (!valgrind) {
        pm_error("--source sim needs valgrind (its callgrind tool), which is not installed or not in PATH; install "
                 "the Debian package valgrind: sudo apt-get install valgrind");
        return -1;
    }
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (len <= 0) {
        pm_error("--source sim: cannot find this program's own path (/proc/self/exe: %s)", strerror(errno));
        free(valgrind);
        return -1;
    }
    exe[len] = '\0';

    /* valgrind --version, for the manifest (and a check that valgrind runs at all). */
    char version[64] = "";
    char *vargv[] = {valgrind, "--version", NULL};
    struct spawn_opts vo = {.capture = version, .capture_size = sizeof(version), .timeout_ms = 10000};
    if (spawn_run(vargv, &vo) != 0)
        version[0] = '\0';
    version[strcspn(version, "\n")] = '\0';
    if (!version[0]) {
        pm_error("--source sim: %s --version failed; is the Debian package valgrind installed completely?", valgrind);
        free(valgrind);
        return -1;
    }

    const struct topo *t = topo_get();
    if (!t) {
        free(valgrind);
        return -1;
    }
    const char *tmp = getenv("TMPDIR");
    char *dir = xasprintf("%s/pmucal-sim.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        pm_error("--source sim: cannot create a folder for callgrind's output under %s: %s", tmp && *tmp ? tmp : "/tmp",
                 strerror(errno));
        free(dir);
        free(valgrind);
        return -1;
    }

    char *args[64 + 256], *owned[8];
    int na = 0, nowned = 0;
    args[na++] = valgrind;
    args[na++] = "-q";   /* valgrind's own chatter stays off stdout (and mostly off stderr) */
    args[na++] = "--tool=callgrind";
    args[na++] = "--cache-sim=yes";
    args[na++] = "--branch-sim=yes";
    args[na++] = "--instr-atstart=no";
    args[na++] = "--collect-atstart=no";
    args[na++] = owned[nowned++] = xasprintf("--callgrind-out-file=%s/cg.%%p", dir);
    /* valgrind announces its cache auto-detection even when --I1/--D1/--LL replace it; its log
     * goes to a file and is passed on to stderr without those lines. */
    args[na++] = owned[nowned++] = xasprintf("--log-file=%s/" SIM_LOG_NAME, dir);
    /* An instruction valgrind cannot decode is named in the log (the code kernel reads it there to
     * tell the simulator's SIGILL from the CPU's); -q alone leaves that line out. */
    args[na++] = "--sigill-diagnostics=yes";
    bool user_code = names_user_code(argc, argv);
    if (user_code)
        args[na++] = "--vex-iropt-level=0";
    /* The simulated machine, given to callgrind and, as the topology, to the child. */
    struct topo sim;
    char notes[1024];
    int ll = sim_machine(t, &sim, notes, sizeof(notes));
    const struct cache_level *levels[] = {&sim.l1i, &sim.data[1], &sim.data[ll]};
    static const char *const which[] = {"I1", "D1", "LL"};
    char caches[256] = "";
    for (int i = 0; i < 3; i++) {
        args[na++] = owned[nowned++] = xasprintf("--%s=%llu,%d,%d", which[i], (unsigned long long)levels[i]->size,
                                                 levels[i]->ways, levels[i]->linesize);
        snprintf(caches + strlen(caches), sizeof(caches) - strlen(caches), "%s%s=%llu,%d,%d", i ? " " : "", which[i],
                 (unsigned long long)levels[i]->size, levels[i]->ways, levels[i]->linesize);
    }
    if (notes[0])
        pm_note("--source sim: %s", notes);
    if (topo_handover(&sim, dir)) {
        remove_tree(dir);
        for (int i = 0; i < nowned; i++)
            free(owned[i]);
        free(dir);
        free(valgrind);
        return -1;
    }
    args[na++] = exe;
    for (int i = 0; i < argc && na < (int)ARRAY_SIZE(args) - 1; i++)
        args[na++] = argv[i];
    args[na] = NULL;

    setenv(SIM_ENV_DIR, dir, 1);
    setenv(SIM_ENV_CACHES, caches, 1);
    setenv(SIM_ENV_NOTES, notes, 1);
    setenv(SIM_ENV_VERSION, version, 1);
    if (user_code)
        setenv(SIM_ENV_LOADS, "1", 1);
    else
        unsetenv(SIM_ENV_LOADS);

    fflush(NULL);
    struct sigaction fwd = {.sa_sigaction = forward_signal, .sa_flags = SA_SIGINFO | SA_RESTART}, old_int, old_term;
    sigemptyset(&fwd.sa_mask);
    sigaction(SIGINT, &fwd, &old_int);
    sigaction(SIGTERM, &fwd, &old_term);
    sim_child = fork();
    if (sim_child == 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        execv(valgrind, args);
        pm_error("--source sim: cannot run %s: %s", valgrind, strerror(errno));
        _exit(127);
    }
    int rc = -1;
    if (sim_child < 0) {
        pm_error("--source sim: cannot start valgrind: %s", strerror(errno));
    } else {
        int ws;
        while (waitpid(sim_child, &ws, 0) < 0 && errno == EINTR)
            ;
        rc = SOURCE_DONE;
        if (WIFEXITED(ws)) {
            *status = WEXITSTATUS(ws);
        } else {
            int sig = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
            pm_error("--source sim: the run under valgrind ended with signal %d (%s)%s", sig, strsignal(sig),
                     sig == SIGILL ? ": an instruction valgrind cannot execute (AVX-512?)" : "");
            *status = 128 + sig;
        }
    }
    sim_child = 0;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    pass_on_log(dir);
    remove_tree(dir);
    for (int i = 0; i < nowned; i++)
        free(owned[i]);
    free(dir);
    free(valgrind);
    return rc;
}


#include "fit.h"
#include "clock.h"
#include "rng.h"
#include "stats.h"
#include "topo.h"
#include "util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* trips x 1000 dependent adds: one a cycle on any out-of-order core. */
static uint64_t add_chain(uint64_t trips)
{
    uint64_t acc = 0, t0 = tsc_start();
    __asm__ __volatile__("1:\n\t.rept 1000\n\tadd $1, %[acc]\n\t.endr\n\tdec %[n]\n\tjnz 1b"
                         : [acc] "+r"(acc), [n] "+r"(trips) : : "cc");
    return tsc_stop() - t0;
}

double cal_local_ratio(double seconds)
{
    /* Five short chains, the fastest kept: an interruption only ever slows a chain down, so the
     * fastest is the clock itself, while the clock's real changes (a shared or virtual core's
     * frequency moves) show in every chain and are followed. */
    const struct clock_info *ci = clock_get();
    double want = seconds / 5 * ci->core_hz / 1000, best = 0;
    uint64_t trips = want < 20 ? 20 : (uint64_t)want;
    for (int i = 0; i < 5; i++) {
        double r = (double)trips * 1000 / (double)add_chain(trips);
        best = r > best ? r : best;
    }
    return best;
}

static bool has_param(const struct kernel *k, const char *name)
{
    for (int i = 0; k->params[i].name; i++)
        if (!strcmp(k->params[i].name, name))
            return true;
    return false;
}

static int idle_ticks(long long *idle, int max)
{
    FILE *f = fopen("/proc/stat", "r");
    char line[512];
    int n = 0;
    while (f && fgets(line, sizeof(line), f)) {
        int cpu;
        long long v[5];
        if (sscanf(line, "cpu%d %lld %lld %lld %lld %lld", &cpu, &v[0], &v[1], &v[2], &v[3], &v[4]) == 6 &&
            cpu >= 0 && cpu < max) {
            idle[cpu] = v[3] + v[4];
            n = cpu + 1 > n ? cpu + 1 : n;
        }
    }
    if (f)
        fclose(f);
    return n;
}

int cal_quietest_cpu(void)
{
    enum { MAXC = 1024 };
    static long long a[MAXC], b[MAXC];
    int cpus[MAXC], n = topo_cpus(cpus, MAXC);
    if (n <= 1)
        return n ? cpus[0] : 0;
    idle_ticks(a, MAXC);
    struct timespec ts = {0, 150 * 1000 * 1000};
    nanosleep(&ts, NULL);
    idle_ticks(b, MAXC);
    int best = cpus[0];
    for (int i = 1; i < n; i++)
        if (b[cpus[i]] - a[cpus[i]] > b[best] - a[best])
            best = cpus[i];
    return best;
}

void case_result_free(struct case_result *r)
{
    free(r->text);
    memset(r, 0, sizeof(*r));
}

int cal_measure(const char *text, const struct cal_opts *o, struct case_result *r)
{
    memset(r, 0, sizeof(*r));
    r->text = xstrdup(text);
    quantities_unstated(&r->q);
    size_t len = strcspn(text, " ");
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), text);
    const struct kernel *k = kernel_find(name);
    if (!k) {
        snprintf(r->reason, sizeof(r->reason), "kernel %s not built", name);
        return r->status = CAL_SKIP;
    }
    struct case_ *c = case_from_text(k, text[len] ? text + len + 1 : "");
    if (!c) {
        snprintf(r->reason, sizeof(r->reason), "case '%s' does not fit kernel %s's parameters ('pmucal kernels %s')",
                 text, name, name);
        return r->status = CAL_SKIP;
    }
    /* The case runs (and first touches its data) on the chosen CPU unless its text names one. */
    char cpu[16];
    snprintf(cpu, sizeof(cpu), "%d", o->cpu);
    for (int i = 0; k->params[i].name; i++)
        if ((!strcmp(k->params[i].name, "run_cpu") || !strcmp(k->params[i].name, "init_cpu")) &&
            !strstr(text, k->params[i].name)) {
            free(c->value[i]);
            c->value[i] = xstrdup(cpu);
        }
    snprintf(r->label, sizeof(r->label), "%s", c->label);
    int status = CAL_OK;
    struct event_spec ev = {0};
    char err[256];
    int run_cpu = has_param(k, "run_cpu") ? case_run_cpu(c) : o->cpu;
    if (topo_bind_thread(run_cpu)) {
        snprintf(r->reason, sizeof(r->reason), "cannot pin to CPU %d", run_cpu);
        case_free(c);
        return r->status = CAL_ERROR;
    }
    int rc = c->kernel->setup(c);
    if (rc != KERNEL_OK) {
        snprintf(r->reason, sizeof(r->reason), "%s", rc == KERNEL_SKIP ? c->skip : "setup failed (see the message above)");
        c->kernel->teardown(c);
        case_free(c);
        return r->status = rc == KERNEL_SKIP ? CAL_SKIP : CAL_ERROR;
    }
    snprintf(r->detail, sizeof(r->detail), "%s", c->detail);
    c->kernel->model(c, &r->q);
    /* page-faults: a software event that opens everywhere, carrying the noise detectors. */
    if (o->src->resolve("page-faults", &ev, err, sizeof(err)))
        pm_fatal("page-faults does not resolve: %s", err);
    struct event_spec *evp = &ev;
    struct measure_opts mo = {.repetitions = 1, .target_seconds = o->target_seconds, .iters = 0, .max_redo = 10};
    struct measurement *m = xmalloc(sizeof(*m));
    const struct clock_info *ci = clock_get();
    for (int rep = 0; rep < o->repetitions; rep++) {
        double before, after;
        /* A repetition that another task interrupted in every attempt is tried again, twice;
         * if it still was, it is kept and counted: the penalty is then not called stable. */
        for (int attempt = 0;; attempt++) {
            before = cal_local_ratio(o->target_seconds / 4);
            rc = measure_group(o->src, c, &evp, 1, &mo, m);
            after = cal_local_ratio(o->target_seconds / 4);
            if (rc != MEASURE_OK || !m->noisy || attempt == 2)
                break;
        }
        r->disturbed += rc == MEASURE_OK && m->noisy;
        if (rc != MEASURE_OK) {
            status = rc == MEASURE_INTERRUPTED ? CAL_INTERRUPTED : CAL_ERROR;
            snprintf(r->reason, sizeof(r->reason), "%s", rc == MEASURE_INTERRUPTED ? "interrupted" : "measurement failed");
            break;
        }
        /* After the first repetition the caches are warm: later ones warm up with one run only. */
        c->warm_iters = 0;
        double ticks = m->cycles[0] / ci->core_per_tsc, local = (before + after) / 2;
        r->cycles[rep] = ticks * local;
        r->ns[rep] = ticks / ci->tsc_hz * 1e9;
        r->ghz[rep] = local * ci->tsc_hz / 1e9;
        r->reps = rep + 1;
    }
    r->iters = c->iters;
    free(m);
    event_spec_clear(&ev);
    c->kernel->teardown(c);
    case_free(c);
    return r->status = status;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct fit fit_penalty(const double *x, int nx, const double *y, int ny, double delta, unsigned seed)
{
    struct fit f;
    struct stats sx = stats_of(x, (size_t)nx);
    double my = ny ? stats_median(y, (size_t)ny) : 0;
    f.value = (sx.median - my) / delta;
    f.rel_mad = stats_rel_mad(&sx);
    enum { B = 2000 };
    double *boot = xmalloc(B * sizeof(double)), bx[MEASURE_MAX_REPS], by[MEASURE_MAX_REPS];
    struct rng r;
    rng_seed(&r, seed);
    for (int b = 0; b < B; b++) {
        for (int i = 0; i < nx; i++)
            bx[i] = x[rng_below(&r, (uint64_t)nx)];
        for (int i = 0; i < ny; i++)
            by[i] = y[rng_below(&r, (uint64_t)ny)];
        boot[b] = (stats_median(bx, (size_t)nx) - (ny ? stats_median(by, (size_t)ny) : 0)) / delta;
    }
    qsort(boot, B, sizeof(double), cmp_double);
    f.lo = boot[(int)(0.025 * B)];
    f.hi = boot[(int)(0.975 * B) - 1];
    free(boot);
    return f;
}

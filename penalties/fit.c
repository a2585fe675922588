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

int cal_measure(const char *text, const struct cal_opts *o, const char *event, struct case_result *r)
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
    int rc = case_setup(c);
    if (rc != KERNEL_OK) {
        snprintf(r->reason, sizeof(r->reason), "%s", rc == KERNEL_SKIP ? c->skip : "setup failed (see the message above)");
        c->kernel->teardown(c);
        case_free(c);
        return r->status = rc == KERNEL_SKIP ? CAL_SKIP : CAL_ERROR;
    }
    snprintf(r->detail, sizeof(r->detail), "%s", c->detail);
    case_model(c, &r->q);
    /* page-faults: a software event that opens everywhere, carrying the noise detectors; and
     * the PMU event that counts the recipe's occurrences, where one is asked for. */
    if (o->src->resolve("page-faults", &ev, err, sizeof(err)))
        pm_fatal("page-faults does not resolve: %s", err);
    struct event_spec occ = {0};
    struct event_spec *evp[2] = {&ev, &occ};
    int nev = 1;
    if (event) {
        if (o->src->resolve(event, &occ, err, sizeof(err)))
            occ.unsupported = xstrdup(err);
        nev = 2;
    }
    double counted[MEASURE_MAX_REPS];
    struct measure_opts mo = {.repetitions = 1, .target_seconds = o->target_seconds, .iters = 0, .max_redo = 10};
    struct measurement *m = xmalloc(sizeof(*m));
    const struct clock_info *ci = clock_get();
    for (int rep = 0; rep < o->repetitions; rep++) {
        /* A repetition that another task interrupted in every attempt is tried again, twice;
         * if it still was, it is kept and counted: the penalty is then not called stable. */
        for (int attempt = 0;; attempt++) {
            rc = measure_group(o->src, c, evp, nev, &mo, m);
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
        /* The core converts ticks at the clock measured around this very group. */
        r->cycles[rep] = m->cycles[0];
        r->ns[rep] = m->cycles[0] / m->core_per_tsc / ci->tsc_hz * 1e9;
        r->ghz[rep] = m->core_per_tsc * ci->tsc_hz / 1e9;
        counted[rep] = nev > 1 ? m->per_iter[1][0] : NAN;
        r->reps = rep + 1;
    }
    r->iters = c->iters;
    r->event.asked = event != NULL;
    r->event.counted = event && !occ.unsupported && r->reps > 0;
    r->event.per_iter = r->event.counted ? stats_median(counted, (size_t)r->reps) : NAN;
    snprintf(r->event.why, sizeof(r->event.why), "%s", occ.unsupported ? occ.unsupported : "");
    event_spec_clear(&occ);
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

void choose_occurrences(double model_issue, double model_control, const struct event_count *issue,
                        const struct event_count *control, const char *event, struct occurrences *out)
{
    memset(out, 0, sizeof(*out));
    out->issue = model_issue;
    out->control = model_control;
    if (!event) {
        snprintf(out->reason, sizeof(out->reason), "the recipe names no event for this PMU");
        return;
    }
    const struct event_count *missing = !issue->counted ? issue : control && control->asked && !control->counted ? control : NULL;
    if (missing) {
        snprintf(out->reason, sizeof(out->reason), "%s not counted: %s", event, missing->why[0] ? missing->why : "not measured");
        return;
    }
    double counted_control = control && control->asked ? control->per_iter : 0;
    double model_delta = model_issue - model_control, counted_delta = issue->per_iter - counted_control;
    if (!(fabs(counted_delta - model_delta) <= 0.10 * fabs(model_delta))) {
        snprintf(out->reason, sizeof(out->reason), "%s counted %.4g more per iteration than the control, the model "
                 "%.4g: not validated, the model's count is used", event, counted_delta, model_delta);
        return;
    }
    out->issue = issue->per_iter;
    out->control = counted_control;
    out->from_event = true;
    snprintf(out->reason, sizeof(out->reason), "%s counted %.4g more per iteration than the control, the model %.4g: "
             "validated, its counts are used", event, counted_delta, model_delta);
}

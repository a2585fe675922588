#include "core/measure.h"
#include "arch/isa.h"
#include "base/stop.h"
#include "base/util.h"
#include "host/clock.h"
#include "host/topo.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t measure_region_ticks;

/* One counted loop: the counters are on around the region only. */
static int counted_loop(const struct source *src, struct group *g, struct case_ *c, uint64_t iters,
                   struct group_reading *r, uint64_t *ticks)
{
    if (c->kernel->prepare)
        c->kernel->prepare(c);
    src->start(g);
    uint64_t t0 = isa_ticks_start();
    c->kernel->loop(c, iters);
    uint64_t t1 = isa_ticks_stop();
    src->stop(g);
    *ticks = case_loop_ticks(c, t0, t1);
    measure_region_ticks += *ticks;
    /* What a source does not fill stays "not counted", never a stale number. */
    for (int k = 0; k < GROUP_MAX_EVENTS; k++)
        r->value[k] = NAN;
    for (int k = 0; k < NOISE_COUNT; k++)
        r->noise[k] = NAN;
    for (int k = 0; k < FIXED_COUNT; k++)
        r->fixed[k] = NAN;
    r->time_enabled = r->time_running = 0;
    int rc = src->read(g, r);
    if (!isnan(r->noise[NOISE_CTX_SWITCH]))   /* the loop's own stop at its end is not a disturbance */
        r->noise[NOISE_CTX_SWITCH] = fmax(0, r->noise[NOISE_CTX_SWITCH] - c->loop_switches);
    return rc;
}

/* The counted loops' times: zero-iteration loops [0] and loops of iterations [1] apart. */
struct loop_times {
    double enabled[2], running[2], zero_min, zero_max;
    int n[2];
};

/* Adds a loop's times to the group's; kind 0 or 1 for a counted loop, -1 for the warm-up. */
static void times_add(struct measurement *m, struct loop_times *t, const struct group_reading *r, int kind)
{
    m->time_enabled += r->time_enabled;
    m->time_running += r->time_running;
    if (kind < 0)
        return;
    double held = (double)r->time_running;
    if (kind == 0) {
        t->zero_min = t->n[0] && t->zero_min < held ? t->zero_min : held;
        t->zero_max = t->n[0] && t->zero_max > held ? t->zero_max : held;
    }
    t->enabled[kind] += (double)r->time_enabled;
    t->running[kind] += held;
    t->n[kind]++;
}

void measure_schedule_judge(struct measurement *m)
{
    m->multiplexed = m->time_running < m->time_enabled;
    /* Held no longer with iterations than without, within the zero-iteration loops' spread, one
     * iteration's time, or a thousandth of the code's: the clock perf reads ticks coarsely (the
     * emulated N1's timer every 16 ns, so two loops differ by a tick or two whatever they did),
     * and a group that held the counters for less than that counted none of the code. */
    double code = m->enabled_iters - m->enabled_zero;
    double one_iter = code / (double)(m->iters ? m->iters : 1);
    double allowance = fmax(fmax(m->running_zero_spread, one_iter), 1e-3 * code);
    m->never_scheduled = m->time_enabled > 0 &&
                         (m->time_running == 0 ||
                          (m->multiplexed && m->enabled_iters > 0 && m->running_iters - m->running_zero <= allowance));
}

static void times_judge(struct measurement *m, const struct loop_times *t)
{
    if (t->n[0] && t->n[1]) {
        m->enabled_zero = t->enabled[0] / t->n[0], m->enabled_iters = t->enabled[1] / t->n[1];
        m->running_zero = t->running[0] / t->n[0], m->running_iters = t->running[1] / t->n[1];
        m->running_zero_spread = t->zero_max - t->zero_min;
    }
    measure_schedule_judge(m);
}

/* Iterations so that one loop lasts about target_seconds, found by doubling from 1. Each step is
 * the quickest of three loops: a loop that waited for a preempted thread (a team member whose CPU
 * another task had) reads milliseconds long and would make a few iterations look like enough. */
static uint64_t calibrate_iters(struct case_ *c, const struct measure_opts *o)
{
    const struct clock_info *ci = clock_get();
    uint64_t it = 1, cap = c->max_iters ? c->max_iters : UINT64_MAX / 4;
    for (;;) {
        uint64_t ticks = UINT64_MAX;
        for (int k = 0; k < 3; k++) {
            if (c->kernel->prepare)
                c->kernel->prepare(c);
            uint64_t t0 = isa_ticks_start();
            c->kernel->loop(c, it);
            uint64_t t = case_loop_ticks(c, t0, isa_ticks_stop());
            measure_region_ticks += t;
            ticks = t < ticks ? t : ticks;
        }
        if (c->failed[0] || stop_signal_number)   /* loops that did not run: no pace to learn */
            return 1;
        double secs = (double)ticks / ci->tsc_hz;
        if (it >= cap)
            return cap;
        /* No loop runs MEASURE_MAX_ITERS iterations in an eighth of a target: one whose time does not
         * grow with its count would otherwise be given 2^62 of them and a header saying so. */
        if (it >= MEASURE_MAX_ITERS && secs < o->target_seconds / 8) {
            snprintf(c->failed, sizeof(c->failed), "its loop's time does not grow with its iterations "
                     "(%llu of them took %.0f ns): it cannot be paced or measured",
                     (unsigned long long)it, secs * 1e9);
            return 1;
        }
        if (secs >= o->target_seconds / 8) {
            double want = (double)it * o->target_seconds / secs;
            return want > (double)cap ? cap : (uint64_t)want < 1 ? 1 : (uint64_t)want;
        }
        it = it * 2 > cap ? cap : it * 2;
    }
}

/* A measured loop cannot be stopped halfway, so a stop (Ctrl-C, SIGTERM) waits for it: a count
 * whose loop would outlast MEASURE_MAX_LOOP_SECONDS is refused, judged from a pilot: one iteration
 * (64M of code takes 28 ms an iteration: 256 of them were 7 s of pilot), then twice as many while
 * the estimate is over and the next pilot is predicted short (measure_loop_too_long). */
static double pilot_seconds_per_iter(struct case_ *c, uint64_t pilot)
{
    if (c->kernel->prepare)
        c->kernel->prepare(c);
    uint64_t t0 = isa_ticks_start();
    c->kernel->loop(c, pilot);
    uint64_t ticks = case_loop_ticks(c, t0, isa_ticks_stop());
    measure_region_ticks += ticks;
    return (double)ticks / clock_get()->tsc_hz / (double)pilot;
}

/* One uncounted loop's ticks (the counters stay off: a window is timing only). */
static uint64_t timed_loop(struct case_ *c, uint64_t iters)
{
    if (c->kernel->prepare)
        c->kernel->prepare(c);
    uint64_t t0 = isa_ticks_start();
    c->kernel->loop(c, iters);
    uint64_t ticks = case_loop_ticks(c, t0, isa_ticks_stop());
    measure_region_ticks += ticks;
    return ticks;
}

/* Iterations of one window: about MEASURE_WINDOW_SECONDS at the pace of a counted loop of iters
 * (ticks long), within what the case allows (whole periods, whole laps, its limit), at least 1.
 * A table read cyclically from its start at every loop (branch's pattern) gets whole laps even
 * when one lap is longer than a window: a window of its first slots, replayed, is learned by the
 * predictor (a random pattern read 8.6 cycles an iteration instead of 86). */
static uint64_t window_iters(const struct case_ *c, uint64_t iters, uint64_t ticks)
{
    double per = ticks ? (double)ticks / (double)iters : 1, want = MEASURE_WINDOW_SECONDS * clock_get()->tsc_hz / per;
    uint64_t n = want < 1 ? 1 : want > (double)iters ? iters : (uint64_t)want;
    if (c->iters_multiple > 1)
        n = n < c->iters_multiple ? c->iters_multiple : n / c->iters_multiple * c->iters_multiple;
    if (c->iters_lap)   /* also when the counted loop is shorter than a lap (a pilot slowed by load) */
        n = n < c->iters_lap ? c->iters_lap : n - n % c->iters_lap;
    return c->max_iters && n > c->max_iters ? c->max_iters : n;
}

/* The windows' figures: cycles[] per repetition at the low quantile of its clean
 * windows, the summary over all of them. zero/full: ticks of each window's loops, nper a repetition;
 * trip: the clock ratio of the trips around them, nper + 1 a repetition (trip w before window w).
 * A window's ticks become cycles at its own clock: the host moves the core clock by 2-4% between
 * cases, and by 13% for a while (1.445 against 1.64-1.70 core cycles per tick), so one ratio
 * taken before and after a case mis-scaled every window between. A cut trip reads low, so a
 * window takes the higher of its two; one whose higher trip still reads a tenth below the
 * repetition's fastest, or whose own zero-iteration control was hit, is dropped. */
void measure_window_figures(struct measurement *m, const double *zero, const double *full, const double *trip,
                            int nper)
{
    int n = m->reps * nper, clean = 0;
    double zlim = 2 * stats_median(zero, (size_t)n) + 100;
    double *all = xmalloc(sizeof(double) * (size_t)n), *rep = xmalloc(sizeof(double) * (size_t)nper);
    double *ratios = xmalloc(sizeof(double) * (size_t)n);
    int nratio = 0;
    for (int r = 0; r < m->reps; r++) {
        const double *t = trip + r * (nper + 1);
        double fastest = 0;
        for (int i = 0; i <= nper; i++)
            fastest = fmax(fastest, t[i]);
        int k = 0;
        for (int i = 0; i < nper; i++) {
            int w = r * nper + i;
            double ratio = fmax(t[i], t[i + 1]);
            if (zero[w] <= zlim && ratio >= 0.9 * fastest) {
                rep[k++] = all[clean++] = (full[w] - zero[w]) * ratio / (double)m->window_iters;
                ratios[nratio++] = ratio;
            }
        }
        if (!k)   /* every window of the repetition was hit: they still bound it from above */
            for (int i = 0; i < nper; i++)
                rep[k++] = (full[r * nper + i] - zero[r * nper + i]) * fastest / (double)m->window_iters;
        m->cycles[r] = stats_quantile(rep, (size_t)k, MEASURE_WINDOW_QUANTILE);
    }
    m->windows = n;
    m->windows_dropped = n - clean;
    m->window_q = stats_quantile(all, (size_t)clean, MEASURE_WINDOW_QUANTILE);
    m->window_median = stats_quantile(all, (size_t)clean, 0.5);
    m->window_p90 = stats_quantile(all, (size_t)clean, 0.9);
    /* The clock the windows ran at, for ns and GHz: their ratios' median. */
    if (nratio)
        m->core_per_tsc = stats_median(ratios, (size_t)nratio);
    free(all);
    free(rep);
    free(ratios);
}

bool measure_loop_too_long(struct case_ *c, uint64_t iters, const char *option)
{
    double per = pilot_seconds_per_iter(c, 1);
    if (c->failed[0])   /* measure_group names it */
        return false;
    /* A first iteration may carry a cost the iterations after it share (a 2 MiB page's fault for
     * 512 steps of 4 KiB: milliseconds while compaction runs), so an estimate over the limit is
     * piloted again with twice the iterations, while each pilot is predicted to stay short, up to
     * 256 or one whole period of the model. */
    uint64_t most = iters < 256 ? iters : 256;
    if (c->iters_multiple > most && c->iters_multiple <= iters)
        most = c->iters_multiple;
    for (uint64_t k = 2; per * (double)iters > MEASURE_MAX_LOOP_SECONDS && k <= most &&
                         per * (double)k < MEASURE_MAX_LOOP_SECONDS / 4; k *= 2)
        per = pilot_seconds_per_iter(c, k);
    double secs = per * (double)iters;
    if (secs <= MEASURE_MAX_LOOP_SECONDS)
        return false;
    uint64_t fit = (uint64_t)((double)iters * MEASURE_MAX_LOOP_SECONDS / secs);
    if (c->iters_multiple > 1)   /* the count it would be given: whole periods of its model */
        fit = fit / c->iters_multiple * c->iters_multiple;
    if (!fit && c->iters_multiple > 1) {
        pm_error("%s: even %llu iterations (one whole period of its model) would make one measured loop longer "
                 "than %.1f s, the most a loop lasts so that a stop is prompt: choose a smaller case", c->label,
                 (unsigned long long)c->iters_multiple, MEASURE_MAX_LOOP_SECONDS);
        return true;
    }
    pm_error("%s: %s %llu would make one measured loop last about %.1f s; a loop lasts at most %.1f s so that "
             "a stop is prompt: give %s %llu or fewer", c->label, option, (unsigned long long)iters, secs,
             MEASURE_MAX_LOOP_SECONDS, option, (unsigned long long)(fit ? fit : 1));
    return true;
}

/* The trip beside window slot i (before window i of its repetition, or after the last); loads[i]
 * and fronts[i] in ticks a load and a no-op until witness_cycles converts them. */
static void trip_at(double *ratio, double *split, double *loads, double *fronts, int i)
{
    struct clock_trip t;
    clock_trip(&t);
    ratio[i] = t.ratio, split[i] = t.split, loads[i] = t.load_ticks, fronts[i] = t.front_ticks;
    measure_region_ticks += t.ticks;   /* the windows' clock is part of their measurement */
}

/* A witness's readings (a load's, a no-op's) in cycles, each at the fastest clock of its
 * repetition's trips: a trip whose own references were cut reads a low ratio (0.3 and 0.7 cycles a
 * load were seen at them), and the clock does not move within a repetition's 2 ms beyond what
 * that hides. */
static void witness_cycles(double *loads, const double *trip, int reps, int nper)
{
    for (int r = 0; r < reps; r++) {
        double fastest = 0;
        for (int i = 0; i <= nper; i++)
            fastest = fmax(fastest, trip[r * (nper + 1) + i]);
        for (int i = 0; i <= nper; i++)
            loads[r * (nper + 1) + i] *= fastest;
    }
}

void measure_witness_figures(struct measurement *m, const double *trip, const double *split, double *loads,
                             double *fronts, int nper)
{
    size_t n = (size_t)(m->reps * (nper + 1));
    m->clock_split = stats_median(split, n);
    witness_cycles(loads, trip, m->reps, nper);
    clock_load_witness(loads, split, n, MEASURE_CLOCK_SPLIT_MAX, &m->load_whole, &m->load_median);
    witness_cycles(fronts, trip, m->reps, nper);
    clock_front_witness(fronts, split, n, MEASURE_CLOCK_SPLIT_MAX, &m->front_fastest, &m->front_median);
}

int measure_group(const struct source *src, struct case_ *c, struct event_spec **events, int n,
                  const struct measure_opts *o, struct measurement *m)
{
    memset(m, 0, sizeof(*m));
    m->load_whole = m->load_median = m->front_fastest = m->front_median = NAN;
    if (n > GROUP_MAX_EVENTS || o->repetitions < 1 || o->repetitions > MEASURE_MAX_REPS)
        pm_fatal("measure_group: %d events, %d repetitions", n, o->repetitions);
    m->events = events;
    m->nevents = n;
    m->reps = o->repetitions;
    if (!c->iters)
        c->iters = o->iters ? o->iters : calibrate_iters(c, o);
    if (c->failed[0])
        return CASE_ERROR;
    if (c->max_iters && c->iters > c->max_iters)
        c->iters = c->max_iters;
    /* A model exact only over whole periods (e.g. odd/even halves) gets whole periods. */
    if (c->iters_multiple > 1 && c->iters % c->iters_multiple) {
        uint64_t asked = c->iters;
        c->iters = asked < c->iters_multiple ? c->iters_multiple : asked / c->iters_multiple * c->iters_multiple;
        if (o->iters)
            pm_note("%s: %llu iterations instead of %llu: its model is exact over multiples of %llu",
                    c->label, (unsigned long long)c->iters, (unsigned long long)asked,
                    (unsigned long long)c->iters_multiple);
    }
    /* A loop that wraps around a cyclically read table part-way would start inside lines the last
     * loop left cached; whole laps keep every loop the same cycle the model counts. */
    if (c->iters_lap && c->iters > c->iters_lap)
        c->iters -= c->iters % c->iters_lap;
    m->iters = c->iters;
    if (o->iters && src->real_time && measure_loop_too_long(c, c->iters, "--iters"))
        return CASE_ERROR;

    /* A stop ends the task a source counts in (the sandbox child of 'run code'): its events then
     * cannot open, and the case was interrupted, not failed. */
    struct group *g = src->open(events, n);
    if (!g)
        return stop_requested() ? CASE_INTERRUPTED : CASE_ERROR;
    struct group_reading r0, rn;
    struct loop_times times = {0};
    uint64_t k0, kn, ticks_n[MEASURE_MAX_REPS], ticks_0_min = UINT64_MAX;
    int rc = CASE_OK;
    double *zero = NULL, *full = NULL;   /* each window's ticks: its zero-iteration control, its loop */
    double *trip = NULL;                 /* the clock ratio before each window and after the last */
    double *split = NULL;                /* each trip's difference between its two references */
    double *loads = NULL;                /* each trip's load witness, cycles a load */
    double *fronts = NULL;               /* each trip's front-end witness, cycles a no-op */

    /* Warm-up: caches, TLBs, predictors and the clock reach their steady state. */
    uint64_t warm = c->warm_iters > m->iters ? c->warm_iters : m->iters;
    if (c->max_iters && warm > c->max_iters)
        warm = c->max_iters;
    if (c->warm_in_parts && warm > m->iters) {
        /* Uncounted, in parts of one measured loop each: a stop waits for one part, not a lap. */
        if (c->kernel->prepare)
            c->kernel->prepare(c);
        for (uint64_t done = 0, part; done < warm && !stop_signal_number; done += part) {
            part = warm - done < m->iters ? warm - done : m->iters;
            c->kernel->loop(c, part);
        }
    } else if (counted_loop(src, g, c, warm, &rn, &kn)) {
        rc = CASE_ERROR;
        goto out;
    } else
        times_add(m, &times, &rn, -1);
    if (c->failed[0]) {
        rc = CASE_ERROR;
        goto out;
    }
    m->ratio_before = clock_ratio_now();
    if (src->real_time) {
        zero = xmalloc(sizeof(double) * (size_t)(m->reps * MEASURE_WINDOWS));
        full = xmalloc(sizeof(double) * (size_t)(m->reps * MEASURE_WINDOWS));
        trip = xmalloc(sizeof(double) * (size_t)(m->reps * (MEASURE_WINDOWS + 1)));
        split = xmalloc(sizeof(double) * (size_t)(m->reps * (MEASURE_WINDOWS + 1)));
        loads = xmalloc(sizeof(double) * (size_t)(m->reps * (MEASURE_WINDOWS + 1)));
        fronts = xmalloc(sizeof(double) * (size_t)(m->reps * (MEASURE_WINDOWS + 1)));
    }
    /* Two repetitions disturbed in every attempt: another task holds the CPU for good (a busy loop
     * beside it switched every 5 ms loop out 4-7 times), and more attempts only multiply the time. */
    int max_redo = o->max_redo, held = 0;
    for (int rep = 0; rep < m->reps; rep++) {
        for (int attempt = 0;; attempt++) {
            if (stop_signal_number) {
                rc = CASE_INTERRUPTED;
                goto out;
            }
            if (counted_loop(src, g, c, 0, &r0, &k0) || counted_loop(src, g, c, m->iters, &rn, &kn) || c->failed[0]) {
                rc = CASE_ERROR;
                goto out;
            }
            times_add(m, &times, &r0, 0);
            times_add(m, &times, &rn, 1);
            double disturbed = 0;
            for (int k = 0; k < NOISE_COUNT; k++)
                if (k != NOISE_PAGE_FAULT && !isnan(rn.noise[k]))
                    disturbed += rn.noise[k] + r0.noise[k];
            /* A simulated count is never disturbed, and a repeat would only add history to a
             * simulated predictor: two loops of one case must give the same raw counts. */
            if (disturbed == 0 || attempt >= max_redo || !src->real_time) {
                m->noisy |= disturbed != 0;
                if (disturbed != 0 && src->real_time && ++held >= 2)
                    max_redo = 0;
                break;
            }
            m->redone++;
        }
        for (int e = 0; e < n; e++) {
            m->raw[e][rep][0] = rn.value[e];
            m->raw[e][rep][1] = r0.value[e];
            m->per_iter[e][rep] = (rn.value[e] - r0.value[e]) / (double)m->iters;
        }
        for (int k = 0; k < NOISE_COUNT; k++)
            m->noise[k][rep] = rn.noise[k] + r0.noise[k];
        for (int k = 0; k < FIXED_COUNT; k++)
            m->fixed[k][rep] = (rn.fixed[k] - r0.fixed[k]) / (double)m->iters;
        ticks_n[rep] = kn;
        if (k0 < ticks_0_min)
            ticks_0_min = k0;
        if (!src->real_time)
            continue;
        if (!m->window_iters)
            m->window_iters = window_iters(c, m->iters, kn);
        for (int w = rep * MEASURE_WINDOWS; w < (rep + 1) * MEASURE_WINDOWS; w++) {
            if (stop_signal_number) {
                rc = CASE_INTERRUPTED;
                goto out;
            }
            trip_at(trip, split, loads, fronts, w + rep);
            zero[w] = (double)timed_loop(c, 0);
            full[w] = (double)timed_loop(c, m->window_iters);
            if (c->failed[0]) {
                rc = CASE_ERROR;
                goto out;
            }
        }
        int last = (rep + 1) * (MEASURE_WINDOWS + 1) - 1;   /* the trip after the repetition's last window */
        trip_at(trip, split, loads, fronts, last);
    }
    m->ratio_after = clock_ratio_now();
    /* A moving clock is recorded, not measured again: each window is converted at its own. */
    m->clock_moved = fabs(m->ratio_after / m->ratio_before - 1) > MEASURE_CLOCK_DRIFT;
    m->core_per_tsc = (m->ratio_before + m->ratio_after) / 2;
    /* No scaling by a share of the CPU measured elsewhere: a figure is what clean windows took. A
     * source that is not real time (a simulator) has no windows; its cycles mean nothing, and are
     * its counted loops' ticks less the least zero-iteration loop. */
    if (src->real_time) {
        measure_window_figures(m, zero, full, trip, MEASURE_WINDOWS);
        measure_witness_figures(m, trip, split, loads, fronts, MEASURE_WINDOWS);
    } else
        for (int rep = 0; rep < m->reps; rep++)
            m->cycles[rep] = ((double)ticks_n[rep] - (double)ticks_0_min) * m->core_per_tsc / (double)m->iters;
    times_judge(m, &times);
    for (int e = 0; e < n; e++)
        m->stat[e] = stats_of(m->per_iter[e], (size_t)m->reps);
    m->cycle_stat = stats_of(m->cycles, (size_t)m->reps);
    for (int k = 0; k < FIXED_COUNT; k++)
        m->fixed_stat[k] = stats_of(m->fixed[k], (size_t)m->reps);
out:
    free(zero);
    free(full);
    free(trip);
    free(split);
    free(loads);
    free(fronts);
    src->close(g);
    return rc;
}

int measure_case_cycles(const char *kernel, const char *case_text, const struct measure_opts *o,
                        struct stats *cycles, double *core_ghz, struct quantities *q)
{
    const struct kernel *k = kernel_find(kernel);
    const struct source *src = source_find("perf");
    if (!k || !src)
        pm_fatal("kernel %s or the perf source is not registered", kernel);
    struct case_ *c = case_from_text(k, case_text);
    if (!c)
        return -1;
    int rc = -1;
    if (topo_bind_thread(case_run_cpu(c))) {
        case_free(c);
        return -1;
    }
    int s = case_setup(c);
    if (s == CASE_SKIP) {
        pm_note("%s: SKIP %s", c->label, c->skip);
        rc = 1;
    } else if (s == CASE_OK) {
        struct measurement *m = xmalloc(sizeof(*m));
        if (measure_group(src, c, NULL, 0, o, m) == CASE_OK) {
            *cycles = m->cycle_stat;
            *core_ghz = m->core_per_tsc * clock_get()->tsc_hz / 1e9;
            case_model(c, q);
            rc = 0;
        }
        free(m);
    }
    if (k->teardown)
        k->teardown(c);
    case_free(c);
    return rc;
}

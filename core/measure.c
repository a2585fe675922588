#include "core/measure.h"
#include "arch/isa.h"
#include "base/stop.h"
#include "base/util.h"
#include "host/clock.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t measure_region_ticks;

/* One measured run: the counters are on around the region only. */
static int one_run(const struct source *src, struct group *g, struct case_ *c, uint64_t iters,
                   struct group_reading *r, uint64_t *ticks)
{
    if (c->kernel->prepare)
        c->kernel->prepare(c);
    src->start(g);
    uint64_t t0 = isa_ticks_start();
    c->kernel->run(c, iters);
    uint64_t t1 = isa_ticks_stop();
    src->stop(g);
    *ticks = t1 - t0;
    measure_region_ticks += t1 - t0;
    /* What a source does not fill stays "not counted", never a stale number. */
    for (int k = 0; k < GROUP_MAX_EVENTS; k++)
        r->value[k] = NAN;
    for (int k = 0; k < NOISE_COUNT; k++)
        r->noise[k] = NAN;
    for (int k = 0; k < FIXED_COUNT; k++)
        r->fixed[k] = NAN;
    r->time_enabled = r->time_running = 0;
    return src->read(g, r);
}

/* Iterations so that one run lasts about target_seconds, found by doubling from 1. */
static uint64_t calibrate_iters(struct case_ *c, const struct measure_opts *o)
{
    const struct clock_info *ci = clock_get();
    uint64_t it = 1, cap = c->max_iters ? c->max_iters : UINT64_MAX / 4;
    for (;;) {
        if (c->kernel->prepare)
            c->kernel->prepare(c);
        uint64_t t0 = isa_ticks_start();
        c->kernel->run(c, it);
        uint64_t ticks = isa_ticks_stop() - t0;
        measure_region_ticks += ticks;
        double secs = (double)ticks / ci->tsc_hz;
        if (it >= cap)
            return cap;
        if (secs >= o->target_seconds / 8) {
            double want = (double)it * o->target_seconds / secs;
            return want > (double)cap ? cap : (uint64_t)want < 1 ? 1 : (uint64_t)want;
        }
        it = it * 2 > cap ? cap : it * 2;
    }
}

/* A measured run cannot be stopped halfway, so a stop (Ctrl-C, SIGTERM) waits for it: a count
 * whose run would outlast MEASURE_MAX_RUN_SECONDS is refused, judged from a pilot: one iteration
 * (64M of code takes 28 ms an iteration: 256 of them were 7 s of pilot), then up to 256 when one
 * is quick enough for the estimate to need them. */
static double pilot_seconds_per_iter(struct case_ *c, uint64_t pilot)
{
    if (c->kernel->prepare)
        c->kernel->prepare(c);
    uint64_t t0 = isa_ticks_start();
    c->kernel->run(c, pilot);
    uint64_t ticks = isa_ticks_stop() - t0;
    measure_region_ticks += ticks;
    return (double)ticks / clock_get()->tsc_hz / (double)pilot;
}

/* The CPU's share of a window as long as a measured run: the clock over such a trip (median of
 * trips) against the short trips' ratio. On this project's VMs it is about 0.94 when quiet (the
 * host takes its part of every few milliseconds) and lower when the host is busy; the short trips
 * slip between those interruptions. A run loses the same share, so cycles are ticks x ratio x
 * share: l1_hit read 4.26 cycles scaled by the short ratio alone, and every level and divider
 * figure came out 5-6% above its published value. */
static double cpu_share(double secs, double ratio, int trips)
{
    double r[9];
    trips = trips < 1 ? 1 : trips > 9 ? 9 : trips;
    for (int t = 0; t < trips; t++)
        r[t] = clock_ratio_over(secs, ratio);
    double share = stats_median(r, (size_t)trips) / ratio;
    return share > 1 ? 1 : share;
}

bool measure_run_too_long(struct case_ *c, uint64_t iters, const char *option)
{
    double per = pilot_seconds_per_iter(c, 1);
    if (per * (double)iters > MEASURE_MAX_RUN_SECONDS && iters > 1 && per * 256 < MEASURE_MAX_RUN_SECONDS)
        per = pilot_seconds_per_iter(c, iters < 256 ? iters : 256);
    double secs = per * (double)iters;
    if (secs <= MEASURE_MAX_RUN_SECONDS)
        return false;
    uint64_t fit = (uint64_t)((double)iters * MEASURE_MAX_RUN_SECONDS / secs);
    pm_error("%s: %s %llu would make one measured run last about %.1f s; a run lasts at most %.1f s so that "
             "a stop is prompt: give %s %llu or fewer", c->label, option, (unsigned long long)iters, secs,
             MEASURE_MAX_RUN_SECONDS, option, (unsigned long long)(fit ? fit : 1));
    return true;
}

int measure_group(const struct source *src, struct case_ *c, struct event_spec **events, int n,
                  const struct measure_opts *o, struct measurement *m)
{
    memset(m, 0, sizeof(*m));
    if (n > GROUP_MAX_EVENTS || o->repetitions < 1 || o->repetitions > MEASURE_MAX_REPS)
        pm_fatal("measure_group: %d events, %d repetitions", n, o->repetitions);
    m->events = events;
    m->nevents = n;
    m->reps = o->repetitions;
    if (!c->iters)
        c->iters = o->iters ? o->iters : calibrate_iters(c, o);
    if (c->max_iters && c->iters > c->max_iters)
        c->iters = c->max_iters;
    /* A model exact only over whole periods (e.g. odd/even halves) gets whole periods. */
    if (c->iters_multiple > 1 && c->iters % c->iters_multiple) {
        uint64_t asked = c->iters;
        c->iters = asked < c->iters_multiple ? c->iters_multiple : asked / c->iters_multiple * c->iters_multiple;
        if (o->iters)
            pm_note("%s: %llu iterations instead of --iters %llu: its model is exact over multiples of %llu",
                    c->label, (unsigned long long)c->iters, (unsigned long long)asked,
                    (unsigned long long)c->iters_multiple);
    }
    /* A run that wraps around a cyclically read table part-way would start inside lines the last
     * run left cached; whole laps keep every run the same cycle the model counts. */
    if (c->iters_lap && c->iters > c->iters_lap)
        c->iters -= c->iters % c->iters_lap;
    m->iters = c->iters;
    if (o->iters && src->real_time && measure_run_too_long(c, c->iters, "--iters"))
        return MEASURE_FAILED;

    struct group *g = src->open(events, n);
    if (!g)
        return MEASURE_FAILED;
    struct group_reading r0, rn;
    uint64_t k0, kn, ticks_n[MEASURE_MAX_REPS], ticks_0_min = UINT64_MAX;
    int rc = MEASURE_OK;

    /* Warm-up: caches, TLBs, predictors and the clock reach their steady state. */
    uint64_t warm = c->warm_iters > m->iters ? c->warm_iters : m->iters;
    if (c->max_iters && warm > c->max_iters)
        warm = c->max_iters;
    if (c->warm_in_parts && warm > m->iters) {
        /* Uncounted, in parts of one measured run each: a stop waits for one part, not a lap. */
        if (c->kernel->prepare)
            c->kernel->prepare(c);
        for (uint64_t done = 0, part; done < warm && !stop_signal_number; done += part) {
            part = warm - done < m->iters ? warm - done : m->iters;
            c->kernel->run(c, part);
        }
    } else if (one_run(src, g, c, warm, &rn, &kn)) {
        rc = MEASURE_FAILED;
        goto out;
    }
    m->ratio_before = clock_ratio_now();
    /* Windows as long as a measured run (the target, 1..50 ms) for the CPU's share. */
    double share_secs = o->target_seconds > 0 ? o->target_seconds : 0.005;
    share_secs = share_secs < 0.001 ? 0.001 : share_secs > 0.05 ? 0.05 : share_secs;
    if (src->real_time)
        m->share_before = cpu_share(share_secs, m->ratio_before, o->share_trips);
clock_again:
    for (int rep = 0; rep < m->reps; rep++) {
        for (int attempt = 0;; attempt++) {
            if (stop_signal_number) {
                rc = MEASURE_INTERRUPTED;
                goto out;
            }
            if (one_run(src, g, c, 0, &r0, &k0) || one_run(src, g, c, m->iters, &rn, &kn)) {
                rc = MEASURE_FAILED;
                goto out;
            }
            double disturbed = 0;
            for (int k = 0; k < NOISE_COUNT; k++)
                if (k != NOISE_PAGE_FAULT && !isnan(rn.noise[k]))
                    disturbed += rn.noise[k] + r0.noise[k];
            /* A simulated count is never disturbed, and a repeat would only add history to a
             * simulated predictor: two runs of one case must give the same raw counts. */
            if (disturbed == 0 || attempt >= o->max_redo || !src->real_time) {
                m->noisy |= disturbed != 0;
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
    }
    m->ratio_after = clock_ratio_now();
    m->clock_moved = fabs(m->ratio_after / m->ratio_before - 1) > MEASURE_CLOCK_DRIFT;
    if (src->real_time) {
        m->share_after = cpu_share(share_secs, m->ratio_after, o->share_trips);
        m->cpu_shared = fabs(m->share_after / m->share_before - 1) > MEASURE_SHARE_DRIFT;
    }
    if ((m->clock_moved || m->cpu_shared) && m->clock_redone < 2 && src->real_time) {
        m->clock_redone++;
        m->ratio_before = m->ratio_after;
        m->share_before = m->share_after;
        ticks_0_min = UINT64_MAX;
        goto clock_again;
    }
    m->core_per_tsc = (m->ratio_before + m->ratio_after) / 2;
    m->cpu_share = src->real_time ? (m->share_before + m->share_after) / 2 : 1;
    /* The zero-iteration run's time is fixed cost plus one-sided noise: its minimum is the cost.
     * Only the CPU's share of it was ours: the rest went to the host (or a neighbour). */
    for (int rep = 0; rep < m->reps; rep++)
        m->cycles[rep] = ((double)ticks_n[rep] - (double)ticks_0_min) * m->core_per_tsc * m->cpu_share /
                         (double)m->iters;
    m->time_enabled = rn.time_enabled;
    m->time_running = rn.time_running;
    m->multiplexed = rn.time_running < rn.time_enabled;
    for (int e = 0; e < n; e++)
        m->stat[e] = stats_of(m->per_iter[e], (size_t)m->reps);
    m->cycle_stat = stats_of(m->cycles, (size_t)m->reps);
    for (int k = 0; k < FIXED_COUNT; k++)
        m->fixed_stat[k] = stats_of(m->fixed[k], (size_t)m->reps);
out:
    src->close(g);
    return rc;
}

/* The load-latency curve: walker order=random from 4K to past the last level, one point per
 * size, and the level boundaries read off it; curve.csv and curve.svg for the run folder. */
#include "penalties/curve.h"
#include "base/stats.h"
#include "base/subprocess.h"
#include "base/util.h"
#include "core/kernel.h"
#include "core/quantity.h"
#include "host/cpuload.h"
#include "host/geometry.h"
#include "host/tlb.h"
#include "host/topo.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void curve_detect_levels(struct curve *cv)
{
    struct latency_point p[CURVE_MAX_POINTS];
    for (int i = 0; i < cv->n; i++)
        p[i] = (struct latency_point){cv->bytes[i], cv->lo[i], cv->cyc[i] > 0 ? cv->ns[i] * cv->lo[i] / cv->cyc[i] : 0};
    /* A curve below the L1 floor or not monotone was made by the load, not the caches: its levels
     * would judge the level cases wrongly, so none are read off it. */
    char why[200];
    if (latency_curve_check(p, cv->n, NULL, 0, why, sizeof(why))) {
        memset(&cv->levels, 0, sizeof(cv->levels));
        cv->detected = false;
        snprintf(cv->why, sizeof(cv->why), "the curve fails its checks: %.170s", why);
        return;
    }
    cv->detected = !latency_levels_detect(p, cv->n, &cv->levels, cv->why, sizeof(cv->why));
}

/* One attempt at point i: kept when it is the point's first or reads faster than what it holds.
 * -1 interrupted; 1 when the first attempt could not be measured (the point is left out); a later
 * one that could not (a replay without its record) ends the attempts. */
static int curve_attempt(struct curve *cv, int i, const char *text, int attempt, curve_measure_fn fn, void *ctx,
                         bool *shared)
{
    const struct case_result *r = fn(ctx, text, attempt, shared);
    if (!r)
        return -1;
    if (r->status != CASE_OK) {
        *shared = false;
        if (attempt)
            return 0;
        pm_warn("curve: %s: %s", text, r->reason);
        return 1;
    }
    double per = r->q.v[Q_LD_ALL];
    struct stats s = stats_of(r->cycles, (size_t)r->reps);
    if (attempt && !(s.min / per < cv->lo[i]))
        return 0;
    cv->cyc[i] = s.median / per;
    cv->lo[i] = s.min / per;
    cv->hi[i] = s.max / per;
    cv->ns[i] = stats_median(r->ns, (size_t)r->reps) / per;
    return 0;
}

static void point_text(char *text, size_t n, uint64_t b)
{
    snprintf(text, n, "walker size=%llu order=random", (unsigned long long)b);
}

int curve_measure(struct curve *cv, int ppo, uint64_t top, bool progress, curve_measure_fn fn, void *ctx)
{
    if (!top) {
        const struct topo *t = topo_resolved();
        top = 4 * t->data[topo_last_level(t)].size;
    }
    memset(cv, 0, sizeof(*cv));
    int tries[CURVE_MAX_POINTS] = {0};
    for (int i = 0; cv->n < CURVE_MAX_POINTS && i <= 48 * ppo; i++) {   /* 4K x 2^48: past any top */
        uint64_t b = (uint64_t)(4096.0 * pow(2.0, (double)i / ppo)) / 64 * 64;
        if (b > top)
            break;
        if (cv->n && b == cv->bytes[cv->n - 1])
            continue;
        char text[96];
        point_text(text, sizeof(text), b);
        bool shared = true;
        int k = cv->n, rc = 0;
        tries[k] = 0;
        for (int a = 0; rc == 0 && shared && a < CURVE_ATTEMPTS; a++, tries[k]++)
            rc = curve_attempt(cv, k, text, a, fn, ctx, &shared);
        if (rc < 0)
            return -1;
        if (rc > 0)
            continue;
        cv->bytes[k] = b;
        if (progress)
            pm_progress("curve %s: %.2f cycles per load", fmt_size(b), cv->cyc[k]);
        cv->n++;
    }
    /* A point slower than a larger working set beyond the noise was disturbed in every attempt
     * so far: its remaining attempts, while it stays so. */
    double later = INFINITY;   /* the fastest point beyond i, each final before i is looked at */
    for (int i = cv->n - 2; i >= 0; i--) {
        later = fmin(later, cv->lo[i + 1]);
        char text[96];
        point_text(text, sizeof(text), cv->bytes[i]);
        bool shared;
        while (cv->lo[i] * (1 - LATENCY_CURVE_NOISE) > later && tries[i] < CURVE_ATTEMPTS)
            if (curve_attempt(cv, i, text, tries[i]++, fn, ctx, &shared) < 0)
                return -1;
    }
    if (cv->n < 4) {
        pm_error("curve: fewer than 4 points measured");
        return -1;
    }
    return 0;
}

void curve_write(const struct curve *cv, int ppo, const char *dir, struct json *doc)
{
    const struct topo *t = topo_get();
    struct run_out out;
    FILE *f = run_out_begin(&out, dir, "curve.csv");
    if (f) {
        fprintf(f, "%s\n", curve_csv_header);
        for (int i = 0; i < cv->n; i++)
            fprintf(f, "%llu,%.3f,%.3f,%.3f,%.3f\n", (unsigned long long)cv->bytes[i], cv->cyc[i], cv->ns[i], cv->lo[i],
                    cv->hi[i]);
        run_out_commit(&out);
    }
    json_object_begin(doc, "curve");
    json_string(doc, "file", "curve.csv");
    json_int(doc, "points", cv->n);
    json_int(doc, "points_per_octave", ppo);
    json_string(doc, "case", "walker order=random page=auto loads=16");
    json_array_begin(doc, "levels");
    static const char *const names[] = {"", "L1", "L2", "L3"};
    const struct geometry *g = geometry_get();
    if (!cv->detected)
        printf("# curve: no levels read: %s\n", cv->why);
    for (int l = 1; l <= 3; l++) {
        const struct latency_plateau *p = cv->detected ? latency_level_plateau(&cv->levels, l) : NULL;
        uint64_t got = p ? p->boundary : 0, hw = g->hwloc[l].size;
        if (!hw && !got)
            continue;
        json_object_begin(doc, NULL);
        json_string(doc, "level", names[l]);
        json_uint(doc, "hwloc_bytes", hw);
        json_bool(doc, "hwloc_plausible", !g->implausible[l]);
        json_uint(doc, "used_bytes", t->data[l].size);
        json_string(doc, "used_from", topo_source_name(t->source[l]));
        json_uint(doc, "detected_bytes", got);
        json_number(doc, "plateau_cycles", p ? p->cycles : NAN);
        json_number(doc, "ratio", got && hw ? (double)got / (double)hw : NAN);
        json_object_end(doc);
        printf("# curve: %s boundary detected at %s (plateau %.1f cycles), hwloc says %s%s, size=%s uses %s from %s\n",
               names[l], got ? fmt_size(got) : "(none)", p ? p->cycles : NAN, hw ? fmt_size(hw) : "none",
               g->implausible[l] ? " (implausible)" : "", names[l], fmt_size(t->data[l].size),
               topo_source_name(t->source[l]));
    }
    json_array_end(doc);
    const struct latency_plateau *mem = cv->detected ? latency_level_plateau(&cv->levels, 4) : NULL;
    json_number(doc, "memory_cycles", mem ? mem->cycles : NAN);
    json_number(doc, "memory_ns", mem ? mem->ns : NAN);
    json_object_end(doc);
    /* The plot: gnuplot where it is installed; the CSV is there either way. */
    f = run_out_begin(&out, dir, "curve.gp");
    if (f) {
        fprintf(f, "set terminal svg size 900,560 dynamic background rgb 'white'\nset output 'curve.svg'\n"
                   "set datafile separator ','\nset logscale x 2\nset logscale y 2\nset grid\n"
                   "set title 'Load-to-use latency, random dependent loads (pmucal calibrate --curve)'\n"
                   "set xlabel 'working set (bytes)'\nset ylabel 'core cycles per load'\nset key top left\n");
        for (int l = 1; l <= 3; l++) {
            uint64_t hw = g->hwloc[l].size;
            const struct latency_plateau *p = cv->detected ? latency_level_plateau(&cv->levels, l) : NULL;
            uint64_t got = p ? p->boundary : 0;
            if (hw && hw <= cv->bytes[cv->n - 1])
                fprintf(f, "set arrow from %llu, graph 0 to %llu, graph 1 nohead dt 2 lc rgb 'gray40'\n"
                           "set label 'hwloc %s' at %llu, graph 0.95 rotate by 90 right offset -1,0 tc rgb 'gray40'\n",
                        (unsigned long long)hw, (unsigned long long)hw, names[l], (unsigned long long)hw);
            if (got)
                fprintf(f, "set arrow from %llu, graph 0 to %llu, graph 1 nohead lc rgb 'red'\n"
                           "set label 'detected %s' at %llu, graph 0.05 rotate by 90 left offset 1,0 tc rgb 'red'\n",
                        (unsigned long long)got, (unsigned long long)got, names[l], (unsigned long long)got);
        }
        fprintf(f, "plot 'curve.csv' every ::1 using 1:4:5 with filledcurves lc rgb '#c0d0f0' title 'min..max', \\\n"
                   "     'curve.csv' every ::1 using 1:2 with linespoints pt 7 ps 0.6 lc rgb 'blue' title 'median'\n");
        /* No shell and no path in the script: gnuplot runs in the folder, and makes its two files
         * anew there (what was at their names is removed first, a planted link included). */
        char *argv[] = {"gnuplot", "curve.gp", NULL};
        struct spawn_opts so = {.cwd = dir, .err_path = "gnuplot.err", .timeout_ms = 60000};
        if (run_out_commit(&out) || run_file_clear(dir, "gnuplot.err") || run_file_clear(dir, "curve.svg"))
            pm_warn("curve.svg not drawn; curve.csv has the data");
        else if (spawn_run(argv, &so) != 0)
            pm_warn("gnuplot could not draw curve.svg (see %s/gnuplot.err); curve.csv has the data; "
                    "'apt-get install gnuplot-nox' provides it", dir);
    }
}

/* ---- the geometry sweep: the curve host/geometry.c measures once per host ---- */

/* Five sweeps, each point's minimum kept (another task only ever adds latency: on a shared
 * machine a time slice of someone else empties the L2); 4 points per octave from 4K until the
 * minima of two octaves in a row answer at memory latency, so the sweep ends a little past the
 * last cache whatever hwloc claims (at most 1G or a quarter of the memory). */
enum { SWEEPS = 5, PPO = 4, EXTRA_SWEEPS = 4 };

static int sweep_point(const struct cal_opts *o, uint64_t b, int reps, struct latency_point *x, double *ratio,
                       char *why, size_t whylen)
{
    char text[96];
    snprintf(text, sizeof(text), "walker size=%llu order=random", (unsigned long long)b);
    struct cal_opts once = *o;
    once.repetitions = reps;
    struct case_result r;
    memset(&r, 0, sizeof(r));
    int rc = cal_measure_case(&once, NULL, text, NULL, &r);
    double per = r.q.v[Q_LD_ALL];
    if (rc != CASE_OK || !(per > 0)) {
        snprintf(why, whylen, "%s: %s", text, rc == CASE_OK ? "no loads in the model" : r.reason);
        case_result_free(&r);
        return -1;
    }
    for (int i = 0; i < r.reps; i++)
        if (!x->bytes || r.ns[i] / per < x->ns) {
            *x = (struct latency_point){b, r.cycles[i] / per, r.ns[i] / per};
            *ratio = r.cycles[i] / r.ns[i];
        }
    case_result_free(&r);
    return 0;
}

/* A curve's last octave is memory's plateau when its median is at most this much slower than
 * the median of the octave the window starts with. A VM's L3 answers beyond LATENCY_DRAM_NS and
 * its knee into memory is soft: this Golden Cove guest read 44, 46, 56, 67, 83, 95, 126 ns from
 * 12M to 32M under load (the curve stopped there, at "memory latency", and its L3 was never
 * found). Medians, not minima: the Emerald Rapids guest's last octave read 50, 55, 65, 130 ns,
 * rising out of its L3, and its fastest point was within a quarter of the L3's 41. */
#define MEMORY_FLAT 1.25

static double kept_ns(const struct latency_point *p, const struct latency_point *again, int i)
{
    return again[i].bytes && again[i].ns < p[i].ns ? again[i].ns : p[i].ns;
}

static double octave_median(const struct latency_point *p, const struct latency_point *again, int from, int ppo)
{
    double v[64];
    int m = 0;
    for (int i = from; i < from + ppo && m < 64; i++)
        v[m++] = kept_ns(p, again, i);
    return stats_median(v, (size_t)m);
}

bool curve_tail_at_memory(const struct latency_point *p, const struct latency_point *again, int n, int ppo)
{
    if (ppo < 1 || ppo > 64 || n < 2 * ppo)
        return false;
    double last = octave_median(p, again, n - ppo, ppo);
    /* A tail at LATENCY_MEMORY_SURE_NS or more and flat for two octaves is memory: no L3 has
     * answered that slowly. Under it a flat tail may be a slow L3 (the Emerald Rapids guest's:
     * 41-45 ns over 2M-4M) or fast DRAM, so it must stay flat over four octaves, longer than a
     * guest's share of an L3 has spanned. */
    int octaves = last >= LATENCY_MEMORY_SURE_NS ? 2 : 4;
    if (n < octaves * ppo)
        return false;
    for (int i = n - octaves * ppo; i < n; i++)
        if (kept_ns(p, again, i) < LATENCY_DRAM_NS)
            return false;
    return last <= octave_median(p, again, n - octaves * ppo, ppo) * MEMORY_FLAT;
}

/* A point far above a larger working set's (latency_curve_check's monotony) was disturbed, as
 * load only adds time: it is swept again, in the half it broke, a few times at most, so that one
 * busy moment does not cost a whole curve. */
static int sweep_disturbed(const struct cal_opts *o, struct latency_point *p, struct latency_point *again,
                           double *ratio, double *ratio_b, int n, char *why, size_t whylen)
{
    for (int round = 0; round < EXTRA_SWEEPS; round++) {
        bool swept_again = false;
        for (int half = 0; half < 2; half++) {
            struct latency_point *x = half ? again : p;
            double later = INFINITY;
            for (int k = n - 1; k >= 0; k--) {
                if (x[k].ns * (1 - LATENCY_CURVE_NOISE) > later) {
                    if (sweep_point(o, x[k].bytes, 1, &x[k], half ? &ratio_b[k] : &ratio[k], why, whylen))
                        return -1;
                    swept_again = true;
                }
                later = x[k].ns < later ? x[k].ns : later;
            }
        }
        if (!swept_again)
            break;
    }
    return 0;
}

static int geometry_sweep(struct latency_point *p, struct latency_point *again, int max, char *why, size_t whylen)
{
    const struct topo *t = topo_get();
    struct cal_opts o = {.target_seconds = 0.001, .src = source_find("perf")};
    if (!o.src) {
        snprintf(why, whylen, "the perf source is not registered");
        return -1;
    }
    o.cpu = cpuload_chosen();
    uint64_t cap = t && t->memory_total / 4 < (1ull << 30) && t->memory_total ? t->memory_total / 4 : 1ull << 30;
    int n = 0, swept = 0, i = 0;
    double ratio[CURVE_MAX_POINTS], ratio_b[CURVE_MAX_POINTS];
    if (max > CURVE_MAX_POINTS)
        max = CURVE_MAX_POINTS;
    memset(p, 0, sizeof(*p) * (size_t)max);
    memset(again, 0, sizeof(*again) * (size_t)max);
    for (;;) {
        /* Grow until the tail answers at memory latency (the better of two measurements per new point). */
        for (; n < max && !curve_tail_at_memory(p, again, n, PPO); i++) {
            uint64_t b = (uint64_t)(4096.0 * pow(2.0, (double)i / PPO)) / 64 * 64;
            if (b > cap)
                break;
            if (n && b == p[n - 1].bytes)
                continue;
            if (sweep_point(&o, b, 2, &p[n], &ratio[n], why, whylen))
                return -1;
            n++;
        }
        /* The other sweeps over the new points; their minima may pull the tail below memory.
         * A point twice as slow as a cache can be is memory already: its large ring is the
         * costly part of a sweep (a full lap to warm up), so it is not swept again. */
        /* Odd sweeps are the second half (again): its levels must repeat the first's. */
        for (int sweep = 1; sweep < SWEEPS; sweep++)
            for (int k = swept; k < n; k++) {
                struct latency_point *x = sweep % 2 ? &again[k] : &p[k];
                double *rx = sweep % 2 ? &ratio_b[k] : &ratio[k];
                if (p[k].ns < 2 * LATENCY_DRAM_NS && sweep_point(&o, p[k].bytes, 1, x, rx, why, whylen))
                    return -1;
            }
        for (int k = swept; k < n; k++)
            if (!again[k].bytes)   /* memory already: not swept again, both halves are its one point */
                again[k] = p[k], ratio_b[k] = ratio[k];
        swept = n;
        /* Sweeps again may lower a tail point below memory latency: the sweep goes on then, so
         * the curve kept ends two octaves into memory. */
        if (sweep_disturbed(&o, p, again, ratio, ratio_b, n, why, whylen))
            return -1;
        uint64_t next = (uint64_t)(4096.0 * pow(2.0, (double)i / PPO)) / 64 * 64;
        if (curve_tail_at_memory(p, again, n, PPO) || n >= max || next > cap)
            break;
    }
    /* Cycles at one clock for the whole curve: a point's own clock estimate is noisier than its
     * time, and noise that lowers a point would survive the minima. */
    double ghz = stats_median(ratio, (size_t)n);
    for (int k = 0; k < n; k++) {
        again[k].cycles = again[k].ns * ghz;
        p[k].cycles = p[k].ns * ghz;
    }
    /* The curve used is the minima of both halves; again keeps the second for the check. */
    for (int k = 0; k < n; k++)
        if (again[k].ns < p[k].ns)
            p[k] = again[k];
    return n;
}

__attribute__((constructor)) static void register_geometry_sweep(void)
{
    geometry_register_measurer(geometry_sweep);
}

/* ---- the TLB walk: the page-stride rings host/tlb.c reads the TLBs' entries off ---- */

/* From 8 pages (fewer than any first-level DTLB holds) to 8192 (twice the largest second level
 * met: Zen 5's 4096), 4 points an octave at m x 2^k pages (m = 4..7), so that the common sizes
 * (64, 96, 1536, 2048, 3072) are points (Zen 4's 72 reads as 64); a case takes about 15 ms, and
 * 8 points an octave made the walk 2.3 s here. Three repetitions a case, the minimum kept. */
enum { TLB_WALK_FIRST = 8, TLB_WALK_LAST = 8192, TLB_WALK_REPS = 3 };

/* One case's least time a load over its repetitions, and how far their median stood above it. */
static int walk_per_load(const struct cal_opts *o, const char *text, double *least, double *spread, char *why,
                         size_t whylen)
{
    struct case_result r;
    memset(&r, 0, sizeof(r));
    int rc = cal_measure_case(o, NULL, text, NULL, &r);
    double per = r.q.v[Q_LD_ALL];
    if (rc != CASE_OK || !(per > 0) || r.reps < 1) {
        snprintf(why, whylen, "%s: %s", text, rc == CASE_OK ? "no loads in the model" : r.reason);
        case_result_free(&r);
        return -1;
    }
    struct stats s = stats_of(r.ns, (size_t)r.reps);
    *least = s.min / per;
    *spread = s.median / per - *least;
    case_result_free(&r);
    return 0;
}

/* The walk: one line a 4 KiB page in random order (walker page_stride=4096: the lines' offsets
 * rotate through the page, so the cache sets share them evenly); its control, as many lines
 * packed 64 a page, in random order within blocks of 16 pages (in a first-level DTLB
 * everywhere), so that the difference is the translation's alone, whichever cache holds the
 * lines. */
static int tlb_walk(struct tlb_point *p, int max, char *why, size_t whylen)
{
    struct cal_opts o = {.target_seconds = 0.001, .repetitions = TLB_WALK_REPS, .src = source_find("perf")};
    if (!o.src) {
        snprintf(why, whylen, "the perf source is not registered");
        return -1;
    }
    o.cpu = cpuload_chosen();
    int n = 0;
    for (uint64_t octave = TLB_WALK_FIRST; octave <= TLB_WALK_LAST; octave *= 2)
        for (uint64_t m = 4; m < 8 && n < max; m++) {
            uint64_t pages = octave * m / 4;
            if (pages > TLB_WALK_LAST)
                break;
            char walk[128], control[128];
            snprintf(walk, sizeof(walk), "walker size=%llu page=4k page_stride=4096 order=random",
                     (unsigned long long)pages * 4096);
            snprintf(control, sizeof(control), "walker size=%llu page=4k order=block", (unsigned long long)pages * 64);
            double ws, cs;
            p[n].pages = pages;
            if (walk_per_load(&o, walk, &p[n].walk_ns, &ws, why, whylen) ||
                walk_per_load(&o, control, &p[n].control_ns, &cs, why, whylen))
                return -1;
            p[n].spread_ns = fmax(ws, cs);
            n++;
        }
    return n;
}

__attribute__((constructor)) static void register_tlb_walk(void)
{
    tlb_register_measurer(tlb_walk);
}

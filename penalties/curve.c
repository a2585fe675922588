/* The load-latency curve: walker order=random from 4K to past the last level, one point per
 * size, and the level boundaries read off it; curve.csv and curve.svg for the results folder. */
#include "curve.h"
#include "kernel.h"
#include "quantity.h"
#include "stats.h"
#include "subprocess.h"
#include "topo.h"
#include "util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double plateau(const struct curve *cv, uint64_t at)
{
    int best = 0;
    for (int i = 1; i < cv->n; i++)
        if (fabs(log((double)cv->bytes[i] / (double)at)) < fabs(log((double)cv->bytes[best] / (double)at)))
            best = i;
    return cv->cyc[best];
}

void curve_detect_levels(struct curve *cv)
{
    const struct topo *t = topo_get();
    static const char *const lv[] = {"", "L1", "L2", "L3"};
    uint64_t from = 0;
    for (int l = 1; l <= 3; l++) {
        cv->detected[l] = 0;
        if (!t->data[l].size)
            continue;
        /* Latency inside this level and inside the next one (or DRAM); the boundary is the
         * first size past the geometric middle of the two. */
        double in = plateau(cv, level_size(lv[l]));
        double out = l < 3 && t->data[l + 1].size ? plateau(cv, level_size(lv[l + 1])) : cv->cyc[cv->n - 1];
        double mid = sqrt(in * out);
        for (int i = 0; i < cv->n; i++)
            if (cv->bytes[i] > from && cv->bytes[i] >= level_size(lv[l]) && cv->cyc[i] >= mid) {
                cv->detected[l] = cv->bytes[i];
                from = cv->bytes[i];
                break;
            }
    }
}

int curve_measure(struct curve *cv, int ppo, curve_measure_fn fn, void *ctx)
{
    const struct topo *t = topo_get();
    uint64_t llc = t->data[topo_last_level(t)].size, top = 4 * llc;
    memset(cv, 0, sizeof(*cv));
    for (int i = 0; cv->n < CURVE_MAX_POINTS; i++) {
        uint64_t b = (uint64_t)(4096.0 * pow(2.0, (double)i / ppo)) / 64 * 64;
        if (b > top)
            break;
        if (cv->n && b == cv->bytes[cv->n - 1])
            continue;
        char text[96];
        snprintf(text, sizeof(text), "walker size=%llu order=random", (unsigned long long)b);
        const struct case_result *r = fn(ctx, text);
        if (!r)
            return -1;
        if (r->status != CAL_OK) {
            pm_warn("curve: %s: %s", text, r->reason);
            continue;
        }
        double per = r->q.v[Q_LD_ALL];
        struct stats s = stats_of(r->cycles, (size_t)r->reps);
        cv->bytes[cv->n] = b;
        cv->cyc[cv->n] = s.median / per;
        cv->lo[cv->n] = s.min / per;
        cv->hi[cv->n] = s.max / per;
        cv->ns[cv->n] = stats_median(r->ns, (size_t)r->reps) / per;
        pm_note("curve %s: %.2f cycles per load", fmt_size(b), cv->cyc[cv->n]);
        cv->n++;
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
    char *path = xasprintf("%s/curve.csv", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "bytes,cycles_per_load,ns_per_load,cycles_min,cycles_max\n");
        for (int i = 0; i < cv->n; i++)
            fprintf(f, "%llu,%.3f,%.3f,%.3f,%.3f\n", (unsigned long long)cv->bytes[i], cv->cyc[i], cv->ns[i], cv->lo[i],
                    cv->hi[i]);
        fclose(f);
    }
    free(path);
    json_object_begin(doc, "curve");
    json_string(doc, "file", "curve.csv");
    json_int(doc, "points", cv->n);
    json_int(doc, "points_per_octave", ppo);
    json_string(doc, "case", "walker order=random page=auto loads=16");
    json_array_begin(doc, "levels");
    static const char *const names[] = {"", "L1", "L2", "L3"};
    for (int l = 1; l <= 3; l++) {
        if (!t->data[l].size)
            continue;
        json_object_begin(doc, NULL);
        json_string(doc, "level", names[l]);
        json_uint(doc, "hwloc_bytes", t->data[l].size);
        json_uint(doc, "detected_bytes", cv->detected[l]);
        json_number(doc, "ratio", cv->detected[l] ? (double)cv->detected[l] / (double)t->data[l].size : NAN);
        json_object_end(doc);
        printf("# curve: %s boundary detected at %s, hwloc says %s%s\n", names[l],
               cv->detected[l] ? fmt_size(cv->detected[l]) : "(none)", fmt_size(t->data[l].size),
               cv->detected[l] && (cv->detected[l] < t->data[l].size / 2 || cv->detected[l] > t->data[l].size * 2)
                   ? " (differs by more than 2x: a share of the cache, or a virtual machine's view)" : "");
    }
    json_array_end(doc);
    json_object_end(doc);
    /* The plot: gnuplot where it is installed; the CSV is there either way. */
    char *gp = xasprintf("%s/curve.gp", dir);
    f = fopen(gp, "w");
    if (f) {
        fprintf(f, "set terminal svg size 900,560 dynamic background rgb 'white'\nset output 'curve.svg'\n"
                   "set datafile separator ','\nset logscale x 2\nset logscale y 2\nset grid\n"
                   "set title 'Load-to-use latency, random dependent loads (pmucal calibrate --curve)'\n"
                   "set xlabel 'working set (bytes)'\nset ylabel 'core cycles per load'\nset key top left\n");
        for (int l = 1; l <= 3; l++) {
            if (t->data[l].size)
                fprintf(f, "set arrow from %llu, graph 0 to %llu, graph 1 nohead dt 2 lc rgb 'gray40'\n"
                           "set label 'hwloc %s' at %llu, graph 0.95 rotate by 90 right offset -1,0 tc rgb 'gray40'\n",
                        (unsigned long long)t->data[l].size, (unsigned long long)t->data[l].size, names[l],
                        (unsigned long long)t->data[l].size);
            if (cv->detected[l])
                fprintf(f, "set arrow from %llu, graph 0 to %llu, graph 1 nohead lc rgb 'red'\n"
                           "set label 'detected %s' at %llu, graph 0.05 rotate by 90 left offset 1,0 tc rgb 'red'\n",
                        (unsigned long long)cv->detected[l], (unsigned long long)cv->detected[l], names[l],
                        (unsigned long long)cv->detected[l]);
        }
        fprintf(f, "plot 'curve.csv' every ::1 using 1:4:5 with filledcurves lc rgb '#c0d0f0' title 'min..max', \\\n"
                   "     'curve.csv' every ::1 using 1:2 with linespoints pt 7 ps 0.6 lc rgb 'blue' title 'median'\n");
        bool written = !ferror(f);
        /* No shell and no path in the script: gnuplot runs in the folder. */
        char *argv[] = {"gnuplot", "curve.gp", NULL};
        struct spawn_opts so = {.cwd = dir, .err_path = "gnuplot.err", .timeout_ms = 60000};
        if (fclose(f) || !written)
            pm_warn("cannot write %s: %s; curve.csv has the data", gp, strerror(errno));
        else if (spawn_run(argv, &so) != 0)
            pm_warn("gnuplot could not draw curve.svg (see %s/gnuplot.err); curve.csv has the data; "
                    "'apt-get install gnuplot-nox' provides it", dir);
    }
    free(gp);
}

/* A penalty is only as good as its case. A figure becomes a constant only when it is physically
 * possible (positive, clear of zero: the issue happened and costs something), when the load
 * latencies keep their order l1 < l2 < l3 < dram with each step above noise, and when each level
 * case sits on its level's plateau of the latency curve. The published reference for the model is
 * put beside it; a deviation is a note, not a failure (the references come from other machines). */
#include "calibrate.h"
#include "kernel.h"
#include "stats.h"
#include "util.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool measured(const struct penalty *p)
{
    return p && (!strcmp(p->status, "ok") || !strcmp(p->status, "unstable") || !strcmp(p->status, "not_ok")) &&
           !isnan(p->cycles);
}

static void fail(struct penalty *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct penalty *p, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    if (!strcmp(p->status, "not_ok")) {   /* a second reason is appended */
        size_t len = strlen(p->reason);
        snprintf(p->reason + len, sizeof(p->reason) - len, "; %s", why);
    } else {
        snprintf(p->reason, sizeof(p->reason), "%s", why);
    }
    p->status = "not_ok";
}

/* Negative, or within noise of zero, is no penalty: the issue did not happen, or the cases do
 * not differ in it. */
static void physical(struct penalty *p)
{
    bool mem = p->rc->domain == DOMAIN_MEMORY;
    const char *unit = mem ? "ns" : "cycles";
    double floor_ = mem ? 0.1 : 0.25;
    if (p->f.value < 0 && p->f.hi < 0)
        fail(p, "physically impossible: %.2f %s is negative (interval [%.2f, %.2f]): the issue case ran faster "
             "than its control", p->f.value, unit, p->f.lo, p->f.hi);
    else if (p->f.lo <= 0 || fabs(p->f.value) < floor_)
        fail(p, "within noise of zero: %.2f %s (interval [%.2f, %.2f]) while the model states %g %s per iteration: "
             "the issue did not happen here or its cost cannot be told from noise", p->f.value, unit, p->f.lo,
             p->f.hi, p->occ_issue - p->occ_control, p->rc->occurrence);
}

static const char *const levels[] = {"l1_hit", "l2_hit", "l3_hit", "dram"};
static const char *const level_names[] = {"L1", "L2", "L3", "DRAM"};

/* Each step of l1 < l2 < l3 < dram: the higher level's interval above the lower one's, and at
 * least 20% more. A broken step fails the higher level, or l3 when the higher one is DRAM (an L3
 * case that measures DRAM is the case that is wrong). */
static void level_order(struct penalty *ps, int n)
{
    struct penalty *lv[4];
    for (int i = 0; i < 4; i++)
        lv[i] = (struct penalty *)find_penalty(ps, n, levels[i]);
    for (int i = 0; i < 3; i++) {
        int j = i + 1;
        while (j < 4 && !measured(lv[j]))
            j++;
        if (!measured(lv[i]) || j == 4)
            continue;
        struct penalty *a = lv[i], *b = lv[j];
        if (b->cycles_lo > a->cycles_hi && b->cycles >= 1.2 * a->cycles)
            continue;
        struct penalty *wrong = j == 3 ? a : b;
        fail(wrong, "level order broken: %s %.1f cycles [%.1f, %.1f] is not well below %s %.1f [%.1f, %.1f] "
             "(overlapping intervals or less than 20%% apart)", a->rc->name, a->cycles, a->cycles_lo, a->cycles_hi,
             b->rc->name, b->cycles, b->cycles_lo, b->cycles_hi);
    }
}

/* The level's plateau on the curve: the points between the boundary below it and its own; the
 * case's size must lie there and its latency near the plateau's median. */
static void plateau(struct penalty *p, int level, const struct curve *cv)
{
    if (!cv || cv->n < 4) {
        snprintf(p->plateau, sizeof(p->plateau), "not checked: no latency curve in this run");
        return;
    }
    uint64_t size = level_size(level_names[level]), lo = 0, hi = 0;
    if (level < 3) {
        lo = level ? cv->detected[level] : 0;
        hi = cv->detected[level + 1];
        if (level && !lo) {
            snprintf(p->plateau, sizeof(p->plateau), "not checked: the curve shows no boundary below %s",
                     level_names[level]);
            return;
        }
    } else {
        for (int l = 3; l >= 1 && !lo; l--)
            lo = cv->detected[l];
    }
    double v[CURVE_MAX_POINTS];
    int nv = 0;
    for (int i = 0; i < cv->n; i++)
        if (cv->bytes[i] >= lo && (!hi || cv->bytes[i] < hi))
            v[nv++] = cv->cyc[i];
    if (!nv) {
        snprintf(p->plateau, sizeof(p->plateau), "not checked: no curve point on the %s plateau", level_names[level]);
        return;
    }
    double med = stats_median(v, (size_t)nv), got = p->cycles;   /* per load, as the curve's points */
    char band[96];
    snprintf(band, sizeof(band), "%s .. %s", lo ? fmt_size(lo) : "0", hi ? fmt_size(hi) : "the end of the curve");
    snprintf(p->plateau, sizeof(p->plateau), "%s plateau of the curve %s, median %.1f cycles; the case (%s) %.1f",
             level_names[level], band, med, fmt_size(size), got);
    if (size < lo || (hi && size >= hi))
        fail(p, "the case's %s working set is off the %s plateau of the latency curve (%s): it measured another "
             "level", fmt_size(size), level_names[level], band);
    else if (!(fabs(got - med) <= 0.35 * med))
        fail(p, "the case measured %.1f cycles, the %s plateau of the curve (%s) %.1f: more than 35%% apart",
             got, level_names[level], band, med);
}

int check_penalties(struct penalty *ps, int n, const struct curve *cv, const char *model)
{
    for (int i = 0; i < n; i++)
        if (measured(&ps[i]))
            physical(&ps[i]);
    level_order(ps, n);
    for (int l = 0; l < 4; l++) {
        struct penalty *p = (struct penalty *)find_penalty(ps, n, levels[l]);
        if (measured(p))
            plateau(p, l, cv);
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        struct penalty *p = &ps[i];
        bad += !strcmp(p->status, "not_ok");
        p->ref = reference_find(model, p->rc->name);
        p->deviation = p->ref && measured(p) ? reference_deviation(p->ref, p->cycles) : NAN;
    }
    return bad;
}

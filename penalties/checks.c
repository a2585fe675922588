/* A penalty is only as good as its case. A figure becomes a constant only when it is physically
 * possible (positive, clear of zero: the issue happened and costs something; a latency at least
 * its floor), when it lies within reach of the published figure for the model, when the load
 * latencies keep their order l1 < l2 < l3 < dram with each step above noise, and when each level
 * case sits on its level's plateau of the latency curve. The published reference for the model is
 * put beside it; a deviation within REFERENCE_REACH is a note (the references come from other
 * machines), beyond it, with the interval clear of the range, it is not ok. */
#include "base/util.h"
#include "core/kernel.h"
#include "penalties/penalty_fit.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool measured(const struct penalty *p)
{
    return p && (p->status == PENALTY_OK || p->status == PENALTY_UNSTABLE || p->status == PENALTY_NOT_OK) &&
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
    if (p->status == PENALTY_NOT_OK) {   /* a second reason is appended */
        size_t len = strlen(p->reason);
        snprintf(p->reason + len, sizeof(p->reason) - len, "; %s", why);
    } else {
        snprintf(p->reason, sizeof(p->reason), "%s", why);
    }
    p->status = PENALTY_NOT_OK;
}

/* An FP assist is a microcode sequence the pipeline is restarted into, as it is after a
 * mispredicted branch: no core does that in fewer cycles than a misprediction costs it (11 to 18
 * published, uarch/NAME.txt), and Intel's denormal assists cost about 150. */
#define ASSIST_LEAST_CYCLES 10

/* Issues some cores do not have, by recipe: what a cost measured clear below the least the issue
 * costs where it exists means there. Any other recipe measured at zero has failed (an L1 hit
 * always costs something). Zen 3 and Zen 5 take a denormal multiply in the FP pipeline itself:
 * 1.00 cycle more than a normal one in some passes, 1.55 to 1.61 in others (two populations of
 * windows, moving between processes and minutes with nothing else on the guest, the same on
 * both cores: issue 47), never an assist's tens of cycles, and no event of theirs counts one. */
static const struct {
    const char *recipe, *absent;
    double least;   /* cycles per occurrence */
} absent_issues[] = {
    {"fp_assist_add", "denormal adds take no assist on this core", ASSIST_LEAST_CYCLES},
    {"fp_assist_mul", "denormal multiplies take no assist on this core", ASSIST_LEAST_CYCLES},
};

static const char *absent_issue(const struct recipe *rc, double *least)
{
    for (size_t i = 0; i < sizeof(absent_issues) / sizeof(absent_issues[0]); i++)
        if (!strcmp(absent_issues[i].recipe, rc->name)) {
            *least = absent_issues[i].least;
            return absent_issues[i].absent;
        }
    return NULL;
}

/* Negative, or within noise of zero, is no penalty: the issue did not happen, or the cases do
 * not differ in it. A positive figure already unstable for its spread stays unstable. Where the
 * recipe's issue is one some cores do not have, a whole interval from the noise floor below zero
 * to under the least the issue costs is what such a core measures, however it spreads: a SKIP
 * saying so, not a failure and no constant. */
static void physical(struct penalty *p)
{
    bool mem = p->rc->domain == DOMAIN_MEMORY;
    const char *unit = mem ? "ns" : "cycles";
    double floor_ = mem ? 0.1 : 0.25, least = 0;
    const char *absent = absent_issue(p->rc, &least);
    if (absent && p->f.lo > -floor_ && p->f.hi < least && p->f.value < least) {
        snprintf(p->reason, sizeof(p->reason), "%s: measured %.2f %s per occurrence, interval [%.2f, %.2f], under "
                 "the %.0f %s an assist costs at least (the pipeline restarted into microcode), for %g %s per "
                 "iteration", absent, p->f.value, unit, p->f.lo, p->f.hi, least, unit, p->occ_issue - p->occ_control,
                 p->rc->occurrence);
        p->status = PENALTY_SKIP;
    } else if (absent && fabs(p->f.value) < floor_) {
        /* Zero, as on a core without the issue, but a run read more (beside a busy loop on another
         * CPU one of five read 0.32): not told clear of noise, which is no failure of the core. */
        snprintf(p->reason, sizeof(p->reason), "measured %.2f %s per occurrence, as where %s, but the interval "
                 "[%.2f, %.2f] is not inside +-%.2f of zero: not told clear of noise", p->f.value, unit, absent,
                 p->f.lo, p->f.hi, floor_);
        p->status = PENALTY_UNSTABLE;
    } else if (p->f.value < 0 && p->f.hi < 0)
        fail(p, "physically impossible: %.2f %s is negative (interval [%.2f, %.2f]): the issue case was faster "
             "than its control", p->f.value, unit, p->f.lo, p->f.hi);
    else if (p->f.value < floor_ || (p->f.lo <= 0 && p->status != PENALTY_UNSTABLE))
        fail(p, "within noise of zero: %.2f %s (interval [%.2f, %.2f]) while the model states %g %s per iteration: "
             "the issue did not happen here or its cost cannot be told from noise", p->f.value, unit, p->f.lo,
             p->f.hi, p->occ_issue - p->occ_control, p->rc->occurrence);
}

/* Floors no core goes below and ceilings none goes past, whatever a load or a wrong clock did to
 * the measurement: the least time a dependent operation can take is one cycle, no cache level
 * answers faster than the lowest published L1 latency (LATENCY_L1_FLOOR_CYCLES,
 * host/latency_levels.h), and no published core takes longer than the ceilings below. A figure
 * outside its bounds was made up by the measurement (issue 25: walker at 16k read 1.56 cycles per
 * load when its cycles were scaled by a CPU share; issue 36: l1_hit read 29.4 cycles on Emerald
 * Rapids at a clock taken from immediate adds the renamer folded). Core-domain recipes only, in
 * cycles per occurrence; 0 is no bound. */
static const struct {
    const char *name;
    double floor, ceiling;
    const char *floor_what, *ceiling_what;
} bounds[] = {
    {"l1_hit", LATENCY_L1_FLOOR_CYCLES, 6, "the lowest published L1 load-to-use latency of any x86 core (Pentium 4)",
     "no core's L1 load-to-use latency is above 6 cycles (5 on Golden Cove with an index, 4 on Zen)"},
    {"l2_hit", LATENCY_L1_FLOOR_CYCLES, 40, "the lowest published L1 load-to-use latency of any x86 core, and L2 is further",
     "no core's published L2 latency reaches 30 cycles (16 on Golden Cove, 14 on Zen 4 and 5, 21 on Cortex-A72)"},
    {"l3_hit", LATENCY_L1_FLOOR_CYCLES, 500, "the lowest published L1 load-to-use latency of any x86 core, and L3 is further",
     "no core's L3 answers in more than 500 cycles (about 100 across a server mesh at 3 GHz, 50 on Zen)"},
    {"stlb_hit", 1, 60, "one cycle per dependent operation",
     "no core's second-level TLB takes 60 cycles (7-11 published)"},
    {"page_walk", 1, 2000, "one cycle per dependent operation",
     "a walk with its tables in the caches is four dependent loads, far under 2000 cycles"},
    {"store_forward", 1, 30, "one cycle per dependent operation",
     "no core takes 30 cycles to forward a store to a load (5-8 published)"},
    {"mispredict", 1, 40, "one cycle per dependent operation",
     "no core's published mispredict penalty is above 40 cycles (14-20 on current cores, about 30 on Prescott)"},
    {"div64_latency", 1, 100, "one cycle per dependent operation",
     "no core's 64-bit integer divide takes more than 100 cycles (about 90 at worst on Haswell)"},
    {"div32_latency", 1, 100, "one cycle per dependent operation",
     "no core's 32-bit integer divide takes more than 100 cycles"},
    {"_latency", 1, 60, "one cycle per dependent operation",
     "no core's floating-point divide or square root takes more than 60 cycles (under 30 published)"},
    {"_throughput", 0, 100, NULL, "no core issues a divide or square root less often than every 100 cycles"},
    /* Costs added to a case: no floor but zero (physical()), and ceilings far above any published. */
    {"fp_assist*", 0, 1000, NULL, "a microcode assist costs about 150 cycles at most (Intel), far under 1000"},
    {"btb_resteer", 0, 100, NULL, "a re-steer at decode costs a few cycles, a mispredict's worth at most"},
    {"ifetch_l*", 0, 400, NULL, "an instruction line from L2 or L3 costs no more than a data load from that level"},
    {"store_forward_block", 0, 100, NULL, "a failed forward waits for the store to commit: tens of cycles at most"},
    {"_split", 0, 100, NULL, "a split load costs a second access: tens of cycles at most"},
    {"alias_4k", 0, 100, NULL, "a false 4K-alias dependence costs a replay: tens of cycles at most"},
};

/* A row names a recipe, a suffix ("_latency") or a prefix ("ifetch_l*"). */
static bool bound_applies(const char *pattern, const char *name)
{
    size_t lp = strlen(pattern), ln = strlen(name);
    if (pattern[0] == '_')
        return ln > lp && !strcmp(name + ln - lp, pattern);
    if (pattern[lp - 1] == '*')
        return !strncmp(name, pattern, lp - 1);
    return !strcmp(pattern, name);
}

/* The first row that names the recipe decides (rows by name come before rows by suffix). */
static void physical_bounds(struct penalty *p)
{
    if (p->rc->domain != DOMAIN_CORE)
        return;
    for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
        if (!bound_applies(bounds[i].name, p->rc->name))
            continue;
        if (bounds[i].floor && p->cycles < bounds[i].floor)
            fail(p, "physically impossible: %.2f cycles is below %.0f, %s", p->cycles, bounds[i].floor,
                 bounds[i].floor_what);
        else if (bounds[i].ceiling && p->cycles > bounds[i].ceiling)
            fail(p, "physically impossible: %.2f cycles is above %.0f: %s", p->cycles, bounds[i].ceiling,
                 bounds[i].ceiling_what);
        return;
    }
}

/* A core-domain figure is cycles at the core clock; where the clock is not trusted, so is no such
 * figure: withheld with the clock's reason (a failed check stays failed). */
static void clock_trusted(struct penalty *p, const char *clock_why)
{
    if (!clock_why || !*clock_why || p->rc->domain != DOMAIN_CORE || p->status == PENALTY_NOT_OK)
        return;
    snprintf(p->reason, sizeof(p->reason), "withheld: the core clock is not trusted here: %s", clock_why);
    p->status = PENALTY_UNSTABLE;
}

/* Beyond REFERENCE_REACH of the model's published figure or range, with the whole interval on that
 * side, the case did not measure what the recipe names (or the load made it up): not ok. */
#define REFERENCE_REACH 0.25
static void reference_range(struct penalty *p, const char *model)
{
    const struct reference *r = reference_find(model, p->rc->name);
    double v, lo, hi;
    if (!r || r->indicative || p->rc->domain != DOMAIN_CORE || p->status == PENALTY_NOT_OK ||
        !reference_value(r, p, &v, &lo, &hi))
        return;
    double dev = reference_deviation(r, v);
    bool clear = lo > r->hi || hi < r->lo;
    if (!(fabs(dev) > REFERENCE_REACH && clear))
        return;
    char range[64];
    if (r->lo == r->hi)
        snprintf(range, sizeof(range), "%.4g", r->lo);
    else
        snprintf(range, sizeof(range), "%.4g..%.4g", r->lo, r->hi);
    fail(p, "outside the published %s for %s: %s%.2f cycles [%.2f, %.2f] against %s (%+.0f%%, more than %.0f%% away "
         "with the whole interval on one side; %s)", r->lo == r->hi ? "figure" : "range", model,
         r->whole ? "the issue case, whole: " : "", v, lo, hi, range, 100 * dev, 100 * REFERENCE_REACH, r->source);
}

static const char *const levels[] = {"l1_hit", "l2_hit", "l3_hit", "dram"};

/* A penalty's fastest clean pass (cycles: the levels below DRAM are the core's); its interval's low
 * end where no pass was recorded clean. */
static double fastest_clean(const struct penalty *p)
{
    double v = INFINITY;
    for (int i = 0; i < p->passes && i < CAL_MAX_PASSES; i++)
        if (!p->pass_shared[i] && p->pass_values[i] < v)
            v = p->pass_values[i];
    return isfinite(v) ? v : p->cycles_lo;
}

/* Each step of l1 < l2 < l3 < dram: the higher level's interval above the lower one's (above an
 * unstable lower level's fastest clean pass), and at least 20% more. A broken step fails the
 * higher level, or l3 when the higher one is DRAM (an L3 case that measures DRAM is the case that
 * is wrong). withheld: levels plateau() made unstable, whose passes straddle two levels: their
 * range is no interval to order. */
static void level_order(struct penalty *ps, int n, const bool *withheld)
{
    struct penalty *lv[4];
    for (int i = 0; i < 4; i++)
        lv[i] = (struct penalty *)find_penalty(ps, n, levels[i]);
    /* Levels already failed (off their plateau) are left out: the order is checked among the rest. */
    for (int i = 0; i < 4; i++)
        if (lv[i] && (!measured(lv[i]) || lv[i]->status == PENALTY_NOT_OK || withheld[i]))
            lv[i] = NULL;
    for (int i = 0; i < 3; i++) {
        int j = i + 1;
        while (j < 4 && !lv[j])
            j++;
        if (!lv[i] || j == 4)
            continue;
        struct penalty *a = lv[i], *b = lv[j];
        /* A lower level withheld as unstable is ordered by its fastest clean pass: sharing only
         * slows, so its slower passes may be where another program took the level (the Emerald
         * Rapids guest under load: l3_hit's passes 107 .. 306 cycles, DRAM at 343, a curve that
         * failed its own checks, so that plateau() could not tell). */
        double a_hi = a->status == PENALTY_UNSTABLE ? fastest_clean(a) : a->cycles_hi;
        double a_mid = a->status == PENALTY_UNSTABLE ? a_hi : a->cycles;
        if (b->cycles_lo > a_hi && b->cycles >= 1.2 * a_mid)
            continue;
        struct penalty *wrong = j == 3 ? a : b;
        fail(wrong, "level order broken: %s %.1f cycles [%.1f, %.1f] is not well below %s %.1f [%.1f, %.1f] "
             "(overlapping intervals or less than 20%% apart)", a->rc->name, a->cycles, a->cycles_lo, a->cycles_hi,
             b->rc->name, b->cycles, b->cycles_lo, b->cycles_hi);
    }
}

/* The level's plateau on the curve (curve_detect_levels): the case's working set must lie in
 * that level by the curve's capacities, and its latency must sit on that level's plateau. True
 * when the figure is withheld for straddling the level and a slower one (below). */
static bool plateau(struct penalty *p, int level, const struct curve *cv)
{
    static const char *const lname[] = {"", "L1", "L2", "L3", "DRAM"};
    int l = level + 1;   /* latency_levels numbering: 1 = L1 .. 4 = memory */
    if (!cv) {
        snprintf(p->plateau, sizeof(p->plateau), "not checked: no latency curve in this run");
        return false;
    }
    if (!cv->detected) {
        snprintf(p->plateau, sizeof(p->plateau), "not checked: no levels read off the curve (%s)", cv->why);
        return false;
    }
    uint64_t size = cv->case_bytes[level];
    if (!size) {
        snprintf(p->plateau, sizeof(p->plateau), "not checked: the size of the %s case is not known", lname[l]);
        return false;
    }
    const struct latency_plateau *pl = latency_level_plateau(&cv->levels, l);
    if (!pl && l == 4 && !cv->levels.memory) {
        snprintf(p->plateau, sizeof(p->plateau), "not checked: the curve stops at %s, before memory's plateau",
                 fmt_size(cv->bytes[cv->n - 1]));
        return false;
    }
    if (!pl) {
        fail(p, "the latency curve shows no %s plateau, so nothing says the case measured %s", lname[l], lname[l]);
        snprintf(p->plateau, sizeof(p->plateau), "no %s plateau on the curve", lname[l]);
        return false;
    }
    int by_size = latency_level_of_size(&cv->levels, size), by_latency = latency_level_of_cycles(&cv->levels, p->cycles);
    snprintf(p->plateau, sizeof(p->plateau), "%s plateau %.1f cycles (%s .. %s); the case: %s, %.1f cycles, on %s by "
             "size and %s by latency", lname[l], pl->cycles, fmt_size(pl->first), fmt_size(pl->last), fmt_size(size),
             p->cycles, by_size ? lname[by_size] : "none", by_latency ? lname[by_latency] : "none");
    /* A case sized for the level that this run's curve puts beyond it: the part of the level this
     * machine can use shrank since the case's size was measured (the cached curve's; the Emerald
     * Rapids guest's L3 held 8M when its geometry was measured and under 4M in a later run's
     * curve): withheld, saying so. One the curve puts in a faster level is sized wrong. */
    if (by_size && by_size > l && l <= 3 && p->status != PENALTY_NOT_OK) {
        snprintf(p->reason, sizeof(p->reason), "this run's latency curve puts the case's %s in %s: its %s ends at %s "
                 "now, less than when the case was sized (the part of %s this machine can use changed, as other "
                 "programs' lines take it; pmucal info --measure measures it again)", fmt_size(size), lname[by_size],
                 lname[l], fmt_size(pl->boundary), lname[l]);
        p->status = PENALTY_UNSTABLE;
        return true;
    }
    if (by_size && by_size != l) {
        fail(p, "the case's %s working set lies in %s by the latency curve's capacities, not in %s: it measured "
             "another level", fmt_size(size), lname[by_size], lname[l]);
        return false;
    }
    if (by_latency == l)
        return false;
    const char *to = lname[by_latency ? by_latency : l];
    double to_cycles = by_latency ? latency_level_plateau(&cv->levels, by_latency)->cycles : NAN;
    char off_plateau[200];
    snprintf(off_plateau, sizeof(off_plateau), "the case's %.1f cycles sit on the %s plateau of the latency curve "
             "(%.1f), not on %s's (%.1f)", p->cycles, by_latency ? to : "no", to_cycles, lname[l], pl->cycles);
    if (p->status == PENALTY_NOT_OK || l > 3 || by_latency < l) {   /* failed already, or faster than the level */
        fail(p, "%s", off_plateau);
        return false;
    }
    /* Slower than its level: another program's lines may have taken part of the level (sharing only
     * adds time, never makes a case faster). Where some passes read on the plateau and the rest
     * slower, or every pass slower while this run's curve read the same walk (a random-order
     * case, as the curve's points are) on it, the case is right and the part of the level this
     * machine could keep it in changed: withheld, saying so (the Emerald Rapids guest: l3_hit at 4M
     * read 106.7 .. 288.9 cycles over five passes, L3's plateau 102, memory's 322). Not ok is for a
     * case that measured a slower level every time its walk was measured, or any faster one. */
    int on = 0, off = 0, at = -1;
    double on_hi = 0, off_lo = INFINITY;
    for (int i = 0; i < p->passes && i < CAL_MAX_PASSES; i++) {
        if (p->pass_shared[i] || isnan(p->pass_values[i]))
            continue;
        double c = p->rc->domain == DOMAIN_MEMORY ? p->pass_values[i] * p->cycles / p->ns : p->pass_values[i];
        int at_level = latency_level_of_cycles(&cv->levels, c);
        if (at_level < l) {
            fail(p, "%s; a pass read %.1f cycles, on %s's plateau, faster than %s can answer", off_plateau, c,
                 lname[at_level], lname[l]);
            return false;
        }
        if (at_level == l)
            on++, on_hi = fmax(on_hi, c);
        else
            off++, off_lo = fmin(off_lo, c);
    }
    /* The curve measures 4 points an octave (2 with --quick): a point within an eighth of an octave
     * of the case's size is its walk; none so close, and the curve says nothing of it. */
    if (strstr(p->rc->issue, "order=random"))
        for (int i = 0; i < cv->n; i++)
            if (fabs(log2((double)cv->bytes[i] / (double)size)) < 0.125)
                at = i;
    bool curve_on = at >= 0 && latency_level_of_cycles(&cv->levels, cv->lo[at]) == l;
    /* Withheld already for want of clean passes, a figure is not failed on the one or two it has, or none:
     * not ok says every pass measured another level (the Emerald Rapids guest's l3_hit: one clean
     * pass of ten at 323 cycles, DRAM's plateau, beside a busy sibling and another tenant's L3). */
    if (p->status == PENALTY_UNSTABLE && on + off < cal_clean_needed(p))
        return true;
    if (!off || !(on || curve_on)) {
        fail(p, "%s", off_plateau);
        return false;
    }
    char seen[160];
    if (on)
        snprintf(seen, sizeof(seen), "%d of %d passes read on %s's plateau (%.1f cycles): at most %.1f", on, on + off,
                 lname[l], pl->cycles, on_hi);
    else
        snprintf(seen, sizeof(seen), "this run's curve read the same walk of %s on %s's plateau (%.1f cycles, "
                 "plateau %.1f)", fmt_size(cv->bytes[at]), lname[l], cv->lo[at], pl->cycles);
    snprintf(p->reason, sizeof(p->reason), "%s; %d pass%s slower, from %.1f toward %s's %.1f: the part of %s this "
             "machine could keep the case's %s in changed (other programs' lines, here or on the host); measure "
             "again when quieter", seen, off, off == 1 ? "" : "es", off_lo, to, to_cycles, lname[l], fmt_size(size));
    p->status = PENALTY_UNSTABLE;
    return true;
}

int check_penalties(struct penalty *ps, int n, const struct curve *cv, const char *model, const char *clock_why)
{
    for (int i = 0; i < n; i++)
        if (measured(&ps[i])) {
            physical(&ps[i]);
            physical_bounds(&ps[i]);
            reference_range(&ps[i], model);
            clock_trusted(&ps[i], clock_why);
        }
    bool withheld[4] = {false};
    for (int l = 0; l < 4; l++) {
        struct penalty *p = (struct penalty *)find_penalty(ps, n, levels[l]);
        if (measured(p))
            withheld[l] = plateau(p, l, cv);
    }
    level_order(ps, n, withheld);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        struct penalty *p = &ps[i];
        bad += p->status == PENALTY_NOT_OK;
        p->ref = reference_find(model, p->rc->name);
        double v, lo, hi;
        p->deviation = p->ref && measured(p) && reference_value(p->ref, p, &v, &lo, &hi) ? reference_deviation(p->ref, v)
                                                                                           : NAN;
    }
    return bad;
}

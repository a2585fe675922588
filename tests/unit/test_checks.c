/* The checks a figure passes before it is a constant (penalties/checks.c), on hand-made figures:
 * negative and within-noise-of-zero values are not ok, the load latencies keep l1 < l2 < l3 <
 * dram with each step above noise, no figure lies below its physical floor, one far outside the
 * model's published figure with its interval clear of it is not ok, and the reference for the model
 * is put beside each. Last, a case whose timing windows disagree (window_disagreement). */
#include "penalties/penalty_fit.h"
#include "penalties/reference.h"
#include "base/stats.h"
#include "penalties/curve.h"
#include "tap.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

struct fig {
    const char *name;
    double value, lo, hi;
};

static int run(const struct fig *f, int n, struct penalty *ps)
{
    memset(ps, 0, sizeof(*ps) * (size_t)n);
    for (int i = 0; i < n; i++) {
        ps[i].rc = recipe_named(f[i].name);
        ps[i].status = f[i].lo <= 0 && f[i].value > 0 ? PENALTY_UNSTABLE : PENALTY_OK;
        ps[i].f = (struct fit){.value = f[i].value, .lo = f[i].lo, .hi = f[i].hi};
        ps[i].cycles = f[i].value, ps[i].cycles_lo = f[i].lo, ps[i].cycles_hi = f[i].hi;
        ps[i].occ_issue = 16;
    }
    return check_penalties(ps, n, NULL, "zen5", NULL);
}

/* The Emerald Rapids guest's curve of 2026-11-29 (tests/hosts/emr-vm/): L3 115 cycles, memory 334. */
static bool emr_curve(struct curve *cv)
{
    memset(cv, 0, sizeof(*cv));
    FILE *f = fopen("tests/hosts/emr-vm/curve-2026-11-29.csv", "r");
    char line[512];
    while (f && fgets(line, sizeof(line), f) && cv->n < CURVE_MAX_POINTS) {
        unsigned long long b;
        double c, ns;
        if (line[0] != '#' && sscanf(line, "%llu,%lf,%lf", &b, &c, &ns) == 3) {
            cv->bytes[cv->n] = b, cv->cyc[cv->n] = cv->lo[cv->n] = cv->hi[cv->n] = c, cv->ns[cv->n] = ns;
            cv->n++;
        }
    }
    if (f)
        fclose(f);
    curve_detect_levels(cv);
    cv->case_bytes[0] = 24576, cv->case_bytes[1] = 262144, cv->case_bytes[2] = 4u << 20, cv->case_bytes[3] = 256u << 20;
    return cv->detected;
}

/* l3_hit's passes against that curve: on the L3 plateau, off it, or both (the part of L3 the
 * guest could use changed between passes: withheld, not a wrong case). */
static void plateau_passes(void)
{
    static struct curve cv;
    bool have = emr_curve(&cv);
    CHECK(have, __LINE__, "the emr-vm curve of 2026-11-29 read, its levels detected (%s)", have ? "ok" : cv.why);
    if (!have)
        return;
    static const struct {
        int line;
        const char *recipe;
        uint64_t size;   /* the case's working set */
        double pass[5];
        int n;
        enum penalty_status want;
        const char *why;
    } rows[] = {
        /* as the guest's runs at 78d45e0 read (106.7 .. 288.9): two on L3, three toward memory */
        {__LINE__, "l3_hit", 4u << 20, {106.7, 288.9, 110.2, 250.0, 270.0}, 5, PENALTY_UNSTABLE,
         "2 of 5 passes read on L3's plateau"},
        /* every pass slower than L3, where the curve read the same 4M walk on it (112.5 cycles) */
        {__LINE__, "l3_hit", 4u << 20, {290, 300, 310}, 3, PENALTY_UNSTABLE, "this run's curve read the same walk of 4M"},
        {__LINE__, "l3_hit", 4u << 20, {230, 231, 232}, 3, PENALTY_UNSTABLE, "this run's curve read the same walk of 4M"},
        /* every pass slower, and so was the curve's 8M point (208.5 cycles): the case is wrong */
        {__LINE__, "l3_hit", 8u << 20, {290, 300, 310}, 3, PENALTY_NOT_OK, "sit on the DRAM plateau"},
        /* a case the curve puts beyond L3's 8M: sized when more of the L3 was this machine's */
        {__LINE__, "l3_hit", 12u << 20, {300, 305, 310}, 3, PENALTY_UNSTABLE, "puts the case's 12M in DRAM: its L3 ends at 8M"},
        /* one the curve puts in L2: sized wrong */
        {__LINE__, "l3_hit", 1u << 20, {110, 111, 112}, 3, PENALTY_NOT_OK, "lies in L2 by the latency curve's"},
        /* faster than the level: no sharing does that */
        {__LINE__, "l3_hit", 2u << 20, {5, 5, 5}, 3, PENALTY_NOT_OK, "sit on the L1 plateau"},
        {__LINE__, "l3_hit", 4u << 20, {16, 250, 270}, 3, PENALTY_NOT_OK, "a pass read 16.0 cycles, on L2's plateau"},
        /* failed before this check: the reason it failed for stays */
        {__LINE__, "l3_hit", 4u << 20, {600, 620, 640}, 3, PENALTY_NOT_OK, "above 500"},
        /* l3_hit as a block-order walk ("block" below): the curve's random walk is not its walk, so
         * the curve says nothing of it */
        {__LINE__, "block", 4u << 20, {290, 300, 310}, 3, PENALTY_NOT_OK, "sit on the DRAM plateau"},
        {__LINE__, "l3_hit", 4u << 20, {110, 112, 111}, 3, PENALTY_OK, NULL},
    };
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        struct penalty p;
        memset(&p, 0, sizeof(p));
        struct recipe block = *recipe_named("l3_hit");
        block.issue = "walker size=L3";
        p.rc = strcmp(rows[r].recipe, "block") ? recipe_named(rows[r].recipe) : &block;
        double v[5];
        memcpy(v, rows[r].pass, sizeof(v));
        for (int i = 0; i < rows[r].n; i++)
            p.pass_values[i] = v[i];
        p.passes = rows[r].n;
        double lo = v[0], hi = v[0];
        for (int i = 1; i < rows[r].n; i++)
            lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
        p.cycles = stats_median(v, (size_t)rows[r].n), p.cycles_lo = lo, p.cycles_hi = hi;
        p.f = (struct fit){.value = p.cycles, .lo = lo, .hi = hi};
        p.status = hi - lo > 0.03 * p.cycles ? PENALTY_UNSTABLE : PENALTY_OK;
        p.occ_issue = 16;
        cv.case_bytes[1] = cv.case_bytes[2] = rows[r].size;
        check_penalties(&p, 1, &cv, "goldencove", NULL);
        CHECK(p.status == rows[r].want && (!rows[r].why || strstr(p.reason, rows[r].why)), rows[r].line,
              "%s at %llu bytes over %d passes, median %.1f: %s (%s)", rows[r].recipe, (unsigned long long)rows[r].size,
              rows[r].n, p.cycles, penalty_status_name(p.status), p.reason);
    }
    /* Withheld for want of clean passes: none or one of three clean, on DRAM's plateau, the curve's
     * 8M point slower too. Not failed on one pass or none; with all three clean it is (as the 8M
     * row above, unstable by its spread, is). */
    for (int clean = 0; clean <= 3; clean += clean ? 2 : 1) {
        struct penalty p;
        memset(&p, 0, sizeof(p));
        p.rc = recipe_named("l3_hit");
        double v[3] = {323.0, 331.9, 319.6};
        for (int i = 0; i < 3; i++)
            p.pass_values[i] = v[i], p.pass_shared[i] = i >= clean;
        p.passes = 3, p.passes_shared = 3 - clean;
        p.cycles = p.cycles_lo = p.cycles_hi = 323.0;
        p.f = (struct fit){.value = 323.0, .lo = 319.6, .hi = 331.9};
        p.status = clean < 3 ? PENALTY_UNSTABLE : PENALTY_OK;
        snprintf(p.reason, sizeof(p.reason), "%s", clean < 3 ? "the core was not its own in some passes" : "");
        p.occ_issue = 16;
        cv.case_bytes[1] = cv.case_bytes[2] = 8u << 20;
        check_penalties(&p, 1, &cv, "goldencove", NULL);
        enum penalty_status want = clean < 3 ? PENALTY_UNSTABLE : PENALTY_NOT_OK;
        CHECK(p.status == want && strstr(p.reason, clean < 3 ? "not its own" : "sit on the DRAM plateau"), __LINE__,
              "l3_hit at 8M, %d of 3 passes clean on DRAM's plateau: %s (%s)", clean, penalty_status_name(p.status),
              p.reason);
    }
}

int main(void)
{
    static const struct {
        int line;
        struct fig f[4];
        int n;
        enum penalty_status want[4];   /* status per figure, and a word of the reason for not_ok and skip */
        const char *why;
    } rows[] = {
        {__LINE__, {{"page_walk", -751.94, -800, -700}}, 1, {PENALTY_NOT_OK}, "negative"},
        /* Zero where the core has no such issue, but not clear of noise below zero: unstable, not a
         * failure of the core. */
        {__LINE__, {{"fp_assist_add", 0.02, -0.3, 0.4}}, 1, {PENALTY_UNSTABLE}, NULL},
        /* One run of five read 0.32 beside a busy loop: still far under any assist. */
        {__LINE__, {{"fp_assist_add", -0.00, -0.00, 0.32}}, 1, {PENALTY_SKIP}, "denormal adds take no assist"},
        /* Zen 5 (results/reference): denormal adds cost nothing, measured clear of noise: the issue
         * does not exist on this core, a SKIP; the same figure of a recipe without that excuse fails. */
        {__LINE__, {{"fp_assist_add", 0.00, -0.02, 0.07}}, 1, {PENALTY_SKIP}, "denormal adds take no assist on this core"},
        {__LINE__, {{"btb_resteer", 0.00, -0.02, 0.07}}, 1, {PENALTY_NOT_OK}, "within noise of zero"},
        /* Issue 47: a denormal multiply on Zen 5 (1.00 .. 1.61 over five passes, or 1.00 alone) and on
         * the Zen 3 guest (1.08 .. 1.59): pipeline latency that moves between two populations, far
         * under an assist's cost, whatever its spread: a SKIP saying so, not unstable, no constant. */
        {__LINE__, {{"fp_assist_mul", 1.31, 1.00, 1.61}}, 1, {PENALTY_SKIP}, "denormal multiplies take no assist on"},
        {__LINE__, {{"fp_assist_mul", 1.00, 1.00, 1.01}}, 1, {PENALTY_SKIP}, "[1.00, 1.01], under the 10 cycles"},
        {__LINE__, {{"fp_assist_mul", 1.56, 1.08, 1.59}}, 1, {PENALTY_SKIP}, "denormal multiplies take no assist on"},
        {__LINE__, {{"fp_assist_mul", 0.1, 0.05, 0.15}}, 1, {PENALTY_SKIP}, "denormal multiplies take no assist on"},
        /* reaching an assist's least cost: measured as a penalty */
        {__LINE__, {{"fp_assist_mul", 12, 11, 13}}, 1, {PENALTY_OK}, NULL},
        {__LINE__, {{"l1_hit", 0.00, -0.02, 0.07}}, 1, {PENALTY_NOT_OK}, "within noise of zero"},
        {__LINE__, {{"fp_assist_mul", 120, 115, 125}}, 1, {PENALTY_OK}, NULL},
        /* A positive median whose runs spread across zero is unstable, not a zero. */
        {__LINE__, {{"page_walk", 481.75, -109.09, 1019.67}}, 1, {PENALTY_UNSTABLE}, NULL},
        {__LINE__, {{"l1_hit", 4.1, 4.0, 4.2}, {"l2_hit", 14.8, 14.5, 15.0}, {"l3_hit", 60, 55, 66}, {"dram", 400, 380, 420}},
         4, {PENALTY_OK, PENALTY_OK, PENALTY_OK, PENALTY_OK}, NULL},
        /* issue 14's host: the L3 case measured DRAM. */
        {__LINE__, {{"l1_hit", 4.2, 4.1, 4.3}, {"l2_hit", 14.78, 14.5, 15}, {"l3_hit", 462.7, 450, 470}, {"dram", 474.0, 460, 490}},
         4, {PENALTY_OK, PENALTY_OK, PENALTY_NOT_OK, PENALTY_OK}, "level order broken: l3_hit"},
        /* An L2 case that stayed in L1: Zen 5's published 14 cycles say so first (the order, above). */
        {__LINE__, {{"l1_hit", 4.2, 4.1, 4.3}, {"l2_hit", 4.6, 4.3, 5.0}, {"dram", 400, 390, 410}}, 3,
         {PENALTY_OK, PENALTY_NOT_OK, PENALTY_OK}, "outside the published figure for zen5"},
        /* Issue 25: figures a CPU share made up under load, each once marked ok. */
        {__LINE__, {{"l1_hit", 1.56, 1.5, 1.6}}, 1, {PENALTY_NOT_OK}, "below 2, the lowest published L1"},
        {__LINE__, {{"div64_latency", 0.8, 0.7, 0.9}}, 1, {PENALTY_NOT_OK}, "below 1, one cycle per dependent"},
        {__LINE__, {{"l2_hit", 30.2, 29.8, 30.9}}, 1, {PENALTY_NOT_OK}, "outside the published figure for zen5"},
        {__LINE__, {{"mispredict", 5.79, 5.7, 5.9}}, 1, {PENALTY_NOT_OK}, "outside the published range for zen5"},
        /* Issue 36: Emerald Rapids at a clock from immediate adds the renamer folded (5.9x too fast);
         * the references happened to agree, so only a ceiling could tell. */
        {__LINE__, {{"l1_hit", 29.40, 29.3, 29.5}}, 1, {PENALTY_NOT_OK}, "above 6: no core's L1"},
        {__LINE__, {{"l2_hit", 93.99, 93.5, 94.2}}, 1, {PENALTY_NOT_OK}, "above 40: no core's published L2"},
        {__LINE__, {{"div64_latency", 105.85, 105.5, 106}}, 1, {PENALTY_NOT_OK}, "above 100: no core's 64-bit"},
        {__LINE__, {{"fdiv64_latency", 82.6, 82.5, 82.7}}, 1, {PENALTY_NOT_OK}, "above 60"},
        {__LINE__, {{"div64_throughput", 101, 100.5, 101.5}}, 1, {PENALTY_NOT_OK}, "above 100"},
        {__LINE__, {{"store_forward_block", 101, 100.5, 101.5}}, 1, {PENALTY_NOT_OK}, "above 100: a failed forward"},
        /* store_forward's ceiling is its own, not the prefix of store_forward_block's. */
        {__LINE__, {{"store_forward_block", 31, 30.5, 31.5}}, 1, {PENALTY_OK}, NULL},
        {__LINE__, {{"fp_assist_mul", 150, 149, 151}}, 1, {PENALTY_OK}, NULL},
        {__LINE__, {{"ifetch_l3", 401, 400, 402}}, 1, {PENALTY_NOT_OK}, "above 400: an instruction line"},
        /* A reference whose publication was not recorded is shown, never a check. */
        {__LINE__, {{"sqrt32_latency", 7.90, 7.8, 8.0}}, 1, {PENALTY_OK}, NULL},
        {__LINE__, {{"div32_throughput", 13.13, 12.65, 13.19}}, 1, {PENALTY_OK}, NULL},
        /* Within REFERENCE_REACH, or an interval reaching the figure: a note, not a failure. */
        {__LINE__, {{"sqrt32_latency", 14.83, 14.28, 14.91}}, 1, {PENALTY_OK}, NULL},
        {__LINE__, {{"sqrt32_latency", 20, 13, 22}}, 1, {PENALTY_OK}, NULL},
    };
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
        struct penalty ps[4];
        int bad = run(rows[r].f, rows[r].n, ps), want_bad = 0;
        bool match = true;
        char got[256] = "";
        for (int i = 0; i < rows[r].n; i++) {
            want_bad += rows[r].want[i] == PENALTY_NOT_OK;
            match &= ps[i].status == rows[r].want[i];
            if (ps[i].status == PENALTY_NOT_OK || ps[i].status == PENALTY_SKIP)
                match &= rows[r].why && strstr(ps[i].reason, rows[r].why) != NULL;
            snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s %s", i ? ", " : "", ps[i].rc->name,
                     penalty_status_name(ps[i].status));
        }
        CHECK(match && bad == want_bad, rows[r].line, "%s (%d not ok): %s", got, bad, ps[rows[r].n - 1].reason);
    }
    /* References beside the figures: Zen 5's L2 is 14 cycles, its DIV r32 12.9. */
    struct penalty ps[2];
    struct fig f[2] = {{"l2_hit", 14.78, 14.5, 15}, {"div32_latency", 17.0, 16.9, 17.1}};
    run(f, 2, ps);
    CHECK(ps[0].ref && ps[0].ref->lo == 14 && fabs(ps[0].deviation - (14.78 / 14 - 1)) < 1e-12 &&
              !reference_deviation_large(ps[0].deviation), __LINE__, "l2_hit 14.78 beside zen5's 14: %+.1f%%",
          100 * ps[0].deviation);
    CHECK(ps[1].ref && reference_deviation_large(ps[1].deviation), __LINE__,
          "div32_latency 17.0 beside zen5's 12.9: %+.1f%%, a large deviation", 100 * ps[1].deviation);
    run(f, 1, ps);
    check_penalties(ps, 1, NULL, NULL, NULL);
    CHECK(!ps[0].ref && isnan(ps[0].deviation), __LINE__, "no model: no reference");
    struct fig ind = {"div32_throughput", 13.13, 12.65, 13.19};
    run(&ind, 1, ps);
    CHECK(ps[0].ref && ps[0].ref->indicative && reference_deviation_large(ps[0].deviation) && ps[0].status == PENALTY_OK,
          __LINE__, "div32_throughput 13.13 beside an unrecorded publication's 6: %+.0f%% shown, status %s",
          100 * ps[0].deviation, penalty_status_name(ps[0].status));

    /* A clock that is not trusted withholds every core-domain figure, with its reason; a failed one
     * stays failed, and a memory-domain figure (ns from the TSC alone) is not the core clock's. */
    struct fig at_clock[3] = {{"l1_hit", 4.98, 4.9, 5.1}, {"l2_hit", 93.99, 93.5, 94.2}, {"dram", 108, 105, 110}};
    struct penalty pc[3];
    run(at_clock, 3, pc);
    for (int i = 0; i < 3; i++)
        pc[i].status = PENALTY_OK, pc[i].reason[0] = 0;
    check_penalties(pc, 3, NULL, NULL, "the register adds misbehaved");
    CHECK(pc[0].status == PENALTY_UNSTABLE && strstr(pc[0].reason, "not trusted here: the register adds misbehaved") &&
              pc[1].status == PENALTY_NOT_OK && pc[2].status == PENALTY_OK,
          __LINE__, "an untrusted clock withholds l1_hit (%s: %s), l2_hit stays failed (%s), dram stands (%s)",
          penalty_status_name(pc[0].status), pc[0].reason, penalty_status_name(pc[1].status),
          penalty_status_name(pc[2].status));

    /* A whole reference is set against the issue case alone, not against the penalty (a delta):
     * Zen 5's failed store forward, 14-15 cycles in all (results/reference: 10.66 more than a
     * forward, 17.6 whole); its L2 DTLB hit, 11 cycles load to use (measured here: 7.0 more than
     * an L1 DTLB hit, 10.9 whole; 21.1 whole when the lines were in L2, as the recipe once had). */
    static const struct {
        int line;
        struct fig penalty;
        double issue_per_occ;
        enum penalty_status want;
        const char *why;
    } whole[] = {
        {__LINE__, {"store_forward_block", 10.66, 10.52, 11.54}, 17.6, PENALTY_OK, NULL},
        {__LINE__, {"store_forward_block", 10.66, 10.52, 11.54}, 14.5, PENALTY_OK, NULL},
        {__LINE__, {"store_forward_block", 10.66, 10.52, 11.54}, 40.0, PENALTY_NOT_OK, "the issue case, whole: 40.0"},
        {__LINE__, {"store_forward_block", 10.66, 10.52, 11.54}, 9.0, PENALTY_NOT_OK, "the issue case, whole: 9.0"},
        {__LINE__, {"stlb_hit", 7.0, 6.9, 7.1}, 10.93, PENALTY_OK, NULL},
        {__LINE__, {"stlb_hit", 7.0, 6.9, 7.1}, 21.1, PENALTY_NOT_OK, "the issue case, whole: 21.1"},
    };
    for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++) {
        struct case_result is = {.reps = 3};
        for (int r = 0; r < 3; r++)
            is.cycles[r] = 16 * whole[i].issue_per_occ * (1 + 0.001 * r);
        run(&whole[i].penalty, 1, ps);
        ps[0].issue = &is;
        ps[0].status = PENALTY_OK;
        ps[0].reason[0] = 0;
        check_penalties(ps, 1, NULL, "zen5", NULL);
        bool good = ps[0].status == whole[i].want && (!whole[i].why || strstr(ps[0].reason, whole[i].why));
        const struct reference *ref = reference_find("zen5", whole[i].penalty.name);
        CHECK(good && ref && ref->whole, whole[i].line, "%s %.2f, its issue case %.2f cycles per occurrence against "
              "%g-%g whole: %s %s", whole[i].penalty.name, whole[i].penalty.value, whole[i].issue_per_occ,
              ref ? ref->lo : NAN, ref ? ref->hi : NAN, penalty_status_name(ps[0].status), ps[0].reason);
    }

    /* Timing windows: a low quantile far below the median (most windows disturbed), or most
     * controls hit, is unstable; a gap within the repetitions' noise or WINDOW_AGREE is not. */
    static const struct {
        int line;
        double q, median, reps[3];
        int windows, dropped;
        bool want;
    } win[] = {
        {__LINE__, 63.74, 64.00, {63.7, 63.8, 63.7}, 80, 5, false},
        {__LINE__, 2444, 6502, {2400, 2500, 2450}, 80, 6, true},
        {__LINE__, 100, 110, {100, 80, 120}, 80, 0, false},     /* the repetitions spread more than the gap */
        {__LINE__, 100, 100.5, {100, 100, 100}, 80, 41, true},  /* most zero-iteration controls hit */
        {__LINE__, 100, 500, {100, 100, 100}, 0, 0, false},     /* no windows (a simulator): nothing to judge */
    };
    for (size_t i = 0; i < sizeof(win) / sizeof(win[0]); i++) {
        struct case_result r = {.reps = 3, .window_q = win[i].q, .window_median = win[i].median,
                                .windows = win[i].windows, .windows_dropped = win[i].dropped};
        memcpy(r.cycles, win[i].reps, sizeof(win[i].reps));
        char why[300] = "";
        bool got = window_disagreement(&r, why, sizeof(why));
        CHECK(got == win[i].want, win[i].line, "windows p10 %g, median %g, %d of %d dropped: %s%s", win[i].q,
              win[i].median, win[i].dropped, win[i].windows, got ? "unstable: " : "agree", why);
    }
    /* Every reference names a publication a reader can find, not this project's issue tracker;
     * one whose publication was not recorded says so and is indicative (never a check). */
    int internal = 0, indicative = 0, nreferences;
    const struct reference *references = references_all(&nreferences);
    for (int i = 0; i < nreferences; i++) {
        const struct reference *r = &references[i];
        /* Unchecked: a publication not recorded, or this project's own measurement on a host. */
        bool unrecorded = r->source && (strstr(r->source, "not recorded") || strstr(r->source, "indicative only"));
        internal += !r->source || strstr(r->source, "issue") != NULL || unrecorded != r->indicative;
        indicative += r->indicative;
    }
    CHECK(nreferences > 20 && !internal && indicative > 0, __LINE__,
          "%d references, %d citing no public source or unrecorded and checked, %d indicative", nreferences, internal,
          indicative);
    /* The level order beside an unstable level (the others ok), judged at goldencove. */
    static const struct {
        int line;
        struct fig f[4];
        int n, unstable, judged;   /* the unstable level; the one whose status is checked */
        enum penalty_status want;
        const char *says;
    } orders[] = {
        /* an unstable level is still ordered: l3_hit at 12 cycles [11.5, 12.8], under l2's 16 */
        {__LINE__, {{"l1_hit", 5, 4.9, 5.1}, {"l2_hit", 16, 15.9, 16.1}, {"l3_hit", 12, 11.5, 12.8}}, 3, 2, 2,
         PENALTY_NOT_OK, "level order broken"},
        /* a lower level slowed is ordered by its fastest pass: l3_hit's passes 107 .. 306 cycles (one
         * on L3), DRAM at 343 [329, 352], on a busy Emerald Rapids guest whose curve failed its checks */
        {__LINE__, {{"l1_hit", 5, 4.9, 5.1}, {"l2_hit", 16, 15.9, 16.1}, {"l3_hit", 297.7, 107.0, 305.7},
                    {"dram", 342.7, 329.1, 352.2}}, 4, 2, 2, PENALTY_UNSTABLE, ""},
        {__LINE__, {{"l1_hit", 5, 4.9, 5.1}, {"l2_hit", 16, 15.9, 16.1}, {"l3_hit", 297.7, 107.0, 305.7},
                    {"dram", 342.7, 329.1, 352.2}}, 4, 2, 3, PENALTY_OK, ""},
        /* ... the next level 20% above that pass still: l2_hit unstable at 20 [15.9, 60], l3_hit ok at
         * 17 [16.8, 17.2] measured L2 */
        {__LINE__, {{"l1_hit", 5, 4.9, 5.1}, {"l2_hit", 20, 15.9, 60}, {"l3_hit", 17, 16.8, 17.2}}, 3, 1, 2,
         PENALTY_NOT_OK, "level order broken"},
    };
    for (size_t r = 0; r < sizeof(orders) / sizeof(orders[0]); r++) {
        struct penalty po[4];
        run(orders[r].f, orders[r].n, po);
        for (int i = 0; i < orders[r].n; i++)
            po[i].status = i == orders[r].unstable ? PENALTY_UNSTABLE : PENALTY_OK, po[i].reason[0] = 0;
        check_penalties(po, orders[r].n, NULL, "goldencove", NULL);
        const struct penalty *j = &po[orders[r].judged];
        CHECK(j->status == orders[r].want && strstr(j->reason, orders[r].says), orders[r].line,
              "%s %.1f, %s the unstable level: %s (want %s): %s", orders[r].f[orders[r].judged].name, j->cycles,
              orders[r].f[orders[r].unstable].name, penalty_status_name(j->status), penalty_status_name(orders[r].want),
              j->reason);
    }
    plateau_passes();
    return done_testing();
}

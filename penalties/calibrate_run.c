/* Running the recipes: each case through validate's engine (repetitions, redo on noise and on a
 * moving clock, ndjson records), the penalty fitted from the repetitions, the closure check. */
#include "base/stats.h"
#include "base/util.h"
#include "host/clock.h"
#include "penalties/penalty_fit.h"
#include "runs/resume.h"
#include "validate/engine.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The engine hands over each group's measurement; a calibration case has one group. */
static void take_measurement(struct engine *eng, const struct case_ *c, const struct measurement *m,
                             const struct quantities *q)
{
    case_result_fill(eng->arg, m, q, clock_get()->tsc_hz, c->label, c->detail);
}

struct case_ *cal_case_build(const char *text, char *why, size_t n)
{
    size_t len = strcspn(text, " ");
    char name[64];
    snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), text);
    const struct kernel *kern = kernel_find(name);
    if (!kern) {
        snprintf(why, n, "kernel %s not built", name);
        return NULL;
    }
    struct case_ *c = case_from_text(kern, text[len] ? text + len + 1 : "");
    if (!c)
        snprintf(why, n, "case '%s' does not fit kernel %s's parameters ('pmucal kernels %s')", text, name, name);
    return c;
}

int cal_measure_case(const struct cal_opts *o, struct run_dir *dir, const char *text, const char *event,
                     struct case_result *r)
{
    if (!r->text) {
        memset(r, 0, sizeof(*r));
        r->text = xstrdup(text);
        quantities_unstated(&r->q);
    }
    struct case_ *c = cal_case_build(text, r->reason, sizeof(r->reason));
    if (!c)
        return r->status = CASE_SKIP;
    /* page-faults opens everywhere and carries the noise detectors; the recipe's event beside it. */
    struct event_spec ev[2];
    memset(ev, 0, sizeof(ev));
    char err[256];
    if (o->src->resolve("page-faults", &ev[0], err, sizeof(err)))
        pm_fatal("page-faults does not resolve: %s", err);
    int n = 1;
    if (event) {
        if (o->src->resolve(event, &ev[1], err, sizeof(err)))
            ev[1].unsupported = xstrdup(err);
        n = 2;
    }
    r->event.asked = event != NULL;
    struct engine eng;
    memset(&eng, 0, sizeof(eng));
    eng.src = o->src;
    eng.mopts = (struct measure_opts){.repetitions = o->repetitions, .target_seconds = o->target_seconds,
                                    .iters = 0, .max_redo = 3};
    eng.group_size = GROUP_MAX_EVENTS;
    eng.dir = dir;
    eng.cpu = o->cpu;
    eng.on_measurement = take_measurement;
    eng.arg = r;
    eng.record_key = r->key ? r->key : r->text;   /* --resume finds the case's record by it */
    int rc = engine_case(&eng, c, ev, n);
    if (rc == CASE_INTERRUPTED) {
        r->status = CASE_INTERRUPTED;
        snprintf(r->reason, sizeof(r->reason), "interrupted");
    } else if (rc != CASE_OK) {
        r->status = CASE_ERROR;
        snprintf(r->reason, sizeof(r->reason), "measurement failed (see the message above)");
    } else if (!r->reps) {
        r->status = CASE_SKIP;
        snprintf(r->reason, sizeof(r->reason), "%s", c->skip[0] ? c->skip : "not measured");
    }
    if (event && !r->event.counted && !r->event.why[0])
        snprintf(r->event.why, sizeof(r->event.why), "%.200s", r->reason[0] ? r->reason : "not measured");
    engine_free(&eng);
    event_spec_clear(&ev[0]);
    event_spec_clear(&ev[1]);
    case_free(c);
    return r->status;
}

/* Why the replayed run skipped a case it holds no record of (set up and skipped: "size=L3: this
 * machine has no L3"): the reason its penalties.json gives a skipped recipe with that case. */
static const char *stored_skip_reason(const struct cal *cal, const char *text)
{
    const struct jvalue *ps = jget(cal->stored, "penalties");
    for (int i = 0; ps && ps->type == J_ARRAY && i < ps->n; i++) {
        const struct jvalue *p = &ps->items[i];
        const struct recipe *rc = recipe_named(jget_str(p, "name", ""));
        enum penalty_status st;
        if (rc && penalty_status_of(p, &st) && st == PENALTY_SKIP &&
            (!strcmp(rc->issue, text) || (rc->control && !strcmp(rc->control, text))))
            return jget_str(p, "reason", NULL);
    }
    return NULL;
}

/* The case a recipe measured in the run replayed: the run's own (its penalties.json), which
 * today's recipe may since have changed; today's where the run names none. */
static const char *recipe_case(const struct cal *cal, const struct recipe *rc, bool control)
{
    const char *today = control ? rc->control : rc->issue;
    const struct jvalue *ps = cal->replaying && today ? jget(cal->stored, "penalties") : NULL;
    for (int i = 0; ps && ps->type == J_ARRAY && i < ps->n; i++)
        if (!strcmp(jget_str(&ps->items[i], "name", ""), rc->name)) {
            const char *run = jget_str(jget(&ps->items[i], control ? "control" : "issue"), "case", NULL);
            return run && *run ? run : today;
        }
    return today;
}

/* Each (case, event, pass) is measured once, however many recipes name it. */
static struct case_result *cal_case_pass(struct cal *cal, const char *text, const char *event, int pass)
{
    char *key = xasprintf("%s|%s|%d", text, event ? event : "", pass);
    for (int i = 0; i < cal->ncases; i++)
        if (!strcmp(cal->cases[i]->key, key)) {
            free(key);
            return cal->cases[i];
        }
    cal->cases = xrealloc(cal->cases, sizeof(*cal->cases) * (size_t)(cal->ncases + 1));
    struct case_result *r = cal->cases[cal->ncases++] = xcalloc(1, sizeof(*r));
    r->key = key;
    r->text = xstrdup(text);   /* what penalties.json and the tables show: the case, not the key */
    quantities_unstated(&r->q);
    if (cal->resume && cal_case_from_record(cal, r, event))
        return r;   /* measured before the run was interrupted */
    if (cal->replaying) {   /* judged as the run judged a case it could not measure */
        r->status = CASE_SKIP;
        const char *why = stored_skip_reason(cal, text);
        snprintf(r->reason, sizeof(r->reason), "%s", why ? why : "the run holds no record of this case");
        return r;
    }
    cal_measure_case(&cal->o, cal->dir, text, event, r);
    if (r->status == CASE_INTERRUPTED)
        cal->interrupted = true;
    return r;
}

struct case_result *cal_case(struct cal *cal, const char *text, const char *event)
{
    return cal_case_pass(cal, text, event, 0);
}

const char *cal_folder(const struct cal *cal)
{
    return cal->dir ? cal->dir->path : cal->resume ? cal->resume->run : "";
}

double run_ghz(const struct cal *cal)
{
    int n = 0;
    for (int i = 0; i < cal->ncases; i++)
        n += cal->cases[i]->reps;
    if (!n)
        return clock_get()->core_hz / 1e9;
    double *g = xmalloc(sizeof(double) * (size_t)n);
    n = 0;
    for (int i = 0; i < cal->ncases; i++)
        for (int r = 0; r < cal->cases[i]->reps; r++)
            g[n++] = cal->cases[i]->ghz[r];
    double m = stats_median(g, (size_t)n);
    free(g);
    return m;
}

/* One pass of the recipe: its cases (fresh for pass > 0), the occurrences, the fit. 0, or -1 with
 * the status and reason set. */
static int fit_pass(struct cal *cal, const struct recipe *rc, struct penalty *p, int pass, unsigned seed, struct fit *f)
{
    const char *ev = cal->hw && cal->host_pmu ? recipe_event(rc, cal->host_pmu) : NULL;
    const struct case_result *is = cal_case_pass(cal, recipe_case(cal, rc, false), ev, pass);
    const char *control = recipe_case(cal, rc, true);
    const struct case_result *co = control && !cal->interrupted ? cal_case_pass(cal, control, ev, pass) : NULL;
    if (pass == 0)
        p->issue = is, p->control = co;
    p->pass_issue[pass] = is, p->pass_control[pass] = co;
    const struct case_result *bad = is->status != CASE_OK ? is : co && co->status != CASE_OK ? co : NULL;
    if (bad) {
        p->status = bad->status == CASE_SKIP ? PENALTY_SKIP : PENALTY_ERROR;
        snprintf(p->reason, sizeof(p->reason), "%s", bad->reason);
        return -1;
    }
    int q = quantity_lookup(rc->occurrence);
    if (q < 0) {
        p->status = PENALTY_SKIP;
        snprintf(p->reason, sizeof(p->reason), "quantity %s is not in this build's vocabulary", rc->occurrence);
        return -1;
    }
    /* On a PMU host the recipe's event counts the occurrences, once it agrees with the model. */
    const char *pev = cal->host_pmu ? recipe_event(rc, cal->host_pmu) : NULL;
    struct event_count ei = is->event, ec = co ? co->event : (struct event_count){0};
    ei.asked = pev != NULL;
    ec.asked = pev && co;
    if (pev && !cal->hw)
        snprintf(ei.why, sizeof(ei.why), "%s", cal->hw_why);
    if (pass == 0) {
        choose_occurrences(is->q.v[q], co ? co->q.v[q] : 0, &ei, co ? &ec : NULL, pev, &p->occ);
        p->occ_issue = p->occ.issue;
        p->occ_control = p->occ.control;
    }
    /* A model that cannot state the occurrences on this host (a fact it lacks: the TLB's entries)
     * gives nothing to divide by: a SKIP with that reason, not a failure of the penalty. */
    const struct case_result *unstated = isnan(is->q.v[q]) ? is : co && isnan(co->q.v[q]) ? co : NULL;
    if (!p->occ.from_event && unstated) {
        p->status = PENALTY_SKIP;
        snprintf(p->reason, sizeof(p->reason), "%.100s: its model does not state %s%s%.300s", unstated->text,
                 rc->occurrence, unstated->q.unstated_why ? ": " : " on this host",
                 unstated->q.unstated_why ? unstated->q.unstated_why : "");
        return -1;
    }
    double delta = p->occ_issue - p->occ_control;
    if (isnan(delta) || delta <= 0) {
        p->status = PENALTY_NOT_OK;
        snprintf(p->reason, sizeof(p->reason), "no occurrences to divide by: %s is %g in the issue case and %g in the "
                 "control", rc->occurrence, p->occ_issue, p->occ_control);
        return -1;
    }
    bool mem = rc->domain == DOMAIN_MEMORY;
    *f = fit_penalty(mem ? is->ns : is->cycles, is->reps, co ? (mem ? co->ns : co->cycles) : NULL, co ? co->reps : 0,
                     delta, seed);
    return 0;
}

void penalty_at_clock(struct penalty *p, double ghz)
{
    bool mem = p->rc->domain == DOMAIN_MEMORY;
    double scale = mem ? ghz : 1 / ghz;
    double v[3] = {p->f.value, p->f.lo, p->f.hi}, w[3] = {v[0] * scale, v[1] * scale, v[2] * scale};
    const double *cyc = mem ? w : v, *ns = mem ? v : w;
    p->cycles = cyc[0], p->cycles_lo = cyc[1], p->cycles_hi = cyc[2];
    p->ns = ns[0], p->ns_lo = ns[1], p->ns_hi = ns[2];
}

/* A case the run's baselines may be read from: it measured, and its clock references did not
 * disagree (a split not told, NaN, is no disagreement). */
static bool case_told_alone(const struct case_result *r)
{
    return r->status == CASE_OK && !(r->clock_split > MEASURE_CLOCK_SPLIT_MAX);
}

/* The front end's pace alone, in cycles a no-op (the pace does not move with the clock): the
 * second fastest front-end witness of the run's cases that measured and whose clock references
 * agreed, so that one misread trip cannot set it; the fastest where only one was told; NaN where
 * none was. A case's own fastest is no baseline: beside a thread that took turns at the front end
 * all through the case, every trip read slow alike (fp_assist_mul at 143 cycles in four passes of
 * one calibration). A thread there through the whole run is not seen. */
static double front_pace(const struct cal *cal)
{
    double least = NAN, next = NAN;
    for (int i = 0; i < cal->ncases; i++) {
        const struct case_result *r = cal->cases[i];
        double f = r->front_fastest;
        if (!case_told_alone(r) || !(f > 0))
            continue;
        if (!(f >= least))
            next = least, least = f;
        else if (!(f >= next))
            next = f;
    }
    return isnan(next) ? least : next;
}

/* The whole latency a case's load witness told where the run may read it, else NaN: the case
 * measured with its clock references agreeing, and its witness's median reads as that whole does
 * on a core of its own (within MEASURE_WITNESS_FAST under it to MEASURE_WITNESS_QUIET over). A
 * whole one fast trip told (4, beside a median of 4.985) is not its readings', nor is one every
 * trip of a shared case told alike read as a quiet one. */
static double whole_told(const struct case_result *r)
{
    double w = r->load_whole, m = r->load_median;
    bool consistent = m >= w * (1 - MEASURE_WITNESS_FAST) && m <= w * (1 + MEASURE_WITNESS_QUIET);
    return case_told_alone(r) && w >= 1 && consistent ? w : NAN;
}

/* The load witness's whole latency, as the run's cases told it: the smallest that two of them
 * told with their readings consistent with it (whole_told); NaN where no two did (each case then
 * judged by its own). Sharing only slows a load, so the smallest so told is the quiet one, however
 * many cases a busy neighbour slowed. A case's own is no baseline: it comes from the fastest of
 * its trips (17 a repetition), and one of them can read a few percent fast. Of 5,194 cases
 * recorded on the Emerald Rapids guest, 67 told 4 cycles where the rest told 5, with medians of
 * 4.97-5.0 as theirs: a quiet pass of fp_assist_mul (116.73 cycles) was left out, its witness
 * "24.6% over its whole 4". */
static double run_load_whole(const struct cal *cal)
{
    double *w = xmalloc(sizeof(double) * (size_t)(cal->ncases ? cal->ncases : 1)), least = NAN;
    size_t n = 0;
    for (int i = 0; i < cal->ncases; i++)
        if (!isnan(w[n] = whole_told(cal->cases[i])))
            n++;
    stats_sort(w, n);
    for (size_t i = 1; i < n && isnan(least); i++)
        if (w[i] == w[i - 1])
            least = w[i];
    free(w);
    return least;
}

/* What the witnesses read on a core of their own, as the run's cases told them: the baselines a
 * case's witnesses are judged against. */
struct quiet_witness {
    double front_pace;   /* front_pace */
    double load_whole;   /* run_load_whole */
};

static struct quiet_witness quiet_witness_of(const struct cal *cal)
{
    return (struct quiet_witness){.front_pace = front_pace(cal), .load_whole = run_load_whole(cal)};
}

/* Which whole latency a case's load witness is judged against, in words: the run's (and the case's
 * own where it differs) or its own. */
static void whole_basis(const struct quiet_witness *q, const struct case_result *r, char *buf, size_t n)
{
    if (q->load_whole >= 1 && q->load_whole != r->load_whole)
        snprintf(buf, n, "the run's whole %.3g (its own %.3g)", q->load_whole, r->load_whole);
    else
        snprintf(buf, n, "its whole %.3g", r->load_whole);
}

/* A case that did not have the core to itself, with why: its two clock references disagreed
 * (something slowed the adders or the multiplier: on this project's Zen 5 guest
 * l1_hit read 4.13-4.21 cycles in every run of such a calibration, 3.99 in the others, and
 * store_forward_block 11.53-11.63 against 10.97), or its windows outlast a scheduler slice and
 * another task took the CPU in every attempt (ifetch size=DRAM: 50 ms windows read twice as long
 * beside a busy loop, in all five passes alike), or the load witness beside its windows read far
 * enough above the run's whole latency (run_load_whole) to move the case's own cycles
 * (clock_load_share; host/clock.h: l1_hit ok at 4.29 cycles, 7% slow, in a whole calibration on
 * this project's Zen 3 guest while the clock references agreed) or below it by more than
 * MEASURE_WITNESS_FAST (a clock read slow), or, for a case whose cost is the
 * front end's (recipe_front_end), read over MEASURE_WITNESS_QUIET at all, or its front-end
 * witness's median read over the run's pace (front_pace) by more than MEASURE_FRONT_QUIET
 * (host/clock.h: a thread that hardly loads, as at the front end the never-taken branches ran at
 * 18.6 cycles an iteration against 8.32 beside a load witness of 5.01). */
static bool case_shared(const struct case_result *r, bool front_end, const struct quiet_witness *q, char *why,
                        size_t n)
{
    if (!r)
        return false;
    double whole = q->load_whole >= 1 ? q->load_whole : r->load_whole, pace = q->front_pace;
    if (r->clock_split > MEASURE_CLOCK_SPLIT_MAX) {
        snprintf(why, n, "%.150s: its clock references read %.2f%% apart (dependent register adds against "
                 "multiplies, within %.1f%% when each chain has its units): one chain was slowed while the case "
                 "was measured, so the clock beside its windows is not the core's", r->label, 100 * r->clock_split,
                 100 * MEASURE_CLOCK_SPLIT_MAX);
        return true;
    }
    char basis[48];   /* which whole, said true: written where a reason needs it */
    if (r->load_median < whole * (1 - MEASURE_WITNESS_FAST)) {
        whole_basis(q, r, basis, sizeof(basis));
        snprintf(why, n, "%.120s: its load witness (loads of one line) read %.3g cycles a load, %.3g%% under %.40s, "
                 "which sharing does not do: the clock its readings, and the case's cycles, were converted at is "
                 "suspect", r->label, r->load_median, 100 * (1 - r->load_median / whole), basis);
        return true;
    }
    double share = clock_load_share(whole, r->load_median, r->q.v[Q_LD_ALL],
                                    stats_median(r->cycles, (size_t)r->reps));
    if (share > MEASURE_LOAD_SHARE_MAX) {
        whole_basis(q, r, basis, sizeof(basis));
        snprintf(why, n, "%.150s: its load witness (loads of one line) read %.3g cycles a load, not %.40s: another "
                 "thread shared the load unit, enough to add %.2g%% to the case's cycles (%.3g loads an iteration; "
                 "%.0f%% allowed)", r->label, r->load_median, basis, 100 * share, r->q.v[Q_LD_ALL],
                 100 * MEASURE_LOAD_SHARE_MAX);
        return true;
    }
    if (front_end && r->load_median > whole * (1 + MEASURE_WITNESS_QUIET)) {
        whole_basis(q, r, basis, sizeof(basis));
        snprintf(why, n, "%.120s: its load witness (loads of one line) read %.3g cycles a load, %.3g%% over %.40s "
                 "(within %.1f%% on a core of its own): another thread ran on this core, and this case's cost is "
                 "the front end's, which hardware threads take turns at", r->label, r->load_median,
                 100 * (r->load_median / whole - 1), basis, 100 * MEASURE_WITNESS_QUIET);
        return true;
    }
    if (front_end && pace > 0 && r->front_median > pace * (1 + MEASURE_FRONT_QUIET)) {
        snprintf(why, n, "%.150s: its front-end witness (no-ops) read %.3g cycles a no-op, %.1f%% over the run's "
                 "pace %.3g (within %.0f%% on a core of its own): another thread took turns at the front end, "
                 "where this case's cost lies", r->label, r->front_median, 100 * (r->front_median / pace - 1), pace,
                 100 * MEASURE_FRONT_QUIET);
        return true;
    }
    if (r->disturbed && r->window_seconds > CAL_SLICE_SECONDS) {
        snprintf(why, n, "%.150s: its timing windows last %.1f ms, longer than a scheduler slice, and another task "
                 "took the CPU in every attempt: no window was left whole", r->label, 1e3 * r->window_seconds);
        return true;
    }
    return false;
}

/* Pass r of p did not have the core to itself: its issue or its control case shared it (why says
 * which). The one test of a pass, for its figure and for whether it is due another; q is
 * quiet_witness_of the run, found once for all the recipe's passes. */
static bool pass_was_shared(const struct penalty *p, int r, const struct quiet_witness *q, char *why, size_t n)
{
    bool fe = recipe_front_end(p->rc);
    return case_shared(p->pass_issue[r], fe, q, why, n) || case_shared(p->pass_control[r], fe, q, why, n);
}

int cal_clean_needed(const struct penalty *p)
{
    return p->passes >= 3 ? 3 : p->passes;
}

int cal_passes_asked(const struct cal *cal)
{
    return cal->o.passes > 0 ? cal->o.passes : CAL_PASSES;
}

/* Passes in two groups: of m sorted passes, the widest gap between neighbours wider than `width`
 * with at least two passes on either side; how many lie below it, or 0. An order statistic holds the
 * median only of passes drawn alike, and a further pass is measured right after the last, where
 * the passes asked are spread over the run: ten further passes at one share of an L3 would hide
 * two of five asked at another behind the 3rd to the 10th of twelve. */
static int pass_group_split(const double *s, int m, double width)
{
    int split = 0;
    for (int i = 2; i <= m - 2; i++)
        if (s[i] - s[i - 1] > width && (!split || s[i] - s[i - 1] > s[split] - s[split - 1]))
            split = i;
    return split;
}

/* The clean pass figures v in ascending order into s (CAL_MAX_PASSES at most); how many. */
static int sorted_passes(const double *v, int n, double *s)
{
    int m = n < CAL_MAX_PASSES ? n : CAL_MAX_PASSES;
    memcpy(s, v, (size_t)m * sizeof(*s));
    stats_sort(s, (size_t)m);
    return m;
}

bool cal_more_passes_due(const struct cal *cal, const struct penalty *p, int passes_run)
{
    int asked = cal_passes_asked(cal), most = 3 * asked < CAL_MAX_PASSES ? 3 * asked : CAL_MAX_PASSES;
    int most_shared = 2 * asked < CAL_MAX_PASSES ? 2 * asked : CAL_MAX_PASSES;
    if (!cal->o.more_passes || cal->replaying || asked < 3 || p->passes != p->passes_wanted ||
        p->passes != passes_run || p->passes >= most)
        return false;
    char why[400];
    double clean[CAL_MAX_PASSES], lo, hi;
    int n = 0;
    struct quiet_witness q = quiet_witness_of(cal);
    for (int r = 0; r < p->passes; r++)
        if (!pass_was_shared(p, r, &q, why, sizeof(why)))
            clean[n++] = p->pass_values[r];
    if (n < cal_clean_needed(p))
        return p->passes < most_shared;
    /* Passes that disagree, only where more of them can pin the median down: its interval from
     * fifteen (the 4th to the 12th) spans about their middle half, twice their median absolute
     * deviation, so passes whose middle half is already wider than allowed (a figure near zero, a
     * level another tenant keeps busy) would take every further pass and stay unstable. The
     * deviation, not the quartiles: of three passes one slow one would make the quartiles wide,
     * and a fourth pass lets it stand apart. Passes in two groups get none: more would only
     * outnumber one group (pass_group_split). */
    struct stats st = stats_of(clean, (size_t)n);
    double sorted[CAL_MAX_PASSES], width = spread_allowed(p->rc) * fabs(st.median);
    if (pass_agreeing_range(clean, n, st.median, spread_allowed(p->rc), &lo, &hi))
        return false;
    return 2 * st.mad <= width && !pass_group_split(sorted, sorted_passes(clean, n, sorted), width);
}

bool window_disagreement(const struct case_result *r, char *why, size_t n)
{
    if (!r->windows)
        return false;
    if (r->windows_dropped * 2 > r->windows) {
        snprintf(why, n, "%d of its %d timing windows were hit in their zero-iteration control: the CPU was "
                 "taken from it too often to tell a clean window", r->windows_dropped, r->windows);
        return true;
    }
    /* The repetitions' own spread is the noise a gap must exceed, and never less than WINDOW_AGREE. */
    struct stats s = stats_of(r->cycles, (size_t)r->reps);
    double gap = r->window_median - r->window_q, noise = fmax(WINDOW_AGREE * r->window_q, 3 * s.mad);
    if (!(gap <= noise)) {
        snprintf(why, n, "its timing windows disagree: p%.0f %.3f and median %.3f cycles per iteration are %.1f%% "
                 "apart, beyond the noise (%.1f%%): most windows were disturbed, so the low quantile cannot be "
                 "told from a lucky one", 100 * MEASURE_WINDOW_QUANTILE, r->window_q, r->window_median,
                 100 * gap / r->window_q, 100 * noise / r->window_q);
        return true;
    }
    return false;
}

/* How many passes the recipe gets: a replayed run's own count (its penalties.json: "passes", or
 * "runs" as a pmucal before the word wrote it), else the option's. */
static int passes_wanted(const struct cal *cal, const struct recipe *rc)
{
    const struct jvalue *ps = cal->replaying ? jget(cal->stored, "penalties") : NULL;
    for (int i = 0; ps && ps->type == J_ARRAY && i < ps->n; i++)
        if (!strcmp(jget_str(&ps->items[i], "name", ""), rc->name)) {
            double n = jget_num(&ps->items[i], "passes", jget_num(&ps->items[i], "runs", 1));
            return n >= 1 && n <= CAL_MAX_PASSES ? (int)n : 1;
        }
    return cal->replaying ? 1 : cal_passes_asked(cal);
}

bool fit_recipe_pass(struct cal *cal, const struct recipe *rc, struct penalty *p, int pass, unsigned seed)
{
    if (pass == 0) {
        memset(p, 0, sizeof(*p));
        p->rc = rc;
        p->status = PENALTY_ERROR;
        p->cycles = p->cycles_lo = p->cycles_hi = p->ns = p->ns_lo = p->ns_hi = NAN;
        p->passes_wanted = passes_wanted(cal, rc);
    } else if (p->passes < pass || pass >= p->passes_wanted)
        return false;   /* an earlier pass could not be fitted, or the recipe is done */
    struct fit f;
    if (cal->interrupted || fit_pass(cal, rc, p, pass, seed + 7919u * (unsigned)pass, &f))
        return false;
    if (pass == 0)
        p->f = f;
    p->pass_values[p->passes++] = f.value;
    return true;
}

int pass_agreeing_range(const double *v, int n, double median, double allowed, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (n < 1)
        return 0;
    double s[CAL_MAX_PASSES], width = allowed * fabs(median);
    int m = sorted_passes(v, n, s), r = stats_median_rank((size_t)m, PASS_MEDIAN_COVERAGE);
    *lo = s[0], *hi = s[m - 1];
    if (*hi - *lo <= width)
        return m;
    if (r > 1 && s[m - r] - s[r - 1] <= width && !pass_group_split(s, m, width)) {
        *lo = s[r - 1], *hi = s[m - r];
        return m - 2 * (r - 1);
    }
    /* Of two or three none can be told to stand apart; from nine on the median's interval leaves
     * out more than one pass would. */
    if (m < 4 || r > 1)
        return 0;
    bool low = s[1] - s[0] > s[m - 1] - s[m - 2];   /* the one further from its nearest */
    double rlo = low ? s[1] : s[0], rhi = low ? s[m - 1] : s[m - 2], gap = low ? s[1] - s[0] : s[m - 1] - s[m - 2];
    if (rhi - rlo > width || !(gap > rhi - rlo))   /* passes spread evenly are not one apart */
        return 0;
    *lo = rlo, *hi = rhi;
    return m - 1;
}

void fit_recipe_judge(struct cal *cal, struct penalty *p)
{
    /* Stopped in a further pass (penalty_fit.h), its passes asked are all there: judged on them. */
    if (cal->interrupted && p->passes >= cal_passes_asked(cal) && p->passes < p->passes_wanted)
        p->passes_wanted = p->passes;
    bool stopped = p->passes && p->passes < p->passes_wanted && cal->interrupted;
    if (p->passes < p->passes_wanted && !stopped) {   /* skip, error or not ok as a pass set it */
        if (!*p->reason)   /* never left unsaid: a pass the run did not measure */
            snprintf(p->reason, sizeof(p->reason), "measured in %d of the %d passes it wanted: a pass it was due "
                     "was not run", p->passes, p->passes_wanted);
        return;
    }
    /* Passes whose cases did not have the core to themselves are kept in pass_values and left out
     * of the figure. */
    double used[CAL_MAX_PASSES];
    int nused = 0, use[CAL_MAX_PASSES];
    char shared_why[400] = "";
    p->passes_shared = 0;
    struct quiet_witness q = quiet_witness_of(cal);
    for (int r = 0; r < p->passes; r++) {
        char why[400] = "";
        p->pass_shared[r] = pass_was_shared(p, r, &q, why, sizeof(why));
        if (p->pass_shared[r]) {
            p->passes_shared++;
            if (!*shared_why)
                snprintf(shared_why, sizeof(shared_why), "%s", why);
        } else
            use[nused] = r, used[nused++] = p->pass_values[r];
    }
    if (!nused)   /* every pass shared: the figure is shown (never published) from all of them */
        for (int r = 0; r < p->passes; r++)
            use[nused] = r, used[nused++] = p->pass_values[r];
    double span_lo = p->f.lo, span_hi = p->f.hi;   /* every pass's range (one pass: its interval) */
    if (p->passes > 1) {
        /* The median's interval (pass_agreeing_range): the passes' range, one of four to eight
         * standing apart left out (a burst of load during it: a difference reads short as well as
         * long when its control was hit), or from nine the order statistics that hold the median. */
        struct stats all = stats_of(used, (size_t)nused);
        p->passes_agreeing = pass_agreeing_range(used, nused, all.median, spread_allowed(p->rc), &p->f.lo, &p->f.hi);
        p->f.value = all.median;
        span_lo = all.min, span_hi = all.max;
        p->pass_spread = (all.max - all.min) / fabs(all.median);
        /* The cases shown and checked whole are the median pass's: a reference compared with the
         * first pass's issue case failed a right figure when that pass was the one a burst hit
         * (store_forward_block: 21.41 cycles whole in pass 0, 14.4 penalty, 10.97 in the others). */
        int mid = 0;
        for (int i = 1; i < nused; i++)
            if (fabs(used[i] - all.median) < fabs(used[mid] - all.median))
                mid = i;
        p->issue = p->pass_issue[use[mid]], p->control = p->pass_control[use[mid]];
    }
    bool mem = p->rc->domain == DOMAIN_MEMORY;
    penalty_at_clock(p, run_ghz(cal));
    if (stopped) {   /* what was measured is kept, never published */
        p->status = PENALTY_ERROR;
        snprintf(p->reason, sizeof(p->reason), "interrupted after %d of its %d passes", p->passes, p->passes_wanted);
        return;
    }
    double half = (p->f.hi - p->f.lo) / 2, floor_ = mem ? 0.1 : 0.25;
    p->status = PENALTY_OK;
    int clean = p->passes - p->passes_shared, need = cal_clean_needed(p);
    if (clean < need) {
        p->status = PENALTY_UNSTABLE;
        snprintf(p->reason, sizeof(p->reason), "the core was not its own in %d of %d passes, %d clean passes needed: "
                 "%.380s", p->passes_shared, p->passes, need, shared_why);
    } else if (p->passes > 1 && !p->passes_agreeing) {
        p->status = PENALTY_UNSTABLE;
        char median_why[160] = "";
        double sorted[CAL_MAX_PASSES];
        int m = sorted_passes(used, nused, sorted), r = stats_median_rank((size_t)m, PASS_MEDIAN_COVERAGE);
        int split = pass_group_split(sorted, m, spread_allowed(p->rc) * fabs(p->f.value));
        if (split)
            snprintf(median_why, sizeof(median_why), ", in two groups (%d passes %.2f .. %.2f, %d passes %.2f .. %.2f)",
                     split, sorted[0], sorted[split - 1], m - split, sorted[split], sorted[m - 1]);
        else if (r > 1)
            snprintf(median_why, sizeof(median_why), ", and so is the %.0f%% interval of their median (%.2f .. %.2f, "
                     "all but the lowest and the highest %d)", 100 * PASS_MEDIAN_COVERAGE, sorted[r - 1],
                     sorted[m - r], r - 1);
        else if (clean >= 4)
            snprintf(median_why, sizeof(median_why), ", with no one pass apart from the rest");
        snprintf(p->reason, sizeof(p->reason), "pass-to-pass spread %.1f%% over %d %spasses (%.2f .. %.2f, median "
                 "%.2f): wider than the %.0f%% a %s figure may spread%s", 100 * p->pass_spread, clean,
                 p->passes_shared ? "clean " : "", span_lo, span_hi, p->f.value, 100 * spread_allowed(p->rc),
                 spread_class_name(p->rc->spread), median_why);
    } else if (p->passes == 1 && half > 0.10 * fabs(p->f.value) && half > floor_) {
        p->status = PENALTY_UNSTABLE;
        snprintf(p->reason, sizeof(p->reason), "95%% interval [%.2f, %.2f] wider than +-10%%", p->f.lo, p->f.hi);
    }
    if (p->status == PENALTY_OK && p->passes > 1 && p->passes_agreeing == clean - 1)
        snprintf(p->reason, sizeof(p->reason), "1 of %d %spasses stood apart (%.2f .. %.2f over all): left out of "
                 "the interval, the median kept", clean, p->passes_shared ? "clean " : "", span_lo, span_hi);
    else if (p->status == PENALTY_OK && p->passes > 1 && p->passes_agreeing < clean)
        snprintf(p->reason, sizeof(p->reason), "the interval holds the median of %d %spasses at %.0f%%: %.1f%% wide, all "
                 "but the lowest and the highest %d (%.2f .. %.2f over all)", clean, p->passes_shared ? "clean " : "",
                 100 * PASS_MEDIAN_COVERAGE, 100 * (p->f.hi - p->f.lo) / fabs(p->f.value),
                 (clean - p->passes_agreeing) / 2, span_lo, span_hi);
    const struct case_result *cs[2] = {p->issue, p->control};
    for (int i = 0; i < 2; i++) {
        if (!cs[i])
            continue;
        char why[300];
        /* Independent passes that agree show the low quantile was no lucky window; one pass cannot. */
        if (p->status != PENALTY_OK)   /* the first reason stands */
            break;
        if (p->passes == 1 && window_disagreement(cs[i], why, sizeof(why))) {
            p->status = PENALTY_UNSTABLE;
            snprintf(p->reason, sizeof(p->reason), "%.200s: %.250s", cs[i]->label, why);
        } else if (cs[i]->disturbed && !cs[i]->windows) {   /* cycles of the counted loops themselves */
            p->status = PENALTY_UNSTABLE;
            snprintf(p->reason, sizeof(p->reason), "%s: repetitions shared the CPU with another task in every "
                     "attempt (context switches); measure on a quiet machine or another --cpu", cs[i]->label);
        } else if (cs[i]->clock_moved && !cs[i]->windows) {   /* windows take the clock beside each */
            p->status = PENALTY_UNSTABLE;
            snprintf(p->reason, sizeof(p->reason), "%s: the core clock moved during the measurement (core/TSC "
                     "ratio %.3f before, %.3f after, measured again twice): cycles would be mis-scaled",
                     cs[i]->label, cs[i]->ratio_before, cs[i]->ratio_after);
        }
    }
    if (p->status == PENALTY_UNSTABLE && p->passes > 1) {   /* no figure stands: every pass is its range */
        p->f.lo = span_lo, p->f.hi = span_hi;
        penalty_at_clock(p, run_ghz(cal));
    }
}

const struct penalty *find_penalty(const struct penalty *ps, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ps[i].rc->name, name))
            return &ps[i];
    return NULL;
}

static const char *const closure_latencies[] = {"l1_hit", "l2_hit", "l3_hit"};
#define CLOSURE_CASE "mixwalk"
#define CLOSURE_TOLERANCE 0.05

void closure_after_recipe(struct cal *cal, const struct recipe *rc, const struct penalty *p)
{
    /* After its last pass only. It was measured in this pass (fit_recipe_pass fits a recipe only
     * at its next index), so its passes are the run's. */
    if (p->passes != p->passes_wanted || cal_more_passes_due(cal, p, p->passes))
        return;
    /* Measured right after the last latency it is predicted from: this VM's share of the L3 moves
     * with its neighbours, and minutes later (after the DRAM, TLB and curve cases) the L3's
     * latency was not the one calibrated (-5.7% in one full run, +0.2..+1.2% measured next to it). */
    if (!strcmp(rc->name, closure_latencies[2]) && !cal->interrupted)
        cal_case(cal, CLOSURE_CASE, NULL);
}

int closure(struct cal *cal, const struct penalty *ps, int n, struct json *doc, struct tap *tap)
{
    const char *const *lat = closure_latencies;
    static const enum quantity_id qs[] = {Q_LD_L1, Q_LD_L2, Q_LD_L3};
    for (int i = 0; i < 3; i++) {
        const struct penalty *p = find_penalty(ps, n, lat[i]);
        if (!p || p->status != PENALTY_OK) {
            char why[128];
            snprintf(why, sizeof(why), "needs an ok %s penalty from this run", lat[i]);
            tap_point(tap, VERDICT_SKIP, "closure: mixwalk predicted from calibrated latencies", why);
            return 0;
        }
    }
    struct case_result *r = cal_case(cal, CLOSURE_CASE, NULL);
    if (r->status != CASE_OK) {
        tap_point(tap, r->status == CASE_SKIP ? VERDICT_SKIP : VERDICT_NOT_OK, "closure: mixwalk", r->reason);
        return r->status == CASE_SKIP ? 0 : -1;
    }
    /* The prediction's band comes from the latencies' intervals, the measurement's from its
     * repetitions. Where the two bands together are wider than the tolerance, a miss says nothing
     * about the latencies: the check is undecided on this host now (a TODO with the figures), not
     * a failure and not a pass. */
    double predicted = 0, pred_lo = 0, pred_hi = 0;
    for (int i = 0; i < 3; i++) {
        const struct penalty *p = find_penalty(ps, n, lat[i]);
        predicted += r->q.v[qs[i]] * p->cycles;
        pred_lo += r->q.v[qs[i]] * p->cycles_lo;
        pred_hi += r->q.v[qs[i]] * p->cycles_hi;
    }
    double got = stats_median(r->cycles, (size_t)r->reps), err = (got - predicted) / predicted;
    double got_lo = got, got_hi = got;
    for (int i = 0; i < r->reps; i++) {
        got_lo = fmin(got_lo, r->cycles[i]);
        got_hi = fmax(got_hi, r->cycles[i]);
    }
    double noise = ((pred_hi - pred_lo) + (got_hi - got_lo)) / 2 / predicted;
    /* A mixwalk measured while another thread shared the core says nothing of the latencies either. */
    char shared[400] = "";
    struct quiet_witness q = quiet_witness_of(cal);
    bool ok = fabs(err) <= CLOSURE_TOLERANCE,
         undecided = !ok && (noise > CLOSURE_TOLERANCE || case_shared(r, false, &q, shared, sizeof(shared)));
    char desc[512], why[400];
    snprintf(desc, sizeof(desc), "closure: mixwalk (%.3g L1 + %.3g L2 + %.3g L3 loads per iteration) predicted %.1f "
             "cycles per iteration from the calibrated latencies, measured %.1f (%+.1f%%, tolerance %g%%)",
             r->q.v[Q_LD_L1], r->q.v[Q_LD_L2], r->q.v[Q_LD_L3], predicted, got, 100 * err, 100 * CLOSURE_TOLERANCE);
    if (*shared)
        snprintf(why, sizeof(why), "undecided here now: %s", shared);
    else
        snprintf(why, sizeof(why), "unstable: the figures' noise (+-%.1f%%) is wider than the tolerance: undecided "
                 "here now", 100 * noise);
    tap_point(tap, ok ? VERDICT_OK : undecided ? VERDICT_TODO : VERDICT_NOT_OK, desc, undecided ? why : NULL);
    json_object_begin(doc, "closure");
    json_string(doc, "case", r->label);
    json_string(doc, "detail", r->detail);
    json_number(doc, "ld_l1", r->q.v[Q_LD_L1]);
    json_number(doc, "ld_l2", r->q.v[Q_LD_L2]);
    json_number(doc, "ld_l3", r->q.v[Q_LD_L3]);
    json_number(doc, "predicted_cycles", predicted);
    json_number(doc, "measured_cycles", got);
    json_number(doc, "error", err);
    json_number(doc, "noise", noise);
    json_number(doc, "tolerance", CLOSURE_TOLERANCE);
    json_bool(doc, "ok", ok);
    json_bool(doc, "undecided", undecided);
    json_object_end(doc);
    return ok || undecided ? 0 : -1;
}

const struct case_result *curve_case(void *ctx, const char *text, int attempt, bool *shared)
{
    struct cal *cal = ctx;
    const struct case_result *r = cal_case_pass(cal, text, NULL, attempt);
    char why[400];
    *shared = false;
    if (r->status == CASE_OK) {
        struct quiet_witness q = quiet_witness_of(cal);
        *shared = case_shared(r, false, &q, why, sizeof(why));
    }
    return cal->interrupted ? NULL : r;
}

void cal_free(struct cal *cal)
{
    for (int i = 0; i < cal->ncases; i++) {
        case_result_free(cal->cases[i]);
        free(cal->cases[i]);
    }
    free(cal->cases);
    cal->cases = NULL;
    cal->ncases = 0;
}

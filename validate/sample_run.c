#include "validate/sample_run.h"
#include "arch/isa.h"
#include "base/jread.h"
#include "base/stats.h"
#include "base/stop.h"
#include "base/util.h"
#include "host/clock.h"
#include "host/topo.h"
#include "runs/sample_record.h"
#include "validate/sample_check.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The next instruction of the loop after ip, for the perturbation that moves samples. */
static uint64_t next_inst(uint64_t ip, const void *arg)
{
    const struct site_map *m = arg;
    int i = site_index(m, (uintptr_t)ip);
    return i < 0 ? ip : m->addr[(i + 1) % m->n];
}

static void point(struct sample_run *run, const struct event_spec *ev, int level, const struct sverdict *v)
{
    char desc[768];
    snprintf(desc, sizeof(desc), "%s :: %s precise=%d %s", run->c->label, ev->name, level, v->text);
    if (!v->judged) {
        tap_comment(&run->s->tap, "%s", desc);
        return;
    }
    tap_point(&run->s->tap, v->kind, desc, NULL);
    run->not_ok += v->kind == VERDICT_NOT_OK;
}

/* The case's loop, iters iterations, with sm counting it alone: its ticks into *ticks. */
static void loop_timed(struct sample_run *run, struct sampler *sm, uint64_t iters, double *ticks)
{
    if (run->c->kernel->prepare)
        run->c->kernel->prepare(run->c);
    sampler_enable(sm);
    uint64_t t0 = isa_ticks_start();
    run->c->kernel->loop(run->c, iters);
    uint64_t t1 = isa_ticks_stop();
    sampler_disable(sm);
    *ticks = (double)case_loop_ticks(run->c, t0, t1);
}

/* The quantity the event's rule names when it is one quantity alone ("page-faults pf.minor"). */
static int rule_quantity(const struct sample_run *run, const struct event_spec *ev, const char **expr)
{
    const struct rule *r = ruleset_find(&run->eng->rules, ev);
    *expr = r ? r->expr_text : NULL;
    return r ? quantity_lookup(r->expr_text) : -1;
}

/* Skid and shadow need the case's instruction map and a rule that names one quantity some
 * instruction of the loop causes; without them one SKIP line says which is missing (true). */
static bool skid_shadow_skipped(struct sample_run *run, const struct event_spec *ev, int level, int q, const char *expr)
{
    char why[256] = "", desc[512];
    if (!run->have_map)
        snprintf(why, sizeof(why), "%s states no instruction map for this case", run->c->kernel->name);
    else if (q < 0)
        snprintf(why, sizeof(why), "the rule's expression '%s' is not one quantity of the model",
                 expr ? expr : "(no rule)");
    else if (!site_causes(&run->map, q, NULL))
        snprintf(why, sizeof(why), "no instruction of the loop causes %s", quantity_name(q));
    if (!*why)
        return false;
    snprintf(desc, sizeof(desc), "%s :: %s precise=%d skid and shadow", run->c->label, ev->name, level);
    tap_point(&run->s->tap, VERDICT_SKIP, desc, why);
    return true;
}

/* A (case, event, level) the resumed run measured before: its verdicts said again from its
 * record, which stays as it was. */
static void replay_level(struct sample_run *run, const struct event_spec *ev, int level, const struct jvalue *rec)
{
    struct sample_record_verdict rv[3];
    int nv = sample_record_verdicts(rec, rv);   /* 1..3: a record is kept only when they read back */
    for (int i = 0; i < nv; i++) {
        struct sverdict v = {.what = rv[i].what, .kind = rv[i].kind, .judged = rv[i].judged};
        snprintf(v.text, sizeof(v.text), "%s", rv[i].text);
        point(run, ev, level, &v);
    }
    if (nv == 1) {
        const char *expr = NULL;
        int q = rule_quantity(run, ev, &expr);
        skid_shadow_skipped(run, ev, level, q, expr);
    }
    tap_comment(&run->s->tap, "%s :: %s precise=%d kept: measured before the resume (%.0f samples, overhead %.0f ns "
                "per sample)", run->c->label, ev->name, level, jget_num(rec, "samples", NAN),
                jget_num(rec, "overhead_ns_per_sample", NAN));
}

/* The control window's period: a sampling event, as the sampler is, that no window reaches (2^62
 * events: years at any clock rate), so the pair differs in the samples alone. Not 0, a counting
 * event: on QEMU's Sscofpmf (7.2 and 10.0) a counting event on the counter the sampler then gets
 * silenced the sampler's overflows (0 of 799 samples due; 799 with this period), and the kernel
 * arms a counting event's overflow 2^63 away, past what QEMU's nanosecond timer holds. */
#define CONTROL_PERIOD (1ull << 62)

/* One event at one precise level: R repetitions sampling, R counting (the overhead), then the verdicts;
 * when resuming, a level with a kept record is not measured again. */
static int sample_level(struct sample_run *run, const struct event_spec *ev, int level, unsigned levels,
                        uint64_t period)
{
    const struct jvalue *kept =
        session_resuming(run->s) ? sample_resume_take(&run->s->rs, run->c->label, ev->name, level) : NULL;
    if (kept) {
        replay_level(run, ev, level, kept);
        return 0;
    }
    int reps = run->eng->mopts.repetitions;
    struct sampler sm, counter;
    double ts[MEASURE_MAX_REPS], tc[MEASURE_MAX_REPS], ignored;
    /* A sampler warms up first, on its own ring, then closed: on QEMU's Sscofpmf a counting event
     * that last had the counter (another command's, a validate run's) silences the first sampling
     * window after it (0 of 80 due), and this window is that one. */
    if (!sampler_open(&sm, ev, period, level, 1)) {
        loop_timed(run, &sm, run->iters, &ignored);
        sampler_close(&sm);
    }
    int rc = sampler_open(&sm, ev, period, level, run->ring_pages);
    if (rc || (rc = sampler_open(&counter, ev, CONTROL_PERIOD, 0, 1))) {
        if (!rc)
            sampler_close(&sm);
        char desc[512];   /* it opened a moment ago, when the levels were probed */
        snprintf(desc, sizeof(desc), "%s :: %s precise=%d cannot be opened again: %s", run->c->label, ev->name, level,
                 strerror(-rc));
        tap_point(&run->s->tap, VERDICT_NOT_OK, desc, NULL);
        run->not_ok++;
        return 0;
    }
    loop_timed(run, &counter, run->iters, &ignored);   /* warm-up, counted by neither */
    struct sample_stream st = {0};
    uint64_t count0 = sampler_count(&sm);
    for (int r = 0; r < reps && !stop_signal_number; r++) {
        loop_timed(run, &counter, run->iters, &tc[r]);
        loop_timed(run, &sm, run->iters, &ts[r]);
        sampler_drain(&sm, &st);
    }
    uint64_t count = sampler_count(&sm) - count0;
    if (sm.lost_read > st.lost)   /* losses whose PERF_RECORD_LOST found no room before the drain */
        st.lost = sm.lost_read;
    sampler_close(&sm);
    sampler_close(&counter);
    if (stop_signal_number) {
        stream_free(&st);
        return -1;
    }
    double overhead_ns = st.n ? (stats_median(ts, reps) - stats_median(tc, reps)) / ((double)st.n / reps) /
                                clock_get()->tsc_hz * 1e9 : NAN;
    if (run->perturb.text)
        stream_perturb_apply(&run->perturb, &st, next_inst, &run->map);
    const char *expr;
    int q = rule_quantity(run, ev, &expr);
    double model = NAN, slack = 0;
    if (q >= 0 && quantity_stated(&run->q, q)) {
        model = (double)reps * (double)run->iters * run->q.v[q];
        slack = reps * (run->eng->src->slack_per_loop + 64 + 2 * run->q.v[q]);
    }
    struct sverdict vs[3];
    int nv = 0;
    sample_rate(&vs[nv++], &st, count, period, model, slack);
    struct sample_hist h = {0};
    uint64_t dist[SITE_MAX_INST] = {0};
    double mean = NAN, p = NAN;
    if (run->have_map)
        sample_hist_add(&h, &run->map, &st);
    point(run, ev, level, &vs[0]);
    if (!skid_shadow_skipped(run, ev, level, q, expr)) {
        /* A page fault is an exception taken at the faulting instruction: its IP cannot skid. */
        bool sync = ev->type == PERF_TYPE_SOFTWARE &&
                    (ev->config == PERF_COUNT_SW_PAGE_FAULTS || ev->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
                     ev->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
        sample_skid(&vs[nv], &run->map, &h, q, sync || level >= 2, dist, &mean);
        point(run, ev, level, &vs[nv++]);
        sample_shadow(&vs[nv], &run->map, &h, q, &p);
        point(run, ev, level, &vs[nv++]);
    }
    tap_comment(&run->s->tap, "%s :: %s precise=%d overhead %.0f ns per sample (median repetition sampling %.0f, "
                "counting %.0f ticks; %zu samples over %d repetitions)", run->c->label, ev->name, level, overhead_ns,
                stats_median(ts, reps), stats_median(tc, reps), st.n, reps);
    struct sample_record rec = {
        .label = run->c->label, .ev = ev, .precise_ip = level, .precise_levels = levels, .period = period,
        .iters = run->iters, .count = count, .reps = reps, .stream = &st, .quantity = q, .perturbed = run->perturb.text,
        .map = run->have_map ? &run->map : NULL, .hist_at = h.at, .hist_outside = h.outside, .skid = dist,
        .skid_mean = mean, .shadow_p = p, .ticks_sampling = ts, .ticks_counting = tc, .overhead_ns = overhead_ns,
        .nverdicts = nv};
    for (int i = 0; i < nv; i++)
        rec.verdicts[i] = (struct sample_record_verdict){vs[i].what, vs[i].judged, vs[i].kind, vs[i].text};
    bool written = !sample_record_write(run->s->dir.measurements, &rec);
    if (!written) {
        pm_error("cannot append to %s/measurements.ndjson: %s; the run stops, the records before stay",
                 run->s->dir.path, strerror(errno));
        run->write_failed = true;
    }
    stream_free(&st);
    return written ? 0 : -1;
}

int sample_run_event(struct sample_run *run, const struct event_spec *ev)
{
    char desc[512];
    snprintf(desc, sizeof(desc), "%s :: %s", run->c->label, ev->name);
    if (ev->unsupported) {
        tap_point(&run->s->tap, VERDICT_SKIP, desc, ev->unsupported);
        return 0;
    }
    if (ev->uncore[0]) {   /* no instruction of this task causes a socket's count */
        char why[256];
        snprintf(why, sizeof(why), "an uncore event (%s) counts the socket, CPU-wide: its units take no samples "
                 "and no instruction of this task owns its counts; validate counts it", ev->uncore);
        tap_point(&run->s->tap, VERDICT_SKIP, desc, why);
        return 0;
    }
    uint64_t period = run->period ? run->period : ev->type == PERF_TYPE_SOFTWARE ? 1 : 10007;
    int err0;
    unsigned levels = sampler_levels(ev, period, &err0);
    if (!levels) {
        char why[300];
        snprintf(why, sizeof(why), "this PMU cannot sample it (perf_event_open with sample_period %llu: %s%s)",
                 (unsigned long long)period, strerror(err0),
                 err0 == EOPNOTSUPP ? ": no overflow interrupt" : "");
        tap_point(&run->s->tap, VERDICT_SKIP, desc, why);
        return 0;
    }
    tap_comment(&run->s->tap, "%s: precise_ip levels the Linux kernel takes: %s%s%s%s", desc, levels & 8 ? "3 " : "",
                levels & 4 ? "2 " : "", levels & 2 ? "1 " : "", levels & 1 ? "0" : "");
    for (int level = 3; level >= 0; level--) {
        if (!(levels & (1u << level)) || (run->precise >= 0 && run->precise != level))
            continue;
        if (sample_level(run, ev, level, levels, period))
            return -1;
    }
    if (run->precise >= 0 && !(levels & (1u << run->precise)))
        tap_point(&run->s->tap, VERDICT_SKIP, desc, "the Linux kernel does not take the --precise level asked for");
    return 0;
}

int sample_run_setup(struct sample_run *run, const struct event_spec *events, int n)
{
    case_adopt_cpu(run->c, run->eng->cpu, -1);
    int cpu = kernel_has_param(run->c->kernel, "run_cpu") ? case_run_cpu(run->c) : run->eng->cpu;
    int rc = topo_bind_thread(cpu) ? CASE_ERROR : case_setup(run->c);
    if (rc == CASE_OK) {
        case_model(run->c, &run->q);
        /* A sampled event is opened on the measuring thread (sources/sampling.h), so a team's
         * other members would go unsampled and the rate would be judged against all of them. */
        if (quantity_stated(&run->q, Q_THREADS) && run->q.v[Q_THREADS] > 1) {
            snprintf(run->c->skip, sizeof(run->c->skip), "sampling follows the measuring thread alone; a team of "
                     "%.0f threads would be sampled in part (give threads=1; validate counts a whole team)",
                     run->q.v[Q_THREADS]);
            rc = CASE_SKIP;
        }
    }
    if (rc != CASE_OK) {
        for (int k = 0; k < n; k++) {
            char desc[512];
            snprintf(desc, sizeof(desc), "%s :: %s%s", run->c->label, events[k].name,
                     rc == CASE_SKIP ? "" : ": the case's setup failed (the message above says why)");
            tap_point(&run->s->tap, rc == CASE_SKIP ? VERDICT_SKIP : VERDICT_NOT_OK, desc, run->c->skip);
        }
        run->not_ok += rc != CASE_SKIP;
        return 1;
    }
    run->have_map = run->c->kernel->sites && !run->c->kernel->sites(run->c, &run->map);
    run->iters = run->eng->mopts.iters ? run->eng->mopts.iters : run->c->max_iters ? run->c->max_iters : 1000000;
    if (run->c->max_iters && run->iters > run->c->max_iters) {
        pm_error("--iters %llu: the case '%s' takes at most %llu iterations a loop; give --iters %llu or less",
                 (unsigned long long)run->iters, run->c->label, (unsigned long long)run->c->max_iters,
                 (unsigned long long)run->c->max_iters);
        return -1;
    }
    return 0;
}

void sample_run_free(struct sample_run *run)
{
    if (run->c && run->c->priv && run->c->kernel->teardown)
        run->c->kernel->teardown(run->c);
    case_free(run->c);
    run->c = NULL;
}

/* pmucal sample: event-based sampling of one case, held against where its model says the events
 * happen (core/sites.h). A command of its own rather than a mode of validate: its measurement is
 * one event at a time at each precise level (not groups of counters), its record is an address
 * histogram (not counts per repetition) and its verdicts are of other kinds (rate, skid, shadow). */
#include "arch/isa.h"
#include "base/stats.h"
#include "base/stop.h"
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "runs/session.h"
#include "core/sites.h"
#include "host/clock.h"
#include "host/cpuload.h"
#include "host/topo.h"
#include "runs/sample_record.h"
#include "sources/sampling.h"
#include "validate/sample_check.h"
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sample_main(int argc, char **argv);

enum { K_PERIOD = CLI_LONG, K_PRECISE, K_RING, K_RESUME };

static const struct cli_option sample_options[] = {
    MO_EVENTS, MO_REPS, MO_ITERS, MO_PMU, MO_EXPECT, MO_NO_AUTO_EXPECT, MO_CPU, MO_LABEL("sample"), MO_OUT,
    {"period", K_PERIOD, "N", "events between samples (default 1 for software events, else 10007)"},
    {"precise", K_PRECISE, "all|0..3", "precise_ip levels to sample at: every level the kernel takes for\n"
                                       "the event, 3 down to 0 (default), or one"},
    {"ring-pages", K_RING, "N", "data pages of the ring buffer, a power of two 1..1024 (default 64)"},
    {"resume", K_RESUME, "RUN",
     "complete the interrupted (or crashed) sample run folder RUN with its own\n"
     "kernel, parameters and options (from its manifest; nothing else is taken\n"
     "with it): each (event, precise level) with a record is kept and its\n"
     "verdicts said again, the rest measured; same host, CPU and build"},
    CLI_END,
};

const struct command sample_command = {
    .name = "sample",
    .fn = sample_main,
    .summary = "sample events of one case: rate, skid and shadowing against the model's instruction map",
    .synopsis = "KERNEL [param=value ...] -e EVENTS [options]",
    .usage = "Sets the case up once, then for each event and each precise_ip level the kernel takes (3\n"
             "down to 0) runs the region R times with the event sampling every --period events (IP,\n"
             "TID, TIME, PERIOD into an mmap ring, drained after each repetition; lost and throttle records\n"
             "counted), and times the same repetitions counting only: the overhead per sample. The samples'\n"
             "addresses are held against the kernel's map of its loop (which instruction causes\n"
             "which quantity, per iteration) for the quantity the event's rule names. TAP lines, per\n"
             "(case, event, level):\n"
             "  rate    samples x period against the event's count in the same repetitions, and that count\n"
             "          against the model; lost, throttled or missing samples are not ok, with how many\n"
             "  skid    distances in instructions back to the causing instruction; judged where zero\n"
             "          skid is promised (precise_ip 2 and 3, and page faults, taken at the faulting\n"
             "          instruction), else reported\n"
             "  shadow  samples per causing instruction against the model's weights (chi-square, p <\n"
             "          0.001 fails), naming causing instructions never sampled\n"
             "An event the PMU cannot sample (no overflow interrupt) is a SKIP with the reason.\n"
             "Writes results/<date>-<host>-<label>/: manifest.json, measurements.ndjson (one record per\n"
             "event and level: the address histogram, not the samples) and validate.tap.\n"
             "Exit status: 0 all ok, 1 a not ok, 2 bad input, 130/143 interrupted. --resume RUN\n"
             "completes an interrupted run in its folder: a record cut by kill -9 is dropped, the kept\n"
             "records are not measured again, validate.tap is written whole again and the manifest\n"
             "lists each resumption under \"resumed\". Refused (exit 2) as validate --resume refuses: a\n"
             "complete run, a live one, another command, host, CPU or build.\n",
    .options = sample_options,
    .examples = "  pmucal sample walker phase=touch size=1M page=4k -e page-faults --iters 256\n"
                "  pmucal sample walker loads=1 -e CPU_CYCLES,INST_RETIRED --period 10007 --iters 2666667\n"
                "  pmucal sample --resume results/2026-11-23-vm-sample\n",
};

struct sample_args {
    struct measure_cli o;
    unsigned long long period, ring;
    int precise;              /* -1: all */
    struct cli_args pos;      /* KERNEL [param=value ...] */
    const char *resume;       /* --resume RUN */
    int given;                /* options other than --resume */
};

static void sample_defaults(struct sample_args *a)
{
    memset(a, 0, sizeof(*a));
    a->precise = -1;
    a->ring = 64;
    measure_cli_init(&a->o);
}

static int sample_option(void *ctx, int key, const char *v)
{
    struct sample_args *a = ctx;
    unsigned long long x;
    if (key == K_RESUME) {
        a->resume = v;
        return 0;
    }
    a->given++;
    switch (key) {
    case K_PERIOD:
        return cli_number(&sample_command, "--period", v, 1, 1ull << 40, &a->period);
    case K_RING:
        if (cli_number(&sample_command, "--ring-pages", v, 1, 1024, &a->ring))
            return 2;
        return a->ring & (a->ring - 1) ? cli_usage_error(&sample_command, "--ring-pages %s is not a power of two", v) : 0;
    case K_PRECISE:
        if (!strcmp(v, "all")) {
            a->precise = -1;
            return 0;
        }
        if (cli_number(&sample_command, "--precise", v, 0, 3, &x))
            return 2;
        a->precise = (int)x;
        return 0;
    }
    int rc = measure_cli_option(&sample_command, &a->o, key, v);
    return rc < 0 ? cli_usage_error(&sample_command, "option %d is not handled", key) : rc;
}

/* --resume RUN: the run's own kernel, parameters and options, parsed again. */
static int reparse(void *args, int argc, char **argv)
{
    struct sample_args *a = args;
    cli_args_free(&a->pos);
    sample_defaults(a);
    return cli_reparse(&sample_command, argc, argv, sample_option, a, &a->pos);
}

/* Its files (-e FILE, --expect FILE) come from the copies the folder keeps. */
static int resume_check(void *args, const struct session *s)
{
    return measure_cli_resume_inputs(&((struct sample_args *)args)->o, &s->rs);
}

static const struct session_resumer sample_resumer = {.reparse = reparse, .records = sample_resume_records,
                                                      .check = resume_check};

struct ctx {
    struct session s;
    struct engine eng;
    struct sample_args a;
    struct case_ *c;
    struct site_map map;
    bool have_map;
    struct quantities q;
    uint64_t iters;
    struct stream_perturb perturb;
    int not_ok;
};

/* The next instruction of the loop after ip, for the perturbation that moves samples. */
static uint64_t next_inst(uint64_t ip, const void *arg)
{
    const struct site_map *m = arg;
    int i = site_index(m, (uintptr_t)ip);
    return i < 0 ? ip : m->addr[(i + 1) % m->n];
}

static void point(struct ctx *x, const struct event_spec *ev, int level, const struct sverdict *v)
{
    char desc[768];
    snprintf(desc, sizeof(desc), "%s :: %s precise=%d %s", x->c->label, ev->name, level, v->text);
    if (!v->judged) {
        tap_comment(&x->s.tap, "%s", desc);
        return;
    }
    tap_point(&x->s.tap, v->kind, desc, NULL);
    x->not_ok += v->kind == VERDICT_NOT_OK;
}

static void run_once(struct ctx *x, struct sampler *sm, uint64_t iters, double *ticks)
{
    if (x->c->kernel->prepare)
        x->c->kernel->prepare(x->c);
    sampler_enable(sm);
    uint64_t t0 = isa_ticks_start();
    x->c->kernel->loop(x->c, iters);
    uint64_t t1 = isa_ticks_stop();
    sampler_disable(sm);
    *ticks = (double)(t1 - t0);
}

/* The quantity the event's rule names when it is one quantity alone ("page-faults pf.minor"). */
static int rule_quantity(const struct ctx *x, const struct event_spec *ev, const char **expr)
{
    const struct rule *r = ruleset_find(&x->eng.rules, ev);
    *expr = r ? r->expr_text : NULL;
    return r ? quantity_lookup(r->expr_text) : -1;
}

/* Skid and shadow need the case's instruction map and a rule that names one quantity some
 * instruction of the loop causes; without them one SKIP line says which is missing (true). */
static bool skid_shadow_skipped(struct ctx *x, const struct event_spec *ev, int level, int q, const char *expr)
{
    char why[256] = "", desc[512];
    if (!x->have_map)
        snprintf(why, sizeof(why), "%s states no instruction map for this case", x->c->kernel->name);
    else if (q < 0)
        snprintf(why, sizeof(why), "the rule's expression '%s' is not one quantity of the model", expr ? expr : "(no rule)");
    else if (!site_causes(&x->map, q, NULL))
        snprintf(why, sizeof(why), "no instruction of the loop causes %s", quantity_name(q));
    if (!*why)
        return false;
    snprintf(desc, sizeof(desc), "%s :: %s precise=%d skid and shadow", x->c->label, ev->name, level);
    tap_point(&x->s.tap, VERDICT_SKIP, desc, why);
    return true;
}

/* A (case, event, level) the resumed run measured before: its verdicts said again from its
 * record, which stays as it was. */
static void replay_level(struct ctx *x, const struct event_spec *ev, int level, const struct jvalue *rec)
{
    struct sample_record_verdict rv[3];
    int nv = sample_record_verdicts(rec, rv);   /* 1..3: a record is kept only when they read back */
    for (int i = 0; i < nv; i++) {
        struct sverdict v = {.what = rv[i].what, .kind = rv[i].kind, .judged = rv[i].judged};
        snprintf(v.text, sizeof(v.text), "%s", rv[i].text);
        point(x, ev, level, &v);
    }
    if (nv == 1) {
        const char *expr = NULL;
        int q = rule_quantity(x, ev, &expr);
        skid_shadow_skipped(x, ev, level, q, expr);
    }
    tap_comment(&x->s.tap, "%s :: %s precise=%d kept: measured before the resume (%.0f samples, overhead %.0f ns per "
                "sample)", x->c->label, ev->name, level, jget_num(rec, "samples", NAN),
                jget_num(rec, "overhead_ns_per_sample", NAN));
}

/* One event at one precise level: R runs sampling, R counting (the overhead), then the verdicts;
 * when resuming, a level with a kept record is not measured again. */
static int sample_level(struct ctx *x, const struct event_spec *ev, int level, unsigned levels, uint64_t period)
{
    const struct jvalue *kept = session_resuming(&x->s) ? sample_resume_take(&x->s.rs, x->c->label, ev->name, level)
                                                        : NULL;
    if (kept) {
        replay_level(x, ev, level, kept);
        return 0;
    }
    int reps = x->eng.mopts.repetitions;
    struct sampler sm, counter;
    int rc = sampler_open(&sm, ev, period, level, (unsigned)x->a.ring);
    if (rc || (rc = sampler_open(&counter, ev, 0, 0, 1))) {
        if (!rc)
            sampler_close(&sm);
        char desc[512];   /* it opened a moment ago, when the levels were probed */
        snprintf(desc, sizeof(desc), "%s :: %s precise=%d cannot be opened again: %s", x->c->label, ev->name, level,
                 strerror(-rc));
        tap_point(&x->s.tap, VERDICT_NOT_OK, desc, NULL);
        x->not_ok++;
        return 0;
    }
    double ts[MEASURE_MAX_REPS], tc[MEASURE_MAX_REPS], ignored;
    run_once(x, &counter, x->iters, &ignored);   /* warm-up, counted by neither */
    struct sample_stream st = {0};
    uint64_t count0 = sampler_count(&sm);
    for (int r = 0; r < reps && !stop_signal_number; r++) {
        run_once(x, &counter, x->iters, &tc[r]);
        run_once(x, &sm, x->iters, &ts[r]);
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
    if (x->perturb.text)
        stream_perturb_apply(&x->perturb, &st, next_inst, &x->map);
    const char *expr;
    int q = rule_quantity(x, ev, &expr);
    double model = NAN, slack = 0;
    if (q >= 0 && quantity_stated(&x->q, q)) {
        model = (double)reps * (double)x->iters * x->q.v[q];
        slack = reps * (x->eng.src->slack_per_loop + 64 + 2 * x->q.v[q]);
    }
    struct sverdict vs[3];
    int nv = 0;
    sample_rate(&vs[nv++], &st, count, period, model, slack);
    struct sample_hist h = {0};
    uint64_t dist[SITE_MAX_INST] = {0};
    double mean = NAN, p = NAN;
    if (x->have_map)
        sample_hist_add(&h, &x->map, &st);
    point(x, ev, level, &vs[0]);
    if (!skid_shadow_skipped(x, ev, level, q, expr)) {
        /* A page fault is an exception taken at the faulting instruction: its IP cannot skid. */
        bool sync = ev->type == PERF_TYPE_SOFTWARE &&
                    (ev->config == PERF_COUNT_SW_PAGE_FAULTS || ev->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
                     ev->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
        sample_skid(&vs[nv], &x->map, &h, q, sync || level >= 2, dist, &mean);
        point(x, ev, level, &vs[nv++]);
        sample_shadow(&vs[nv], &x->map, &h, q, &p);
        point(x, ev, level, &vs[nv++]);
    }
    tap_comment(&x->s.tap, "%s :: %s precise=%d overhead %.0f ns per sample (median run sampling %.0f, counting %.0f "
                "ticks; %zu samples over %d runs)", x->c->label, ev->name, level, overhead_ns, stats_median(ts, reps),
                stats_median(tc, reps), st.n, reps);
    struct sample_record rec = {
        .label = x->c->label, .ev = ev, .precise_ip = level, .precise_levels = levels, .period = period,
        .iters = x->iters, .count = count, .reps = reps, .stream = &st, .quantity = q, .perturbed = x->perturb.text,
        .map = x->have_map ? &x->map : NULL, .hist_at = h.at, .hist_outside = h.outside, .skid = dist,
        .skid_mean = mean, .shadow_p = p, .ticks_sampling = ts, .ticks_counting = tc, .overhead_ns = overhead_ns,
        .nverdicts = nv};
    for (int i = 0; i < nv; i++)
        rec.verdicts[i] = (struct sample_record_verdict){vs[i].what, vs[i].judged, vs[i].kind, vs[i].text};
    if (sample_record_write(x->s.dir.measurements, &rec))
        x->not_ok++;
    stream_free(&st);
    return 0;
}

static int sample_event(struct ctx *x, const struct event_spec *ev)
{
    char desc[512];
    snprintf(desc, sizeof(desc), "%s :: %s", x->c->label, ev->name);
    if (ev->unsupported) {
        tap_point(&x->s.tap, VERDICT_SKIP, desc, ev->unsupported);
        return 0;
    }
    if (ev->uncore[0]) {   /* no instruction of this task causes a socket's count */
        char why[256];
        snprintf(why, sizeof(why), "an uncore event (%s) counts the socket, CPU-wide: its units take no samples "
                 "and no instruction of this task owns its counts; validate counts it", ev->uncore);
        tap_point(&x->s.tap, VERDICT_SKIP, desc, why);
        return 0;
    }
    uint64_t period = x->a.period ? x->a.period : ev->type == PERF_TYPE_SOFTWARE ? 1 : 10007;
    int err0;
    unsigned levels = sampler_levels(ev, period, &err0);
    if (!levels) {
        char why[300];
        snprintf(why, sizeof(why), "this PMU cannot sample it (perf_event_open with sample_period %llu: %s%s)",
                 (unsigned long long)period, strerror(err0),
                 err0 == EOPNOTSUPP ? ": no overflow interrupt" : "");
        tap_point(&x->s.tap, VERDICT_SKIP, desc, why);
        return 0;
    }
    tap_comment(&x->s.tap, "%s: precise_ip levels the kernel takes: %s%s%s%s", desc, levels & 8 ? "3 " : "",
                levels & 4 ? "2 " : "", levels & 2 ? "1 " : "", levels & 1 ? "0" : "");
    for (int level = 3; level >= 0; level--) {
        if (!(levels & (1u << level)) || (x->a.precise >= 0 && x->a.precise != level))
            continue;
        if (sample_level(x, ev, level, levels, period))
            return -1;
    }
    if (x->a.precise >= 0 && !(levels & (1u << x->a.precise)))
        tap_point(&x->s.tap, VERDICT_SKIP, desc, "the kernel does not take the --precise level asked for");
    return 0;
}

/* The case set up on the measuring CPU, its map and model. 0, 1 after a SKIP or failure line. */
static int setup_case(struct ctx *x, struct event_spec *events, int n)
{
    case_adopt_cpu(x->c, x->eng.cpu, -1);
    int rc = topo_bind_thread(kernel_has_param(x->c->kernel, "run_cpu") ? case_run_cpu(x->c) : x->eng.cpu) ? KERNEL_ERROR
             : case_setup(x->c);
    if (rc == KERNEL_OK) {
        case_model(x->c, &x->q);
        /* A sampled event is opened on the measuring thread (sources/sampling.h), so a team's
         * other members would go unsampled and the rate would be judged against all of them. */
        if (quantity_stated(&x->q, Q_THREADS) && x->q.v[Q_THREADS] > 1) {
            snprintf(x->c->skip, sizeof(x->c->skip), "sampling follows the measuring thread alone; a team of %.0f "
                     "threads would be sampled in part (give threads=1; validate counts a whole team)", x->q.v[Q_THREADS]);
            rc = KERNEL_SKIP;
        }
    }
    if (rc != KERNEL_OK) {
        for (int k = 0; k < n; k++) {
            char desc[512];
            snprintf(desc, sizeof(desc), "%s :: %s%s", x->c->label, events[k].name,
                     rc == KERNEL_SKIP ? "" : ": the case's setup failed (the message above says why)");
            tap_point(&x->s.tap, rc == KERNEL_SKIP ? VERDICT_SKIP : VERDICT_NOT_OK, desc, x->c->skip);
        }
        x->not_ok += rc != KERNEL_SKIP;
        return 1;
    }
    x->have_map = x->c->kernel->sites && !x->c->kernel->sites(x->c, &x->map);
    x->iters = x->eng.mopts.iters ? x->eng.mopts.iters : x->c->max_iters ? x->c->max_iters : 1000000;
    if (x->c->max_iters && x->iters > x->c->max_iters) {
        pm_error("--iters %llu: the case '%s' takes at most %llu iterations a loop; give --iters %llu or less",
                 (unsigned long long)x->iters, x->c->label, (unsigned long long)x->c->max_iters,
                 (unsigned long long)x->c->max_iters);
        return -1;
    }
    return 0;
}

static int sample_main(int argc, char **argv)
{
    static struct ctx x;
    memset(&x, 0, sizeof(x));
    sample_defaults(&x.a);
    session_init(&x.s, sample_command.name, argc, argv);
    if (cli_parse(&sample_command, argc, argv, sample_option, &x.a, &x.a.pos))
        return 2;
    /* A kernel or parameter given with --resume is an option beside it. */
    int status = x.a.resume ? cli_resume(&sample_command, &x.s, x.a.resume, x.a.given + x.a.pos.n, &sample_resumer,
                                         &x.a) : 0;
    const struct kernel *k = NULL;
    if (!status && x.a.pos.n < 1)
        status = cli_usage_error(&sample_command, "name a kernel ('pmucal kernels' lists them)");
    else if (!status && !(k = kernel_find(x.a.pos.v[0]))) {
        pm_error("unknown kernel '%s'; 'pmucal kernels' lists them", x.a.pos.v[0]);
        status = 2;
    }
    x.c = k ? case_new(k, x.a.pos.n - 1, x.a.pos.v + 1) : NULL;
    cli_args_free(&x.a.pos);
    if (!x.c) {
        session_free(&x.s);
        return status ? status : 2;
    }
    struct event_spec *events;
    int n;
    status = 2;
    if (stream_perturb_env(&x.perturb) || (session_resuming(&x.s) && sample_resume_stream(&x.s.rs, x.perturb.text)) ||
        measure_cli_engine(&x.a.o, &x.eng, &events, &n)) {
        case_free(x.c);
        session_free(&x.s);
        return 2;
    }
    if (session_open(&x.s, x.a.o.out, x.a.o.label ? x.a.o.label : "sample"))
        goto out;
    x.eng.cpu = cpuload_choose(x.a.o.cpu, &x.a.o.cpu_busy);
    session_measure_cpu(&x.s, x.eng.cpu, x.a.o.cpu >= 0, x.a.o.cpu_busy);
    json_object_begin(&x.s.dir.manifest, "sample");
    json_uint(&x.s.dir.manifest, "period", x.a.period);
    json_int(&x.s.dir.manifest, "precise", x.a.precise);
    json_uint(&x.s.dir.manifest, "ring_pages", x.a.ring);
    json_string(&x.s.dir.manifest, "perturbed", x.perturb.text);
    json_object_end(&x.s.dir.manifest);
    if (!session_resuming(&x.s) && measure_cli_keep_inputs(&x.a.o, x.s.dir.path)) {
        status = session_end(&x.s, 2, "its input files could not be kept in the folder");
        goto out;
    }
    session_start(&x.s);
    if (session_resuming(&x.s))
        tap_comment(&x.s.tap, "resuming: %d (case, event, precise level) records measured before are kept, %d dropped",
                    x.s.rs.records_kept, x.s.rs.records_dropped);
    if (x.perturb.text)
        tap_comment(&x.s.tap, "PMUCAL_SAMPLE_PERTURB=%s: the sample stream is altered on purpose (a test)", x.perturb.text);
    int rc = setup_case(&x, events, n);
    if (rc < 0) {
        status = session_end(&x.s, 2, "bad --iters");
        goto out;
    }
    for (int e = 0; !rc && e < n; e++)
        if (sample_event(&x, &events[e])) {
            status = session_stopped(&x.s, "sampling stopped");
            goto out;
        }
    tap_plan(&x.s.tap);
    status = session_end(&x.s, x.not_ok ? 1 : 0, NULL);
out:
    if (x.c->priv && x.c->kernel->teardown)
        x.c->kernel->teardown(x.c);
    engine_free_events(events, n);
    engine_free(&x.eng);
    measure_cli_tables_free(&x.a.o);
    free(x.a.o.auto_expect);
    case_free(x.c);
    session_free(&x.s);
    return status;
}

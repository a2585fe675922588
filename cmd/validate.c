/* pmucal validate: every case of the default matrix x the given events, TAP verdicts and a
 * results directory. */
#include "base/stop.h"
#include "base/util.h"
#include "base/version.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "runs/session.h"
#include "runs/ktap.h"
#include "host/clock.h"
#include "host/cpuload.h"
#include "validate/event_fit.h"
#include "validate/rejudge.h"
#include "validate/sweep.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int validate_main(int argc, char **argv);

enum { K_KERNEL = CLI_LONG, K_CASE, K_RESUME, K_KTAP, K_SWEEP, K_SEED };

static const struct cli_option validate_options[] = {
    MO_EVENTS, MO_REPS, MO_GROUP_SIZE, MO_PMU, MO_VENDOR_JSON, MO_ITERS, MO_TARGET_MS, MO_SOURCE, MO_EXPECT,
    MO_NO_AUTO_EXPECT, MO_CPU, MO_CPUS,
    {"kernel", K_KERNEL, "NAME", "only this kernel's cases (may be repeated)"},
    {"case", K_CASE, "'KERNEL p=v'", "only this case (may be repeated; replaces the default matrix)"},
    {"sweep", K_SWEEP, "N", "instead of the default matrix, N cases drawn at random from the kernels'\n"
                            "declared domains (of --kernel NAME only, if given), edges included: a\n"
                            "setup's refusal of a combination is a SKIP with its reason"},
    {"seed", K_SEED, "N", "the sweep's seed (default 1); the same seed draws the same cases anywhere"},
    MO_LABEL("validate, or the source name"),
    MO_OUT,
    {"ktap", K_KTAP, "FILE", "also write the verdicts as KTAP to FILE when the run ends (as\n"
                             "'pmucal export --ktap RUN' does)"},
    {"resume", K_RESUME, "RUN",
     "complete the interrupted (or crashed) run folder RUN with its own options\n"
     "(from its manifest; no other option is taken with it): its finished cases\n"
     "are kept and judged again, the rest measured; same host, CPU and build"},
    CLI_END,
};

const struct command validate_command = {
    .name = "validate",
    .fn = validate_main,
    .summary = "run the default case matrix x events, print TAP verdicts, write a results folder",
    .synopsis = "[options]",
    .usage = "Every case of every kernel's default matrix (or of --kernel NAME) is set up once and\n"
             "measured with the events in groups; each (case, event) gets one TAP line: ok, not ok,\n"
             "or SKIP with the reason (e.g. no hardware PMU). Results go to\n"
             "results/<date>-<host>-<label>/: manifest.json, measurements.ndjson, validate.tap, and\n"
             "classify.txt/.json for events without a rule. The PMU's validate/expect/<pmu>.txt loads by\n"
             "itself; zero-quantity cases are negative tests; a failure under an erratum is a TODO. The\n"
             "TAP ends with a summary per event and what the scheduler learned.\n"
             "manifest.json records the host, versions (kernel, perf, libpfm4, hwloc, pmucal and its\n"
             "commit), the command, start and end times and the status: running, then complete, failed\n"
             "or interrupted.\n"
             "Exit status: 0 when nothing is 'not ok', 1 otherwise, 2 on bad input, 130 (SIGINT) or 143\n"
             "(SIGTERM) when interrupted: the TAP ends with 'Bail out!' and every finished measurement is kept.\n"
             "Each finished case is appended to cases.done. --resume RUN completes such a run in its own\n"
             "folder: records of unfinished cases (and a line cut by kill -9) are dropped, the finished\n"
             "cases' records are judged again without measuring, the rest is measured; validate.tap is\n"
             "written whole again and the manifest lists each resumption under \"resumed\". A complete\n"
             "run, one still running, or one made by another command, host, CPU or pmucal build is\n"
             "refused (exit 2).\n",
    .options = validate_options,
    .examples = "  pmucal validate --kernel walker -e instructions,page-faults\n"
                "  pmucal validate --source sim --case 'walker size=L1'\n"
                "  pmucal validate --resume results/2026-11-23-vm-validate\n",
};

/* The run's settings into the manifest as the run starts ("running"); the end rewrites it with
 * the status. */
static int begin_manifest(struct session *s, const struct measure_cli *o, const struct source *src, int cpu)
{
    if (!session_resuming(s) && measure_cli_keep_inputs(o, s->dir.path))
        return -1;
    struct json *j = &s->dir.manifest;
    json_string(j, "source", o->source);
    /* The source's slack as this build applied it, so a later compare or replay uses the same. */
    json_number(j, "source_exact_floor", src->exact_floor);
    json_number(j, "source_slack_per_loop", src->slack_per_loop);
    json_int(j, "group_size", o->group_size);
    json_int(j, "repetitions", o->m.repetitions);
    json_string(j, "events", measure_cli_events(o, src));
    json_string(j, "pmu_option", o->pmu);   /* --pmu; "pmu" is the host's PMU facts */
    json_string(j, "expectations", o->auto_expect);
    json_string(j, "expect", o->expect);
    json_string(j, "vendor_json", o->vendor_json);
    if (src->manifest)
        src->manifest(j);
    if (src->real_time)
        session_measure_cpu(s, cpu, o->cpu >= 0, o->cpu_busy);
    session_start(s);
    return 0;
}

/* One line per case; on a terminal it is rewritten in place with the time left, estimated from
 * the cases done so far. A log keeps the plain lines; under CI (the CI variable its runners set)
 * there are none: the TAP says all of it. */
static void progress(int i, int n, const char *label, double elapsed, int measured)
{
    static int tty = -1;
    if (tty < 0)
        tty = isatty(STDERR_FILENO);
    if (!tty) {
        const char *ci = getenv("CI");
        if (!ci || !*ci || !strcmp(ci, "false") || !strcmp(ci, "0"))
            pm_note("[%d/%d] %s", i + 1, n, label);
        return;
    }
    char eta[32] = "";
    if (measured > 0) {
        int left = (int)(elapsed / measured * (n - i) + 0.5);
        snprintf(eta, sizeof(eta), ", about %dm%02ds left", left / 60, left % 60);
    }
    fprintf(stderr, "\rpmucal: [%d/%d] %.60s%s\033[K%s", i + 1, n, label, eta, i + 1 == n ? "\n" : "");
    fflush(stderr);
}

struct case_list {
    struct case_ **c;
    int n;
};

static void add_case(struct case_list *l, struct case_ *c)
{
    l->c = xrealloc(l->c, sizeof(*l->c) * (size_t)(l->n + 1));
    l->c[l->n++] = c;
}

/* Every case is built before anything is measured, so a bad --case fails at once. */
static int case_of_text(struct case_list *l, const char *text, const char *option)
{
    const char *space = strchr(text, ' ');
    char *name = space ? strndup(text, (size_t)(space - text)) : xstrdup(text);
    const struct kernel *k = kernel_find(name);
    if (!k) {
        pm_error("%s '%s': unknown kernel '%s'; 'pmucal kernels' lists them", option, text, name);
        free(name);
        return -1;
    }
    free(name);
    struct case_ *c = case_from_text(k, space ? space + 1 : "");
    if (!c)
        return -1;
    add_case(l, c);
    return 0;
}

static int collect_cases(struct case_list *l, char **kernels, int nk, char **cases, int nc, uint64_t sweep,
                         uint64_t seed)
{
    for (uint64_t i = 0; i < sweep; i++) {
        char *text = sweep_case(seed, i, kernels, nk);
        int rc = text ? case_of_text(l, text, "--sweep") : -1;
        free(text);
        if (rc)
            return -1;
    }
    if (sweep)
        return 0;
    for (int i = 0; i < nc; i++)
        if (case_of_text(l, cases[i], "--case"))
            return -1;
    if (nc)
        return 0;
    for (const struct kernel **k = kernel_list(); *k; k++) {
        bool wanted = !nk;
        for (int i = 0; i < nk; i++)
            wanted |= !strcmp(kernels[i], (*k)->name);
        for (int r = 0; wanted && (*k)->matrix && (*k)->matrix[r]; r++) {
            struct case_ *c = case_from_text(*k, (*k)->matrix[r]);
            if (!c) {
                pm_error("the default case '%s %s' cannot be built on this machine (the message above says why)",
                         (*k)->name, (*k)->matrix[r]);
                return -1;
            }
            add_case(l, c);
        }
    }
    for (int i = 0; i < nk; i++)
        if (!kernel_find(kernels[i])) {
            pm_error("--kernel %s: unknown kernel; 'pmucal kernels' lists them", kernels[i]);
            return -1;
        }
    return 0;
}

struct validate_args {
    struct measure_cli o;
    char *kernels[64], *cases[256];
    int nk, nc;
    const char *resume;   /* --resume RUN */
    const char *ktap;     /* --ktap FILE */
    uint64_t sweep, seed; /* --sweep K, --seed N (1 unless given) */
    int given;            /* options other than --resume */
};

static int validate_option(void *ctx, int key, const char *v)
{
    struct validate_args *a = ctx;
    if (key == K_RESUME) {
        a->resume = v;
        return 0;
    }
    if (key == K_KTAP) {   /* where the verdicts go, not how they are measured */
        a->ktap = v;
        return 0;
    }
    a->given++;
    int rc = measure_cli_option(&validate_command, &a->o, key, v);
    if (rc >= 0)
        return rc;
    if (key == K_SWEEP || key == K_SEED) {
        uint64_t x;
        if (!parse_u64(v, &x) || (key == K_SWEEP && (!x || x > 1000000)))
            return cli_usage_error(&validate_command, "--%s %s: give a whole number%s", key == K_SWEEP ? "sweep" : "seed",
                                   v, key == K_SWEEP ? " of cases, 1..1000000" : "");
        *(key == K_SWEEP ? &a->sweep : &a->seed) = x;
        return 0;
    }
    if (key == K_KERNEL && a->nk < 64)
        a->kernels[a->nk++] = (char *)v;
    else if (key == K_CASE && a->nc < 256)
        a->cases[a->nc++] = (char *)v;
    else
        return cli_usage_error(&validate_command, "too many --%s options", key == K_KERNEL ? "kernel" : "case");
    return 0;
}

/* --resume RUN: the run's own options, parsed again. */
static int reparse(void *args, int argc, char **argv)
{
    struct validate_args *a = args;
    memset(a, 0, sizeof(*a));
    a->seed = 1;
    measure_cli_init(&a->o);
    return cli_reparse(&validate_command, argc, argv, validate_option, a, NULL);
}

/* Its files (-e FILE, --expect FILE) come from the copies the folder keeps. */
static int resume_check(void *args, const struct session *s)
{
    return measure_cli_resume_inputs(&((struct validate_args *)args)->o, &s->rs);
}

static const struct session_resumer validate_resumer = {.reparse = reparse, .check = resume_check};

/* A validate run: its options, cases and engine, and the session that writes its folder. */
struct validate_run {
    struct validate_args a;
    struct session s;
    struct case_list list;
    struct engine e;
    struct event_spec *events;
    int nevents;
    int cases_done;
};

/* The folder created, or the resumed one reopened with the records of its unfinished cases
 * dropped (the CPU checked here, in the process that measures); the manifest written. */
static int open_run(struct validate_run *v)
{
    /* Now, not only in session_open: resume_cases rewrites the resumed folder's records, and a
     * stop during that must find the handlers, as a new folder's creation does. */
    stop_install_handlers();
    if (session_resuming(&v->s) && (resume_claim(&v->s.rs) || resume_cases(&v->s.rs, v->list.c, v->list.n)))
        return 2;
    const struct source *src = v->e.src;
    if (session_open(&v->s, v->a.o.out, v->a.o.label ? v->a.o.label : src->libpfm_events ? "validate" : src->name))
        return 2;
    if (src->real_time)   /* chosen now, so the manifest says which and how loaded it was */
        v->e.cpu = cpuload_choose(v->a.o.cpu, &v->a.o.cpu_busy);
    return begin_manifest(&v->s, &v->a.o, src, v->e.cpu) ? 2 : 0;
}

/* Every case measured (resuming: a kept case's records judged again instead), then the summary;
 * MEASURE_OK, MEASURE_FAILED or MEASURE_INTERRUPTED. */
static int measure_cases(struct validate_run *v)
{
    struct engine *e = &v->e;
    struct tap *tap = &v->s.tap;
    struct resume *rs = &v->s.rs;
    const char *path = v->s.dir.path;
    int n = v->list.n;
    e->dir = &v->s.dir;
    e->tap = tap;
    char no_hw[512];
    int asked = v->nevents, dropped = measure_cli_drop_uncountable(e, v->events, &v->nevents, no_hw, sizeof(no_hw));
    tap_comment(tap, "pmucal validate: %d cases x %d events, source %s, results in %s", n, asked, v->a.o.source, path);
    if (dropped) {
        /* Said once, not once per event and case: nothing here can count them. */
        char desc[160];
        snprintf(desc, sizeof(desc), "%d hardware events x %d cases", dropped, n);
        tap_point(tap, VERDICT_SKIP, desc, no_hw);
        json_int(&v->s.dir.manifest, "hardware_events_skipped", dropped);
    }
    if (v->a.sweep)
        tap_comment(tap, "sweep: %llu cases drawn from the kernels' declared domains with seed %llu; the same cases "
                    "again: pmucal validate --source %s --sweep %llu --seed %llu%s%s; one case: --case 'LABEL'",
                    (unsigned long long)v->a.sweep, (unsigned long long)v->a.seed, v->a.o.source,
                    (unsigned long long)v->a.sweep, (unsigned long long)v->a.seed, v->a.nk ? " --kernel " : "",
                    v->a.nk ? v->a.kernels[0] : "");
    for (const struct kernel **k = kernel_list(); v->a.sweep && !v->a.nk && *k; k++)
        if (!sweep_draws_from(*k))
            tap_comment(tap, "sweep: kernel %s not drawn: a parameter is your own text with no default (its cases "
                        "are yours to give; --kernel %s draws its other parameters)", (*k)->name, (*k)->name);
    if (session_resuming(&v->s))
        tap_comment(tap, "resuming: %d of %d cases finished and are kept (%d records, judged again, not measured); "
                    "%d records of unfinished cases or cut short dropped; %d cases to measure", rs->cases_kept, n,
                    rs->records_kept, rs->records_dropped, n - rs->cases_kept);
    int rc = MEASURE_OK, measured = 0;
    double wall0 = clock_now_seconds();
    if (!v->nevents)   /* nothing left to count: no case needs setting up */
        v->cases_done = n;
    for (int i = 0; v->nevents && i < n && rc != MEASURE_INTERRUPTED && !stop_requested() && !e->write_failed; i++) {
        struct case_ *c = v->list.c[i];
        if (session_resuming(&v->s) && rs->kept[i]) {
            int replayed = resume_replay(rs, e, c->label);
            if (replayed < 0) {
                rc = MEASURE_FAILED;
                e->failures++;
                break;
            }
            e->measurements += replayed;
            v->cases_done++;
            continue;
        }
        progress(i, n, c->label, clock_now_seconds() - wall0, measured++);
        /* Each case gets its own copy: what failed to open in one case is tried again in the next. */
        struct event_spec *ev = engine_copy_events(v->events, v->nevents);
        rc = engine_case(e, c, ev, v->nevents);
        v->cases_done += rc != MEASURE_INTERRUPTED;
        /* Durable once all its records are: what --resume keeps. */
        if (rc == MEASURE_OK && !e->write_failed && cases_done_append(path, i, c->label))
            e->write_failed = true;
        engine_free_events(ev, v->nevents);
    }
    if (stop_requested())
        rc = MEASURE_INTERRUPTED;
    engine_summary(e);
    /* Events with no rule (or an info rule) that counted something: let the classifier say what. */
    int unruled = 0;
    for (int k = 0; k < e->nsum; k++)
        unruled += e->sum[k].info > 0;
    if (unruled && e->measurements) {
        fflush(v->s.dir.measurements);
        struct classify_opts co = {.rules = &e->rules, .unruled_only = true, .floor = e->src->exact_floor};
        int sus = classify_run(path, &co);
        if (sus >= 0)
            tap_comment(tap, "classifier: %d events without a rule explained in %s/classify.txt (%d not clean)",
                        unruled, path, sus);
    }
    double wall = clock_now_seconds() - wall0, inside = (double)measure_region_ticks / clock_get()->tsc_hz;
    tap_comment(tap, "time: %.3f s wall for the cases, %.3f s inside measured regions (%.1f%%)", wall, inside,
                wall > 0 ? 100 * inside / wall : 0);
    if (v->a.sweep)
        tap_comment(tap, "sweep: %d of %llu drawn cases refused by their kernel's setup (SKIP, its reason)", e->refused,
                    (unsigned long long)v->a.sweep);
    tap_comment(tap, "summary: %d ok, %d not ok, %d skip, %d todo, %d info; %d measurements in %s; %.0f%% of the "
                "cases' wall time inside measured regions", tap->ok, tap->not_ok, tap->skip, tap->todo, tap->info,
                e->measurements, path, wall > 0 ? 100 * inside / wall : 0);
    return rc;
}

/* How the run ended, into the TAP's last line and the manifest; the exit status. */
static int end_run(struct validate_run *v, int rc)
{
    const struct engine *e = &v->e;
    struct tap *tap = &v->s.tap;
    int n = v->list.n;
    /* Counts of what finished let a reader judge a partial run. */
    json_int(&v->s.dir.manifest, "cases", n);
    json_int(&v->s.dir.manifest, "cases_done", v->cases_done);
    json_int(&v->s.dir.manifest, "measurements", e->measurements);
    json_int(&v->s.dir.manifest, "failures", e->failures);
    if (rc == MEASURE_INTERRUPTED) {
        char why[128];
        snprintf(why, sizeof(why), "stopped by %s after %d of %d cases", stop_signal_name(), v->cases_done, n);
        tap_bail(tap, "%s; %d finished measurements are kept in %s", why, e->measurements, v->s.dir.path);
        pm_note("interrupted: %d finished measurements are kept in %s", e->measurements, v->s.dir.path);
        return session_stopped(&v->s, why);
    }
    char why[160];
    bool lost = e->write_failed || tap->write_failed;
    if (lost)
        snprintf(why, sizeof(why), "results could not be written (disk full?) after %d of %d cases", v->cases_done, n);
    else
        snprintf(why, sizeof(why), "%d of %d cases could not be measured", e->failures, n);
    /* A run cut short by a failed write must not end like a whole one: a harness reading the plan
     * would take the verdicts so far for all of them. */
    if (lost)
        tap_bail(tap, "%s; the records before it are kept in %s", why, v->s.dir.path);
    else
        tap_plan(tap);
    return session_end(&v->s, tap->not_ok || e->failures || lost ? 1 : 0, e->failures || lost ? why : NULL);
}

/* with_engine: the engine was set up (measure_cli_engine). */
static void validate_free(struct validate_run *v, bool with_engine)
{
    for (int i = 0; i < v->list.n; i++)
        case_free(v->list.c[i]);
    free(v->list.c);
    if (with_engine) {
        engine_free_events(v->events, v->nevents);
        engine_free(&v->e);
        measure_cli_tables_free(&v->a.o);
        free(v->a.o.auto_expect);
    }
    session_free(&v->s);
}

static int validate_main(int argc, char **argv)
{
    struct validate_run v = {0};
    session_init(&v.s, validate_command.name, argc, argv);
    measure_cli_init(&v.a.o);
    v.a.seed = 1;
    if (cli_parse(&validate_command, argc, argv, validate_option, &v.a, NULL))
        return 2;
    int status = v.a.resume ? cli_resume(&validate_command, &v.s, v.a.resume, v.a.given, &validate_resumer, &v.a) : 0;
    /* What the sim source runs again under valgrind: the command typed, or the same resumption. */
    char *resume_argv[] = {"validate", "--resume", v.s.rs.run, NULL};
    if (session_resuming(&v.s))
        argc = 3, argv = resume_argv;
    if (!status && v.a.sweep && v.a.nc) {
        pm_error("--sweep draws its cases: give it or --case, not both");
        status = 2;
    }
    if (status || collect_cases(&v.list, v.a.kernels, v.a.nk, v.a.cases, v.a.nc, v.a.sweep, v.a.seed) ||
        measure_cli_engine(&v.a.o, &v.e, &v.events, &v.nevents)) {
        validate_free(&v, false);
        return status ? status : 2;
    }
    v.e.setup_refusal_skips = v.a.sweep;
    /* Everything the user gave is checked; now the source may move the work elsewhere (sim:
     * this same command re-executed under valgrind, which writes the results folder). */
    int prep = measure_cli_prepare(&v.a.o, &v.e, argc, argv, &status);
    if (prep < 0)
        status = 2;
    else if (prep == SOURCE_CONTINUE && !(status = open_run(&v))) {
        char *folder = xstrdup(v.s.dir.path);   /* the session closes the folder (and its path) */
        status = end_run(&v, measure_cases(&v));
        if (v.a.ktap && run_export(folder, v.a.ktap, ktap_write) && status < 2)
            status = 2;
        free(folder);
    }
    validate_free(&v, true);
    return status;
}

/* pmucal validate: every case of the default matrix x the given events, TAP verdicts and a
 * results directory. */
#include "base/stop.h"
#include "base/util.h"
#include "base/version.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "host/clock.h"
#include "runs/hostfacts.h"
#include "validate/classify.h"
#include "validate/replay.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int validate_main(int argc, char **argv);

enum { K_KERNEL = CLI_LONG, K_CASE, K_RESUME };

static const struct cli_option validate_options[] = {
    MO_EVENTS, MO_REPS, MO_GROUP_SIZE, MO_PMU, MO_VENDOR_JSON, MO_ITERS, MO_TARGET_MS, MO_SOURCE, MO_EXPECT,
    MO_NO_AUTO_EXPECT,
    {"kernel", K_KERNEL, "NAME", "only this kernel's cases (may be repeated)"},
    {"case", K_CASE, "'KERNEL p=v'", "only this case (may be repeated; replaces the default matrix)"},
    MO_LABEL("validate, or the source name"),
    MO_OUT,
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

/* The manifest as the run starts ("running"); the end rewrites it with the status. */
static void begin_manifest(struct run_dir *dir, const struct measure_cli *o, const struct source *src, int argc,
                           char **argv, const struct resume *rs)
{
    struct json *j = &dir->manifest;
    run_dir_manifest_begin(dir, argc, argv);
    json_string(j, "source", o->source);
    /* The source's slack as this build applied it, so a later compare or replay uses the same. */
    json_number(j, "source_exact_floor", src->exact_floor);
    json_number(j, "source_slack_per_run", src->slack_per_run);
    json_int(j, "group_size", o->group_size);
    json_int(j, "repetitions", o->m.repetitions);
    json_string(j, "events", measure_cli_events(o, src));
    json_string(j, "pmu_option", o->pmu);   /* --pmu; "pmu" is the host's PMU facts */
    json_string(j, "expectations", o->auto_expect);
    json_string(j, "expect", o->expect);
    json_string(j, "vendor_json", o->vendor_json);
    if (src->manifest)
        src->manifest(j);
    host_facts_json(j);
    if (rs)
        resume_manifest(rs, j);
    run_dir_manifest(dir, RUN_RUNNING, NULL);
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
static int collect_cases(struct case_list *l, char **kernels, int nk, char **cases, int nc)
{
    for (int i = 0; i < nc; i++) {
        char *space = strchr(cases[i], ' ');
        char *name = space ? strndup(cases[i], (size_t)(space - cases[i])) : xstrdup(cases[i]);
        const struct kernel *k = kernel_find(name);
        if (!k) {
            pm_error("--case '%s': unknown kernel '%s'; 'pmucal kernels' lists them", cases[i], name);
            free(name);
            return -1;
        }
        free(name);
        struct case_ *c = case_from_text(k, space ? space + 1 : "");
        if (!c)
            return -1;
        add_case(l, c);
    }
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
    int given;            /* options other than --resume */
};

static int validate_option(void *ctx, int key, const char *v)
{
    struct validate_args *a = ctx;
    if (key == K_RESUME) {
        a->resume = v;
        return 0;
    }
    a->given++;
    int rc = measure_cli_option(&validate_command, &a->o, key, v);
    if (rc >= 0)
        return rc;
    if (key == K_KERNEL && a->nk < 64)
        a->kernels[a->nk++] = (char *)v;
    else if (key == K_CASE && a->nc < 256)
        a->cases[a->nc++] = (char *)v;
    else
        return cli_usage_error(&validate_command, "too many --%s options", key == K_KERNEL ? "kernel" : "case");
    return 0;
}

/* --resume RUN: the run's folder checked and its own options parsed again, in the folder it ran
 * in (its relative paths, e.g. -e FILE, mean what they meant). */
static int resume_args(struct validate_args *a, struct resume *rs)
{
    if (a->given)
        return cli_usage_error(&validate_command, "--resume takes no other option: the run's own options come from "
                               "its manifest");
    if (resume_open(rs, a->resume, "validate"))
        return 2;
    const char *cwd = jget_str(rs->manifest, "cwd", NULL);
    if (cwd && chdir(cwd)) {
        pm_error("--resume %s: cannot enter %s, the folder the run was started in (%s); its relative paths "
                 "mean files there", rs->run, cwd, strerror(errno));
        return 2;
    }
    memset(a, 0, sizeof(*a));
    measure_cli_init(&a->o);
    if (cli_parse(&validate_command, rs->argc, rs->argv, validate_option, a, NULL)) {
        pm_error("--resume %s: its command (manifest.json \"command\") is not one this build takes", rs->run);
        return 2;
    }
    a->resume = rs->run;
    return 0;
}

/* The resumed run's folder: its records of unfinished cases dropped, its TAP started afresh. */
static int resume_dir(struct resume *rs, struct case_list *list, struct run_dir *dir)
{
    if (resume_same_cpu(rs) || resume_cases(rs, list->c, list->n) || run_dir_open(dir, rs->run))
        return -1;
    const char *started = jget_str(rs->manifest, "started", NULL);
    dir->started = started ? xstrdup(started) : NULL;
    return 0;
}

static int validate_main(int argc, char **argv)
{
    struct validate_args a = {0};
    struct resume rs = {0};
    measure_cli_init(&a.o);
    if (cli_parse(&validate_command, argc, argv, validate_option, &a, NULL))
        return 2;
    if (a.resume) {
        int rc = resume_args(&a, &rs);
        if (rc) {
            resume_free(&rs);
            return rc;
        }
    }
    /* The command the run stores: the one typed, or the resumed run's own. */
    int run_argc = a.resume ? rs.argc : argc;
    char **run_argv = a.resume ? rs.argv : argv;
    char *resume_argv[] = {"validate", "--resume", rs.run, NULL};
    if (a.resume)   /* what the sim source runs again under valgrind: the same resumption */
        argc = 3, argv = resume_argv;
    char **kernels = a.kernels, **cases = a.cases;
    int nk = a.nk, nc = a.nc;
    struct case_list list = {0};
    struct engine e;
    struct event_spec *events;
    int nevents, status = 0;
    if (collect_cases(&list, kernels, nk, cases, nc) || measure_cli_engine(&a.o, &e, &events, &nevents)) {
        for (int i = 0; i < list.n; i++)
            case_free(list.c[i]);
        free(list.c);
        resume_free(&rs);
        return 2;
    }
    /* Everything the user gave is checked; now the source may move the work elsewhere (sim:
     * this same command re-executed under valgrind, which writes the results folder). */
    int prep = measure_cli_prepare(&a.o, &e, argc, argv, &status);
    if (prep != SOURCE_CONTINUE) {
        if (prep < 0)
            status = 2;
        goto out;
    }
    stop_install_handlers();   /* before the folder exists: a stop always finds a manifest to mark */
    struct run_dir dir = {0};
    if (a.resume ? resume_dir(&rs, &list, &dir)
                 : run_dir_create(&dir, a.o.out, a.o.label ? a.o.label : e.src->libpfm_events ? "validate" : e.src->name)) {
        if (dir.path)
            run_dir_close(&dir);
        status = 2;
        goto out;
    }
    begin_manifest(&dir, &a.o, e.src, run_argc, run_argv, a.resume ? &rs : NULL);
    struct tap tap = {.out = stdout, .copy = dir.tap};
    e.dir = &dir;
    e.tap = &tap;
    char no_hw[512];
    int asked = nevents, dropped = measure_cli_drop_uncountable(&e, events, &nevents, no_hw, sizeof(no_hw));
    tap_comment(&tap, "pmucal validate: %d cases x %d events, source %s, results in %s", list.n, asked,
                a.o.source, dir.path);
    if (dropped) {
        /* Said once, not once per event and case: nothing here can count them. */
        char desc[160];
        snprintf(desc, sizeof(desc), "%d hardware events x %d cases", dropped, list.n);
        tap_point(&tap, TAP_SKIP, desc, no_hw);
        json_int(&dir.manifest, "hardware_events_skipped", dropped);
    }
    if (a.resume)
        tap_comment(&tap, "resuming: %d of %d cases finished and are kept (%d records, judged again, not measured); "
                    "%d records of unfinished cases or cut short dropped; %d cases to measure", rs.cases_kept, list.n,
                    rs.records_kept, rs.records_dropped, list.n - rs.cases_kept);
    int rc = MEASURE_OK, cases_done = 0, measured = 0;
    double wall0 = clock_now_seconds();
    if (!nevents)   /* nothing left to count: no case needs setting up */
        cases_done = list.n;
    for (int i = 0; nevents && i < list.n && rc != MEASURE_INTERRUPTED && !stop_requested() && !e.write_failed;
         i++) {
        if (a.resume && rs.kept[i]) {
            int n = resume_replay(&rs, &e, list.c[i]->label);
            if (n < 0) {
                rc = MEASURE_FAILED;
                e.failures++;
                break;
            }
            e.measurements += n;
            cases_done++;
            continue;
        }
        progress(i, list.n, list.c[i]->label, clock_now_seconds() - wall0, measured++);
        /* Each case gets its own copy: what failed to open in one case is tried again in the next. */
        struct event_spec *ev = engine_copy_events(events, nevents);
        rc = engine_case(&e, list.c[i], ev, nevents);
        cases_done += rc != MEASURE_INTERRUPTED;
        /* Durable once all its records are: what --resume keeps. */
        if (rc == MEASURE_OK && !e.write_failed && cases_done_append(dir.path, i, list.c[i]->label))
            e.write_failed = true;
        engine_free_events(ev, nevents);
    }
    if (stop_requested())
        rc = MEASURE_INTERRUPTED;
    engine_summary(&e);
    /* Events with no rule (or an info rule) that counted something: let the classifier say what. */
    int unruled = 0;
    for (int k = 0; k < e.nsum; k++)
        unruled += e.sum[k].info > 0;
    if (unruled && e.measurements) {
        fflush(dir.measurements);
        struct classify_opts co = {.rules = &e.rules, .unruled_only = true, .floor = e.src->exact_floor};
        int sus = classify_run(dir.path, &co);
        if (sus >= 0)
            tap_comment(&tap, "classifier: %d events without a rule explained in %s/classify.txt (%d not clean)",
                        unruled, dir.path, sus);
    }
    double wall = clock_now_seconds() - wall0, inside = (double)measure_region_ticks / clock_get()->tsc_hz;
    tap_comment(&tap, "time: %.3f s wall for the cases, %.3f s inside measured regions (%.1f%%)", wall, inside,
                wall > 0 ? 100 * inside / wall : 0);
    tap_comment(&tap, "summary: %d ok, %d not ok, %d skip, %d todo, %d info; %d measurements in %s", tap.ok,
                tap.not_ok, tap.skip, tap.todo, tap.info, e.measurements, dir.path);
    /* The manifest says how the run ended; counts of what finished let a reader judge a partial run. */
    json_int(&dir.manifest, "cases", list.n);
    json_int(&dir.manifest, "cases_done", cases_done);
    json_int(&dir.manifest, "measurements", e.measurements);
    json_int(&dir.manifest, "failures", e.failures);
    if (rc == MEASURE_INTERRUPTED) {
        char why[128];
        snprintf(why, sizeof(why), "stopped by %s after %d of %d cases", stop_signal_name(), cases_done, list.n);
        tap_bail(&tap, "%s; %d finished measurements are kept in %s", why, e.measurements, dir.path);
        pm_note("interrupted: %d finished measurements are kept in %s", e.measurements, dir.path);
        run_dir_manifest(&dir, RUN_INTERRUPTED, why);
        status = 128 + stop_signal_number;
    } else {
        char why[160];
        bool lost = e.write_failed || tap.write_failed;
        if (lost)
            snprintf(why, sizeof(why), "results could not be written (disk full?) after %d of %d cases", cases_done,
                     list.n);
        else
            snprintf(why, sizeof(why), "%d of %d cases could not be measured", e.failures, list.n);
        /* A run cut short by a failed write must not end like a whole one: a harness reading the
         * plan would take the verdicts so far for all of them. */
        if (lost)
            tap_bail(&tap, "%s; the records before it are kept in %s", why, dir.path);
        else
            tap_plan(&tap);
        if (run_dir_manifest(&dir, e.failures || lost ? RUN_FAILED : RUN_COMPLETE, e.failures || lost ? why : NULL))
            e.failures++;
        status = tap.not_ok || e.failures || lost ? 1 : 0;
    }
    if (run_dir_close(&dir))
        status = status ? status : 1;
out:
    for (int i = 0; i < list.n; i++)
        case_free(list.c[i]);
    free(list.c);
    engine_free_events(events, nevents);
    engine_free(&e);
    measure_cli_tables_free(&a.o);
    free(a.o.auto_expect);
    resume_free(&rs);
    return status;
}

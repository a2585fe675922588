/* pmucal validate: every case of the default matrix x the given events, TAP verdicts and a
 * results directory. */
#include "clock.h"
#include "classify.h"
#include "host.h"
#include "options.h"
#include "util.h"
#include "version.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int validate_main(int argc, char **argv);

static const struct command validate_command = {
    .name = "validate",
    .fn = validate_main,
    .summary = "run the default case matrix x events, print TAP verdicts, write a results folder",
    .usage = "pmucal validate [options]\n\n"
             "Every case of every kernel's default matrix (or of --kernel NAME) is set up once and\n"
             "measured with the events in groups; each (case, event) gets one TAP line: ok, not ok,\n"
             "or SKIP with the reason (e.g. no hardware PMU). Results go to\n"
             "results/<date>-<host>-<label>/: manifest.json, measurements.ndjson, validate.tap, and\n"
             "classify.txt/.json for events without a rule. The PMU's validate/expect/<pmu>.txt loads by\n"
             "itself; zero-quantity cases are negative tests; a failure under an erratum is a TODO. The\n"
             "TAP ends with a summary per event and what the scheduler learned.\n"
             "Exit status: 0 when nothing is 'not ok', 1 otherwise, 2 on bad input, 130 when interrupted\n"
             "(every finished measurement is kept).\n\n"
             "Options:\n" MEASURE_CLI_OPTIONS_HELP
             "  --kernel NAME        only this kernel's cases (may be repeated)\n"
             "  --case 'KERNEL p=v'  only this case (may be repeated; replaces the default matrix)\n"
             "  --label NAME         results folder label (default: validate, or the source name)\n"
             "  --out DIR            parent folder of the results folder (default: results, or $PMUCAL_RESULTS)\n",
};
PMUCAL_COMMAND(validate_command)

static void write_manifest(const struct run_dir *dir, const struct measure_cli *o, const struct source *src, int argc,
                           char **argv)
{
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    manifest_head(&j, argc, argv);
    json_string(&j, "source", o->source);
    json_int(&j, "group_size", o->group_size);
    json_int(&j, "repetitions", o->m.repetitions);
    json_string(&j, "events", measure_cli_events(o, src));
    json_string(&j, "pmu", o->pmu);
    json_string(&j, "expectations", o->auto_expect);
    json_string(&j, "expect", o->expect);
    json_string(&j, "vendor_json", o->vendor_json);
    if (src->manifest)
        src->manifest(&j);
    host_facts_json(&j);
    json_object_end(&j);
    run_dir_write(dir, "manifest.json", &j);
    json_free(&j);
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
            if (!c)
                pm_fatal("default matrix row '%s' of %s is invalid", (*k)->matrix[r], (*k)->name);
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

static int validate_main(int argc, char **argv)
{
    struct measure_cli o;
    measure_cli_init(&o);
    char *kernels[64], *cases[256];
    int nk = 0, nc = 0;
    for (int i = 1; i < argc; i++) {
        int rc = measure_cli_parse(&validate_command, &o, argc, argv, &i);
        if (rc < 0)
            return 2;
        if (rc)
            continue;
        bool bad = false;
        const char *v;
        if ((v = cli_opt(argc, argv, &i, "--kernel", NULL, &bad)) && nk < 64)
            kernels[nk++] = (char *)v;
        else if ((v = cli_opt(argc, argv, &i, "--case", NULL, &bad)) && nc < 256)
            cases[nc++] = (char *)v;
        else
            return cli_usage_error(&validate_command, bad ? "%s needs a value" : "unknown argument %s", argv[i]);
    }
    struct case_list list = {0};
    struct engine e;
    struct event_spec *events;
    int nevents, status = 0;
    if (collect_cases(&list, kernels, nk, cases, nc) || measure_cli_engine(&o, &e, &events, &nevents)) {
        for (int i = 0; i < list.n; i++)
            case_free(list.c[i]);
        free(list.c);
        return 2;
    }
    /* Everything the user gave is checked; now the source may move the work elsewhere (sim:
     * this same command re-executed under valgrind, which writes the results folder). */
    int prep = measure_cli_prepare(&o, &e, argc, argv, &status);
    if (prep != SOURCE_CONTINUE) {
        if (prep < 0)
            status = 2;
        goto out;
    }
    struct run_dir dir;
    if (run_dir_create(&dir, o.out, o.label ? o.label : e.src->libpfm_events ? "validate" : e.src->name)) {
        status = 2;
        goto out;
    }
    write_manifest(&dir, &o, e.src, argc, argv);
    struct tap tap = {.out = stdout, .copy = dir.tap};
    e.dir = &dir;
    e.tap = &tap;
    measure_install_sigint();
    tap_comment(&tap, "pmucal validate: %d cases x %d events, source %s, results in %s", list.n, nevents,
                o.source, dir.path);
    int rc = MEASURE_OK;
    double wall0 = clock_now_seconds();
    for (int i = 0; i < list.n && rc != MEASURE_INTERRUPTED; i++) {
        pm_note("[%d/%d] %s", i + 1, list.n, list.c[i]->label);
        /* Each case gets its own copy: what failed to open in one case is tried again in the next. */
        struct event_spec *ev = xcalloc((size_t)nevents, sizeof(*ev));
        for (int k = 0; k < nevents; k++) {
            ev[k] = events[k];
            ev[k].name = xstrdup(events[k].name);
            ev[k].canonical = events[k].canonical ? xstrdup(events[k].canonical) : NULL;
            ev[k].unsupported = events[k].unsupported ? xstrdup(events[k].unsupported) : NULL;
        }
        rc = engine_case(&e, list.c[i], ev, nevents);
        engine_free_events(ev, nevents);
    }
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
    tap_plan(&tap);
    double wall = clock_now_seconds() - wall0, inside = (double)measure_region_ticks / clock_get()->tsc_hz;
    tap_comment(&tap, "time: %.3f s wall for the cases, %.3f s inside measured regions (%.1f%%)", wall, inside,
                wall > 0 ? 100 * inside / wall : 0);
    tap_comment(&tap, "summary: %d ok, %d not ok, %d skip, %d todo, %d info; %d measurements in %s", tap.ok,
                tap.not_ok, tap.skip, tap.todo, tap.info, e.measurements, dir.path);
    if (rc == MEASURE_INTERRUPTED) {
        pm_note("interrupted: %d finished measurements are kept in %s", e.measurements, dir.path);
        status = 130;
    } else {
        status = tap.not_ok || e.failures ? 1 : 0;
    }
    run_dir_close(&dir);
out:
    for (int i = 0; i < list.n; i++)
        case_free(list.c[i]);
    free(list.c);
    engine_free_events(events, nevents);
    engine_free(&e);
    measure_cli_tables_free(&o);
    free(o.auto_expect);
    return status;
}

/* pmucal sample: event-based sampling of one case, held against where its model says the events
 * happen (core/sites.h). A command of its own rather than a mode of validate: its measurement is
 * one event at a time at each precise level (not groups of counters), its record is an address
 * histogram (not counts per repetition) and its verdicts are of other kinds (rate, skid, shadow). */
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "generators/snippet_digest.h"
#include "host/cpuload.h"
#include "runs/run_cases.h"
#include "runs/sample_record.h"
#include "runs/session.h"
#include "validate/sample_run.h"
#include <stdlib.h>
#include <string.h>

static int sample_main(int argc, char **argv);

enum { K_PERIOD = CLI_LONG, K_PRECISE, K_RING, K_RESUME };

static const struct cli_option sample_options[] = {
    MO_EVENTS, MO_REPS, MO_ITERS, MO_PMU, MO_EXPECT, MO_NO_AUTO_EXPECT, MO_CPU, MO_LABEL("sample"), MO_OUT,
    {"period", K_PERIOD, "N", "events between samples (default 1 for software events, else 10007)"},
    {"precise", K_PRECISE, "all|0..3", "precise_ip levels to sample at: every level the Linux kernel takes for\n"
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
    .usage = "Sets the case up once, then for each event and each precise_ip level the Linux kernel takes (3\n"
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

static int sample_main(int argc, char **argv)
{
    struct sample_args a;
    struct session s;
    struct engine eng = {0};
    static struct sample_run run;   /* static: the case's instruction map in it is large for a stack */
    memset(&run, 0, sizeof(run));
    sample_defaults(&a);
    session_init(&s, sample_command.name, argc, argv);
    if (cli_parse(&sample_command, argc, argv, sample_option, &a, &a.pos))
        return 2;
    /* A kernel or parameter given with --resume is an option beside it. */
    int status = a.resume ? cli_resume(&sample_command, &s, a.resume, a.given + a.pos.n, &sample_resumer, &a) : 0;
    const struct kernel *k = NULL;
    if (!status && a.pos.n < 1)
        status = cli_usage_error(&sample_command, "name a kernel ('pmucal kernels' lists them)");
    else if (!status && !(k = kernel_find(a.pos.v[0]))) {
        pm_error("unknown kernel '%s'; 'pmucal kernels' lists them", a.pos.v[0]);
        status = 2;
    }
    run.c = k ? case_new(k, a.pos.n - 1, a.pos.v + 1) : NULL;
    cli_args_free(&a.pos);
    if (run.c && session_resuming(&s) && snippet_case_runs_code(run.c)) {
        /* A run folder is data: its snippet (or the file it names) is never run again from it. */
        char *fix = xasprintf("start a new run ('pmucal sample %s ...' with your snippet)", k->name);
        run_cases_code_refused(s.rs.run, run.c->label, fix);
        free(fix);
        case_free(run.c);
        run.c = NULL;
        status = 2;
    }
    if (!run.c) {
        measure_cli_tables_free(&a.o);   /* what a --resume read of the folder's input copies */
        session_free(&s);
        return status ? status : 2;
    }
    struct event_spec *events;
    int n;
    status = 2;
    if (stream_perturb_env(&run.perturb) || (session_resuming(&s) && sample_resume_stream(&s.rs, run.perturb.text)) ||
        measure_cli_engine(&a.o, &eng, &events, &n)) {
        sample_run_free(&run);
        measure_cli_tables_free(&a.o);
        free(a.o.auto_expect);
        session_free(&s);
        return 2;
    }
    if (session_open(&s, a.o.out, a.o.label ? a.o.label : "sample"))
        goto out;
    eng.cpu = cpuload_choose(a.o.cpu, &a.o.cpu_busy);
    session_measure_cpu(&s, eng.cpu, a.o.cpu >= 0, a.o.cpu_busy);
    json_object_begin(&s.dir.manifest, "sample");
    json_uint(&s.dir.manifest, "period", a.period);
    json_int(&s.dir.manifest, "precise", a.precise);
    json_uint(&s.dir.manifest, "ring_pages", a.ring);
    json_string(&s.dir.manifest, "perturbed", run.perturb.text);
    json_object_end(&s.dir.manifest);
    if (!session_resuming(&s) && measure_cli_keep_inputs(&a.o, s.dir.path)) {
        status = session_end(&s, 2, "its input files could not be kept in the folder");
        goto out;
    }
    if (session_start(&s)) {
        status = session_end(&s, 1, SESSION_NO_MANIFEST);
        goto out;
    }
    if (session_resuming(&s))
        tap_comment(&s.tap, "resuming: %d (case, event, precise level) records measured before are kept, %d dropped",
                    s.rs.records_kept, s.rs.records_dropped);
    if (run.perturb.text)
        tap_comment(&s.tap, "PMUCAL_SAMPLE_PERTURB=%s: the sample stream is altered on purpose (a test)",
                    run.perturb.text);
    run.s = &s;
    run.eng = &eng;
    run.period = a.period;
    run.precise = a.precise;
    run.ring_pages = (unsigned)a.ring;
    int rc = sample_run_setup(&run, events, n);
    if (rc < 0) {
        status = session_end(&s, 2, "bad --iters");
        goto out;
    }
    for (int i = 0; !rc && i < n; i++)
        if (sample_run_event(&run, &events[i])) {
            status = run.write_failed ? session_end(&s, 1, "a record could not be written")
                                      : session_stopped(&s, "sampling stopped");
            goto out;
        }
    tap_plan(&s.tap);
    status = session_end(&s, run.not_ok ? 1 : 0, NULL);
out:
    sample_run_free(&run);
    engine_free_events(events, n);
    engine_free(&eng);
    measure_cli_tables_free(&a.o);
    free(a.o.auto_expect);
    session_free(&s);
    return status;
}

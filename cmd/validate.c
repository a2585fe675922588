/* pmucal validate: every case of the default matrix x the given events, TAP verdicts and a
 * run folder. */
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "runs/ktap.h"
#include "runs/run_cases.h"
#include "runs/session.h"
#include "validate/case_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    {"ktap", K_KTAP, CLI_OUT_FILE, "also write the verdicts as KTAP to FILE when the run ends (as\n"
                             "'pmucal export --ktap RUN' does)"},
    {"resume", K_RESUME, "RUN",
     "complete the interrupted (or crashed) run folder RUN with its own options\n"
     "(from its manifest; no other option is taken with it but --ktap, and --case\n"
     "for each of its code cases: the same snippet handed again, checked by its\n"
     "SHA-256): its finished cases are kept and judged again, the rest measured;\n"
     "same host, CPU and build"},
    CLI_END,
};

const struct command validate_command = {
    .name = "validate",
    .fn = validate_main,
    .summary = "run the default case matrix x events, print TAP verdicts, write a run folder",
    .synopsis = "[options]",
    .usage = "Every case of every kernel's default matrix (or of --kernel NAME) is set up once and\n"
             "measured with the events in groups; each (case, event) gets one TAP line: ok, not ok,\n"
             "or SKIP with the reason (e.g. no hardware PMU). Results go to\n"
             "results/<date>-<host>-<label>/: manifest.json, measurements.ndjson, validate.tap, and\n"
             "classify.txt/.json for events without a rule. The PMU's validate/expect/<pmu>.txt loads by\n"
             "itself; zero-quantity cases are negative tests; a failure under an erratum is a TODO. The\n"
             "TAP ends with a summary per event and what the scheduler learned.\n"
             "manifest.json records the host, versions (Linux kernel, perf, libpfm4, hwloc, pmucal and its\n"
             "commit), the command, start and end times and the status: running, then complete, failed\n"
             "or interrupted.\n"
             "Exit status: 0 when nothing is 'not ok', 1 otherwise, 2 on bad input, 130 (SIGINT) or 143\n"
             "(SIGTERM) when interrupted: the TAP ends with 'Bail out!' and every finished measurement is kept.\n"
             "Each finished case is appended to cases.done. --resume RUN completes such a run in its own\n"
             "folder: records of unfinished cases (and a line cut by kill -9) are dropped, the finished\n"
             "cases' records are judged again without measuring, the rest is measured; validate.tap is\n"
             "written whole again and the manifest lists each resumption under \"resumed\". A complete\n"
             "run, one still running, or one made by another command, host, CPU or pmucal build is\n"
             "refused (exit 2). A resume runs no code a folder names: each case of kernel code is handed\n"
             "again with --case (the same text), and runs only when its snippet's SHA-256 is the one the\n"
             "manifest recorded when the run started; the manifest's --ktap is not written.\n",
    .options = validate_options,
    .examples = "  pmucal validate --kernel walker -e instructions,page-faults\n"
                "  pmucal validate --source sim --case 'walker size=L1'\n"
                "  pmucal validate --resume results/2026-11-23-vm-validate\n",
};

struct validate_args {
    struct measure_cli o;
    char *kernels[64], *cases[256];
    int nk, nc;
    const char *resume;   /* --resume RUN */
    const char *ktap;     /* --ktap FILE */
    uint64_t sweep, seed; /* --sweep K, --seed N (1 unless given) */
    int given;            /* options other than --resume, --ktap and --case */
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
    a->given += key != K_CASE;   /* a --case beside --resume hands a code case again */
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
    struct case_list handed;   /* --resume: the code cases handed again with --case */
    char *handed_text[256];    /* their texts, as typed */
    struct engine eng;
    struct event_spec *events;
    int nevents;
};

/* The folder created, or the resumed one reopened with the records of its unfinished cases
 * dropped (the CPU checked here, in the process that measures); the manifest written. */
static int open_run(struct validate_run *v)
{
    if (session_resuming(&v->s) && (resume_claim(&v->s.rs) || resume_cases(&v->s.rs, v->list.c, v->list.n)))
        return 2;
    const struct source *src = v->eng.src;
    if (session_open(&v->s, v->a.o.out, v->a.o.label ? v->a.o.label : src->libpfm_events ? "validate" : src->name))
        return 2;
    if (src->real_time)   /* chosen now, so the manifest says which and how loaded it was */
        v->eng.cpu = cpuload_choose(v->a.o.cpu, &v->a.o.cpu_busy);
    if (!session_resuming(&v->s) && measure_cli_keep_inputs(&v->a.o, v->s.dir.path))
        return 2;
    measure_cli_manifest(&v->a.o, src, &v->s.dir.manifest);
    run_cases_manifest(&v->s.dir.manifest, v->list.c, v->list.n);
    if (src->real_time)
        session_measure_cpu(&v->s, v->eng.cpu, v->a.o.cpu >= 0, v->a.o.cpu_busy);
    /* The manifest says "running"; the end rewrites it with the status. */
    return session_start(&v->s) ? session_end(&v->s, 1, SESSION_NO_MANIFEST) : 0;
}

/* Every case measured into the open folder, then how the run ended; the exit status. */
static int measure_cases(struct validate_run *v)
{
    v->eng.dir = &v->s.dir;
    v->eng.tap = &v->s.tap;
    struct case_run r = {.s = &v->s, .list = &v->list, .events = v->events, .nevents = v->nevents,
                         .asked = v->nevents, .source = v->a.o.source, .sweep = v->a.sweep, .seed = v->a.seed,
                         .sweep_kernel = v->a.nk ? v->a.kernels[0] : NULL};
    char no_hw[512];
    r.dropped = measure_cli_drop_uncountable(&v->eng, v->events, &v->nevents, no_hw, sizeof(no_hw));
    r.nevents = v->nevents;
    r.no_hw = no_hw;
    return case_run_end(&v->eng, &r, case_run_measure(&v->eng, &r));
}

/* with_engine: the engine was set up (measure_cli_engine). The option's tables and texts are
 * freed either way: a --resume reads its input copies before the engine exists. */
static void validate_free(struct validate_run *v, bool with_engine)
{
    case_list_free(&v->list);
    case_list_free(&v->handed);
    if (with_engine) {
        engine_free_events(v->events, v->nevents);
        engine_free(&v->eng);
    }
    measure_cli_tables_free(&v->a.o);
    free(v->a.o.auto_expect);
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
    /* What --resume takes beside it is the user's, never the manifest's: the code cases handed
     * again, and where the KTAP goes. */
    char **handed = v.a.resume ? v.a.cases : NULL;
    int nh = v.a.resume ? v.a.nc : 0, status = 0;
    const char *ktap = v.a.ktap;
    if (nh && case_list_collect(&v.handed, NULL, 0, handed, nh, 0, 1))
        status = 2;
    if (v.a.resume && !status) {
        memmove(v.handed_text, handed, sizeof(*handed) * (size_t)nh);
        status = cli_resume(&validate_command, &v.s, v.a.resume, v.a.given, &validate_resumer, &v.a);
        v.a.ktap = ktap;
    }
    /* What the sim source runs again under valgrind: the command typed, or the same resumption. */
    char *resume_argv[3 + 2 * 256 + 2 + 1] = {"validate", "--resume", v.s.rs.run};
    if (session_resuming(&v.s)) {
        argc = 3;
        for (int i = 0; i < nh; i++) {
            resume_argv[argc++] = "--case";
            resume_argv[argc++] = v.handed_text[i];
        }
        if (ktap) {
            resume_argv[argc++] = "--ktap";
            resume_argv[argc++] = (char *)ktap;
        }
        argv = resume_argv;
    }
    if (!status && v.a.sweep && v.a.nc) {
        pm_error("--sweep draws its cases: give it or --case, not both");
        status = 2;
    }
    if (status || case_list_collect(&v.list, v.a.kernels, v.a.nk, v.a.cases, v.a.nc, v.a.sweep, v.a.seed) ||
        (session_resuming(&v.s) &&
         run_cases_resume(&v.s.rs, validate_command.name, v.list.c, v.list.n, v.handed.c, v.handed.n)) ||
        measure_cli_engine(&v.a.o, &v.eng, &v.events, &v.nevents)) {
        validate_free(&v, false);
        return status ? status : 2;
    }
    v.eng.setup_refusal_skips = v.a.sweep;
    /* Everything the user gave is checked; now the source may move the work elsewhere (sim:
     * this same command re-executed under valgrind, which writes the run folder). */
    int prep = measure_cli_prepare(&v.a.o, &v.eng, argc, argv, &status);
    if (prep < 0)
        status = 2;
    else if (prep == SOURCE_CONTINUE && !(status = open_run(&v))) {
        char *folder = xstrdup(v.s.dir.path);   /* the session closes the folder (and its path) */
        status = measure_cases(&v);
        if (v.a.ktap && run_export(folder, v.a.ktap, ktap_write) && status < 2)
            status = 2;
        free(folder);
    }
    validate_free(&v, true);
    return status;
}

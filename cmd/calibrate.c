/* pmucal calibrate: every recipe measured, penalties fitted with their spread, the latency curve,
 * the closure check; penalties.json, the tables, curve.csv and curve.svg in a run folder. */
#include "base/stop.h"
#include "base/util.h"
#include "cmd/calibrate.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "runs/session.h"
#include "host/clock.h"
#include "host/cpuload.h"
#include "host/geometry.h"
#include "host/topo.h"
#include "penalties/calibration.h"
#include "penalties/penalty_fit.h"
#include "host/uarch.h"
#include "penalties/occurrence_check.h"
#include "penalties/recipes.h"
#include "penalties/tables.h"
#include "runs/resume.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int calibrate_main(int argc, char **argv);

enum { K_LIST = CLI_LONG, K_JSON, K_TARGET_MS, K_QUICK, K_CURVE, K_NO_CURVE, K_RECIPE, K_PPO, K_CPU, K_PREFIX,
       K_LABEL, K_OUT, K_SOURCE, K_ITERS, K_RESUME, K_PASSES, K_UARCH };

static const struct cli_option calibrate_options[] = {
    {"list", K_LIST, NULL,
     "print the recipes (issue and control cases, occurrence, spread allowed, front end) and exit"},
    {"json", K_JSON, NULL, "with --list: one JSON array of recipes"},
    {"repetitions", 'r', "N", "repetitions per case, 3..101 (default 7; 3 with --source sim)"},
    {"target-ms", K_TARGET_MS, "MS", "length of one measured loop (default 5, at most 500)"},
    {"passes", K_PASSES, "N", "independent passes over every recipe, 1..15 (default 5); a figure with\n"
                              "fewer than 3 clean passes (all of them, with fewer), or whose median's\n"
                              "interval is wider than its recipe allows (2% core, 3% hierarchy), is\n"
                              "unstable"},
    {"runs", K_PASSES, "N", NULL},   /* the old spelling of --passes */
    {"quick", K_QUICK, NULL, "3 repetitions, 2 ms loops, 2 passes, 2 curve points per octave (for tests)"},
    {"curve", K_CURVE, NULL, "only the latency curve (no recipes, no closure)"},
    {"no-curve", K_NO_CURVE, NULL, "recipes and closure only"},
    {"recipe", K_RECIPE, "NAME", "only this recipe (may be repeated; the closure needs l1_hit, l2_hit, l3_hit)"},
    {"points-per-octave", K_PPO, "N", "curve density (default 4)"},
    {"cpu", K_CPU, "N", "CPU to measure on, one of the affinity mask (default: its least loaded over 150 ms at the start)"},
    {"uarch", K_UARCH, "NAME", "the microarchitecture whose published figures and perf event names apply\n"
                               "(default: the measured CPU's, by its identity); for a guest whose CPUID\n"
                               "model number is not its core's. The run records that it was given"},
    {"model", K_UARCH, "NAME", NULL},   /* the old spelling of --uarch */
    {"prefix", K_PREFIX, "NAME", "macro prefix of the C header: upper-case letters, digits, '_' (default PMUCAL)"},
    {"label", K_LABEL, "NAME", "run folder label (default calibrate; with --source sim calibrate-sim)"},
    {"out", K_OUT, CLI_OUT_DIR, "parent folder of the run folder (default results, or $PMUCAL_RESULTS)"},
    {"source", K_SOURCE, "NAME", "perf (default): time the cases and fit penalties; sim: execute the cases under\n"
                                 "valgrind's callgrind and check the models' occurrence counts (no penalties)"},
    {"iters", K_ITERS, "N", "with --source sim: iterations per measured loop (default 10000, fewer for\n"
                            "cases over 5M instructions a loop)"},
    {"resume", K_RESUME, "RUN",
     "complete the interrupted (or crashed) calibration RUN with its own options\n"
     "(from its manifest; no other option is taken with it): cases it measured\n"
     "are taken from its records, the rest measured; same host, CPU and build"},
    CLI_END,
};

const struct command calibrate_command = {
    .name = "calibrate",
    .fn = calibrate_main,
    .summary = "measure cycle penalties (latencies, TLB, branches, stores, divides, assists) and write tables",
    .synopsis = "[options]",
    .usage = "Runs every penalty recipe (an issue case against its control case, or a case whose whole cost\n"
             "per occurrence is the figure) in --passes independent passes over the recipes (default 5),\n"
             "so that a burst of load hits one pass of a recipe, not all; a progress line a\n"
             "recipe in the first pass, a line a pass after it, then each figure, on stderr; then the\n"
             "load-latency curve, the checks and the closure. Before the first case, where this host's\n"
             "latency curve is not known yet (cached per host), it is measured once (about 10 s; not with\n"
             "--quick, --no-curve or --resume): a level the curve shows half used or less (a guest's\n"
             "share of a busy L3) sizes its cases by its usable part. A penalty is (cycles per iteration of the\n"
             "issue case - of the control) / (occurrences in the issue case - in the control). Every case\n"
             "is an engine case, as in validate: R repetitions, a repetition another task interrupted\n"
             "measured again, one measurements.ndjson record each. Occurrences come from the kernels'\n"
             "models; on a host whose PMU counts, the recipe's event is counted beside each case and used\n"
             "when it agrees with the model within 10% (penalties.json says which; for a model, whether\n"
             "'--source sim' can check it: occurrence.model_check, and a line under the table). A pass's\n"
             "figure is the difference of medians; the penalty is the median of its clean passes, with its\n"
             "interval (below). Cycles come from many short timing windows at a low quantile (a window another task\n"
             "preempted reads long), each converted at the core clock measured right beside it (the\n"
             "host's boost moves it by percents between cases). A pass whose case did not have the core to\n"
             "itself (its two clock references, dependent adds and multiplies, read more than 0.4% apart; its\n"
             "load witness, dependent loads of one line, read slow enough to add more than 1% to the case's\n"
             "cycles, or more than 2% fast (its clock suspect), against the smallest whole latency two of the\n"
             "run's cases told alone; beside a recipe --list marks front end, that witness 0.5% slow\n"
             "at all, or its front-end witness, independent no-ops, 2% over the run's pace; or windows over\n"
             "1 ms while another task took the CPU in every attempt) is left out of the figure. The figure's\n"
             "interval is its median's: the clean passes' range (one of four to eight that stands apart\n"
             "from the rest left out), and from nine clean passes the order statistics that hold the median\n"
             "at 95% (the 2nd to the 8th of nine, the 4th to the 12th of fifteen), unless they fall in two\n"
             "groups. A recipe left short of clean passes is measured in further passes, up to twice\n"
             "--passes; one whose interval is too wide while its passes' middle half (twice their median\n"
             "absolute deviation) is within its spread and they are in no two groups, up to three times\n"
             "--passes; 15 in all at most (with --passes 3 or more, not with --quick).\n"
             "Statuses: ok; unstable (fewer than 3 clean passes, or than all with fewer passes; an interval\n"
             "wider (over the median) than the recipe's spread class allows: 2% for core figures, 3% for\n"
             "the memory hierarchy beyond the private caches (L3, DRAM, page walks, fetch from L3 or\n"
             "DRAM); with --passes 1: a 95% bootstrap interval wider than +-10% and 0.25 cycles, or timing\n"
             "windows whose low quantile and median disagree beyond noise or whose controls were mostly\n"
             "hit);\n"
             "not_ok (negative, within noise of zero, below its physical floor, more than 25% outside\n"
             "the uarch's published figure with the interval clear of it, levels not ordered l1 < l2 <\n"
             "l3 < dram with each step above noise, a level case off its level's plateau of the\n"
             "curve); skip; error. Only ok\n"
             "penalties become constants in the C header and perf metrics. Each penalty is printed beside\n"
             "the published figure for the CPU's uarch (uarch/NAME.txt) and its deviation; more than\n"
             "25% is a NOTE. Memory-domain penalties (DRAM) are kept in ns and in cycles at the measured\n"
             "clock ('pmucal emit --core-ghz F' rescales them).\n\n"
             "Writes results/<date>-<host>-calibrate/: manifest.json, measurements.ndjson (one record per\n"
             "case), penalties.json (the source of truth), tables/penalties.h, tables/metrics.json (perf\n"
             "pmu-events metrics under perf's event names for the CPU's uarch; a CPU without them is a\n"
             "note), tables/penalties.csv (no tables when no penalty was measured, as with --curve: a\n"
             "note says so), curve.csv, curve.svg (gnuplot), validate.tap (one line per penalty: ok, not\n"
             "ok, TODO when unstable, SKIP; and the closure: ok within 5%, TODO when the figures' own noise\n"
             "is wider than that, not ok otherwise).\n\n"
             "With --source sim nothing is timed: each wanted recipe's issue and control cases execute under\n"
             "valgrind's callgrind as 'validate --source sim' executes them (the same re-execution, sim events\n"
             "and validate/expect/sim.txt rules, a TAP line per case and rule), and each recipe gets one\n"
             "verdict on its occurrence quantity from penalties/occurrence_sim.c: ok when the simulated\n"
             "counts equal the model's occurrences in both cases (e.g. ld.l1 = sim::Dr - sim::D1mr), not ok\n"
             "when they do not or the issue case has none more than the control, SKIP with the reason where\n"
             "callgrind cannot count them (no TLB, no store buffer, no count of divides ...) or a case\n"
             "cannot execute under it. -r (default 3 there), --iters and --recipe apply; the timing options are\n"
             "refused. Its folder (label calibrate-sim) holds manifest.json (source sim), measurements.ndjson\n"
             "and validate.tap: no penalties.json, tables or curve, and 'pmucal emit' never takes it.\n\n"
             "Exit status: 0, or 1 when a penalty is not ok, the closure fails, a case fails to measure or\n"
             "an output cannot be written (with --source sim: any not ok); 2 on bad input; 130 (SIGINT)\n"
             "or 143 (SIGTERM) when interrupted: the TAP ends with 'Bail out!', penalties.json keeps what\n"
             "was measured and no tables are written.\n"
             "--resume RUN completes such a run in its folder: each case whose record (keyed by case text,\n"
             "event and pass) is in measurements.ndjson is rebuilt from it, not measured; a line cut by kill\n"
             "-9 is dropped; the penalties are fitted again (same seeds) and every output is written as by\n"
             "a whole run; the manifest lists each resumption under \"resumed\". Refused (exit 2) as\n"
             "validate --resume refuses: a complete run, a live one, another command, host, CPU or build;\n"
             "a --source sim run is not resumed (run it again: its counts do not change).\n",
    .options = calibrate_options,
    .examples = "  pmucal calibrate\n"
                "  pmucal calibrate --recipe l2_hit --recipe dram --no-curve\n"
                "  pmucal calibrate --list --json | jq -r '.[].name'\n"
                "  pmucal calibrate --source sim --recipe l1_hit --recipe mispredict\n"
                "  pmucal calibrate --resume results/2025-01-01-host-calibrate\n"
                "  pmucal emit --format c --core-ghz 2.0 results/2025-01-01-host-calibrate\n",
};


#define CALIBRATE_DEFAULTS {.o = {.repetitions = 7, .target_seconds = 0.005, .passes = CAL_PASSES, .more_passes = true}, \
                            .cpu_arg = -1, \
                            .plan = {.ppo = 4, .curve = true, .recipes_on = true, .prefix = "PMUCAL"}, .label = NULL, \
                            .source = "perf"}

struct calibrate_args {
    struct cal_opts o;
    struct calibration_plan plan;
    int cpu_arg;
    bool list, json, reps_given, passes_given, quick;
    const char *label, *out, *source, *resume;
    int given;   /* options other than --resume */
    const char *timing_option;    /* the first option given that only timing uses (refused with sim) */
    unsigned long long iters;
};

static int calibrate_option(void *ctx, int key, const char *v)
{
    struct calibrate_args *a = ctx;
    unsigned long long x;
    int rc = 0;
    static const struct {
        int key;
        const char *name;
    } timing_only[] = {{K_TARGET_MS, "--target-ms"}, {K_QUICK, "--quick"}, {K_CURVE, "--curve"}, {K_PASSES, "--passes"},
                       {K_PPO, "--points-per-octave"}, {K_CPU, "--cpu"}, {K_PREFIX, "--prefix"}};
    for (size_t i = 0; i < sizeof(timing_only) / sizeof(timing_only[0]); i++)
        if (key == timing_only[i].key && !a->timing_option)
            a->timing_option = timing_only[i].name;
    a->given += key != K_RESUME;
    switch (key) {
    case K_RESUME:
        a->resume = v;
        break;
    case 'r':
        if (!(rc = cli_number(&calibrate_command, "-r", v, 3, MEASURE_MAX_REPS, &x)))
            a->o.repetitions = (int)x, a->reps_given = true;
        break;
    case K_SOURCE:
        a->source = v;
        break;
    case K_ITERS:
        rc = cli_number(&calibrate_command, "--iters", v, 1, MEASURE_MAX_ITERS, &a->iters);
        break;
    case K_TARGET_MS:
        if (!(rc = cli_number(&calibrate_command, "--target-ms", v, 1, (unsigned long long)(MEASURE_MAX_LOOP_SECONDS * 1000), &x)))
            a->o.target_seconds = (double)x / 1000;
        break;
    case K_PASSES:
        if (!(rc = cli_number(&calibrate_command, "--passes", v, 1, CAL_MAX_PASSES, &x)))
            a->o.passes = (int)x, a->passes_given = true;
        break;
    case K_PPO:
        if (!(rc = cli_number(&calibrate_command, "--points-per-octave", v, 1, 8, &x)))
            a->plan.ppo = (int)x;
        break;
    case K_RECIPE: {
        int r = 0;
        while (r < nrecipes && strcmp(recipes[r].name, v))
            r++;
        if (r == nrecipes) {
            pm_error("--recipe %s: no such recipe; 'pmucal calibrate --list' names them", v);
            return 2;
        }
        if (a->plan.nonly < 64)
            a->plan.only[a->plan.nonly++] = (char *)v;
        break;
    }
    case K_CPU: {
        uint64_t cpu;
        if (!parse_u64(v, &cpu) || cpu > 1u << 20 || !topo_cpu_valid((int)cpu)) {
            char list[256];
            topo_cpu_list(list, sizeof(list));
            pm_error("--cpu %s is not a CPU this process may run on: its affinity mask (taskset, cgroup cpuset) "
                     "allows %s", v, list);
            return 2;
        }
        a->cpu_arg = (int)cpu;
        break;
    }
    case K_UARCH:
        if (!uarch_named(v, NULL)) {
            pm_error("--uarch %s: no such microarchitecture; pmucal has files for %s (uarch/)", v, uarch_names());
            return 2;
        }
        a->plan.uarch = v;
        break;
    case K_PREFIX:
        if (table_prefix_problem(v))
            return cli_usage_error(&calibrate_command, "--prefix '%s': %s, e.g. PMUCAL", v, table_prefix_problem(v));
        a->plan.prefix = v;
        break;
    case K_LABEL:
        a->label = v;
        break;
    case K_OUT:
        a->out = v;
        break;
    case K_QUICK:
        a->quick = true;
        a->o.repetitions = 3;
        a->o.target_seconds = 0.002;
        a->plan.ppo = 2;
        a->o.more_passes = false;
        if (!a->passes_given)
            a->o.passes = 2;
        break;
    case K_CURVE:
        a->plan.recipes_on = false;
        break;
    case K_NO_CURVE:
        a->plan.curve = false;
        break;
    case K_LIST:
        a->list = true;
        break;
    case K_JSON:
        a->json = true;
        break;
    }
    return rc;
}


/* --resume RUN: the run's own options, parsed again. */
static int reparse(void *args, int argc, char **argv)
{
    struct calibrate_args *a = args, fresh = CALIBRATE_DEFAULTS;
    *a = fresh;
    return cli_reparse(&calibrate_command, argc, argv, calibrate_option, a, NULL);
}

/* A run of --list or of another source is none to resume; its CPU is kept when the command did
 * not name one. */
static int resume_check(void *args, const struct session *s)
{
    struct calibrate_args *a = args;
    if (a->list)
        return session_foreign_command(s);
    if (strcmp(a->source, "perf")) {
        pm_error("--resume %s: a calibrate --source %s run is not resumed: run it again (it counts; nothing in it "
                 "changes run to run)", s->rs.run, a->source);
        return 2;
    }
    int cpu;
    char err[256];
    if (!runfile_measure_cpu(s->rs.manifest, &cpu, err, sizeof(err))) {
        pm_error("--resume %s: manifest.json: %s", s->rs.run, err);
        return 2;
    }
    if (a->cpu_arg < 0 && cpu >= 0)
        a->cpu_arg = cpu;
    return 0;
}

static const struct session_resumer calibrate_resumer = {.reparse = reparse, .records = cal_resume_records,
                                                         .check = resume_check};

/* calibrate --source sim, its own run (never resumed): the counting source's engine, built from
 * the options as validate's is, wired to penalties/occurrence_check.h's check in a new folder
 * under the command as typed. */
static int calibrate_sim(const struct calibrate_args *a, struct session *sess)
{
    struct measure_cli o;
    measure_cli_init(&o);
    o.source = a->source;
    o.m.repetitions = a->reps_given ? a->o.repetitions : 3;
    o.m.iters = a->iters;
    struct engine eng;
    memset(&eng, 0, sizeof(eng));
    struct event_spec *events;
    int nevents, status = 0;
    if (measure_cli_engine(&o, &eng, &events, &nevents))
        return 2;
    /* Checked; now the source may move the work elsewhere (sim: this command under valgrind). */
    int prep = measure_cli_prepare(&o, &eng, sess->argc, sess->argv, &status);
    if (prep != SOURCE_CONTINUE || session_open(sess, a->out, a->label ? a->label : "calibrate-sim")) {
        status = prep == SOURCE_DONE ? status : 2;
    } else {
        struct occurrence_check_args ca = {.eng = &eng, .events = events, .nevents = nevents, .only = a->plan.only,
                                           .nonly = a->plan.nonly};
        measure_cli_manifest(&o, eng.src, &sess->dir.manifest);   /* as validate records its options */
        status = occurrence_check_run(&ca, sess);
    }
    engine_free_events(events, nevents);
    engine_free(&eng);
    measure_cli_tables_free(&o);
    free(o.auto_expect);
    return status;
}

/* What calibrate does instead of timing the recipes, or why it cannot: --list, --source sim (its
 * own run: calibrate_sim), options that do not go together. The exit status, or -1 to go on
 * timing with *src. */
static int other_than_timing(const struct calibrate_args *a, struct session *s, const struct source **src)
{
    if (a->json && !a->list)
        return cli_usage_error(&calibrate_command, "--json goes with --list (a calibration writes penalties.json)");
    if (a->list)
        return recipes_list(a->json);
    /* A source that does not run in real time counts: the cases' occurrences are checked, nothing is timed. */
    if (!(*src = source_select(a->source)))
        return 2;
    if (!(*src)->real_time) {
        if (a->timing_option)
            return cli_usage_error(&calibrate_command, "%s times the cases: it has no meaning with --source %s, "
                                   "which counts them (give -r, --iters, --recipe)", a->timing_option, a->source);
        return calibrate_sim(a, s);
    }
    if (strcmp((*src)->name, "perf"))
        return cli_usage_error(&calibrate_command, "--source %s: calibrate times its cases with the perf source and "
                               "checks their occurrences with sim; give --source perf or --source sim", a->source);
    if (a->iters)
        return cli_usage_error(&calibrate_command, "--iters goes with --source sim: the perf source sizes its loops "
                               "by time (--target-ms)");
    if (!a->plan.recipes_on && !a->plan.curve)
        return cli_usage_error(&calibrate_command, "--curve and --no-curve together leave nothing to do");
    return -1;
}

static int calibrate_main(int argc, char **argv)
{
    struct calibrate_args a = CALIBRATE_DEFAULTS;
    struct session s;
    const struct source *src = NULL;
    session_init(&s, calibrate_command.name, argc, argv);
    if (cli_parse(&calibrate_command, argc, argv, calibrate_option, &a, NULL))
        return 2;
    int status = a.resume ? cli_resume(&calibrate_command, &s, a.resume, a.given, &calibrate_resumer, &a) : 0;
    if (status || (status = other_than_timing(&a, &s, &src)) >= 0) {
        session_free(&s);
        return status;
    }
    struct cal cal;
    memset(&cal, 0, sizeof(cal));
    cal.o = a.o;
    cal.o.src = src;
    double t0 = clock_now_seconds();
    cal.o.cpu = cpuload_choose(a.cpu_arg, &cal.cpu_busy);
    cal.cpu_asked = a.cpu_arg >= 0;
    /* Before the manifest records the levels: a guest that keeps only part of its L3 has its level
     * cases sized by that part (once per host, cached). --quick (the tests) and --no-curve take a
     * cached curve but never spend the seconds; a resumed run keeps the levels it was sized by. */
    if (!a.resume && !a.quick && src->real_time && a.plan.recipes_on && a.plan.curve)
        geometry_measure_if_unknown("calibrate sizes its level cases by what this machine can keep in each level");
    if (session_open(&s, a.out, a.label ? a.label : "calibrate")) {
        session_free(&s);
        return 2;
    }
    cal.dir = &s.dir;
    cal.resume = session_resuming(&s) ? &s.rs : NULL;
    cal_manifest(&cal, &s.dir.manifest);
    session_measure_cpu(&s, cal.o.cpu, cal.cpu_asked, cal.cpu_busy);
    if (session_start(&s)) {
        cal_free(&cal);
        status = session_end(&s, 1, SESSION_NO_MANIFEST);
        session_free(&s);
        return status;
    }
    int errors;
    status = calibration_run(&cal, &a.plan, &s.tap, t0, &errors);
    cal_free(&cal);
    if (cal.interrupted) {
        pm_note("interrupted: what was measured is in %s/penalties.json; no tables were written; 'pmucal calibrate "
                "--resume %s' completes it", s.dir.path, s.dir.path);
        status = session_stopped(&s, stop_signal_name());
    } else {
        status = session_end(&s, status, errors ? "a recipe could not be measured" : NULL);
    }
    session_free(&s);
    return status;
}

int calibrate_replay(const struct runfile *run)
{
    /* The run's own options, read as calibrate reads them: what it measured and how it judged. */
    int argc;
    char why[256];
    char **argv = runfile_command_args(run->manifest, &argc, why, sizeof(why));
    if (!argv) {
        pm_error("%s/manifest.json: %s: the run cannot be judged again", run->path, why);
        return 2;
    }
    struct calibrate_args a = CALIBRATE_DEFAULTS;
    int rc = cli_reparse(&calibrate_command, argc, argv, calibrate_option, &a, NULL) ? 2 : 0;
    if (rc)
        pm_error("%s/manifest.json: its command line is not one calibrate takes; the run cannot be judged again",
                 run->path);
    else if (a.list || a.resume || strcmp(a.source, "perf"))
        rc = -1;   /* no timed penalties in it (--source sim): its records are judged by validate's rules */
    else
        rc = calibration_rejudge(run, &a.o, &a.plan);
    free(argv);
    return rc;
}

/* pmucal replay RUN: the stored measurements of a run judged again against today's expectation
 * files and vendor tables, without measuring: an expectation change checked offline against
 * every stored host. */
#include "base/util.h"
#include "cmd/calibrate.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/vendor.h"
#include "runs/runfile.h"
#include "validate/rejudge.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int replay_main(int argc, char **argv);

enum { K_EXPECT = CLI_LONG, K_NO_AUTO, K_VENDOR, K_PMU, K_ALLOW };

static const struct cli_option replay_options[] = {
    {"expect", K_EXPECT, "FILE", "a rule file of more rules (EVENT EXPRESSION TOLERANCE a line), after the\n"
                                 "shipped ones"},
    {"no-auto-expect", K_NO_AUTO, NULL, "do not load validate/expect/<pmu>.txt (or <source>.txt)"},
    {"vendor-json", K_VENDOR, "PATH", "vendor event table for errata (the one the run named is not read)"},
    {"pmu", K_PMU, "NAME", "whose rule file applies (default: the run's PMU)"},
    {"allow-incomplete", K_ALLOW, NULL, "judge a run that did not complete (interrupted, failed, running)"},
    CLI_END,
};

const struct command replay_command = {
    .name = "replay",
    .fn = replay_main,
    .summary = "judge a stored run again with today's rules, checks and references, without measuring",
    .synopsis = "RUN [options]",
    .usage = "RUN is a run folder of 'pmucal validate'. Its measurements (per-repetition counts, the\n"
             "cases' models, the encodings it used) are judged as validate judges them, with the rules\n"
             "of this build: the built-in ones, validate/expect/<pmu>.txt for the run's PMU (or the\n"
             "source's file, e.g. sim.txt) and --expect FILE; errata from --vendor-json PATH. A run\n"
             "folder is data: the --expect rule file and vendor table its manifest names are not read\n"
             "(a note says to give them again). The source's slack is the\n"
             "one the run recorded. Prints TAP like validate, in the order of the run's validate.tap,\n"
             "with its SKIP lines that no record holds (cases skipped at set-up, hardware events taken out\n"
             "before measuring) printed again in their place; then the (case, event) points whose\n"
             "verdict differs from the one stored in the run.\n\n"
             "RUN may be a run folder of 'pmucal calibrate' too: each case is rebuilt from its record\n"
             "(as --resume rebuilds it), the penalties are fitted again with the same seeds and checked\n"
             "with this build's checks and published references, against the run's own options, PMU,\n"
             "CPU model, cache levels and latency curve (its manifest's and records'); nothing of this\n"
             "host is measured or read. The penalty and closure lines and the table print as calibrate\n"
             "printed them; then each verdict line that differs from validate.tap's, and how many. The\n"
             "rule options do not apply there. A 'calibrate --source sim' run is judged by its rules, as\n"
             "a validate run.\n"
             "Exit status: 0 when nothing is 'not ok', 1 otherwise, 2 on bad input.\n",
    .options = replay_options,
    .examples = "  pmucal replay results/2026-11-20-host-validate\n"
                "  for r in results/*; do pmucal replay \"$r\" --expect new-rules.txt > /dev/null || echo \"$r\"; done\n",
};

struct replay_args {
    const char *expect, *vendor, *pmu;
    bool no_auto, allow_incomplete;
};

/* A calibrate run is judged by its penalty checks and references (penalties/calibration.h): the
 * exit status, or -1 for a run without timed penalties (judged by the rules, as validate's are). */
static int replay_calibration(const struct runfile *run, const struct replay_args *a)
{
    if (a->expect || a->vendor || a->pmu || a->no_auto) {
        pm_error("%s: a calibration is judged by its penalty checks and published references, not by "
                 "rule files or vendor tables: give no --expect, --vendor-json, --pmu or --no-auto-expect",
                 run->path);
        return 2;
    }
    return calibrate_replay(run);
}

static int replay_option(void *ctx, int key, const char *v)
{
    struct replay_args *a = ctx;
    switch (key) {
    case K_EXPECT: a->expect = v; break;
    case K_NO_AUTO: a->no_auto = true; break;
    case K_VENDOR: a->vendor = v; break;
    case K_PMU: a->pmu = v; break;
    case K_ALLOW: a->allow_incomplete = true; break;
    }
    return 0;
}

static int replay_main(int argc, char **argv)
{
    struct replay_args a = {0};
    struct cli_args pos;
    if (cli_parse(&replay_command, argc, argv, replay_option, &a, &pos))
        return 2;
    if (pos.n != 1) {
        int rc = cli_usage_error(&replay_command, "give one run folder (got %d)", pos.n);
        cli_args_free(&pos);
        return rc;
    }
    struct runfile run;
    struct engine eng;
    memset(&eng, 0, sizeof(eng));
    struct vendor_table vt = {0};
    int status = 2;
    if (runfile_load(&run, pos.v[0]))
        goto out;
    char why[256];
    if (!runfile_complete(&run, why, sizeof(why)) && !a.allow_incomplete) {
        pm_error("%s: %s; give --allow-incomplete to judge what it holds", run.path, why);
        goto out;
    }
    if (!strcmp(runfile_command(run.manifest) ? runfile_command(run.manifest) : "", "calibrate") &&
        (status = replay_calibration(&run, &a)) >= 0)
        goto out;
    status = 2;
    const char *source_name = jget_str(run.manifest, "source", "perf");
    const struct source *found = source_select(source_name);
    if (!found)
        goto out;
    /* The slack the run was measured with, when it recorded it. */
    struct source src = *found;
    src.exact_floor = jget_num(run.manifest, "source_exact_floor", src.exact_floor);
    src.slack_per_loop = jget_num(run.manifest, "source_slack_per_loop", src.slack_per_loop);
    eng.src = &src;
    if (ruleset_for_run(&eng.rules, run.manifest, &src, a.pmu, a.no_auto, a.expect))
        goto out;
    /* A run folder is data: the vendor table its manifest names is not opened (it could name any
     * file); the user names it again. */
    const char *vendor = a.vendor;
    if (!vendor && jget_str(run.manifest, "vendor_json", NULL))
        pm_note("the run was judged with a --vendor-json table too; files a run folder names are not read: give "
                "--vendor-json PATH to apply its errata");
    if (vendor) {
        if (vendor_load(&vt, vendor))
            goto out;
        eng.vt = &vt;
    }
    struct tap tap = {.out = stdout};
    eng.tap = &tap;
    tap_comment(&tap, "pmucal replay %s: %d measurements (source %s, %s), judged with today's rules", run.path,
                run.nrec, source_name, run.status);
    int changed = 0;
    status = rejudge_run(&eng, &tap, &run, &changed);
    if (status)
        goto out;
    engine_summary(&eng);
    tap_plan(&tap);
    tap_comment(&tap, "summary: %d ok, %d not ok, %d skip, %d todo, %d info; %d verdicts differ from the stored ones",
                tap.ok, tap.not_ok, tap.skip, tap.todo, tap.info, changed);
    status = tap.not_ok ? 1 : 0;
out:
    engine_free(&eng);
    vendor_free(&vt);
    runfile_free(&run);
    cli_args_free(&pos);
    return status;
}

/* pmucal classify RUN: what each event of a run counts, regressed on the cases' quantities. */
#include "base/jread.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "core/source.h"
#include "runs/rundir.h"
#include "runs/runfile.h"
#include "validate/classifier.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int classify_main(int argc, char **argv);

enum { K_EXPECT = CLI_LONG, K_NO_RULES, K_UNRULED, K_FLOOR, K_ALLOW_INCOMPLETE };

static const struct cli_option classify_options[] = {
    {"expect", K_EXPECT, "FILE", "a rule file of more rules (EVENT EXPRESSION TOLERANCE a line)"},
    {"no-rules", K_NO_RULES, NULL, "regression only; ignore every rule (built-in, shipped and --expect)"},
    {"unruled", K_UNRULED, NULL, "only events without a rule or with an info rule"},
    {"floor", K_FLOOR, "X", "per-iteration counts up to X are zero (default 0.01)"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL, "classify a run whose manifest says interrupted, failed or\n"
                                                   "running, or has no status (refused otherwise; a folder without\n"
                                                   "a readable manifest.json always is)"},
    CLI_END,
};

const struct command classify_command = {
    .name = "classify",
    .fn = classify_main,
    .summary = "explain each event of a run by the quantities it counts (NNLS regression), table + JSON",
    .synopsis = "RUN [options]",
    .usage = "RUN is a run folder of 'pmucal validate' (it reads RUN/measurements.ndjson). For each\n"
             "event, its per-iteration medians across the run's cases are regressed on the cases'\n"
             "model quantities: one quantity x a non-negative coefficient, then pairs (non-negative\n"
             "least squares, 'iter' included so a constant per-iteration offset shows). The best\n"
             "explanation is printed with its coefficients, R2 and worst residual (and its case); else\n"
             "'unexplained'. Counts in cases where every quantity is zero are listed. When the event has\n"
             "a rule (built-in, validate/expect/<pmu>.txt for the run's PMU or source, --expect FILE),\n"
             "each case is checked against it too; no file the run's manifest names is read. Status:\n"
             "clean (rule holds, or 1.000 x one quantity), suspect, unexplained, silent (counts nothing).\n"
             "A run whose manifest.json does not say complete is refused (--allow-incomplete), one\n"
             "without a readable manifest always. Writes RUN/classify.txt and RUN/classify.json (each\n"
             "replaced whole: a link there is replaced, not followed).\n"
             "Exit status 0 when every event is clean or silent, 1 otherwise, 2 on bad input.\n",
    .options = classify_options,
};

struct classify_args {
    const char *expect;
    bool no_rules, unruled, allow_incomplete;
    double floor_;
};

static int classify_option(void *ctx, int key, const char *v)
{
    struct classify_args *a = ctx;
    switch (key) {
    case K_EXPECT:
        a->expect = v;
        break;
    case K_NO_RULES:
        a->no_rules = true;
        break;
    case K_UNRULED:
        a->unruled = true;
        break;
    case K_ALLOW_INCOMPLETE:
        a->allow_incomplete = true;
        break;
    case K_FLOOR:
        return cli_real(&classify_command, "--floor", v, 0, HUGE_VAL, &a->floor_);
    }
    return 0;
}

static int classify_main(int argc, char **argv)
{
    struct classify_args a = {.floor_ = 0.01};
    struct cli_args pos;
    if (cli_parse(&classify_command, argc, argv, classify_option, &a, &pos))
        return 2;
    if (pos.n > 1) {
        int rc = cli_usage_error(&classify_command, "one RUN only (got %s and %s)", pos.v[0], pos.v[1]);
        cli_args_free(&pos);
        return rc;
    }
    const char *run = pos.n ? pos.v[0] : NULL, *expect = a.expect;
    bool no_rules = a.no_rules, unruled = a.unruled;
    double floor_ = a.floor_;
    cli_args_free(&pos);
    if (!run)
        return cli_usage_error(&classify_command, "name a run folder (results/<date>-<host>-<label>)");
    /* A partial run's regressions would speak for cases it never measured; a folder without a manifest is
     * no run at all. */
    char why[256];
    struct jvalue *m = manifest_load(run);
    if (!m)
        return 2;
    if (!a.allow_incomplete && !manifest_complete(m, why, sizeof(why))) {
        pm_error("%s/manifest.json: %s; classify a complete run, or give --allow-incomplete to classify what it holds",
                 run, why);
        jread_free(m);
        return 2;
    }
    if (!runfile_has_measurements(m, run)) {   /* a c2c run holds no records: refused, never classified as empty */
        jread_free(m);
        return 2;
    }
    struct ruleset rs = {0};
    const struct source *src = no_rules ? NULL : source_select(jget_str(m, "source", "perf"));
    int bad = !no_rules && (!src || ruleset_for_run(&rs, m, src, NULL, false, expect));
    jread_free(m);
    if (bad) {
        ruleset_free(&rs);
        return 2;
    }
    struct classify_opts o = {.rules = no_rules ? NULL : &rs, .unruled_only = unruled, .floor = floor_,
                              .table = stdout};
    int rc = classify_run(run, &o);
    ruleset_free(&rs);
    return rc < 0 ? 2 : rc > 0 ? 1 : 0;
}

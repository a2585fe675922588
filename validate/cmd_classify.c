/* pmucal classify RUN: what each event of a run counts, fitted against the cases' quantities. */
#include "classify.h"
#include "cli.h"
#include "jread.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int classify_main(int argc, char **argv);

static const struct command classify_command = {
    .name = "classify",
    .fn = classify_main,
    .summary = "explain each event of a run by the quantities it counts (NNLS fits), table + JSON",
    .usage = "pmucal classify RUN [--expect FILE] [--no-rules] [--unruled] [--floor X]\n\n"
             "RUN is a results folder of 'pmucal validate' (it reads RUN/measurements.ndjson). For each\n"
             "event, its per-iteration medians across the run's cases are fitted against the cases'\n"
             "model quantities: one quantity x a non-negative coefficient, then pairs (non-negative\n"
             "least squares, 'iter' included so a constant per-iteration offset shows). The best\n"
             "explanation is printed with its coefficients, R2 and worst residual (and its case); else\n"
             "'unexplained'. Counts in cases where every quantity is zero are listed. When the event has\n"
             "a rule (built-in, the run's expectation file from manifest.json, --expect FILE), each case\n"
             "is checked against it too. Status: clean (rule holds, or 1.000 x one quantity), suspect,\n"
             "unexplained, silent (counts nothing). Writes RUN/classify.txt and RUN/classify.json.\n\n"
             "  --expect FILE   more rules (EVENT EXPRESSION TOLERANCE a line)\n"
             "  --no-rules      fit only; ignore every rule (built-in and the run's)\n"
             "  --unruled       only events without a rule or with an info rule\n"
             "  --floor X       per-iteration counts up to X are zero (default 0.01)\n\n"
             "Exit status 0 when every event is clean or silent, 1 otherwise, 2 on bad input.\n",
};
PMUCAL_COMMAND(classify_command)

static int classify_main(int argc, char **argv)
{
    const char *run = NULL, *expect = NULL;
    bool no_rules = false, unruled = false;
    double floor_ = 0.01;
    for (int i = 1; i < argc; i++) {
        bool bad = false;
        const char *v;
        if ((v = cli_opt(argc, argv, &i, "--expect", NULL, &bad)))
            expect = v;
        else if ((v = cli_opt(argc, argv, &i, "--floor", NULL, &bad))) {
            char *end;
            floor_ = strtod(v, &end);
            if (*end || end == v || floor_ < 0)
                return cli_usage_error(&classify_command, "--floor %s: give a number >= 0, e.g. 0.01", v);
        } else if (!strcmp(argv[i], "--no-rules"))
            no_rules = true;
        else if (!strcmp(argv[i], "--unruled"))
            unruled = true;
        else if (bad || argv[i][0] == '-' || run)
            return cli_usage_error(&classify_command, bad ? "%s needs a value" : "unknown argument %s", argv[i]);
        else
            run = argv[i];
    }
    if (!run)
        return cli_usage_error(&classify_command, "name a run folder (results/<date>-<host>-<label>)");
    struct ruleset rs = {0};
    if (!no_rules) {
        if (ruleset_builtin(&rs))
            return 2;
        /* The rules the run was validated with, as its manifest names them. */
        char *mpath = xasprintf("%s/manifest.json", run), err[512];
        struct jvalue *m = access(mpath, R_OK) ? NULL : jread_file(mpath, err, sizeof(err));
        const char *files[2] = {jstr(jget(m, "expectations")), jstr(jget(m, "expect"))};
        for (int k = 0; k < 2; k++)
            if (files[k] && !access(files[k], R_OK) && ruleset_load(&rs, files[k])) {
                jread_free(m);
                free(mpath);
                ruleset_free(&rs);
                return 2;
            }
        jread_free(m);
        free(mpath);
        if (expect && ruleset_load(&rs, expect)) {
            ruleset_free(&rs);
            return 2;
        }
    }
    struct classify_opts o = {.rules = no_rules ? NULL : &rs, .unruled_only = unruled, .floor = floor_,
                              .table = stdout};
    int rc = classify_run(run, &o);
    ruleset_free(&rs);
    return rc < 0 ? 2 : rc > 0 ? 1 : 0;
}

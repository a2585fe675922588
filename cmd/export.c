/* pmucal export: a stored run in another harness's format, so runs meet where kernel CI looks. */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "runs/kcidb.h"
#include "runs/ktap.h"
#include "runs/runfile.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int export_main(int argc, char **argv);

enum { K_KTAP = CLI_LONG, K_KCIDB, K_ALLOW_INCOMPLETE };

static const struct cli_option export_options[] = {
    {"ktap", K_KTAP, NULL, "KTAP version 1 (Linux Documentation/dev-tools/ktap.rst): tests nested\n"
                           "run -> case -> event, paths pmucal.<command>.<case>.<event>"},
    {"kcidb", K_KCIDB, NULL, "KCIDB I/O JSON, schema v5.3 (the Linux kernel CI database): a test per\n"
                             "verdict with path, status, number and environment"},
    {"output", 'o', CLI_OUT_FILE, "write there instead of stdout"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL, "export a run that did not complete (its results say what it holds)"},
    CLI_END,
};

const struct command export_command = {
    .name = "export",
    .fn = export_main,
    .summary = "write a stored run for KernelCI: KTAP for test harnesses, KCIDB JSON for its database",
    .synopsis = "--ktap | --kcidb [-o FILE] RUN",
    .usage = "RUN is a run folder (validate, calibrate). --ktap writes its verdicts as KTAP, the format\n"
             "kselftest and KUnit print, so harnesses such as KernelCI's and LKFT's take pmucal as a test\n"
             "suite: 'KTAP version 1' and the plan first at every level, a test per case holding a test\n"
             "per event, each case 'not ok' when one of its events is. A case's name is its label with\n"
             "spaces as '_'. TODO points (unstable) are '# XFAIL' (KTAP has no TODO), info lines are\n"
             "diagnostics. --kcidb writes a KCIDB I/O report (schema v5.3): one checkout and one build\n"
             "for the run (origin 'pmucal', ids 'pmucal:HOST:FOLDER:START'), and a test per verdict: path\n"
             "pmucal.<command>.<case>.<event> (letters, digits, '_' and '-' a component), status PASS,\n"
             "FAIL, SKIP, ERROR (a TODO point: unstable) or DONE (info), the measured figure as its\n"
             "number, the verdict line as log_excerpt, and the environment: CPU model, Linux kernel, perf and\n"
             "libpfm4 versions. 'kcidb-submit' takes it as it is.\n"
             "Exit status 0 when written, 2 on bad input or when it cannot be written.\n",
    .options = export_options,
    .examples = "  pmucal export --ktap results/2026-11-20-host-validate > pmucal.ktap\n"
                "  pmucal export --kcidb -o report.json results/2026-11-20-host-validate\n",
};

struct export_args {
    bool ktap, kcidb, allow_incomplete;
    const char *output;
};

static int export_option(void *ctx, int key, const char *v)
{
    struct export_args *a = ctx;
    if (key == K_KTAP)
        a->ktap = true;
    else if (key == K_KCIDB)
        a->kcidb = true;
    else if (key == K_ALLOW_INCOMPLETE)
        a->allow_incomplete = true;
    else if (key == 'o')
        a->output = v;
    return 0;
}

static int export_main(int argc, char **argv)
{
    struct export_args a = {0};
    struct cli_args pos;
    if (cli_parse(&export_command, argc, argv, export_option, &a, &pos))
        return 2;
    if (pos.n != 1 || a.ktap == a.kcidb) {
        int rc = cli_usage_error(&export_command, pos.n != 1 ? "give one run folder (got %d)"
                                 : "give one format: --ktap or --kcidb", pos.n);
        cli_args_free(&pos);
        return rc;
    }
    struct runfile r;
    memset(&r, 0, sizeof(r));
    int rc = 2;
    char why[256];
    if (runfile_load_all(&r, pos.v[0]))
        goto out;
    if (!manifest_complete(r.manifest, why, sizeof(why)) && !a.allow_incomplete) {
        pm_error("%s: %s; give --allow-incomplete to export what it holds", r.path, why);
        goto out;
    }
    rc = run_export(pos.v[0], a.output, a.ktap ? ktap_write : kcidb_write) ? 2 : 0;
out:
    runfile_free(&r);
    cli_args_free(&pos);
    return rc;
}

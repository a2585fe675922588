/* pmucal report RUN... : one self-contained HTML page of run folders, or of a comparison. */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "report/report.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int report_main(int argc, char **argv);

enum { K_OUT = 'o', K_COMPARE = CLI_LONG, K_ALLOW_INCOMPLETE };

static const struct cli_option report_options[] = {
    {"out", K_OUT, CLI_OUT_FILE,
     "the page (default RUN/report.html for one run, NEW/compare.html with\n"
     "--compare; several runs need --out)"},
    {"compare", K_COMPARE, NULL, "two runs, BASE then NEW: the page starts with their comparison"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL,
     "render a run whose manifest does not say complete (interrupted, failed,\n"
     "running, no status); its status shows on the page"},
    CLI_END,
};

const struct command report_command = {
    .name = "report",
    .fn = report_main,
    .summary = "one self-contained HTML page of run folders or of a comparison: matrix, plots, tables",
    .synopsis = "RUN... [--out FILE] | --compare BASE NEW [--out FILE]",
    .usage = "Writes one HTML file that works offline (inline CSS, JS and SVG; nothing is fetched). It opens\n"
             "with its conclusion: PASS when every run ended and no verdict is not ok, else FAIL, each run's\n"
             "verdicts counted by kind and every failing one listed. Then, for each RUN (a run folder\n"
             "of validate, calibrate or c2c):\n"
             "  host and versions, and hwloc's cache sizes beside the boundaries the latency curve measured;\n"
             "  the verdict matrix of validate.tap: events x cases coloured ok / not ok / skip / todo / info,\n"
             "    each cell measured against expected, the row its rule (expression, tolerance, file:line);\n"
             "    rows sort by any column and filter by status and a search box; click a cell for its verdict;\n"
             "    a link can carry the filter and order: report.html#q=TEXT&status=nok&sort=1&desc=1\n"
             "    (sort: a header's position, 0 the event column, 1 the not-ok count);\n"
             "  the per-event summary and the classifier's reading (classify.json);\n"
             "  the latency curve (curve.csv) with measured level boundaries and hwloc's sizes;\n"
             "  the penalties (penalties.json): intervals, status, reference figures, a bar chart;\n"
             "  the core-to-core heatmap (c2c.csv).\n"
             "A section whose data the run lacks says so in one line. With --compare, the page starts with\n"
             "BASE against NEW: host and version differences, then, for validate runs, every (case, event)\n"
             "as 'pmucal compare' judges it (noise test, verdict, encoding, support), regressions on top;\n"
             "runs without measurements get a side-by-side of their validate.tap verdicts; penalty deltas.\n"
             "Both runs follow in full. Prints the path of the page written.\n"
             "A run whose manifest does not say complete is refused unless --allow-incomplete: its page\n"
             "would look like a whole run.\n"
             "Exit status: 0; 2 on bad input (a folder that is not a run, an incomplete run, or a corrupt\n"
             "file in it: the message names it) or when the page cannot be written.\n",
    .options = report_options,
    .examples = "  pmucal report results/2026-11-23-vm-validate\n"
                "  pmucal report results/*-validate results/*-calibrate --out run.html\n"
                "  pmucal report --compare results/old-validate results/new-validate\n",
};

struct report_args {
    const char *out;
    bool compare, allow_incomplete;
};

static int report_option(void *ctx, int key, const char *v)
{
    struct report_args *a = ctx;
    if (key == K_OUT)
        a->out = v;
    else if (key == K_COMPARE)
        a->compare = true;
    else if (key == K_ALLOW_INCOMPLETE)
        a->allow_incomplete = true;
    return 0;
}

static int report_main(int argc, char **argv)
{
    struct report_args a = {0};
    struct cli_args pos;
    if (cli_parse(&report_command, argc, argv, report_option, &a, &pos))
        return 2;
    int n = pos.n, rc = 0;
    if (n < 1)
        rc = cli_usage_error(&report_command, "name a run folder (results/<date>-<host>-<label>)");
    else if (a.compare && n != 2)
        rc = cli_usage_error(&report_command, "--compare takes two run folders, BASE then NEW (got %d)", n);
    else if (!a.out && n > 1 && !a.compare)
        rc = cli_usage_error(&report_command, "several runs make one page: name it with --out FILE");
    if (!rc) {
        /* The default page goes into the (last) run folder, named without its trailing slashes. */
        char *dir = xstrdup(pos.v[n - 1]);
        for (size_t l = strlen(dir); l > 1 && dir[l - 1] == '/'; l--)
            dir[l - 1] = '\0';
        char *path = a.out ? xstrdup(a.out) : xasprintf("%s/%s", dir, a.compare ? "compare.html" : "report.html");
        rc = report_write(path, (const char *const *)pos.v, n, a.compare, NULL, a.allow_incomplete);
        if (!rc)
            printf("%s\n", path);
        free(path);
        free(dir);
    }
    cli_args_free(&pos);
    return rc;
}

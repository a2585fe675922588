/* pmucal cpi: a cycle stack from counts and a calibration's penalties: base + occurrences x
 * penalty for every ok penalty counted, the unexplained remainder, and whether the stack closes. */
#include "base/json.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "penalties/cycle_stack.h"
#include "host/uarch.h"
#include "penalties/tables.h"
#include "report/report.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cpi_main(int argc, char **argv);

enum { K_PENALTIES = CLI_LONG, K_ALLOW_INCOMPLETE, K_CASE, K_UARCH, K_BASE_CPI, K_CORE_GHZ, K_TOLERANCE, K_JSON, K_SVG };

static const struct cli_option cpi_options[] = {
    {"penalties", K_PENALTIES, "RUN", "a calibration's run folder or its penalties.json (default: COUNTS\n"
                                      "itself when it is a calibration's folder, else the newest complete\n"
                                      "calibration under results/ or $PMUCAL_RESULTS)"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL, "use penalties of a calibration that was interrupted or is\n"
                                                   "still running (its manifest says so); refused otherwise"},
    {"case", K_CASE, "LABEL", "with a run folder as COUNTS: the case whose counts are used (required)"},
    {"uarch", K_UARCH, "NAME", "the microarchitecture whose perf event names the counts use: a uarch of\n"
                               "uarch/*.txt (zen5, goldencove, ...; 'pmucal info' names this host's) or\n"
                               "one of its CPUs (default: the calibration's)"},
    {"model", K_UARCH, "NAME", NULL},   /* the old spelling of --uarch */
    {"base-cpi", K_BASE_CPI, "F", "base cycles per instruction, the cost of work no penalty covers (default 0:\n"
                                  "every cycle is to be explained by penalties, as in a dependent chain);\n"
                                  "0.25 is a 4-wide core's ideal"},
    {"core-ghz", K_CORE_GHZ, "F", "memory-domain penalties (DRAM) in cycles at F GHz from their ns\n"
                                  "(default: the cycles at the calibration's clock)"},
    {"tolerance", K_TOLERANCE, "PCT", "the stack closes when the remainder is within PCT% of the cycles\n"
                                      "(default 10)"},
    {"json", K_JSON, NULL, "the stack as JSON on stdout"},
    {"svg", K_SVG, CLI_OUT_FILE, "a stacked bar of the components beside the measured cycles"},
    CLI_END,
};

const struct command cpi_command = {
    .name = "cpi",
    .fn = cpi_main,
    .summary = "cycle stack: measured cycles = base + occurrences x penalty + remainder, and whether it closes",
    .synopsis = "[options] COUNTS",
    .usage = "COUNTS is the output of 'perf stat -x, -o FILE -e EVENTS -- COMMAND' (value,unit,event,...\n"
             "lines; :u/:k modifiers are dropped from names), or a run folder of 'pmucal validate' or\n"
             "'pmucal calibrate' with --case LABEL (per-iteration medians of its events, its cycles and its\n"
             "model's quantities). Every penalty whose status is ok becomes one component, multiplied by\n"
             "the count of its event (perf's name for the uarch, or libpfm4's) or, failing that, of its\n"
             "occurrence quantity (ld.l2, ...). cycles = base-cpi x instructions + sum of components +\n"
             "remainder. Components are upper bounds (overlapping costs are not removed), so a negative\n"
             "remainder means overlap. The stack closes when |remainder| <= --tolerance of the cycles.\n"
             "Exit status: 0 closed, 1 not closed or an output could not be written, 2 on bad input.",
    .options = cpi_options,
    .examples = "  perf stat -x, -o counts.csv -e cycles,instructions,ls_dispatch.ld_dispatch,"
                "ls_dmnd_fills_from_sys.local_l2 -- ./app\n"
                "  pmucal cpi --base-cpi 0.25 counts.csv\n"
                "  pmucal cpi --case 'mixwalk' --json results/2026-01-01-host-calibrate\n"
                "  pmucal cpi --svg stack.svg --penalties results/2026-01-01-host-calibrate counts.csv\n",
};

struct cpi_args {
    const char *penalties, *case_label, *uarch, *svg;
    double base_cpi, core_ghz, tolerance;
    bool json, allow_incomplete;
};

static int cpi_option(void *ctx, int key, const char *v)
{
    struct cpi_args *a = ctx;
    switch (key) {
    case K_PENALTIES: a->penalties = v; break;
    case K_ALLOW_INCOMPLETE: a->allow_incomplete = true; break;
    case K_CASE: a->case_label = v; break;
    case K_UARCH:
        if (!uarch_named(v, NULL))
            return cli_usage_error(&cpi_command, "--uarch %s: give one of %s", v, uarch_names());
        a->uarch = v;
        break;
    case K_BASE_CPI: return cli_real(&cpi_command, "--base-cpi", v, 0, 100, &a->base_cpi);
    case K_CORE_GHZ: return cli_real(&cpi_command, "--core-ghz", v, 0.05, 20, &a->core_ghz);
    case K_TOLERANCE:
        if (cli_real(&cpi_command, "--tolerance", v, 0, 100, &a->tolerance))
            return 2;
        a->tolerance /= 100;
        break;
    case K_JSON: a->json = true; break;
    case K_SVG: a->svg = v; break;
    }
    return 0;
}

static int cpi_main(int argc, char **argv)
{
    struct cpi_args a = {.tolerance = 0.10};
    struct cli_args pos;
    if (cli_parse(&cpi_command, argc, argv, cpi_option, &a, &pos))
        return 2;
    if (pos.n != 1) {
        int rc = cli_usage_error(&cpi_command, pos.n ? "one COUNTS only (got %s and %s)" : "give COUNTS: a 'perf "
                                 "stat -x,' file or a run folder with --case", pos.n ? pos.v[0] : "",
                                 pos.n > 1 ? pos.v[1] : "");
        cli_args_free(&pos);
        return rc;
    }
    char *counts_path = xstrdup(pos.v[0]);
    cli_args_free(&pos);
    struct stat st;
    bool run = !stat(counts_path, &st) && S_ISDIR(st.st_mode);
    if (run && !a.case_label) {
        int e = cli_usage_error(&cpi_command, "%s is a run folder: name the case with --case LABEL", counts_path);
        free(counts_path);
        return e;
    }
    /* A calibration's own folder holds its penalties: its cases are explained by them, not by
     * whichever calibration is newest. */
    char *own = run ? xasprintf("%s/penalties.json", counts_path) : NULL, *pj = NULL;
    const char *penalties = a.penalties ? a.penalties : own && !access(own, F_OK) ? counts_path : NULL;
    free(own);
    /* A perf stat file is read before the penalties are looked for: a bad counts file is named as
     * such, not hidden behind a missing calibration. A run folder's own penalties come first. */
    struct counts c = {0};
    int rc = 2;
    struct jvalue *doc = NULL;
    bool counted = !run && !counts_from_perf_csv(&c, counts_path);
    if ((run || counted) && (doc = penalties_load(penalties, a.allow_incomplete, &pj)) &&
        (counted || !counts_from_run(&c, counts_path, a.case_label))) {
        struct cpi_stack *s = xmalloc(sizeof(*s));
        if (!cpi_build(s, &c, doc, a.uarch, a.base_cpi, a.core_ghz, a.tolerance)) {
            if (a.json)
                cpi_stack_print_json(s, &c, pj);
            else
                cpi_stack_print(s, &c, pj);
            rc = s->closed ? 0 : 1;
            if (a.svg && cpi_stack_svg_write(a.svg, s))
                rc = 1;
        }
        free(s);
    }
    counts_free(&c);
    jread_free(doc);
    free(pj);
    free(counts_path);
    return rc;
}

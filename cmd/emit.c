/* pmucal emit: a calibration's penalties.json as JSON, a C header, perf metrics or CSV. */
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "penalties/ceilings.h"
#include "host/uarch.h"
#include "penalties/reference.h"
#include "penalties/tables.h"
#include "runs/rundir.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int emit_main(int argc, char **argv);

enum { K_CORE_GHZ = CLI_LONG, K_PREFIX, K_ALLOW_INCOMPLETE, K_UARCH, K_FORCE_UARCH, K_FALLBACK, K_ROOFLINE };

static const struct cli_option emit_options[] = {
    {"format", 'f', "F", "json, c, perf-metrics or csv (required)"},
    {"core-ghz", K_CORE_GHZ, "F", "the tables at another core clock: memory-domain penalties (DRAM) in\n"
                                  "cycles at F GHz from their ns; core-domain penalties keep their cycles\n"
                                  "and their ns become cycles / F"},
    {"uarch", K_UARCH, "NAME", "perf metrics for this microarchitecture: a uarch of uarch/*.txt (zen5,\n"
                               "goldencove, ...; 'pmucal info' names this host's) or one of its CPUs\n"
                               "(default: the calibration's uarch, else libpfm4's PMU's, else the\n"
                               "host's); one other than the calibration's is refused"},
    {"model", K_UARCH, "NAME", NULL},   /* the old spelling of --uarch */
    {"force-uarch", K_FORCE_UARCH, NULL, "with --uarch: write this calibration's figures under another\n"
                                         "uarch's event names anyway (they were not measured there)"},
    {"force-model", K_FORCE_UARCH, NULL, NULL},   /* the old spelling of --force-uarch */
    {"prefix", K_PREFIX, "NAME", "C macro prefix: an upper-case letter, then upper-case letters, digits\n"
                               "and '_' (default PMUCAL)"},
    {"output", 'o', CLI_OUT_FILE, "write there instead of stdout"},
    {"fallback", K_FALLBACK, "RUN", "with --format c: an earlier calibration of the same uarch whose ok\n"
                                    "figures fill the constants RUN withholds (unstable, not ok, not\n"
                                    "measured), each named with the run it came from"},
    {"roofline", K_ROOFLINE, "RUN", "the ceilings of a 'pmucal roofline' folder (or its roofline.json) instead\n"
                                    "of penalties: peak GFLOP/s per width, precision and thread count, GB/s\n"
                                    "per level and thread count (c, csv or json)"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL, "emit from a run that was interrupted or is still running (its\n"
                                                   "manifest says so); refused otherwise"},
    CLI_END,
};

const struct command emit_command = {
    .name = "emit",
    .fn = emit_main,
    .summary = "write a calibration's penalties as JSON, a C header, perf metric JSON or CSV",
    .synopsis = "--format json|c|perf-metrics|csv [options] [RUN]",
    .usage = "RUN is a run folder of 'pmucal calibrate' or its penalties.json (default: the newest\n"
             "folder under results/ or $PMUCAL_RESULTS whose manifest records 'pmucal calibrate', whatever\n"
             "its label, that finished and measured every recipe: an interrupted, still running, sim,\n"
             "--curve-only or --recipe run is passed over). A note names the file read. Output goes to stdout. A run whose manifest says\n"
             "interrupted or running is refused unless --allow-incomplete; one without penalties\n"
             "(calibrate --curve, --source sim) always is, and so is a penalties.json with a name twice,\n"
             "a name that is not lower-case letters, digits and '_', or an ok figure that is not finite,\n"
             "positive, and the same value in ns and cycles at its clock.core_ghz.\n"
             "  json          penalties.json again (with --core-ghz: memory-domain cycles rescaled)\n"
             "  c             #define PREFIX_HAVE_NAME 1 or 0 for every recipe, and PREFIX_NAME_CYCLES\n"
             "                where it is 1; provenance (the file read) in a comment; unstable, not ok,\n"
             "                skipped and unmeasured penalties are comments only (see --fallback)\n"
             "  perf-metrics  perf pmu-events metric JSON (MetricName, MetricExpr, BriefDescription,\n"
             "                MetricGroup, ScaleUnit) under perf's own event names for the CPU's uarch (the\n"
             "                EventName of its pmu-events table), so it drops into perf's pmu-events tree;\n"
             "                only penalties whose status is ok\n"
             "  csv           one row per penalty; the figures of one that is not ok stay empty\n"
             "With --roofline RUN the tables are the roofline's ceilings instead: C macros\n"
             "PREFIX_PEAK_GFLOPS_<WIDTH>_<PREC>_T<threads> and PREFIX_BW_GBS_<LEVEL>_T<threads>, CSV rows\n"
             "kind,name,precision,threads,value,unit, or those rows as a JSON array.\n",
    .options = emit_options,
    .examples = "  pmucal emit --format c > penalties.h\n"
                "  pmucal emit --format c --fallback results/2025-01-01-host-calibrate > penalties.h\n"
                "  pmucal emit --format perf-metrics --core-ghz 2.4 results/2025-01-01-host-calibrate\n"
                "  pmucal emit --format c --roofline results/2025-01-01-host-roofline > roofline.h\n",
};

struct emit_args {
    int format;
    bool allow_incomplete, force_uarch;
    const char *output, *fallback, *roofline;
    struct table_opts o;
};

static int emit_option(void *ctx, int key, const char *v)
{
    struct emit_args *a = ctx;
    switch (key) {
    case 'f':
        if ((a->format = table_format_parse(v)) < 0)
            return cli_usage_error(&emit_command, "--format %s: give json, c, perf-metrics or csv", v);
        break;
    case K_CORE_GHZ:
        return cli_real(&emit_command, "--core-ghz", v, 0.05, 20, &a->o.core_ghz);
    case K_PREFIX:
        if (table_prefix_problem(v))
            return cli_usage_error(&emit_command, "--prefix '%s': %s, e.g. PMUCAL", v, table_prefix_problem(v));
        a->o.prefix = v;
        break;
    case 'o':
        a->output = v;
        break;
    case K_ALLOW_INCOMPLETE:
        a->allow_incomplete = true;
        break;
    case K_FORCE_UARCH:
        a->force_uarch = true;
        break;
    case K_FALLBACK:
        a->fallback = v;
        break;
    case K_ROOFLINE:
        a->roofline = v;
        break;
    case K_UARCH:
        if (!uarch_named(v, NULL))
            return cli_usage_error(&emit_command, "--uarch %s: give one of %s", v, uarch_names());
        a->o.uarch = v;
        break;
    }
    return 0;
}

/* --roofline RUN: the ceilings alone, in the format. */
static int emit_ceilings(const struct emit_args *a, const char *run, int format, const char *output)
{
    if (run || a->fallback || a->o.core_ghz > 0 || a->o.uarch)
        return cli_usage_error(&emit_command, "--roofline writes the ceilings alone: give no calibration RUN, "
                                              "--fallback, --core-ghz or --uarch with it");
    if (format == TABLE_PERF_METRICS)
        return cli_usage_error(&emit_command, "--roofline: ceilings have no perf-metrics table; give --format c, "
                                              "csv or json");
    char *file;
    struct jvalue *roof = ceilings_load(a->roofline, "--roofline", &file);
    if (!roof)
        return 2;
    struct run_out ro;
    FILE *out = run_out_user(&ro, output);
    if (!out) {
        jread_free(roof);
        free(file);
        return 2;
    }
    int rc = run_out_end(&ro, ceilings_write(roof, (enum table_format)format, a->o.prefix, file, out));
    jread_free(roof);
    free(file);
    return rc ? 1 : 0;
}

static int emit_main(int argc, char **argv)
{
    struct emit_args a = {.format = -1, .o = {.prefix = "PMUCAL"}};
    struct cli_args pos;
    if (cli_parse(&emit_command, argc, argv, emit_option, &a, &pos))
        return 2;
    if (pos.n > 1) {
        int rc = cli_usage_error(&emit_command, "one RUN only (got %s and %s)", pos.v[0], pos.v[1]);
        cli_args_free(&pos);
        return rc;
    }
    const char *run = pos.n ? pos.v[0] : NULL, *output = a.output;
    int format = a.format;
    struct table_opts o = a.o;
    cli_args_free(&pos);
    if (format < 0)
        return cli_usage_error(&emit_command, "give --format json, c, perf-metrics or csv");
    if (a.fallback && format != TABLE_C)
        return cli_usage_error(&emit_command, "--fallback fills the C header's constants: give --format c");
    if (a.roofline)
        return emit_ceilings(&a, run, format, output);
    char *path = NULL;
    struct jvalue *doc = penalties_load(run, a.allow_incomplete, &path);
    /* Another model's event names over these figures would be constants of a CPU never measured. */
    const char *measured = doc ? penalties_uarch(doc) : NULL;
    const struct uarch *given = uarch_named(o.uarch, NULL);
    if (doc && given && measured && strcmp(given->name, measured) && !a.force_uarch) {
        pm_error("--uarch %s: %s was calibrated on %s; its penalties are not %s's: leave --uarch out, or give "
                 "--force-uarch to write them under %s's event names anyway", o.uarch, path, measured, o.uarch,
                 o.uarch);
        jread_free(doc);
        doc = NULL;
    }
    char *fpath = NULL, why[512];
    struct jvalue *fallback = doc && a.fallback ? penalties_load(a.fallback, false, &fpath) : NULL;
    if (doc && a.fallback && fallback && penalties_fallback_problem(doc, fallback, why, sizeof(why)))
        pm_error("--fallback %s: %s; name an earlier calibration of the same uarch", fpath, why);
    if (doc && a.fallback && (!fallback || penalties_fallback_problem(doc, fallback, why, sizeof(why)))) {
        jread_free(doc);
        doc = NULL;
    }
    if (!doc) {
        jread_free(fallback);
        free(fpath);
        free(path);
        return 2;
    }
    pm_note("emit: %s%s%s", path, fpath ? ", withheld figures from " : "", fpath ? fpath : "");
    o.source = path;
    o.fallback = fallback;
    o.fallback_source = fpath;
    struct run_out ro;
    FILE *out = run_out_user(&ro, output);
    if (!out) {
        jread_free(doc);
        jread_free(fallback);
        free(fpath);
        free(path);
        return 2;
    }
    int rc = run_out_end(&ro, tables_write(doc, (enum table_format)format, &o, out));
    if (rc)
        pm_error("%s: cannot emit the %s format from it", path, argv[0]);
    jread_free(doc);
    jread_free(fallback);
    free(fpath);
    free(path);
    return rc ? 1 : 0;
}

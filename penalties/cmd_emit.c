/* pmucal emit: a calibration's penalties.json as JSON, a C header, perf metrics or CSV. */
#include "cli.h"
#include "models.h"
#include "tables.h"
#include "util.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int emit_main(int argc, char **argv);

static const struct command emit_command = {
    .name = "emit",
    .fn = emit_main,
    .summary = "write a calibration's penalties as JSON, a C header, perf metric JSON or CSV",
    .usage = "pmucal emit --format json|c|perf-metrics|csv [options] [RUN]\n\n"
             "RUN is a results folder of 'pmucal calibrate' or its penalties.json (default: the newest\n"
             "*-calibrate* folder under results/ or $PMUCAL_RESULTS). Output goes to stdout.\n"
             "  json          penalties.json again (with --core-ghz: memory-domain cycles rescaled)\n"
             "  c             #define PREFIX_NAME_CYCLES constants, provenance in a comment; unstable and\n"
             "                skipped penalties are comments only\n"
             "  perf-metrics  perf pmu-events metric JSON (MetricName, MetricExpr, BriefDescription,\n"
             "                MetricGroup, ScaleUnit) under perf's own event names for the CPU model (the\n"
             "                EventName of its pmu-events table), so it drops into perf's pmu-events tree;\n"
             "                the model is --model, else libpfm4's PMU (LIBPFM_FORCE_PMU), else CPUID's\n"
             "  csv           one row per penalty\n\n"
             "Options:\n"
             "  -f, --format F       json, c, perf-metrics or csv (required)\n"
             "  --core-ghz F         the tables at another core clock: memory-domain penalties (DRAM) in cycles\n"
             "                       at F GHz from their ns; core-domain penalties keep their cycles and their\n"
             "                       ns become cycles / F\n"
             "  --model NAME         perf metrics for this CPU model: zen4, zen5 or skylake\n"
             "  --prefix NAME        C macro prefix (default PMUCAL)\n"
             "  -o, --output FILE    write there instead of stdout\n\n"
             "Examples:\n"
             "  pmucal emit --format c > penalties.h\n"
             "  pmucal emit --format perf-metrics --core-ghz 2.4 results/2025-01-01-host-calibrate\n",
};
PMUCAL_COMMAND(emit_command)

/* The newest folder whose name holds "-calibrate" and has a penalties.json. */
static char *newest_run(void)
{
    const char *base = getenv("PMUCAL_RESULTS") ? getenv("PMUCAL_RESULTS") : "results";
    DIR *d = opendir(base);
    char *best = NULL;
    time_t best_t = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (!strstr(e->d_name, "-calibrate"))
            continue;
        char *p = xasprintf("%s/%s/penalties.json", base, e->d_name);
        struct stat st;
        if (!stat(p, &st) && (!best || st.st_mtime >= best_t)) {
            free(best);
            best = p;
            best_t = st.st_mtime;
        } else {
            free(p);
        }
    }
    if (d)
        closedir(d);
    if (!best)
        pm_error("no calibration run under %s/ (no *-calibrate*/penalties.json); run 'pmucal calibrate' "
                 "or name the run folder", base);
    return best;
}

static int emit_main(int argc, char **argv)
{
    int format = -1;
    const char *run = NULL, *output = NULL;
    struct emit_opts o = {.prefix = "PMUCAL"};
    for (int i = 1; i < argc; i++) {
        bool bad = false;
        const char *v;
        if ((v = cli_opt(argc, argv, &i, "--format", "-f", &bad))) {
            if ((format = emit_format_parse(v)) < 0)
                return cli_usage_error(&emit_command, "--format %s: give json, c, perf-metrics or csv", v);
        } else if ((v = cli_opt(argc, argv, &i, "--core-ghz", NULL, &bad))) {
            char *end;
            o.core_ghz = strtod(v, &end);
            if (*end || !(o.core_ghz > 0.05 && o.core_ghz < 20))
                return cli_usage_error(&emit_command, "--core-ghz %s: give a clock in GHz, e.g. 2.4", v);
        } else if ((v = cli_opt(argc, argv, &i, "--prefix", NULL, &bad))) {
            o.prefix = v;
        } else if ((v = cli_opt(argc, argv, &i, "--model", NULL, &bad))) {
            if (!cpu_model_named(v))
                return cli_usage_error(&emit_command, "--model %s: give one of %s", v, cpu_model_names());
            o.model = v;
        } else if ((v = cli_opt(argc, argv, &i, "--output", "-o", &bad))) {
            output = v;
        } else if (bad || argv[i][0] == '-') {
            return cli_usage_error(&emit_command, bad ? "%s needs a value" : "unknown option %s", argv[i]);
        } else if (run) {
            return cli_usage_error(&emit_command, "one RUN only (got %s and %s)", run, argv[i]);
        } else {
            run = argv[i];
        }
    }
    if (format < 0)
        return cli_usage_error(&emit_command, "give --format json, c, perf-metrics or csv");
    char *path;
    struct stat st;
    if (!run)
        path = newest_run();
    else if (!stat(run, &st) && S_ISDIR(st.st_mode))
        path = xasprintf("%s/penalties.json", run);
    else
        path = xstrdup(run);
    if (!path)
        return 2;
    struct jvalue *doc = jread_load(path);
    if (!doc) {
        free(path);
        return 2;
    }
    FILE *out = output ? fopen(output, "w") : stdout;
    if (!out) {
        pm_error("cannot write %s", output);
        jread_free(doc);
        free(path);
        return 2;
    }
    int rc = emit(doc, (enum emit_format)format, &o, out);
    if (output && fclose(out))
        rc = -1;
    if (rc)
        pm_error("%s: cannot emit the %s format from it", path, argv[0]);
    jread_free(doc);
    free(path);
    return rc ? 1 : 0;
}

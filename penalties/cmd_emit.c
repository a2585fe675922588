/* pmucal emit: a calibration's penalties.json as JSON, a C header, perf metrics or CSV. */
#include "cli.h"
#include "models.h"
#include "tables.h"
#include "results.h"
#include "util.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int emit_main(int argc, char **argv);

enum { K_CORE_GHZ = CLI_LONG, K_PREFIX, K_ALLOW_INCOMPLETE, K_MODEL };

static const struct cli_option emit_options[] = {
    {"format", 'f', "F", "json, c, perf-metrics or csv (required)"},
    {"core-ghz", K_CORE_GHZ, "F", "the tables at another core clock: memory-domain penalties (DRAM) in\n"
                                  "cycles at F GHz from their ns; core-domain penalties keep their cycles\n"
                                  "and their ns become cycles / F"},
    {"model", K_MODEL, "NAME", "perf metrics for this CPU model: zen4, zen5 or skylake (default: libpfm4's\n"
                               "PMU, else the host's CPUID)"},
    {"prefix", K_PREFIX, "NAME", "C macro prefix (default PMUCAL)"},
    {"output", 'o', "FILE", "write there instead of stdout"},
    {"allow-incomplete", K_ALLOW_INCOMPLETE, NULL, "emit from a run that was interrupted or is still running (its\n"
                                                   "manifest says so); refused otherwise"},
    CLI_END,
};

static const struct command emit_command = {
    .name = "emit",
    .fn = emit_main,
    .summary = "write a calibration's penalties as JSON, a C header, perf metric JSON or CSV",
    .synopsis = "--format json|c|perf-metrics|csv [options] [RUN]",
    .usage = "RUN is a results folder of 'pmucal calibrate' or its penalties.json (default: the newest\n"
             "*-calibrate* folder under results/ or $PMUCAL_RESULTS whose run finished and measured\n"
             "penalties: an interrupted, still running or --curve-only run is passed over). Output goes\n"
             "to stdout. A run whose manifest says interrupted or running is refused unless\n"
             "--allow-incomplete; one without penalties (calibrate --curve) always is.\n"
             "  json          penalties.json again (with --core-ghz: memory-domain cycles rescaled)\n"
             "  c             #define PREFIX_NAME_CYCLES constants, provenance in a comment; unstable,\n"
             "                not ok and skipped penalties are comments only\n"
             "  perf-metrics  perf pmu-events metric JSON (MetricName, MetricExpr, BriefDescription,\n"
             "                MetricGroup, ScaleUnit) under perf's own event names for the CPU model (the\n"
             "                EventName of its pmu-events table), so it drops into perf's pmu-events tree;\n"
             "                only penalties whose status is ok\n"
             "  csv           one row per penalty; the figures of one that is not ok stay empty\n",
    .options = emit_options,
    .examples = "  pmucal emit --format c > penalties.h\n"
                "  pmucal emit --format perf-metrics --core-ghz 2.4 results/2025-01-01-host-calibrate\n",
};
PMUCAL_COMMAND(emit_command)

struct emit_args {
    int format;
    bool allow_incomplete;
    const char *output;
    struct emit_opts o;
};

static int emit_option(void *ctx, int key, const char *v)
{
    struct emit_args *a = ctx;
    char *end;
    switch (key) {
    case 'f':
        if ((a->format = emit_format_parse(v)) < 0)
            return cli_usage_error(&emit_command, "--format %s: give json, c, perf-metrics or csv", v);
        break;
    case K_CORE_GHZ:
        a->o.core_ghz = strtod(v, &end);
        if (*end || end == v || !(a->o.core_ghz > 0.05 && a->o.core_ghz < 20))
            return cli_usage_error(&emit_command, "--core-ghz %s: give a clock in GHz, e.g. 2.4", v);
        break;
    case K_PREFIX:
        a->o.prefix = v;
        break;
    case 'o':
        a->output = v;
        break;
    case K_ALLOW_INCOMPLETE:
        a->allow_incomplete = true;
        break;
    case K_MODEL:
        if (!cpu_model_named(v))
            return cli_usage_error(&emit_command, "--model %s: give one of %s", v, cpu_model_names());
        a->o.model = v;
        break;
    }
    return 0;
}

/* The manifest.json beside a penalties.json path, or NULL; its path into *where. */
static struct jvalue *manifest_beside(const char *path, char **where)
{
    char *dir = xstrdup(path), *slash = strrchr(dir, '/'), err[512];
    if (slash)
        *slash = '\0';
    *where = xasprintf("%s/manifest.json", slash ? dir : ".");
    free(dir);
    return access(*where, F_OK) ? NULL : jread_file(*where, err, sizeof(err));
}

/* A 'calibrate --source sim' run checks the models' occurrence counts: it has no penalties by design. */
static bool counting_run(const char *path)
{
    char *m;
    struct jvalue *man = manifest_beside(path, &m);
    const char *src = jget_str(man, "source", NULL);
    const struct jvalue *cmd = jget(man, "command");
    const char *sub = cmd && cmd->type == J_ARRAY && cmd->n > 1 ? jstr(&cmd->items[1]) : NULL;
    bool counting = src && strcmp(src, "perf") && sub && !strcmp(sub, "calibrate");
    if (counting)
        pm_error("%s: a 'calibrate --source %s' run: it checks the models' occurrence counts and holds no "
                 "penalties; name a run of 'pmucal calibrate' (--source perf)", m, src);
    jread_free(man);
    free(m);
    return counting;
}

/* A named run: one that did not end is refused unless allowed; one without penalties always. */
static bool refuse(const char *path, const struct jvalue *doc, bool allow_incomplete)
{
    const struct jvalue *ps = jget(doc, "penalties");
    if (ps && ps->type == J_ARRAY && ps->n == 0) {
        pm_error("%s holds no penalties (a 'calibrate --curve' run measures only the curve); name a run that "
                 "measured recipes", path);
        return true;
    }
    char *m, why[256];
    struct jvalue *man = manifest_beside(path, &m);
    const char *status = jget_str(man, "status", "unknown");
    bool stop = false;
    if (man && !manifest_complete(man, why, sizeof(why)) && strcmp(status, "unknown")) {
        if (!strcmp(status, RUN_FAILED))
            pm_warn("%s: %s; its penalties carry their own status (only 'ok' ones become constants)", m, why);
        else if (!allow_incomplete) {
            pm_error("%s: %s; its penalties may be partial: give --allow-incomplete to emit them anyway", m, why);
            stop = true;
        }
    }
    jread_free(man);
    free(m);
    return stop;
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
    struct emit_opts o = a.o;
    cli_args_free(&pos);
    if (format < 0)
        return cli_usage_error(&emit_command, "give --format json, c, perf-metrics or csv");
    char *path;
    struct stat st;
    if (!run)
        path = penalties_newest_run();
    else if (!stat(run, &st) && S_ISDIR(st.st_mode))
        path = xasprintf("%s/penalties.json", run);
    else
        path = xstrdup(run);
    if (!path || counting_run(path)) {
        free(path);
        return 2;
    }
    struct jvalue *doc = jread_load(path);
    if (!doc || refuse(path, doc, a.allow_incomplete)) {
        jread_free(doc);
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

/* pmucal info: what this host offers a measurement: CPU, PMU, topology, clocks, versions. */
#include "base/json.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "host/geometry.h"
#include "runs/hostfacts.h"
#include <stdio.h>
#include <string.h>

static int info_main(int argc, char **argv);

enum { K_JSON = CLI_LONG, K_MEASURE };

static const struct cli_option info_options[] = {
    {"json", K_JSON, NULL, "the facts as one JSON object (the manifest's host members)"},
    {"measure", K_MEASURE, NULL, "measure the cache levels on the latency curve now (a few seconds), whatever the "
                                 "cache holds, and store them in the cache"},
    CLI_END,
};

const struct command info_command = {
    .name = "info",
    .fn = info_main,
    .summary = "CPU, libpfm4 PMU and counters, whether hardware counting works, topology, clocks",
    .synopsis = "[--json] [--measure]",
    .usage = "Prints the facts every run records in its manifest. The cache levels are hwloc's, checked for\n"
             "plausibility (an associativity of 0, sizes no silicon has for the cores sharing them, missing\n"
             "levels, disagreement with CPUID leaves 4 / 0x8000001D / 0x80000006); the findings are named.\n"
             "A level found implausible is replaced by the capacity measured on the load-latency curve\n"
             "(random dependent loads, 4 sizes per octave from 4K until memory, the minimum of 3 sweeps):\n"
             "measured once per host when a run first needs it, then read from the cache\n"
             "($PMUCAL_CACHE_DIR, else $XDG_CACHE_HOME/pmucal, else ~/.cache/pmucal; one file per CPU model,\n"
             "hwloc view and Linux kernel). The table shows hwloc, CPUID, the measurement and what is used.\n"
             "Environment: PMUCAL_GEOMETRY=auto (default) | hwloc (take hwloc's levels as they are) |\n"
             "measure (measure again, ignoring the cache); PMUCAL_CURVE_FILE=CSV (bytes,cycles,ns per load:\n"
             "a recorded curve, such as calibrate's curve.csv, instead of measuring; for fixture hosts; read\n"
             "on every host: it replaces implausible levels and is shown beside plausible ones).\n",
    .options = info_options,
    .examples = "  pmucal info --json | jq .pmu\n",
};

struct info_opts {
    bool as_json, measure;
};

static int info_option(void *ctx, int key, const char *v)
{
    (void)v;
    struct info_opts *o = ctx;
    if (key == K_JSON)
        o->as_json = true;
    else
        o->measure = true;
    return 0;
}

static int info_main(int argc, char **argv)
{
    struct info_opts o = {0};
    if (cli_parse(&info_command, argc, argv, info_option, &o, NULL))
        return 2;
    if (o.measure && geometry_measure_now())
        return 1;
    bool as_json = o.as_json;
    if (!as_json) {
        host_facts_print(stdout);
        return fflush(stdout) ? 1 : 0;
    }
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    host_facts_json(&j);
    json_object_end(&j);
    int rc = json_write_line(&j, stdout);
    json_free(&j);
    return rc ? 1 : 0;
}

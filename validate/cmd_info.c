/* pmucal info: what this host offers a measurement: CPU, PMU, topology, clocks, versions. */
#include "cli.h"
#include "host.h"
#include "json.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static int info_main(int argc, char **argv);

enum { K_JSON = CLI_LONG };

static const struct cli_option info_options[] = {
    {"json", K_JSON, NULL, "the facts as one JSON object (the manifest's host members)"},
    CLI_END,
};

static const struct command info_command = {
    .name = "info",
    .fn = info_main,
    .summary = "CPU, libpfm4 PMU and counters, whether hardware counting works, topology, clocks",
    .synopsis = "[--json]",
    .usage = "Prints the facts every run records in its manifest.\n",
    .options = info_options,
    .examples = "  pmucal info --json | jq .pmu\n",
};
PMUCAL_COMMAND(info_command)

static int info_option(void *ctx, int key, const char *v)
{
    (void)v;
    *(bool *)ctx = key == K_JSON;
    return 0;
}

static int info_main(int argc, char **argv)
{
    bool as_json = false;
    if (cli_parse(&info_command, argc, argv, info_option, &as_json, NULL))
        return 2;
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

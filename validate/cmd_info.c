/* pmucal info: what this host offers a measurement: CPU, PMU, topology, clocks, versions. */
#include "cli.h"
#include "host.h"
#include "json.h"
#include "util.h"
#include <stdio.h>
#include <string.h>

static int info_main(int argc, char **argv);

static const struct command info_command = {
    .name = "info",
    .fn = info_main,
    .summary = "CPU, libpfm4 PMU and counters, whether hardware counting works, topology, clocks",
    .usage = "pmucal info [--json]\n\n"
             "Prints the facts every run records in its manifest. --json prints them as one JSON object\n"
             "(the manifest's host members), for scripts: pmucal info --json | jq .pmu\n",
};
PMUCAL_COMMAND(info_command)

static int info_main(int argc, char **argv)
{
    bool as_json = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            as_json = true;
        else
            return cli_usage_error(&info_command, "unknown argument %s", argv[i]);
    }
    if (!as_json) {
        host_facts_print(stdout);
        return 0;
    }
    struct json j;
    json_init(&j);
    json_object_begin(&j, NULL);
    host_facts_json(&j);
    json_object_end(&j);
    json_write_line(&j, stdout);
    json_free(&j);
    return 0;
}

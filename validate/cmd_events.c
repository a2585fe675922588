/* pmucal events: every event and unit mask of the host's core PMU (or --pmu NAME), from libpfm4,
 * one fully qualified string a line. */
#include "cli.h"
#include "pfm.h"
#include "json.h"
#include "util.h"
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <string.h>

static int events_main(int argc, char **argv);

enum { K_PMU = CLI_LONG, K_DESCRIBE, K_JSON };

static const struct cli_option events_options[] = {
    {"pmu", K_PMU, "NAME", "any PMU libpfm4 supports (skl, icx, spr, amd64_fam19h_zen4, ...),\npresent on this host or not (default: this host's core PMU)"},
    {"describe", K_DESCRIBE, NULL, "add each description after a tab"},
    {"json", K_JSON, NULL, "one JSON array of {name, event, umask, description} objects"},
    CLI_END,
};

static const struct command events_command = {
    .name = "events",
    .fn = events_main,
    .summary = "list every event and unit mask of the host PMU or of --pmu NAME (libpfm4)",
    .synopsis = "[--pmu NAME] [--describe | --json]",
    .usage = "One fully qualified libpfm4 string a line (PMU::EVENT:UMASK); the output is an event list\n"
             "file for 'pmucal validate'.\n",
    .options = events_options,
    .examples = "  pmucal events --pmu skl --describe\n"
                "  pmucal events --json | jq -r '.[] | select(.umask == null) | .name'\n",
};
PMUCAL_COMMAND(events_command)

struct events_args {
    const char *pmu;
    bool describe, json;
    struct json j;
};

static int print_one(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    struct events_args *a = arg;
    if (a->json) {
        json_object_begin(&a->j, NULL);
        json_string(&a->j, "name", fq);
        json_string(&a->j, "event", event);
        json_string(&a->j, "umask", umask);
        json_string(&a->j, "description", desc);
        json_object_end(&a->j);
    } else if (a->describe)
        printf("%s\t%s\n", fq, desc);
    else
        printf("%s\n", fq);
    return 0;
}

static int events_option(void *ctx, int key, const char *v)
{
    struct events_args *a = ctx;
    if (key == K_PMU)
        a->pmu = v;
    a->describe |= key == K_DESCRIBE;
    a->json |= key == K_JSON;
    return 0;
}

static int events_main(int argc, char **argv)
{
    struct events_args a = {0};
    if (cli_parse(&events_command, argc, argv, events_option, &a, NULL))
        return 2;
    if (a.describe && a.json)
        return cli_usage_error(&events_command, "--describe and --json: the JSON has the descriptions; give one");
    const char *pmu = a.pmu;
    struct pfm_core core;
    if (pmu ? !pfm_pmu_by_name(pmu, &core) : !pfm_core_pmu(&core)) {
        if (pmu)
            pm_error("--pmu %s: libpfm4 has no such PMU; examples: skl, icx, spr, amd64_fam19h_zen4", pmu);
        else
            pm_error("libpfm4 detected no core PMU for this CPU; name one with --pmu NAME");
        return 2;
    }
    json_init(&a.j);
    json_array_begin(&a.j, NULL);
    pfm_each_event(&core, print_one, &a);
    json_array_end(&a.j);
    int rc = a.json ? json_write_line(&a.j, stdout) : fflush(stdout);
    json_free(&a.j);
    return rc ? 1 : 0;
}

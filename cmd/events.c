/* pmucal events: every event and unit mask of the host's core PMU (or --pmu NAME), from libpfm4,
 * one fully qualified string a line; where libpfm4 does not know the model (or with --vendor-json),
 * the vendor table's events, each with its source. */
#include "base/json.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/event_listing.h"
#include <stdio.h>

static int events_main(int argc, char **argv);

enum { K_PMU = CLI_LONG, K_VENDOR_JSON, K_DESCRIBE, K_JSON };

static const struct cli_option events_options[] = {
    {"pmu", K_PMU, "NAME", "any PMU libpfm4 supports (skl, icx, spr, amd64_fam19h_zen4, ...),\n"
                           "present on this host or not (default: this host's core PMU)"},
    {"vendor-json", K_VENDOR_JSON, "PATH", "list this vendor table's events instead of libpfm4's"},
    {"describe", K_DESCRIBE, NULL, "add, tab-separated, the description (libpfm4) or the perf encoding\n"
                                   "and description (table)"},
    {"json", K_JSON, NULL, "one JSON array of events (name, description, and event/umask or\n"
                           "encoding/source) instead of lines"},
    CLI_END,
};

const struct command events_command = {
    .name = "events",
    .fn = events_main,
    .summary = "list every event of the host PMU, --pmu NAME (libpfm4) or the vendor table",
    .synopsis = "[--pmu NAME | --vendor-json PATH] [--describe | --json]",
    .usage = "One event a line; the output is an event list file for 'pmucal validate'.\n"
             "libpfm4 first: one fully qualified string a line (PMU::EVENT:UMASK) for the host's core PMU\n"
             "or --pmu NAME. Where libpfm4 knows no core PMU for this CPU, the vendor table for its CPUID\n"
             "(perf's mapfile under $PMUCAL_EVENTDATA, default the eventdata/ pmucal ships; PMUCAL_CPUID=VENDOR-\n"
             "FAMILY-MODEL overrides the signature), or the table --vendor-json names: a '# source'\n"
             "header, then each event by the table's name with its source file as a comment.\n",
    .options = events_options,
    .examples = "  pmucal events --pmu skl --describe\n"
                "  pmucal events --json | jq -r '.[].name'\n",
};

struct events_args {
    const char *pmu, *vpath;
    struct event_listing l;
    struct json j;
};

static int events_option(void *ctx, int key, const char *v)
{
    struct events_args *a = ctx;
    if (key == K_PMU)
        a->pmu = v;
    else if (key == K_VENDOR_JSON)
        a->vpath = v;
    a->l.describe |= key == K_DESCRIBE;
    a->l.json |= key == K_JSON;
    return 0;
}

static int events_main(int argc, char **argv)
{
    struct events_args a = {0};
    if (cli_parse(&events_command, argc, argv, events_option, &a, NULL))
        return 2;
    if (a.l.describe && a.l.json)
        return cli_usage_error(&events_command, "--describe and --json: the JSON has the descriptions; give one");
    if (a.pmu && a.vpath)
        return cli_usage_error(&events_command, "give --pmu NAME or --vendor-json PATH, not both");
    a.l.j = &a.j;
    json_init(&a.j);
    json_array_begin(&a.j, NULL);
    int rc = events_list(a.pmu, a.vpath, &a.l);
    json_array_end(&a.j);
    if (!rc)
        rc = (a.l.json ? json_write_line(&a.j, stdout) : fflush(stdout)) ? 1 : 0;
    json_free(&a.j);
    return rc;
}

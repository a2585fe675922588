/* pmucal events: every event and unit mask of the host's core PMU (or --pmu NAME), from libpfm4,
 * one fully qualified string a line; where libpfm4 does not know the model (or with --vendor-json),
 * the vendor table's events, each with its source. */
#include "base/json.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/event_listing.h"
#include <stdio.h>

static int events_main(int argc, char **argv);

enum { K_PMU = CLI_LONG, K_VENDOR_JSON, K_DESCRIBE, K_JSON, K_OPEN };

static const struct cli_option events_options[] = {
    {"pmu", K_PMU, "NAME", "any PMU libpfm4 supports (skl, icx, spr, amd64_fam19h_zen4, ...),\n"
                           "present on this host or not (default: this host's core PMU)"},
    {"vendor-json", K_VENDOR_JSON, "PATH", "list this vendor table's events instead of libpfm4's"},
    {"describe", K_DESCRIBE, NULL, "add, tab-separated, the description (libpfm4) or the perf encoding\n"
                                   "and description (table)"},
    {"json", K_JSON, NULL, "one JSON array of events (name, description, and event/umask or\n"
                           "encoding/source) instead of lines"},
    {"open", K_OPEN, NULL, "ask the Linux kernel for each event (opened on this thread counting\n"
                           "user space, then closed), perf's generic hardware and cache events\n"
                           "first: a line NAME, verdict (opens, opens-unfiltered, unencodable, or\n"
                           "the errno: ENOENT, EINVAL, ...), perf encoding, source, and what a\n"
                           "refusal means, tab-separated; a RISC-V table's events are encoded\n"
                           "through the sysfs cpu PMU's type and format"},
    CLI_END,
};

const struct command events_command = {
    .name = "events",
    .fn = events_main,
    .summary = "list every event of the host PMU, --pmu NAME (libpfm4) or the vendor table",
    .synopsis = "[--pmu NAME | --vendor-json PATH] [--describe | --json] [--open]",
    .usage = "One event a line; the output is an event list file for 'pmucal validate'.\n"
             "libpfm4 first: one fully qualified string a line (PMU::EVENT:UMASK) for the host's core PMU\n"
             "or --pmu NAME. Where libpfm4 knows no core PMU for this CPU, the vendor table for its CPUID\n"
             "(perf's mapfile under $PMUCAL_EVENTDATA, default the eventdata/ pmucal ships; PMUCAL_CPUID=VENDOR-\n"
             "FAMILY-MODEL overrides the signature), or the table --vendor-json names: a '# source'\n"
             "header, then each event by the table's name with its source file as a comment.\n"
             "A RISC-V CPU (mvendorid-marchid-mimpid; PMUCAL_CPUID=0x489-0x8000000000000007-0x0) whose\n"
             "mapfile row names no table gets the SBI firmware events every riscv-pmu-sbi host has.\n"
             "--open says, per event, whether it opens here and why not.\n",
    .options = events_options,
    .examples = "  pmucal events --pmu skl --describe\n"
                "  pmucal events --json | jq -r '.[].name'\n"
                "  pmucal events --open | awk -F'\\t' '$2 == \"opens\"'\n",
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
    a->l.open |= key == K_OPEN;
    return 0;
}

static int events_main(int argc, char **argv)
{
    struct events_args a = {0};
    if (cli_parse(&events_command, argc, argv, events_option, &a, NULL))
        return 2;
    if (a.l.describe && a.l.json)
        return cli_usage_error(&events_command, "--describe and --json: the JSON has the descriptions; give one");
    if (a.l.describe && a.l.open)
        return cli_usage_error(&events_command, "--describe and --open: --open's lines have the encodings; give one");
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

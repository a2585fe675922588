/* pmucal events: every event and unit mask of the host's core PMU (or --pmu NAME), from libpfm4,
 * one fully qualified string a line; where libpfm4 does not know the model (or with --vendor-json),
 * the vendor table's events, each with its source. */
#include "base/json.h"
#include "base/util.h"
#include "cmd/cli.h"
#include "cmd/commands.h"
#include "events/catalog.h"
#include "events/perfsyntax.h"
#include "events/pfm.h"
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void print_catalog(const struct catalog *c, struct events_args *a)
{
    if (!a->json)
        printf("# source: %s (%s); %d programmable counters (%s)\n", c->path, c->how, c->counters, c->counters_how);
    if (!a->json && catalog_libpfm4_note(c->name))
        printf("# libpfm4: %s\n", catalog_libpfm4_note(c->name));
    /* The core events, then the uncore units' (counted CPU-wide for the socket, events/uncore.h). */
    for (int i = 0; i < c->vt.n + c->vt.nuncore; i++) {
        const struct vendor_event *v = i < c->vt.n ? &c->vt.ev[i] : &c->vt.uncore[i - c->vt.n];
        if (i == c->vt.n && c->vt.nuncore && !a->json)
            printf("# uncore: %d events of the memory controllers, counted CPU-wide for the measuring CPU's socket "
                   "(every instance summed)\n", c->vt.nuncore);
        const char *file = strrchr(v->file, '/') ? strrchr(v->file, '/') + 1 : v->file;
        char *perf = NULL;
        if (a->describe || a->json) {
            struct event_spec spec = {0};
            vendor_event_spec(v, &spec);
            perf = perf_syntax_of(&spec);
        }
        if (a->json) {
            char *source = xasprintf("%s/%s", c->name, file);
            json_object_begin(&a->j, NULL);
            json_string(&a->j, "name", v->name);
            json_string(&a->j, "encoding", perf);
            json_string(&a->j, "source", source);
            json_bool(&a->j, "deprecated", v->deprecated);
            if (v->unit)
                json_string(&a->j, "uncore", v->unit);
            json_string(&a->j, "description", v->desc);
            json_object_end(&a->j);
            free(source);
        } else if (a->describe) {
            printf("%s\t%s\t%s/%s%s\t%s\n", v->name, perf, c->name, file, v->deprecated ? " (deprecated)" : "",
                   v->desc);
        } else {
            printf("%-50s # %s/%s%s%s%s\n", v->name, c->name, file, v->deprecated ? " (deprecated)" : "",
                   v->unit ? ", uncore " : "", v->unit ? v->unit : "");
        }
        free(perf);
    }
}

static int events_option(void *ctx, int key, const char *v)
{
    struct events_args *a = ctx;
    if (key == K_PMU)
        a->pmu = v;
    else if (key == K_VENDOR_JSON)
        a->vpath = v;
    a->describe |= key == K_DESCRIBE;
    a->json |= key == K_JSON;
    return 0;
}

/* The listing into a's JSON array or onto stdout: 0, or an exit status. */
static int list_events(struct events_args *a)
{
    struct pfm_core core;
    if (!a->vpath && (a->pmu ? pfm_pmu_by_name(a->pmu, &core) : pfm_core_pmu(&core))) {
        pfm_each_event(&core, print_one, a);
        return 0;
    }
    if (a->pmu) {
        pm_error("--pmu %s: libpfm4 has no such PMU; examples: skl, icx, spr, amd64_fam19h_zen4", a->pmu);
        return 2;
    }
    struct catalog own = {0};
    char why[512] = "";
    const struct catalog *c = NULL;
    if (a->vpath) {
        if (catalog_load(&own, a->vpath))
            return 2;
        c = &own;
    } else if (!(c = catalog_active(why, sizeof(why)))) {
        pm_error("libpfm4 detected no core PMU for this CPU, and no vendor table was found: %s; name one with "
                 "--pmu NAME or --vendor-json PATH", why);
        return 2;
    }
    print_catalog(c, a);
    catalog_free(&own);
    return 0;
}

static int events_main(int argc, char **argv)
{
    struct events_args a = {0};
    if (cli_parse(&events_command, argc, argv, events_option, &a, NULL))
        return 2;
    if (a.describe && a.json)
        return cli_usage_error(&events_command, "--describe and --json: the JSON has the descriptions; give one");
    if (a.pmu && a.vpath)
        return cli_usage_error(&events_command, "give --pmu NAME or --vendor-json PATH, not both");
    json_init(&a.j);
    json_array_begin(&a.j, NULL);
    int rc = list_events(&a);
    json_array_end(&a.j);
    if (!rc)
        rc = (a.json ? json_write_line(&a.j, stdout) : fflush(stdout)) ? 1 : 0;
    json_free(&a.j);
    return rc;
}

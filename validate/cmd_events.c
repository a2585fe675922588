/* pmucal events: every event and unit mask of the host's core PMU (or --pmu NAME), from libpfm4,
 * one fully qualified string a line; where libpfm4 does not know the model (or with --vendor-json),
 * the vendor table's events, each with its source. */
#include "catalog.h"
#include "cli.h"
#include "perfsyntax.h"
#include "pfm.h"
#include "util.h"
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int events_main(int argc, char **argv);

static const struct command events_command = {
    .name = "events",
    .fn = events_main,
    .summary = "list every event of the host PMU, --pmu NAME (libpfm4) or the vendor table",
    .usage = "pmucal events [--pmu NAME | --vendor-json PATH] [--describe]\n\n"
             "One event a line; the output is an event list file for 'pmucal validate'.\n"
             "libpfm4 first: one fully qualified string a line (PMU::EVENT:UMASK) for the host's core PMU\n"
             "or --pmu NAME (any PMU libpfm4 supports: skl, icx, spr, amd64_fam19h_zen4, ...).\n"
             "Where libpfm4 knows no core PMU for this CPU, the vendor table for its CPUID (perf's\n"
             "mapfile under $PMUCAL_EVENTDATA, default ../shared/eventdata; PMUCAL_CPUID=VENDOR-FAMILY-\n"
             "MODEL overrides the signature), or the table --vendor-json names: a '# source' header, then\n"
             "each event by the table's name with its source file as a comment. --describe adds, tab-\n"
             "separated, the description (libpfm4) or the perf encoding and description (table).\n",
};
PMUCAL_COMMAND(events_command)

static int print_one(const char *fq, const char *event, const char *umask, const char *desc, void *arg)
{
    (void)event, (void)umask;
    if (*(bool *)arg)
        printf("%s\t%s\n", fq, desc);
    else
        printf("%s\n", fq);
    return 0;
}

static void print_catalog(const struct catalog *c, bool describe)
{
    printf("# source: %s (%s); %d programmable counters (%s)\n", c->path, c->how, c->counters, c->counters_how);
    for (int i = 0; i < c->vt.n; i++) {
        const struct vendor_event *v = &c->vt.ev[i];
        const char *file = strrchr(v->file, '/') ? strrchr(v->file, '/') + 1 : v->file;
        if (describe) {
            struct event_spec spec = {0};
            vendor_event_spec(v, &spec);
            char *perf = perf_syntax_of(&spec);
            printf("%s\t%s\t%s/%s%s\t%s\n", v->name, perf, c->name, file, v->deprecated ? " (deprecated)" : "",
                   v->desc);
            free(perf);
        } else {
            printf("%-50s # %s/%s%s\n", v->name, c->name, file, v->deprecated ? " (deprecated)" : "");
        }
    }
}

static int events_main(int argc, char **argv)
{
    const char *pmu = NULL, *vpath = NULL;
    bool describe = false;
    for (int i = 1; i < argc; i++) {
        bool bad = false;
        const char *v = cli_opt(argc, argv, &i, "--pmu", NULL, &bad);
        if (v)
            pmu = v;
        else if ((v = cli_opt(argc, argv, &i, "--vendor-json", NULL, &bad)))
            vpath = v;
        else if (!strcmp(argv[i], "--describe"))
            describe = true;
        else
            return cli_usage_error(&events_command, bad ? "%s needs a value" : "unknown argument %s", argv[i]);
    }
    struct pfm_core core;
    if (pmu && vpath)
        return cli_usage_error(&events_command, "give --pmu NAME or --vendor-json PATH, not both");
    if (!vpath && (pmu ? pfm_pmu_by_name(pmu, &core) : pfm_core_pmu(&core))) {
        pfm_each_event(&core, print_one, &describe);
        return 0;
    }
    if (pmu) {
        pm_error("--pmu %s: libpfm4 has no such PMU; examples: skl, icx, spr, amd64_fam19h_zen4", pmu);
        return 2;
    }
    struct catalog own = {0};
    char why[512] = "";
    const struct catalog *c = NULL;
    if (vpath) {
        if (catalog_load(&own, vpath))
            return 2;
        c = &own;
    } else if (!(c = catalog_active(why, sizeof(why)))) {
        pm_error("libpfm4 detected no core PMU for this CPU, and no vendor table was found: %s; name one with "
                 "--pmu NAME or --vendor-json PATH", why);
        return 2;
    }
    print_catalog(c, describe);
    catalog_free(&own);
    return 0;
}

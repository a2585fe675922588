/* pmucal events: every event and unit mask of the host's core PMU (or --pmu NAME), from libpfm4,
 * one fully qualified string a line. */
#include "cli.h"
#include "pfm.h"
#include "util.h"
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <string.h>

static int events_main(int argc, char **argv);

static const struct command events_command = {
    .name = "events",
    .fn = events_main,
    .summary = "list every event and unit mask of the host PMU or of --pmu NAME (libpfm4)",
    .usage = "pmucal events [--pmu NAME] [--describe]\n\n"
             "One fully qualified libpfm4 string a line (PMU::EVENT:UMASK); the output is an event list\n"
             "file for 'pmucal validate'. --pmu names any PMU libpfm4 supports (skl, icx, spr,\n"
             "amd64_fam19h_zen4, ...), present on this host or not. --describe adds each description.\n",
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

static int events_main(int argc, char **argv)
{
    const char *pmu = NULL;
    bool describe = false;
    for (int i = 1; i < argc; i++) {
        bool bad = false;
        const char *v = cli_opt(argc, argv, &i, "--pmu", NULL, &bad);
        if (v)
            pmu = v;
        else if (!strcmp(argv[i], "--describe"))
            describe = true;
        else
            return cli_usage_error(&events_command, bad ? "%s needs a value" : "unknown argument %s", argv[i]);
    }
    struct pfm_core core;
    if (pmu ? !pfm_pmu_by_name(pmu, &core) : !pfm_core_pmu(&core)) {
        if (pmu)
            pm_error("--pmu %s: libpfm4 has no such PMU; examples: skl, icx, spr, amd64_fam19h_zen4", pmu);
        else
            pm_error("libpfm4 detected no core PMU for this CPU; name one with --pmu NAME");
        return 2;
    }
    pfm_each_event(&core, print_one, &describe);
    return 0;
}

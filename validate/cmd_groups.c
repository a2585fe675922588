/* pmucal groups: the scheduler's grouping of an event list, one group a line, for perf users. */
#include "options.h"
#include "schedule.h"
#include "util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int groups_main(int argc, char **argv);

static const struct command groups_command = {
    .name = "groups",
    .fn = groups_main,
    .summary = "print how the scheduler groups an event list (one group a line, for perf stat -e)",
    .usage = "pmucal groups -e LIST|FILE|all [--group-size N|auto] [--pmu NAME] [--vendor-json PATH] [--why]\n\n"
             "Nothing is measured: the events are resolved (libpfm4; --pmu forces any PMU) and placed\n"
             "first-fit into groups of at most N programmable counters, respecting counter restrictions\n"
             "from --vendor-json, the shared offcore/load-latency/front-end MSRs, and fixed-counter-only\n"
             "events. Each line is one group, comma-separated, ready for perf stat -e '{...}'.\n"
             "--why adds a comment line per restricted event. scripts/groups.jq does the plain\n"
             "N-at-a-time part with jq alone.\n",
};
PMUCAL_COMMAND(groups_command)

static int groups_main(int argc, char **argv)
{
    struct measure_cli o;
    measure_cli_init(&o);
    bool why = false;
    for (int i = 1; i < argc; i++) {
        int rc = measure_cli_parse(&groups_command, &o, argc, argv, &i);
        if (rc < 0)
            return 2;
        if (rc)
            continue;
        if (!strcmp(argv[i], "--why"))
            why = true;
        else
            return cli_usage_error(&groups_command, "unknown argument %s", argv[i]);
    }
    struct engine e;
    struct event_spec *ev;
    int n;
    if (measure_cli_engine(&o, &e, &ev, &n)) {
        vendor_free(&o.vt);
        free(o.auto_expect);
        return 2;
    }
    struct sched_info *info = xcalloc((size_t)(n ? n : 1), sizeof(*info));
    for (int k = 0; k < n; k++) {
        schedule_info(&ev[k], e.pmu, e.vt, e.ncounters, &info[k]);
        if (why && info[k].why[0])
            printf("# %s: %s\n", ev[k].name, info[k].why);
    }
    struct schedule s;
    schedule_build(ev, info, n, e.group_size, e.ncounters, NULL, &s);
    for (int g = 0; g < s.ngroups; g++) {
        for (int j = 0; j < s.count[g]; j++)
            printf("%s%s", j ? "," : "", ev[s.order[s.start[g] + j]].name);
        printf("\n");
    }
    schedule_free(&s);
    free(info);
    engine_free_events(ev, n);
    engine_free(&e);
    vendor_free(&o.vt);
    free(o.auto_expect);
    return 0;
}

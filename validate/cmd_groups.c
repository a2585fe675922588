/* pmucal groups: the scheduler's grouping of an event list, one group a line, for perf users. */
#include "options.h"
#include "perfsyntax.h"
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
    .usage = "pmucal groups -e LIST|FILE|all [--group-size N|auto] [--pmu NAME] [--vendor-json PATH] [--why]\n"
             "              [--names]\n\n"
             "Nothing is measured: the events are resolved (libpfm4; --pmu forces any PMU; else the vendor\n"
             "table, see validate --help) and placed first-fit into groups of at most N programmable\n"
             "counters (auto: the model's counters), respecting counter restrictions from the table, the\n"
             "shared offcore/load-latency/front-end MSRs, fixed-counter-only events and the list's own\n"
             "{a,b,c} groups. Each line is one group in perf's syntax, as perf stat -e takes it:\n"
             "  {r4300c0:u,r4301c2:u,page-faults:u}\n"
             "raw events as rNNNN (cpu/config=..,config1=../ when an MSR value is needed), each with the\n"
             "privilege pmucal counts at (:u by default, :k, :uk). --why adds comment lines: each group's\n"
             "events by the names given, and each restricted event's restriction. scripts/groups.jq does\n"
             "the plain N-at-a-time part with jq alone. --names prints each group by the names as given,\n"
             "comma-separated without braces (a list for pmucal -e, as scripts/groups.jq prints it).\n",
};
PMUCAL_COMMAND(groups_command)

static int groups_main(int argc, char **argv)
{
    struct measure_cli o;
    measure_cli_init(&o);
    bool why = false, names = false;
    for (int i = 1; i < argc; i++) {
        int rc = measure_cli_parse(&groups_command, &o, argc, argv, &i);
        if (rc < 0)
            return 2;
        if (rc)
            continue;
        if (!strcmp(argv[i], "--why"))
            why = true;
        else if (!strcmp(argv[i], "--names"))
            names = true;
        else
            return cli_usage_error(&groups_command, "unknown argument %s", argv[i]);
    }
    struct engine e;
    struct event_spec *ev;
    int n;
    if (measure_cli_engine(&o, &e, &ev, &n)) {
        measure_cli_tables_free(&o);
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
        if (why) {
            printf("# group %d:", g + 1);
            for (int j = 0; j < s.count[g]; j++)
                printf("%s %s", j ? "," : "", ev[s.order[s.start[g] + j]].name);
            printf("\n");
        }
        printf("%s", names ? "" : "{");
        for (int j = 0; j < s.count[g]; j++) {
            const struct event_spec *one = &ev[s.order[s.start[g] + j]];
            char *perf = names ? xstrdup(one->name) : perf_syntax_of(one);
            printf("%s%s", j ? "," : "", perf);
            free(perf);
        }
        printf("%s\n", names ? "" : "}");
    }
    schedule_free(&s);
    free(info);
    engine_free_events(ev, n);
    engine_free(&e);
    measure_cli_tables_free(&o);
    free(o.auto_expect);
    return 0;
}

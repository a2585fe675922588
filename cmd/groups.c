/* pmucal groups: the scheduler's grouping of an event list, one group a line, for perf users. */
#include "base/util.h"
#include "cmd/commands.h"
#include "cmd/options.h"
#include "validate/group_lines.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int groups_main(int argc, char **argv);

enum { K_WHY = CLI_LONG, K_NAMES };

static const struct cli_option groups_options[] = {
    MO_EVENTS, MO_GROUP_SIZE, MO_PMU, MO_VENDOR_JSON, MO_SOURCE,
    {"why", K_WHY, NULL, "comment lines: each group's events by the names given, and each\n"
                         "restricted event's restriction"},
    {"names", K_NAMES, NULL, "each group by the names as given, comma-separated without braces\n"
                             "(a list for pmucal -e, as scripts/groups.jq prints it)"},
    CLI_END,
};

const struct command groups_command = {
    .name = "groups",
    .fn = groups_main,
    .summary = "print how the scheduler groups an event list (one group a line, for perf stat -e)",
    .synopsis = "-e LIST|FILE|all [options]",
    .usage = "Nothing is measured: the events are resolved (libpfm4; --pmu forces any PMU; else the vendor\n"
             "table, see validate --help) and placed first-fit into groups of at most N programmable\n"
             "counters (auto: the model's counters), respecting counter restrictions from the table, the\n"
             "shared offcore/load-latency/front-end MSRs, fixed-counter-only events and the list's own\n"
             "{a,b,c} groups. Each line is one group in perf's syntax, as perf stat -e takes it:\n"
             "  {r4300c0:u,r4301c2:u,page-faults:u}\n"
             "raw events as rNNNN (cpu/config=..,config1=../ when an MSR value is needed), each with the\n"
             "privilege pmucal counts at (:u by default, :k, :uk). scripts/groups.jq does the plain\n"
             "N-at-a-time part with jq alone.\n",
    .options = groups_options,
    .examples = "  pmucal groups -e my-events.txt --pmu skl --why\n",
};

struct groups_args {
    struct measure_cli o;
    bool why, names;
};

static int groups_option(void *ctx, int key, const char *v)
{
    struct groups_args *a = ctx;
    int rc = measure_cli_option(&groups_command, &a->o, key, v);
    if (rc < 0) {
        a->why |= key == K_WHY;
        a->names |= key == K_NAMES;
    }
    return rc < 0 ? 0 : rc;
}

static int groups_main(int argc, char **argv)
{
    struct groups_args a = {.why = false};
    measure_cli_init(&a.o);
    if (cli_parse(&groups_command, argc, argv, groups_option, &a, NULL))
        return 2;
    struct measure_cli o = a.o;
    bool why = a.why, names = a.names;
    struct engine eng;
    struct event_spec *ev;
    int n;
    if (measure_cli_engine(&o, &eng, &ev, &n)) {
        measure_cli_tables_free(&o);
        free(o.auto_expect);
        return 2;
    }
    group_lines_print(ev, n, &eng, why, names);
    engine_free_events(ev, n);
    engine_free(&eng);
    measure_cli_tables_free(&o);
    free(o.auto_expect);
    return 0;
}

/* Options that 'run' and 'validate' share, parsed in one place. */
#ifndef PMUCAL_OPTIONS_H
#define PMUCAL_OPTIONS_H
#include "cli.h"
#include "engine.h"

struct measure_cli {
    const char *events;       /* -e list */
    const char *source;       /* --source */
    const char *expect;       /* --expect FILE: extra rules */
    const char *label, *out;  /* results folder */
    bool json;
    struct measure_opts m;
    int group_size;
};

#define MEASURE_CLI_OPTIONS_HELP \
    "  -e, --events LIST    events, comma-separated: libpfm4 names (pmucal events), perf generic\n" \
    "                       and software names (default: " "instructions,branches,branch-misses,\n" \
    "                       cycles,page-faults,cpu-migrations,context-switches); with --source sim\n" \
    "                       sim::NAME for NAME in Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm\n" \
    "                       Bi Bim (default: all 13)\n" \
    "  -r, --repetitions N  repetitions per measurement, 1..101 (default 5)\n" \
    "  --group-size N       programmable events per group (default 4)\n" \
    "  --iters N            iterations per measured run (default: about --target-ms of work;\n" \
    "                       with --source sim a fixed 10000, deterministic)\n" \
    "  --target-ms MS       length of one measured run when iterations are automatic (default 20)\n" \
    "  --source NAME        counter source: perf (default), sim (pmucal re-runs itself under\n" \
    "                       valgrind's callgrind: exact instruction, load, store, branch counts and\n" \
    "                       simulated cache misses and mispredicts, caches sized from hwloc;\n" \
    "                       rules from validate/expect/sim.txt; needs the Debian package valgrind)\n" \
    "  --expect FILE        more expectation rules (EVENT EXPRESSION TOLERANCE a line)\n"

void measure_cli_init(struct measure_cli *o);
/* Consumes argv[*i] (and its value) when it is a shared option: 1 consumed, 0 not ours,
 * -1 bad (message printed). */
int measure_cli_parse(const struct command *c, struct measure_cli *o, int argc, char **argv, int *i);
/* The -e list, or the source's default list, or engine_default_events. */
const char *measure_cli_events(const struct measure_cli *o, const struct source *src);
/* The source's prepare_process hook (e.g. sim re-executes the command under valgrind), called
 * after the options, rules and events are checked: SOURCE_CONTINUE, SOURCE_DONE with *status,
 * or -1 (message printed). */
int measure_cli_prepare(const struct measure_cli *o, const struct engine *e, int argc, char **argv, int *status);
/* Source, rules and events from the options into an engine. -1 with a message. */
int measure_cli_engine(const struct measure_cli *o, struct engine *e, struct event_spec **events, int *nevents);

#endif

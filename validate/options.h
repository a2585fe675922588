/* Options that 'run' and 'validate' share, parsed in one place. */
#ifndef PMUCAL_OPTIONS_H
#define PMUCAL_OPTIONS_H
#include "cli.h"
#include "engine.h"
#include "catalog.h"
#include "vendor.h"

struct measure_cli {
    const char *events;       /* -e list */
    const char *source;       /* --source */
    const char *expect;       /* --expect FILE: extra rules */
    const char *pmu;          /* --pmu NAME: libpfm4 PMU for 'all', restrictions and the expectation file */
    const char *vendor_json;  /* --vendor-json PATH */
    bool no_auto_expect;      /* --no-auto-expect: only built-in rules and --expect */
    bool group_auto;          /* --group-size auto */
    char *auto_expect;        /* the expectation file loaded automatically, NULL when none */
    struct vendor_table vt;
    struct catalog cat;       /* --vendor-json as the catalogue names resolve against (borrows vt) */
    const char *label, *out;  /* results folder */
    bool json;
    struct measure_opts m;
    int group_size;
};

#define MEASURE_CLI_OPTIONS_HELP \
    "  -e, --events LIST|FILE|all\n" \
    "                       events: comma-separated libpfm4 or vendor-table names (pmucal events),\n" \
    "                       perf generic and software names, perf's rNNNN, cpu/event=0x..,umask=\n" \
    "                       0x..,cmask=N,inv,edge/, :u/:k/:uk, {a,b,c} groups; or a list file (a\n" \
    "                       path with '/' that is not perf syntax, or an existing\n" \
    "                       file: one event a line, '#' comments, modifiers like :c=1:i=1:e=1:u:k);\n" \
    "                       or 'all' (every event and unit mask of the PMU). Default:\n" \
    "                       instructions,branches,branch-misses,cycles,page-faults,cpu-migrations,\n" \
    "                       context-switches\n" \
    "  -r, --repetitions N  repetitions per measurement, 1..101 (default 5)\n" \
    "  --group-size N|auto  programmable events per group (default 4); auto: libpfm4's counter count,\n" \
    "                       which assumes SMT off (skl 8, icx 16), or the vendor table's counter\n" \
    "                       lists when --vendor-json is given; a group that does not fit is split\n" \
    "                       and retried\n" \
    "  --pmu NAME           libpfm4 PMU (default: this host's) for 'all', counter restrictions and\n" \
    "                       the expectation file; another PMU is forced with LIBPFM_FORCE_PMU (a\n" \
    "                       note says so when it is not this host's model)\n" \
    "  --vendor-json PATH   vendor event table (file or folder): its event names, counter\n" \
    "                       restrictions and errata. Where libpfm4 does not know the host, the\n" \
    "                       table comes from the host's CPUID through the mapfile of\n" \
    "                       $PMUCAL_EVENTDATA (default ../shared/eventdata), as perf does\n" \
    "                       With --source sim: sim::NAME for NAME in Ir Dr Dw I1mr D1mr D1mw ILmr\n" \
    "                       DLmr DLmw Bc Bcm Bi Bim (default: all 13)\n" \
    "  --iters N            iterations per measured run (default: about --target-ms of work;\n" \
    "                       with --source sim a fixed 10000, deterministic)\n" \
    "  --target-ms MS       length of one measured run when iterations are automatic (default 20)\n" \
    "  --source NAME        counter source: perf (default), sim (pmucal re-runs itself under\n" \
    "                       valgrind's callgrind: exact instruction, load, store, branch counts and\n" \
    "                       simulated cache misses and mispredicts, caches sized from hwloc;\n" \
    "                       rules from validate/expect/sim.txt; needs the Debian package valgrind)\n" \
    "  --expect FILE        more expectation rules (EVENT EXPRESSION TOLERANCE a line)\n" \
    "  --no-auto-expect     do not load validate/expect/<pmu>.txt (or <source>.txt) automatically\n"

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
/* The vendor table and catalogue the options loaded. */
void measure_cli_tables_free(struct measure_cli *o);
/* Source, rules and events from the options into an engine. -1 with a message. */
int measure_cli_engine(struct measure_cli *o, struct engine *e, struct event_spec **events, int *nevents);

#endif

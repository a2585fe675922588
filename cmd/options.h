/* Options that 'run' and 'validate' share, parsed in one place. */
#ifndef PMUCAL_OPTIONS_H
#define PMUCAL_OPTIONS_H
#include "cmd/cli.h"
#include "events/catalog.h"
#include "events/vendor.h"
#include "validate/engine.h"

struct measure_cli {
    const char *events;       /* -e list */
    const char *source;       /* --source */
    const char *expect;       /* --expect FILE: extra rules */
    const char *pmu;          /* --pmu NAME: libpfm4 PMU for 'all', restrictions and the rule file */
    const char *vendor_json;  /* --vendor-json PATH */
    bool no_auto_expect;      /* --no-auto-expect: only built-in rules and --expect */
    bool group_auto;          /* --group-size auto */
    char *auto_expect;        /* the rule file loaded automatically, NULL when none */
    struct vendor_table vt;
    struct catalog cat;       /* --vendor-json as the catalog names resolve against (borrows vt) */
    const char *label, *out;  /* run folder */
    bool json;
    struct measure_opts m;
    int group_size;
    /* --resume: the texts of the -e list file and of --expect as the run kept them in its folder
     * (validate's RUN_EVENTS_COPY, RUN_EXPECT_COPY), read instead of any path its manifest names;
     * with resumed set, an -e without a copy is a list, never a file. */
    bool resumed;
    char *events_text, *expect_text;
    char *events_origin, *expect_origin;
    int cpu;                  /* --cpu N, -1: the least loaded of the affinity mask (measure_cli_engine) */
    int second_cpu;           /* --cpus A,B: B, the CPU of a kernel's second thread (snoop's writer); -1 */
    double cpu_busy;          /* that CPU's busy fraction when chosen (NaN when asked) */
};

/* Keys of the shared options; each command lists the ones it takes with the MO_* entries. */
enum measure_cli_key {
    MK_EVENTS = 'e',
    MK_REPS = 'r',
    MK_GROUP_SIZE = CLI_LONG + 100,
    MK_PMU,
    MK_VENDOR_JSON,
    MK_ITERS,
    MK_TARGET_MS,
    MK_SOURCE,
    MK_EXPECT,
    MK_NO_AUTO_EXPECT,
    MK_LABEL,
    MK_OUT,
    MK_JSON,
    MK_CPU,
    MK_CPUS,
};

#define MO_EVENTS {"events", MK_EVENTS, "LIST|FILE|all", \
    "events: comma-separated libpfm4 or vendor-table names (pmucal events),\n" \
    "perf generic and software names, perf's rNNNN, cpu/event=0x..,umask=\n" \
    "0x..,cmask=N,inv,edge/, :u/:k/:uk, {a,b,c} groups; or a list file (a\n" \
    "path with '/' that is not perf syntax, or an existing file: one event\n" \
    "a line, '#' comments, modifiers like :c=1:i=1:e=1:u:k);\n" \
    "or 'all' (every event and unit mask of the PMU). Default:\n" \
    "instructions,branches,branch-misses,cycles,page-faults,cpu-migrations,\n" \
    "context-switches. With --source sim: sim::NAME for NAME in Ir Dr Dw\n" \
    "I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm Bi Bim (default: all 13)"}
#define MO_REPS {"repetitions", MK_REPS, "N", "repetitions per measurement, 1..101 (default 5)"}
#define MO_GROUP_SIZE {"group-size", MK_GROUP_SIZE, "N|auto", \
    "programmable events per group (default 4); auto: libpfm4's counter count,\n" \
    "which assumes SMT off (skl 8, icx 16), or the vendor table's counter\n" \
    "lists when --vendor-json is given; a group that does not fit is split\n" \
    "and retried"}
#define MO_PMU {"pmu", MK_PMU, "NAME", \
    "libpfm4 PMU (default: this host's) for 'all', counter restrictions and\n" \
    "the rule file; another PMU is forced with LIBPFM_FORCE_PMU (a\n" \
    "note says so when it is another CPU's PMU, not this host's)"}
#define MO_VENDOR_JSON {"vendor-json", MK_VENDOR_JSON, "PATH", \
    "vendor event table (file or folder): its event names, counter\n" \
    "restrictions and errata. Where libpfm4 does not know the host, the\n" \
    "table comes from the host's CPUID through the mapfile of\n" \
    "$PMUCAL_EVENTDATA (default the eventdata/ pmucal ships), as perf does;\n" \
    "a table name (amdzen5, SKL) is looked up there"}
#define MO_ITERS {"iters", MK_ITERS, "N", \
    "iterations per measured loop (default: about --target-ms of work;\n" \
    "with --source sim 10000, fewer where a loop would pass 5M instructions:\n" \
    "deterministic); at most 1e9, and a\n" \
    "count whose loop would last over 0.5 s is refused (a stop waits for a loop)"}
#define MO_TARGET_MS {"target-ms", MK_TARGET_MS, "MS", \
    "length of one measured loop when iterations are automatic (default 20,\n" \
    "at most 500)"}
#define MO_SOURCE {"source", MK_SOURCE, "NAME", \
    "counter source: perf (default), sim (pmucal re-runs itself under\n" \
    "valgrind's callgrind: exact instruction, load, store, branch counts and\n" \
    "simulated cache misses and mispredicts, caches sized from hwloc;\n" \
    "rules from validate/expect/sim.txt; needs the Debian package valgrind),\n" \
    "perfstat (the perf tool: perf stat -t on the measuring thread, enabled\n" \
    "around each region through its --control pipe; needs linux-perf)"}
#define MO_EXPECT {"expect", MK_EXPECT, "FILE", "a rule file of more rules (EVENT EXPRESSION TOLERANCE a line)"}
#define MO_NO_AUTO_EXPECT {"no-auto-expect", MK_NO_AUTO_EXPECT, NULL, \
    "do not load validate/expect/<pmu>.txt (or <source>.txt) automatically"}
#define MO_CPU {"cpu", MK_CPU, "N", \
    "CPU to measure on, one of this process's affinity mask (taskset, cgroup\n" \
    "cpuset); default: the least loaded of them over 150 ms at the start.\n" \
    "Cases naming run_cpu= keep theirs; the manifest records the choice"}
#define MO_CPUS {"cpus", MK_CPUS, "A,B", \
    "the pair for kernels with a second thread (snoop): measure on A (as\n" \
    "--cpu A), the other thread on B; both of the affinity mask. Cases naming\n" \
    "run_cpu= or writer_cpu= keep theirs"}
#define MO_LABEL(what) {"label", MK_LABEL, "NAME", "run folder label (default: " what ")"}
#define MO_OUT {"out", MK_OUT, CLI_OUT_DIR, "parent folder of the run folder (default: $PMUCAL_RESULTS, or results)"}

/* One probe for the whole list: where the perf source cannot count hardware events at all (no
 * PMU, a VM without passthrough), the hardware events are taken out of *events (freed) and
 * their count returned, with why; software events stay. 0 when nothing was taken out. */
int measure_cli_drop_uncountable(const struct engine *eng, struct event_spec *events, int *n, char *why, size_t wn);

void measure_cli_init(struct measure_cli *o);
/* Takes a shared option (key from enum measure_cli_key): 0, or 2 after a message; -1 when the
 * key is not a shared option's. */
int measure_cli_option(const struct command *c, struct measure_cli *o, int key, const char *v);
/* The -e list, or the source's default list, or engine_default_events. */
const char *measure_cli_events(const struct measure_cli *o, const struct source *src);
/* The source's prepare_process hook (e.g. sim re-executes the command under valgrind), called
 * after the options, rules and events are checked: SOURCE_CONTINUE, SOURCE_DONE with *status,
 * or -1 (message printed). */
int measure_cli_prepare(const struct measure_cli *o, const struct engine *eng, int argc, char **argv, int *status);
/* The vendor table and catalog the options loaded. */
void measure_cli_tables_free(struct measure_cli *o);
/* Source, rules and events from the options into an engine. -1 with a message. */
int measure_cli_engine(struct measure_cli *o, struct engine *eng, struct event_spec **events, int *nevents);

/* The options a run was measured with (the source and its slack, events, rules, group size,
 * repetitions) into its manifest j, for resume, compare and replay to read back. */
void measure_cli_manifest(const struct measure_cli *o, const struct source *src, struct json *j);
/* The input files a resume needs again (the -e list file, --expect), copied into a new run's
 * folder dir as it starts (runs/resume.h's resume_keep_input). -1 after a message. */
int measure_cli_keep_inputs(const struct measure_cli *o, const char *dir);
/* --resume: those copies read from the resumed folder instead of any path its command names
 * (resumed set: an -e without a copy is a list), and a --vendor-json, a table outside the folder,
 * refused. 0, or 2 after a message. */
struct resume;
int measure_cli_resume_inputs(struct measure_cli *o, const struct resume *rs);

#endif

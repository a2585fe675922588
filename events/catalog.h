/* The event catalog of a CPU model from the vendor's tables (Linux perf pmu-events JSON for AMD,
 * Intel perfmon JSON): chosen for the host by its CPUID signature through the tables' mapfile, as
 * perf does, or named with --vendor-json. It is what pmucal uses where libpfm4 does not know the
 * model; libpfm4 stays the first choice where it does. */
#ifndef PMUCAL_CATALOG_H
#define PMUCAL_CATALOG_H
#include "events/vendor.h"
#include <stdbool.h>
#include <stddef.h>

struct catalog {
    struct vendor_table vt;
    bool borrowed;          /* vt belongs to the caller (--vendor-json loaded elsewhere) */
    char *name;             /* the table: "amdzen5", "SKL" */
    char *path;             /* the folder or file it was read from */
    char *how;              /* why this table: the CPUID row of the mapfile, or --vendor-json */
    int counters;           /* programmable core counters of the model */
    char *counters_how;     /* where that number came from */
};

/* The CPU's signature as perf's mapfiles spell it: vendor-family-model-stepping, family decimal,
 * model and stepping hex ("AuthenticAMD-26-2-1"). From $PMUCAL_CPUID (tests: "AuthenticAMD-26-2"),
 * else the leaves in $HWLOC_CPUID_PATH/pu0 (hwloc-gather-cpuid), else the cpuid instruction.
 * how (may be NULL) says which. false with a message in how when $PMUCAL_CPUID is malformed. */
bool cpu_signature(char *sig, size_t n, char *how, size_t hn);
/* PMUCAL_CPUID's form, checked before any command runs: it is read only where a table is chosen
 * by CPU, so a malformed value would otherwise pass unnoticed on a host libpfm4 knows. 0 when
 * unset, empty (unset) or well formed, else -1 with the message printed. */
int cpu_signature_env_check(void);
/* Where a user gets event tables, for every message about a missing one. */
#define CATALOG_WHERE                                                                                   \
    "pmucal ships them in its eventdata/ folder (PREFIX/share/pmucal/eventdata once installed); "      \
    "else set PMUCAL_EVENTDATA to a Linux checkout's tools/perf/pmu-events/arch, an Intel perfmon "  \
    "checkout (github.com/intel/perfmon), or both joined by ':', or give --vendor-json PATH"
/* Where the tables are looked up: $PMUCAL_EVENTDATA (folders joined by ':'), else eventdata/ of the
 * source tree the binary runs from, else PREFIX/share/pmucal/eventdata beside an installed
 * PREFIX/bin/pmucal, else the words "PREFIX/share/pmucal/eventdata" (for messages: nothing is there). */
const char *catalog_root(void);
/* The k-th folder (from 0) holding a vendor's mapfile.csv ("amd", "intel", "arm") under the roots,
 * in any layout the tables come in: pmucal's eventdata/ (ROOT/amd), a Linux checkout's
 * tools/perf/pmu-events/arch (ROOT/x86, ROOT/arm64), Linux's arch/x86 or arch/arm64 itself, an
 * Intel perfmon checkout. NULL past the last. Caller frees. */
char *catalog_vendor_dir(const char *vendor, int k);
/* The host's table by CPUID signature: 1 loaded, 0 none (why says so: no mapfile row, no folder),
 * -1 the table is malformed (message printed). */
int catalog_for_signature(struct catalog *c, const char *sig, char *why, size_t n);
/* A table by path (a JSON file or folder) or by name under catalog_root() ("amdzen4", "SKL").
 * -1 with one message naming the input. */
int catalog_load(struct catalog *c, const char *path_or_name);
/* The folder of a table name under catalog_root() ("amdzen5" -> ROOT/amd/amdzen5), NULL when none. */
char *catalog_table_path(const char *name);
/* What --vendor-json ARG reads: ARG when it is a path, else the table of that name under the roots;
 * NULL with one message (naming where to get tables) when it is neither. Caller frees. */
char *catalog_path_of(const char *arg);
/* Describe a table loaded elsewhere (--vendor-json) without copying it. */
void catalog_adopt(struct catalog *c, struct vendor_table *vt, const char *path);
void catalog_free(struct catalog *c);
/* The table a path names: its folder ("amdzen5"), Intel's model folder for SKL/events. Caller frees. */
char *catalog_table_name(const char *path);

/* The catalog names resolve against: the one given to catalog_set_active (borrowed), else the
 * host's by CPUID, loaded once. NULL when there is none, with the reason in why (may be NULL). */
const struct catalog *catalog_active(char *why, size_t n);
void catalog_set_active(const struct catalog *c);
/* A catalog name with perf's :u/:k modifiers ("ls_dispatch.ld_dispatch:k") into spec: 1 resolved,
 * 0 no such name, -1 a bad modifier (err). */
int catalog_resolve(const char *name, struct event_spec *spec, char *err, size_t n);
/* perf's own name (the table's EventName) of an encoding in the active catalog, else in the
 * host's table by CPUID: what perf metric JSON must say. NULL when no entry has this encoding. */
const char *catalog_event_name(const struct event_spec *spec);
/* For a table whose model libpfm4 4.13 lacks but later libpfm4 maps onto a PMU ("EMR": onto spr),
 * the sentence saying so; for one whose libpfm4 PMU LIBPFM_DISABLED_PMUS hides, the sentence
 * naming the variable; NULL otherwise. */
const char *catalog_libpfm4_note(const char *table);
/* libpfm4's PMU name of a table and back ("amd64_fam19h_zen4" <-> "amdzen4"); NULL when none. */
const char *catalog_table_of_pfm(const char *pfm);
const char *catalog_pfm_of_table(const char *table);
/* --pmu PMU given (a forced model): a note when PMU is not this host's model, as libpfm4 detects it
 * or, where libpfm4 does not know the CPU, as its vendor table by CPUID says; the verdicts then
 * speak for PMU's encodings. Nothing when PMU is the host's, or no PMU of that name exists. */
void catalog_note_other_model(const char *pmu);

#endif

/* The cache geometry a run uses: hwloc's levels, checked for plausibility (against silicon and
 * against CPUID); where a level is implausible, the capacity measured on the load-latency curve
 * (cached per host), or CPUID's. The effective levels live in struct topo (topo_get()); this
 * module keeps hwloc's view, the findings and the measured curve beside it. */
#ifndef PMUCAL_GEOMETRY_H
#define PMUCAL_GEOMETRY_H
#include "arch/isa.h"
#include "base/json.h"
#include "base/jread.h"
#include "host/latency_levels.h"
#include "host/topo.h"
#include <stdio.h>

#define GEOMETRY_MAX_FINDINGS 16
#define GEOMETRY_MAX_POINTS 160
/* A level of which the measured curve shows at most 1/this of its size usable is sized by the
 * curve: a guest's share of a shared cache, not a level misread (plateau ends move a point or two). */
#define GEOMETRY_USABLE_FACTOR 2

/* Why a level of hwloc's is not believed; reason is a stable name (zero-ways, beyond-silicon,
 * missing, not-larger, cpuid-disagrees, cpuid-incomplete). */
struct geometry_finding {
    int level;
    const char *reason;
    char detail[200];
};

/* Checks levels [1..3] (size 0 = absent) of a machine with this many cores and PUs against what
 * silicon has and, when c is not NULL, against what the CPU says (CPUID). Returns the number of findings. */
int geometry_check(const struct cache_level *levels, int cores, int pus, const struct cpu_caches *c,
                   struct geometry_finding *out, int max);

/* Measures the curve on this machine: points sorted by size, latency minima; returns the count,
 * or -1 with why. again: the same points from the other, independent half of the sweeps (their
 * minima are in p too), whose levels must repeat (latency_curve_check). Registered by the
 * calibrator (which owns the walker measurement). */
typedef int (*geometry_measurer)(struct latency_point *p, struct latency_point *again, int max, char *why,
                                 size_t whylen);
void geometry_register_measurer(geometry_measurer fn);

struct geometry {
    struct cache_level hwloc[TOPO_MAX_LEVEL + 1];   /* hwloc's levels as it reported them */
    struct geometry_finding findings[GEOMETRY_MAX_FINDINGS];
    int nfindings;
    bool implausible[TOPO_MAX_LEVEL + 1];
    bool cpuid_read;
    struct cpu_caches cpuid;
    char cpuid_note[300];          /* why CPUID was not compared, or "" */
    bool measured;                 /* a curve was read: levels holds what it says */
    struct latency_point points[GEOMETRY_MAX_POINTS];
    struct latency_point again[GEOMETRY_MAX_POINTS];   /* the second half of a measured curve */
    int npoints;
    struct latency_levels levels;
    double seconds;                /* what measuring took (0: not measured in this process) */
    char note[4600];               /* where the measured levels came from, or why there are none */
    char cache_file[4096];
};

/* The topology, loaded once; later calls return the same. NULL (with a message) if hwloc fails.
 * Levels hwloc got implausible are replaced by what is known without measuring (a cached curve,
 * PMUCAL_CURVE_FILE, CPUID); topo_resolved() measures when nothing is known yet. In a process
 * started after topo_handover, the handed-over topology as it is. */
const struct topo *topo_get(void);
/* topo_get() with every implausible level resolved: measures the curve when no cache has it
 * (a few seconds, once per host). Used where a level's size is needed. */
const struct topo *topo_resolved(void);
/* Measure now, whatever the cache holds, and store the curve in the cache (pmucal info --measure).
 * 0, or -1 with a message. */
int geometry_measure_now(void);
/* The same where this host's curve is not known yet (no cache, no PMUCAL_CURVE_FILE; not for a
 * fixture, under valgrind or with PMUCAL_GEOMETRY=hwloc), why saying what needs it: a guest's
 * usable share of a level then sizes the cases by that level's name. 0, or -1 when measuring
 * failed (geometry's note says why; hwloc's levels stay). */
int geometry_measure_if_unknown(const char *why);
const struct geometry *geometry_get(void);
/* The per-host cache of measured facts (PMUCAL_CACHE_DIR, else $XDG_CACHE_HOME/pmucal, else
 * ~/.cache/pmucal): the file for a fact's stem ("geometry", "tlb") and the key naming what it was
 * measured on, -1 when no folder is known; storing writes it whole (a temporary file renamed),
 * -1 with errno. */
int host_cache_file(const char *stem, const char *key, char *out, size_t n);
int host_cache_store(const char *path, const struct json *j);
/* A cache file read back: NULL when there is none yet; one that is there but cannot be read, is
 * not a bounded regular file or not a JSON object ends the process with a message naming it. */
struct jvalue *host_cache_load(const char *path);
/* A cache file's object begun: its key, the date and what measuring took. */
void host_cache_begin(struct json *j, const char *key, double seconds);
/* The side-by-side table for pmucal info, and the manifest's "geometry" object. */
void geometry_print(FILE *f);
void geometry_json(struct json *j);

#endif

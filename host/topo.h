/* Machine topology from hwloc (or, built without it, HWLOC=0, from Linux's sysfs: host/topo_sysfs.h):
 * cache levels, cores, SMT siblings, packages, NUMA nodes; binding. */
#ifndef PMUCAL_TOPO_H
#define PMUCAL_TOPO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TOPO_L1 = 1, TOPO_L2, TOPO_L3, TOPO_MAX_LEVEL = TOPO_L3 };

struct cache_level {
    int level;             /* 1..3; 0 when the machine has no such level */
    uint64_t size;         /* bytes per instance */
    int linesize, ways;
    int sharing_pus;       /* processing units sharing one instance */
};

/* Where a level's size comes from: hwloc, or (hwloc's being implausible) the measured latency
 * curve or CPUID; host/geometry.h says why. */
enum topo_source { TOPO_FROM_HWLOC, TOPO_FROM_MEASURED, TOPO_FROM_CPUID };

/* Plain data only, no pointers: topo_handover passes it to a child process byte for byte. */
struct topo {
    struct cache_level data[TOPO_MAX_LEVEL + 1];   /* [1]=L1D, [2]=L2, [3]=L3 (unified ones too): the levels used */
    enum topo_source source[TOPO_MAX_LEVEL + 1];
    struct cache_level l1i;
    int packages, numa_nodes, cores, pus;
    uint64_t memory_total;   /* bytes hwloc sees in NUMA nodes */
    /* The caches are a simulator's (the sim child): sizes follow them exactly, with none of the
     * margins real hardware needs (prefetchers, TLB reach). */
    bool simulated;
    /* The simulated machine lacks a level the host has: why (the sim source's reason), for the
     * SKIP of a case sized by it. */
    char absent_why[TOPO_MAX_LEVEL + 1][200];
    /* The working set this machine can keep in a level where the measured latency curve leaves it
     * well before its size (a guest's share of a busy L3: 1536K of 32M on one Zen 3 VM); 0 = all
     * of it. Level names size cases by it on real hardware; a simulator's caches are whole. */
    uint64_t usable[TOPO_MAX_LEVEL + 1];
};

/* hwloc's view, loaded once; later calls return the same. NULL (with a message) if hwloc fails.
 * The levels are hwloc's as it reported them: topo_get() (host/geometry.h) is what the rest of
 * pmucal uses, the levels checked and corrected. In a process started after topo_handover, the
 * handed-over topology instead, already resolved (*resolved true): nothing is discovered (under
 * valgrind hwloc would see another machine, or none). */
struct topo *topo_hwloc(bool *resolved);
const char *topo_source_name(enum topo_source s);   /* "hwloc", "measured", "cpuid" */
/* Hand this resolved topology (topo_get()'s, or an adjusted copy) to child processes started
 * from now on: hwloc's view of the machine goes to DIR/topology.xml (binding, CPUs, NUMA nodes)
 * and *t into the environment. 0, or -1 with a message. */
int topo_handover(const struct topo *t, const char *dir);
/* The largest data cache level present (3 on most machines). */
int topo_last_level(const struct topo *t);
/* Bind the calling thread to the PU with this OS index (what taskset and lscpu call CPU n).
 * Returns 0, or -1 with a message naming the CPU and the valid range. */
int topo_bind_thread(int os_cpu);
/* The calling thread back on every CPU the process started with: -1 when it cannot be. */
int topo_unbind_thread(void);
/* Is this OS CPU index present and allowed: in hwloc's allowed set (cgroups) and in the affinity
 * mask the process started with (taskset)? */
bool topo_cpu_valid(int os_cpu);
/* OS index of the PU the thread runs on now. */
int topo_current_cpu(void);
/* The OS CPU indexes that are allowed (topo_cpu_valid), in order; returns the count. */
int topo_cpus(int *out, int max);
/* The CPUs topo_cpus gives as a list "0-3,8": what a message offers the user. */
void topo_cpu_list(char *out, size_t n);

/* The topology library's version ("2.9.0"), or "none (HWLOC=0)" in a build without hwloc. */
void topo_lib_version(char *out, size_t n);

/* How two CPUs share hardware, nearest first. */
enum topo_relation { TOPO_SAME_CPU, TOPO_SMT_SIBLING, TOPO_SAME_L3, TOPO_OTHER_L3, TOPO_OTHER_PACKAGE };
/* The relation of two valid OS CPU indexes. */
enum topo_relation topo_relation(int a, int b);
const char *topo_relation_name(enum topo_relation r);  /* "smt-sibling", "same-l3" ... */
/* OS index of the NUMA node holding this CPU (-1 when unknown). */
int topo_cpu_node(int os_cpu);
/* OS indexes of the NUMA nodes, in order; returns the count. */
int topo_nodes(int *out, int max);
/* A CPU of this NUMA node (-1 when it has none that is allowed). */
int topo_node_cpu(int os_node);
/* Bind [p, p+len) to the NUMA node (strict), so first touch places it there; pages already
 * touched move. -1 with a message naming the node. */
int topo_membind_area(void *p, size_t len, int os_node);

#endif

/* What the CPU says of its own data caches, for the geometry check to hold hwloc's levels
 * against: one struct for every ISA, so the check is one. Each ISA's caches.c fills it from what
 * it can read (x86: CPUID, or a hwloc-gather-cpuid dump named by HWLOC_CPUID_PATH; AArch64:
 * nothing, user space has no capacities to read). */
#ifndef PMUCAL_ARCH_CACHES_H
#define PMUCAL_ARCH_CACHES_H
#include <stdint.h>

struct cpu_caches {
    char vendor[13];
    const char *from;              /* "this CPU" or the dump's path */
    /* [1..3]: the data or unified size the CPU states for the level, 0 = none, and which leaf
     * states it ("CPUID leaf 4"; NULL with no size) */
    uint64_t said[4];
    const char *said_by[4];
    /* [1..3]: the level's full description (size and ways; 0 = none), which may stand in for an
     * implausible level of hwloc's; ways 0 = fully associative */
    uint64_t described[4];
    int described_ways[4];
    /* [1..3]: why what the CPU says of the level cannot be whole (a hypervisor's synthetic
     * description), or NULL */
    const char *incomplete[4];
};

/* Fills c with what this CPU (or the dump HWLOC_CPUID_PATH names, where the ISA has one) states;
 * every size 0 where it states nothing. -1 with why when a dump cannot be read. */
int cpu_caches_read(struct cpu_caches *c, char *why, int whylen);

#endif

/* What the CPU says of its own data caches, for the geometry check to hold hwloc's levels
 * against. AArch64 user space reads CTR_EL0 only (line sizes, no capacities; CCSIDR_EL1 is the
 * kernel's), so here the CPU says nothing and hwloc's levels (from the kernel's sysfs cacheinfo)
 * stand as they are. The struct is the same as on x86, so the check is one. */
#ifndef PMUCAL_A64_CACHES_H
#define PMUCAL_A64_CACHES_H
#include <stdint.h>

struct cpu_caches {
    char vendor[13];
    const char *from;
    uint64_t said[4];
    const char *said_by[4];
    uint64_t described[4];
    int described_ways[4];
    const char *incomplete[4];
};

/* Fills c with nothing said (every size 0): always 0. */
int cpu_caches_read(struct cpu_caches *c, char *why, int whylen);

#endif

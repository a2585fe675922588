/* What the CPU says of its own data caches, for the geometry check to hold hwloc's levels
 * against. On x86, CPUID: the deterministic leaves (4 on Intel, 0x8000001D on AMD) and AMD's
 * summary leaf 0x80000006; read from this CPU, or replayed from a hwloc-gather-cpuid dump
 * (HWLOC_CPUID_PATH, as hwloc itself does) so a fixture host is judged by its own CPUID. */
#ifndef PMUCAL_X86_CACHES_H
#define PMUCAL_X86_CACHES_H
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

/* Fills c from HWLOC_CPUID_PATH/pu0 when that variable is set, else from this CPU.
 * -1 with why when the dump cannot be read. */
int cpu_caches_read(struct cpu_caches *c, char *why, int whylen);

#endif

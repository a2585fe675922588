/* What CPUID says about the data caches: the deterministic leaves (4 on Intel, 0x8000001D on AMD)
 * and AMD's summary leaf 0x80000006; read from this CPU, or replayed from a hwloc-gather-cpuid
 * dump (HWLOC_CPUID_PATH, as hwloc itself does) so a fixture host is judged by its own CPUID. */
#ifndef PMUCAL_CPUID_CACHE_H
#define PMUCAL_CPUID_CACHE_H
#include <stdbool.h>
#include <stdint.h>

struct cpuid_caches {
    char vendor[13];
    const char *from;              /* "this CPU" or the dump's path */
    uint64_t leaf[4];              /* [1..3]: data/unified size per level from leaf 4 / 0x8000001D; 0 = none */
    int leaf_ways[4];
    uint32_t deterministic_leaf;   /* 4 or 0x8000001D; 0 when the vendor has none */
    bool deterministic_empty;      /* that leaf describes no cache at all */
    uint64_t amd_l2, amd_l3;       /* 0x80000006 (AMD): L2 and L3 sizes; 0 = not reported */
    bool amd_l3_points_to_1d;      /* 0x80000006 says "see 0x8000001D" for the L3's associativity */
};

/* Fills c from HWLOC_CPUID_PATH/pu0 when that variable is set, else from this CPU.
 * -1 with why when the dump cannot be read. */
int cpuid_caches_read(struct cpuid_caches *c, char *why, int whylen);

#endif

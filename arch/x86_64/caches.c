/* The caches x86 states through CPUID: the deterministic leaves (4 on Intel, 0x8000001D on AMD)
 * and AMD's summary leaf 0x80000006; read from this CPU, or replayed from a hwloc-gather-cpuid dump
 * (HWLOC_CPUID_PATH, as hwloc itself does) so a fixture host is judged by its own CPUID. */
#include "arch/caches.h"
#include "arch/x86_64/cpuid_leaf.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cpu_caches_read(struct cpu_caches *c, char *why, int whylen)
{
    memset(c, 0, sizeof(*c));
    c->from = cpuid_vendor_of(c->vendor, why, (size_t)whylen);
    if (!c->from)
        return -1;
    uint32_t r[4];
    bool amd = !strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine");
    uint32_t deterministic = amd ? 0x8000001Du : !strcmp(c->vendor, "GenuineIntel") ? 4 : 0;
    /* AMD's summary leaf: the L2 and L3 sizes, and whether the L3's associativity is to be
     * read from 0x8000001D (then an empty 0x8000001D leaves the L3 half described). */
    uint64_t amd_l2 = 0, amd_l3 = 0;
    bool amd_l3_points_to_1d = false, deterministic_empty = true;
    if (amd) {
        cpuid_query(0x80000006u, 0, r);
        amd_l2 = (uint64_t)(r[2] >> 16) << 10;
        amd_l3 = (uint64_t)(r[3] >> 18) * (512u << 10);
        amd_l3_points_to_1d = ((r[3] >> 12) & 0xf) == 9;
    }
    for (uint32_t sub = 0; deterministic && sub < 16; sub++) {
        cpuid_query(deterministic, sub, r);
        int type = (int)(r[0] & 0x1f), level = (int)((r[0] >> 5) & 7);
        if (!type)
            break;
        deterministic_empty = false;
        if (type == 2 || level < 1 || level > 3)   /* instruction caches, and levels pmucal does not use */
            continue;
        uint64_t ways = (r[1] >> 22) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1, line = (r[1] & 0xfff) + 1;
        c->described[level] = ways * parts * line * ((uint64_t)r[2] + 1);
        c->described_ways[level] = (r[0] & (1u << 9)) ? 0 : (int)ways;   /* bit 9: fully associative */
    }
    /* The deterministic leaf where it describes the level; AMD's summary leaf only without it. */
    for (int l = 1; l <= 3; l++) {
        c->said[l] = c->described[l] ? c->described[l] : l == 2 ? amd_l2 : l == 3 ? amd_l3 : 0;
        if (c->said[l])
            c->said_by[l] = c->described[l] ? (deterministic == 4 ? "CPUID leaf 4" : "CPUID leaf 0x8000001D")
                                            : "CPUID leaf 0x80000006";
    }
    if (amd && deterministic_empty && amd_l3_points_to_1d)
        c->incomplete[3] = "CPUID leaf 0x80000006 points to leaf 0x8000001D for the L3, which is empty: a "
                           "hypervisor's synthetic description";
    return 0;
}

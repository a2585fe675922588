/* The data TLBs x86 states through CPUID, read from this CPU or replayed from a hwloc-gather-cpuid
 * dump (HWLOC_CPUID_PATH) so a fixture host is judged by its own CPUID: Intel's deterministic
 * leaf 0x18, else the one-byte descriptors of leaf 2; AMD's leaves 0x80000005 (first level) and
 * 0x80000006 (second). */
#include "arch/tlbs.h"
#include "arch/x86_64/cpuid_leaf.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LEAF18 "CPUID leaf 0x18"
#define LEAF2 "CPUID leaf 2"

static void state(struct cpu_tlbs *t, enum tlb_kind k, int entries, const char *by)
{
    if (entries > t->entries[k]) {
        t->entries[k] = entries;
        t->said_by[k] = by;
    }
}

/* AMD: 0x80000005 EAX/EBX[23:16] the first-level data TLB for 2M and 4K pages; 0x80000006
 * EAX/EBX[27:16] the second level's, whose associativity [31:28] 0 says it is not there. */
static void amd_tlbs(struct cpu_tlbs *t)
{
    uint32_t r[4];
    if (cpuid_query(0x80000000u, 0, r) && r[0] >= 0x80000005u && cpuid_query(0x80000005u, 0, r)) {
        state(t, TLB_L1_4K, (int)((r[1] >> 16) & 0xff), "CPUID leaf 0x80000005");
        state(t, TLB_L1_2M, (int)((r[0] >> 16) & 0xff), "CPUID leaf 0x80000005");
    }
    if (cpuid_query(0x80000000u, 0, r) && r[0] >= 0x80000006u && cpuid_query(0x80000006u, 0, r)) {
        if (r[1] >> 28)
            state(t, TLB_L2_4K, (int)((r[1] >> 16) & 0xfff), "CPUID leaf 0x80000006");
        if (r[0] >> 28)
            state(t, TLB_L2_2M, (int)((r[0] >> 16) & 0xfff), "CPUID leaf 0x80000006");
    }
    if (!t->entries[TLB_L1_4K] && !t->entries[TLB_L2_4K])
        snprintf(t->silent, sizeof(t->silent), "CPUID leaves 0x80000005 and 0x80000006 state no data TLB entries");
}

/* Leaf 0x18, one sub-leaf a TLB: type EDX[4:0] (1 data, 3 unified, 4 load-only, 5 store-only),
 * level EDX[7:5], page sizes EBX[3:0] (4K, 2M, 4M, 1G), ways EBX[31:16] x sets ECX entries.
 * Loads look up a load-only first level where there is one (Golden Cove: 64 entries for loads,
 * 16 for stores), else the data or unified one. Returns whether any data TLB was described. */
static bool leaf18_tlbs(struct cpu_tlbs *t)
{
    uint32_t r[4];
    if (!cpuid_query(0, 0, r) || r[0] < 0x18 || !cpuid_query(0x18, 0, r))
        return false;
    uint32_t last = r[0] < 64 ? r[0] : 63;
    int first[2] = {0, 0}, first_rank[2] = {0, 0};   /* [4K, 2M]: entries, and the type's rank */
    bool any = false;
    for (uint32_t sub = 0; sub <= last; sub++) {
        if (!cpuid_query(0x18, sub, r))
            continue;
        unsigned type = r[3] & 0x1f, level = (r[3] >> 5) & 7;
        int rank = type == 4 ? 3 : type == 1 ? 2 : type == 3 ? 1 : 0;
        if (!rank || !level)
            continue;   /* invalid, instruction and store-only TLBs */
        int entries = (int)((r[1] >> 16) * r[2]);
        bool k4 = r[1] & 1, m2 = r[1] & 2;
        any = any || entries > 0;
        if (level == 1) {
            for (int s = 0; s < 2; s++)
                if ((s ? m2 : k4) && (rank > first_rank[s] || (rank == first_rank[s] && entries > first[s])))
                    first[s] = entries, first_rank[s] = rank;
        } else {
            if (k4)
                state(t, TLB_L2_4K, entries, LEAF18);
            if (m2)
                state(t, TLB_L2_2M, entries, LEAF18);
        }
    }
    state(t, TLB_L1_4K, first[0], LEAF18);
    state(t, TLB_L1_2M, first[1], LEAF18);
    return any;
}

/* Leaf 2's data-TLB descriptors (Intel SDM, "TLB and cache descriptors"): the level loads meet
 * it at, and its entries for 4K and for 2M pages (0: not for that size). A descriptor that
 * names 4M pages only is left out: Linux maps 2M. */
static const struct {
    uint8_t code;
    int8_t level;
    int16_t k4, m2;
} leaf2_dtlbs[] = {
    {0x03, 1, 64, 0},   {0x57, 1, 16, 0},   {0x59, 1, 16, 0},   {0x5a, 1, 0, 32},   {0x5b, 1, 64, 0},
    {0x5c, 1, 128, 0},  {0x5d, 1, 256, 0},  {0x63, 1, 0, 32},   {0x6b, 1, 256, 0},  {0x6c, 1, 0, 128},
    {0xb3, 1, 128, 0},  {0xb4, 2, 256, 0},  {0xba, 1, 64, 0},   {0xc0, 1, 8, 0},    {0xc1, 2, 1024, 1024},
    {0xc2, 1, 0, 16},   {0xc3, 2, 1536, 1536}, {0xca, 2, 512, 0},
};

/* Leaf 2: AL the number of times to ask (1 on every CPU since the P6), then 15 descriptor bytes;
 * a register with bit 31 set holds none. 0xFE says the TLBs are in leaf 0x18. */
static bool leaf2_tlbs(struct cpu_tlbs *t, bool *points_to_18)
{
    uint32_t r[4];
    *points_to_18 = false;
    if (!cpuid_query(0, 0, r) || r[0] < 2 || !cpuid_query(2, 0, r))
        return false;
    bool any = false;
    for (int reg = 0; reg < 4; reg++) {
        if (r[reg] >> 31)
            continue;
        for (int b = reg ? 0 : 1; b < 4; b++) {
            uint8_t code = (uint8_t)(r[reg] >> (8 * b));
            *points_to_18 = *points_to_18 || code == 0xfe;
            for (size_t i = 0; i < sizeof(leaf2_dtlbs) / sizeof(leaf2_dtlbs[0]); i++)
                if (leaf2_dtlbs[i].code == code) {
                    bool l1 = leaf2_dtlbs[i].level == 1;
                    state(t, l1 ? TLB_L1_4K : TLB_L2_4K, leaf2_dtlbs[i].k4, LEAF2);
                    state(t, l1 ? TLB_L1_2M : TLB_L2_2M, leaf2_dtlbs[i].m2, LEAF2);
                    any = true;
                }
        }
    }
    return any;
}

int cpu_tlbs_read(struct cpu_tlbs *t, char *why, int whylen)
{
    memset(t, 0, sizeof(*t));
    char vendor[13];
    t->from = cpuid_vendor_of(vendor, why, (size_t)whylen);
    if (!t->from)
        return -1;
    if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
        amd_tlbs(t);
        return 0;
    }
    bool points_to_18;
    if (leaf18_tlbs(t) || leaf2_tlbs(t, &points_to_18))
        return 0;
    snprintf(t->silent, sizeof(t->silent), "%s", points_to_18
             ? "CPUID leaf 2 points to leaf 0x18 (descriptor 0xFE), which describes no TLB: a hypervisor's "
               "synthetic CPUID"
             : "neither CPUID leaf 0x18 nor leaf 2's descriptors describe a data TLB");
    return 0;
}

#include "host/cpuid_cache.h"
#include "host/cpuid_leaf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cpuid_caches_read(struct cpuid_caches *c, char *why, int whylen)
{
    memset(c, 0, sizeof(*c));
    char err[512];
    c->from = cpuid_origin(err, sizeof(err));
    if (!c->from) {
        snprintf(why, (size_t)whylen, "%s", err);
        return -1;
    }
    uint32_t r[4];
    cpuid_query(0, 0, r);
    memcpy(c->vendor, &r[1], 4);
    memcpy(c->vendor + 4, &r[3], 4);
    memcpy(c->vendor + 8, &r[2], 4);
    bool amd = !strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine");
    c->deterministic_leaf = amd ? 0x8000001Du : !strcmp(c->vendor, "GenuineIntel") ? 4 : 0;
    if (amd) {
        cpuid_query(0x80000006u, 0, r);
        c->amd_l2 = (uint64_t)(r[2] >> 16) << 10;
        c->amd_l3 = (uint64_t)(r[3] >> 18) * (512u << 10);
        c->amd_l3_points_to_1d = ((r[3] >> 12) & 0xf) == 9;
    }
    if (c->deterministic_leaf) {
        c->deterministic_empty = true;
        for (uint32_t sub = 0; sub < 16; sub++) {
            cpuid_query(c->deterministic_leaf, sub, r);
            int type = (int)(r[0] & 0x1f), level = (int)((r[0] >> 5) & 7);
            if (!type)
                break;
            c->deterministic_empty = false;
            if (type == 2 || level < 1 || level > 3)   /* instruction caches, and levels pmucal does not use */
                continue;
            uint64_t ways = (r[1] >> 22) + 1, parts = ((r[1] >> 12) & 0x3ff) + 1, line = (r[1] & 0xfff) + 1;
            c->leaf[level] = ways * parts * line * ((uint64_t)r[2] + 1);
            c->leaf_ways[level] = (r[0] & (1u << 9)) ? 0 : (int)ways;   /* bit 9: fully associative */
        }
    }
    return 0;
}

#include "cpuid_cache.h"
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_MAX 256

/* A hwloc-gather-cpuid dump: "mask eax ebx ecx edx => eax ebx ecx edx", inputs and outputs in hex. */
struct dump {
    int n;
    uint32_t in[DUMP_MAX][2], out[DUMP_MAX][4];   /* leaf, subleaf */
};

static int load_dump(const char *path, struct dump *d)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    d->n = 0;
    while (fgets(line, sizeof(line), f) && d->n < DUMP_MAX) {
        unsigned mask, a, b, c, dx, o[4];
        if (sscanf(line, "%x %x %x %x %x => %x %x %x %x", &mask, &a, &b, &c, &dx, &o[0], &o[1], &o[2], &o[3]) != 9)
            continue;
        d->in[d->n][0] = a;
        d->in[d->n][1] = (mask & 4) ? c : 0;
        memcpy(d->out[d->n], o, sizeof(o));
        d->n++;
    }
    fclose(f);
    return 0;
}

static void query(const struct dump *d, uint32_t leaf, uint32_t sub, uint32_t r[4])
{
    memset(r, 0, 4 * sizeof(*r));
    if (!d) {
        if ((leaf & 0x80000000u) ? __get_cpuid_max(0x80000000u, NULL) >= leaf : __get_cpuid_max(0, NULL) >= leaf)
            __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
        return;
    }
    for (int i = 0; i < d->n; i++)
        if (d->in[i][0] == leaf && d->in[i][1] == sub) {
            memcpy(r, d->out[i], 4 * sizeof(*r));
            return;
        }
}

int cpuid_caches_read(struct cpuid_caches *c, char *why, int whylen)
{
    memset(c, 0, sizeof(*c));
    static struct dump dump;
    const struct dump *d = NULL;
    static char path[4096];
    const char *dir = getenv("HWLOC_CPUID_PATH");
    c->from = "this CPU";
    if (dir && *dir) {
        snprintf(path, sizeof(path), "%s/pu0", dir);
        if (load_dump(path, &dump)) {
            snprintf(why, (size_t)whylen, "HWLOC_CPUID_PATH=%s: cannot read %s", dir, path);
            return -1;
        }
        d = &dump;
        c->from = path;
    }
    uint32_t r[4];
    query(d, 0, 0, r);
    memcpy(c->vendor, &r[1], 4);
    memcpy(c->vendor + 4, &r[3], 4);
    memcpy(c->vendor + 8, &r[2], 4);
    bool amd = !strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine");
    c->deterministic_leaf = amd ? 0x8000001Du : !strcmp(c->vendor, "GenuineIntel") ? 4 : 0;
    if (amd) {
        query(d, 0x80000006u, 0, r);
        c->amd_l2 = (uint64_t)(r[2] >> 16) << 10;
        c->amd_l3 = (uint64_t)(r[3] >> 18) * (512u << 10);
        c->amd_l3_points_to_1d = ((r[3] >> 12) & 0xf) == 9;
    }
    if (c->deterministic_leaf) {
        c->deterministic_empty = true;
        for (uint32_t sub = 0; sub < 16; sub++) {
            query(d, c->deterministic_leaf, sub, r);
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

/* RISC-V user space reads no cache geometry from the CPU (no CPUID, no CTR_EL0): what is stated
 * comes from the device tree through Linux's cacheinfo in sysfs (cpu0/cache/index*), the levels
 * hwloc or host/topo_sysfs.c read too. A machine whose device tree states no caches (QEMU's
 * virt) gets none, and says so. */
#include "arch/isa.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool line_of(const char *path, char *out, size_t n)
{
    FILE *f = fopen(path, "r");
    bool got = f && fgets(out, (int)n, f);
    if (f)
        fclose(f);
    out[got ? strcspn(out, "\n") : 0] = 0;
    return got;
}

int cpu_caches_read(struct cpu_caches *c, char *why, int whylen)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->vendor, sizeof(c->vendor), "%s", cpu_get()->vendor);
    int found = 0;
    for (int k = 0; k < 16; k++) {
        char path[96], type[32], level[8], size[32], ways[16];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/type", k);
        if (!line_of(path, type, sizeof(type)))
            break;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", k);
        int l = line_of(path, level, sizeof(level)) ? level[0] - '0' : 0;
        if (l < 1 || l > 3 || !strcmp(type, "Instruction"))
            continue;
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", k);
        uint64_t bytes;
        if (!line_of(path, size, sizeof(size)) || !parse_size(size, &bytes))
            continue;
        c->said[l] = bytes;
        c->said_by[l] = "the device tree (sysfs cacheinfo)";
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/ways_of_associativity", k);
        if (line_of(path, ways, sizeof(ways)) && atoi(ways) > 0) {
            c->described[l] = bytes;
            c->described_ways[l] = atoi(ways);
        }
        found++;
    }
    c->from = found ? "the device tree (sysfs cacheinfo)"
                    : "this machine (its device tree states no caches: no /sys/devices/system/cpu/cpu0/cache/index*)";
    (void)why, (void)whylen;
    return 0;
}

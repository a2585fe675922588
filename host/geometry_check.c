/* Plausibility of hwloc's cache levels: what silicon has, and what CPUID says. */
#include "arch/isa.h"
#include "base/util.h"
#include "host/geometry.h"
#include "host/topo.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Per core sharing a level, more than silicon offers: the largest L1d is 48K (Golden Cove,
 * Zen 5), the largest L2 instance 4M (an E-core module's), the most L3 a core has 96M (a 3D
 * V-Cache CCD given to a one-CPU guest; a Granite Rapids socket's 504M is 4M for each of its 128
 * cores). A guest whose few vCPUs are told the host socket's whole L3 shares it with cores it does
 * not see. The bounds leave room above those. */
static const uint64_t max_per_core[TOPO_MAX_LEVEL + 1] = {0, 128u << 10, 8u << 20, 128u << 20};
static const char *const largest[TOPO_MAX_LEVEL + 1] = {"", "48K of L1d", "4M of L2", "96M of L3"};
/* AMD's L3 is one per CCX/CCD; the largest is 96M (3D V-Cache). */
static const uint64_t amd_max_l3 = 128u << 20;

static void add(struct geometry_finding *out, int max, int *n, int level, const char *reason, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void add(struct geometry_finding *out, int max, int *n, int level, const char *reason, const char *fmt, ...)
{
    if (*n >= max)
        return;
    struct geometry_finding *f = &out[(*n)++];
    f->level = level;
    f->reason = reason;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
    va_end(ap);
}

static char *sz(uint64_t b, char buf[32])
{
    snprintf(buf, 32, "%s", fmt_size(b));
    return buf;
}

int geometry_check(const struct cache_level *lv, int cores, int pus, const struct cpu_caches *c,
                   struct geometry_finding *out, int max)
{
    int n = 0;
    char a[32], b[32];
    int smt = cores > 0 && pus >= cores ? pus / cores : 1;
    bool amd = c && (!strcmp(c->vendor, "AuthenticAMD") || !strcmp(c->vendor, "HygonGenuine"));
    for (int l = 1; l <= TOPO_MAX_LEVEL; l++) {
        const struct cache_level *x = &lv[l];
        if (!x->size) {
            if (l < TOPO_MAX_LEVEL)
                add(out, max, &n, l, "missing", "no L%d: %s%s%s%s", l, ISA_CACHES_EXPECTED,
                    l == 2 && lv[3].size ? " (" : "", l == 2 && lv[3].size ? topo_source_name(TOPO_FROM_HWLOC) : "",
                    l == 2 && lv[3].size ? " has an L3 above the gap)" : "");
            continue;
        }
        if (!x->ways)
            add(out, max, &n, l, "zero-ways", "associativity 0 (unknown): a description, not a measured cache");
        int sharing_cores = x->sharing_pus > smt ? x->sharing_pus / smt : 1;
        if (x->size / (uint64_t)sharing_cores > max_per_core[l])
            add(out, max, &n, l, "beyond-silicon", "%s shared by %d core%s: no x86 part has more than %s a core "
                "(a guest told its host socket's whole cache shares it with cores it does not see)", sz(x->size, a),
                sharing_cores, sharing_cores == 1 ? "" : "s", largest[l]);
        else if (l == 3 && amd && x->size > amd_max_l3)
            add(out, max, &n, l, "beyond-silicon", "%s in one L3: no AMD CCX has more than 96M", sz(x->size, a));
        if (l > 1 && lv[l - 1].size && x->size <= lv[l - 1].size)
            add(out, max, &n, l, "not-larger", "%s is not larger than the L%d's %s", sz(x->size, a), l - 1,
                sz(lv[l - 1].size, b));
        if (!c)
            continue;
        if (c->said[l] && c->said[l] != x->size)
            add(out, max, &n, l, "cpuid-disagrees", "%s says %s, %s %s", c->said_by[l], sz(c->said[l], a),
                topo_source_name(TOPO_FROM_HWLOC), sz(x->size, b));
        if (c->incomplete[l])
            add(out, max, &n, l, "cpuid-incomplete", "%s", c->incomplete[l]);
    }
    return n;
}

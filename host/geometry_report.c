/* The geometry side by side (hwloc, CPUID, the measured curve, what is used) for pmucal info and
 * the manifest. */
#include "base/util.h"
#include "host/geometry.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"", "L1d", "L2", "L3"};

static uint64_t cpuid_size(const struct geometry *g, int l)
{
    return g->cpuid_read ? g->cpuid.said[l] : 0;
}

static const struct latency_plateau *measured(const struct geometry *g, int l)
{
    return g->npoints && g->levels.nplateaus ? latency_level_plateau(&g->levels, l) : NULL;
}

void geometry_print(FILE *f)
{
    const struct topo *t = topo_resolved();
    const struct geometry *g = geometry_get();
    if (!t)
        return;
    char c[4][64];
    fprintf(f, "geometry   %-5s %-16s %-10s %-24s %s\n", "", topo_source_name(TOPO_FROM_HWLOC), "cpuid", "measured (plateau)", "used");
    for (int l = 1; l <= TOPO_MAX_LEVEL; l++) {
        const struct latency_plateau *p = measured(g, l);
        if (g->hwloc[l].size)
            snprintf(c[0], sizeof(c[0]), "%s %d-way", fmt_size(g->hwloc[l].size), g->hwloc[l].ways);
        else
            snprintf(c[0], sizeof(c[0]), "-");
        uint64_t cs = cpuid_size(g, l);
        snprintf(c[1], sizeof(c[1]), "%s", cs ? fmt_size(cs) : "-");
        if (p && p->boundary)
            snprintf(c[2], sizeof(c[2]), "%s (%.1f cycles)", fmt_size(p->boundary), p->cycles);
        else
            snprintf(c[2], sizeof(c[2]), "%s", g->npoints ? "-" : "not measured");
        if (t->data[l].size && t->usable[l])
            snprintf(c[3], sizeof(c[3]), "%s usable of %s from %s", fmt_size(t->usable[l]), fmt_size(t->data[l].size),
                     topo_source_name(t->source[l]));
        else if (t->data[l].size)
            snprintf(c[3], sizeof(c[3]), "%s from %s", fmt_size(t->data[l].size), topo_source_name(t->source[l]));
        else
            snprintf(c[3], sizeof(c[3]), "none (%s)", topo_source_name(t->source[l]));
        fprintf(f, "           %-5s %-16s %-10s %-24s %s%s%s\n", names[l], c[0], c[1], c[2], c[3],
                t->absent_why[l][0] ? ": " : "", t->absent_why[l]);
    }
    const struct latency_plateau *mem = measured(g, 4);
    if (mem)
        fprintf(f, "           %-5s %-16s %-10s from %s (%.0f cycles, %.0f ns)\n", "DRAM", "", "",
                fmt_size(g->levels.plateau[g->levels.ncaches - 1].boundary), mem->cycles, mem->ns);
    for (int i = 0; i < g->nfindings; i++)
        fprintf(f, "%-10s L%d %s: %s\n", i ? "" : "findings", g->findings[i].level, g->findings[i].reason,
                g->findings[i].detail);
    if (g->cpuid_note[0])
        fprintf(f, "cpuid      %s\n", g->cpuid_note);
    else if (g->cpuid_read && getenv("HWLOC_CPUID_PATH"))
        /* The cpu and features lines are this CPU's (it runs the code); the rest is the dump's. */
        fprintf(f, "cpuid      replayed from %s: the cpuid column, the TLBs%s and a vendor table chosen by signature "
                "are that CPU's; the cpu, features and libpfm4 pmu lines are this machine's, which runs the code\n",
                g->cpuid.from, getenv("HWLOC_XMLFILE") ? "" : ", hwloc's levels");
    if (g->note[0])
        fprintf(f, "curve      %s\n", g->note);
}

void geometry_json(struct json *j)
{
    const struct topo *t = topo_resolved();
    const struct geometry *g = geometry_get();
    json_object_begin(j, "geometry");
    if (t) {
        json_array_begin(j, "levels");
        for (int l = 1; l <= TOPO_MAX_LEVEL; l++) {
            const struct latency_plateau *p = measured(g, l);
            json_object_begin(j, NULL);
            json_string(j, "level", names[l]);
            json_uint(j, "bytes", t->data[l].size);
            json_uint(j, "usable_bytes", t->usable[l] ? t->usable[l] : t->data[l].size);
            json_string(j, "source", topo_source_name(t->source[l]));
            json_bool(j, "hwloc_plausible", !g->implausible[l]);
            json_uint(j, "hwloc_bytes", g->hwloc[l].size);
            json_int(j, "hwloc_ways", g->hwloc[l].ways);
            json_uint(j, "cpuid_bytes", cpuid_size(g, l));
            json_uint(j, "measured_bytes", p ? p->boundary : 0);
            json_number(j, "measured_cycles", p ? p->cycles : NAN);
            json_string(j, "absent_why", t->absent_why[l][0] ? t->absent_why[l] : NULL);
            json_array_begin(j, "findings");
            for (int i = 0; i < g->nfindings; i++)
                if (g->findings[i].level == l) {
                    json_object_begin(j, NULL);
                    json_string(j, "reason", g->findings[i].reason);
                    json_string(j, "detail", g->findings[i].detail);
                    json_object_end(j);
                }
            json_array_end(j);
            json_object_end(j);
        }
        json_array_end(j);
        const struct latency_plateau *mem = measured(g, 4);
        json_number(j, "memory_cycles", mem ? mem->cycles : NAN);
        json_number(j, "memory_ns", mem ? mem->ns : NAN);
        json_int(j, "curve_points", g->npoints);
        json_string(j, "curve", g->note[0] ? g->note : NULL);
        json_string(j, "cpuid", g->cpuid_read ? g->cpuid.from : g->cpuid_note);
    }
    json_object_end(j);
}

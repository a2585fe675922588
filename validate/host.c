#include "host.h"
#include "clock.h"
#include "cpu.h"
#include "mem.h"
#include "pfm.h"
#include "topo.h"
#include "version.h"
#include <perfmon/pfmlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

bool host_huge_pages(char *how, int n)
{
    struct buffer b;
    /* buffer_alloc with "auto" falls back quietly; the kind it got is the answer. */
    if (buffer_alloc(&b, 2u << 20, "auto", "huge-page probe"))
        return false;
    bool huge = b.kind != PAGE_4K;
    snprintf(how, (size_t)n, "%s", huge ? page_kind_name(b.kind) : "none");
    buffer_free(&b);
    return huge;
}

static void perf_tool_version(char *out, size_t n)
{
    snprintf(out, n, "not installed");
    FILE *p = popen("perf --version 2>/dev/null", "r");
    if (!p)
        return;
    if (fgets(out, (int)n, p))
        out[strcspn(out, "\n")] = '\0';
    pclose(p);
}

void host_facts_json(struct json *j)
{
    const struct cpu_facts *cpu = cpu_get();
    json_object_begin(j, "cpu");
    json_string(j, "vendor", cpu->vendor);
    json_string(j, "brand", cpu->brand);
    json_int(j, "family", cpu->family);
    json_int(j, "model", cpu->model);
    json_int(j, "stepping", cpu->stepping);
    json_object_begin(j, "features");
    json_bool(j, "avx2", cpu->avx2);
    json_bool(j, "avx512f", cpu->avx512f);
    json_bool(j, "fma", cpu->fma);
    json_object_end(j);
    json_object_begin(j, "dtlb_entries");
    json_int(j, "l1_4k", cpu->dtlb1_4k);
    json_int(j, "l2_4k", cpu->stlb_4k);
    json_int(j, "l1_2m", cpu->dtlb1_2m);
    json_int(j, "l2_2m", cpu->stlb_2m);
    json_object_end(j);
    json_object_end(j);

    struct pfm_core core;
    char why[256];
    bool hw = perf_hw_usable(why, sizeof(why));
    json_object_begin(j, "pmu");
    if (pfm_core_pmu(&core)) {
        json_string(j, "libpfm4_pmu", core.name);
        json_string(j, "description", core.desc);
        json_int(j, "counters", core.counters);
        json_int(j, "fixed_counters", core.fixed_counters);
        json_int(j, "events", core.events);
    } else {
        json_string(j, "libpfm4_pmu", NULL);
    }
    json_bool(j, "hardware_usable", hw);
    json_string(j, "hardware_reason", why);
    json_object_end(j);

    const struct topo *t = topo_get();
    json_object_begin(j, "topology");
    if (t) {
        json_int(j, "packages", t->packages);
        json_int(j, "numa_nodes", t->numa_nodes);
        json_int(j, "cores", t->cores);
        json_int(j, "pus", t->pus);
        json_array_begin(j, "caches");
        for (int l = 1; l <= TOPO_MAX_LEVEL; l++) {
            if (!t->data[l].size)
                continue;
            json_object_begin(j, NULL);
            json_string(j, "name", l == 1 ? "L1d" : l == 2 ? "L2" : "L3");
            json_uint(j, "size", t->data[l].size);
            json_int(j, "linesize", t->data[l].linesize);
            json_int(j, "ways", t->data[l].ways);
            json_int(j, "shared_by_pus", t->data[l].sharing_pus);
            json_object_end(j);
        }
        if (t->l1i.size) {
            json_object_begin(j, NULL);
            json_string(j, "name", "L1i");
            json_uint(j, "size", t->l1i.size);
            json_int(j, "linesize", t->l1i.linesize);
            json_int(j, "ways", t->l1i.ways);
            json_int(j, "shared_by_pus", t->l1i.sharing_pus);
            json_object_end(j);
        }
        json_array_end(j);
    }
    char how[32];
    json_bool(j, "huge_pages_2m", host_huge_pages(how, sizeof(how)));
    json_string(j, "huge_pages_how", how);
    json_object_end(j);

    const struct clock_info *ci = clock_get();
    json_object_begin(j, "clocks");
    json_number(j, "tsc_hz", ci->tsc_hz);
    json_number(j, "core_cycles_per_tsc", ci->core_per_tsc);
    json_number(j, "core_hz", ci->core_hz);
    json_number(j, "ratio_rel_mad", ci->core_per_tsc_spread);
    json_string(j, "cycles_source", hw ? "pmu" : "tsc");
    json_object_end(j);

    struct utsname u;
    char perf[128];
    uname(&u);
    perf_tool_version(perf, sizeof(perf));
    json_object_begin(j, "software");
    json_string(j, "kernel", u.release);
    json_string(j, "perf", perf);
    int v = pfm_get_version();
    char lib[32];
    snprintf(lib, sizeof(lib), "%d.%d", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
    json_string(j, "libpfm4", lib);
    json_string(j, "pmucal", PMUCAL_VERSION);
    json_object_end(j);
}

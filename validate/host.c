#include "host.h"
#include "clock.h"
#include "cpu.h"
#include "mem.h"
#include "pfm.h"
#include "topo.h"
#include "kernel.h"
#include "util.h"
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

struct host_facts {
    const struct cpu_facts *cpu;
    struct pfm_core core;
    bool have_core, hw, huge;
    char why[256], how[32], perf[128], libpfm[32];
    const struct topo *topo;
    const struct clock_info *clock;
    struct utsname uts;
};

static void gather(struct host_facts *h)
{
    memset(h, 0, sizeof(*h));
    h->cpu = cpu_get();
    h->have_core = pfm_core_pmu(&h->core);
    h->hw = perf_hw_usable(h->why, sizeof(h->why));
    h->topo = topo_get();
    h->huge = host_huge_pages(h->how, sizeof(h->how));
    h->clock = clock_get();
    uname(&h->uts);
    perf_tool_version(h->perf, sizeof(h->perf));
    /* pfm_get_version() is the API level (4.0); the package version says which event tables. */
    snprintf(h->libpfm, sizeof(h->libpfm), "unknown");
    FILE *p = popen("dpkg-query -W -f='${Version}' libpfm4 2>/dev/null", "r");
    if (p) {
        if (!fgets(h->libpfm, sizeof(h->libpfm), p))
            snprintf(h->libpfm, sizeof(h->libpfm), "unknown");
        pclose(p);
    }
}

static const char *const level_names[] = {"", "L1", "L2", "L3"};

static const char *cache_name(int l)
{
    return l == 1 ? "L1d" : l == 2 ? "L2" : "L3";
}

void host_facts_print(FILE *f)
{
    struct host_facts h;
    gather(&h);
    fprintf(f, "cpu        %s (%s family %d model %d stepping %d)\n", h.cpu->brand, h.cpu->vendor, h.cpu->family,
            h.cpu->model, h.cpu->stepping);
    fprintf(f, "features   avx2 %s, avx512f %s, fma %s\n", h.cpu->avx2 ? "yes" : "no", h.cpu->avx512f ? "yes" : "no",
            h.cpu->fma ? "yes" : "no");
    fprintf(f, "dtlb       4k: %d first level, %d second; 2m: %d first, %d second\n", h.cpu->dtlb1_4k, h.cpu->stlb_4k,
            h.cpu->dtlb1_2m, h.cpu->stlb_2m);
    if (h.have_core)
        fprintf(f, "pmu        %s (%s): %d counters, %d fixed, %d events in libpfm4\n", h.core.name, h.core.desc,
                h.core.counters, h.core.fixed_counters, h.core.events);
    else
        fprintf(f, "pmu        libpfm4 knows no core PMU for this CPU\n");
    fprintf(f, "hardware   %s\n", h.hw ? "usable: hardware events open" : h.why);
    if (h.topo) {
        fprintf(f, "topology   %d package(s), %d NUMA node(s), %d cores, %d PUs\n", h.topo->packages, h.topo->numa_nodes,
                h.topo->cores, h.topo->pus);
        for (int l = 1; l <= TOPO_MAX_LEVEL; l++)
            if (h.topo->data[l].size)
                fprintf(f, "%-10s %s, %d-way, %d-byte lines, shared by %d PU(s); size=%s means %s\n", cache_name(l),
                        fmt_size(h.topo->data[l].size), h.topo->data[l].ways, h.topo->data[l].linesize,
                        h.topo->data[l].sharing_pus, level_names[l], fmt_size(level_size(level_names[l])));
        if (h.topo->l1i.size)
            fprintf(f, "L1i        %s, %d-way\n", fmt_size(h.topo->l1i.size), h.topo->l1i.ways);
        fprintf(f, "DRAM       size=DRAM means %s\n", fmt_size(level_size("DRAM")));
    }
    fprintf(f, "huge pages %s\n", h.huge ? h.how : "none (page=2m is an error; page=auto uses 4k)");
    fprintf(f, "clocks     TSC %.4f GHz, core %.4f GHz (%.4f core cycles per tick, spread %.2f%%), cycles from %s; "
            "regions end with %s%s\n", h.clock->tsc_hz / 1e9, h.clock->core_hz / 1e9, h.clock->core_per_tsc,
            100 * h.clock->core_per_tsc_spread, h.hw ? "the PMU" : "the TSC", clock_stop_mark(),
            clock_has_rdtscp ? "" : " (CPUID has no RDTSCP)");
    fprintf(f, "software   kernel %s, %s, libpfm4 %s, pmucal %s\n", h.uts.release, h.perf, h.libpfm, PMUCAL_VERSION);
}

void host_facts_json(struct json *j)
{
    struct host_facts h;
    gather(&h);
    const struct cpu_facts *cpu = h.cpu;
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

    const struct pfm_core core = h.core;
    json_object_begin(j, "pmu");
    if (h.have_core) {
        json_string(j, "libpfm4_pmu", core.name);
        json_string(j, "description", core.desc);
        json_int(j, "counters", core.counters);
        json_int(j, "fixed_counters", core.fixed_counters);
        json_int(j, "events", core.events);
    } else {
        json_string(j, "libpfm4_pmu", NULL);
    }
    json_bool(j, "hardware_usable", h.hw);
    json_string(j, "hardware_reason", h.why);
    json_object_end(j);

    const struct topo *t = h.topo;
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
            json_string(j, "name", cache_name(l));
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
    json_bool(j, "huge_pages_2m", h.huge);
    json_string(j, "huge_pages_how", h.how);
    json_object_end(j);

    const struct clock_info *ci = h.clock;
    json_object_begin(j, "clocks");
    json_number(j, "tsc_hz", ci->tsc_hz);
    json_number(j, "core_cycles_per_tsc", ci->core_per_tsc);
    json_number(j, "core_hz", ci->core_hz);
    json_number(j, "ratio_rel_mad", ci->core_per_tsc_spread);
    json_string(j, "cycles_source", h.hw ? "pmu" : "tsc");
    json_string(j, "tsc_stop_mark", clock_stop_mark());
    json_object_end(j);

    json_object_begin(j, "software");
    json_string(j, "kernel", h.uts.release);
    json_string(j, "perf", h.perf);
    json_string(j, "libpfm4", h.libpfm);
    json_string(j, "pmucal", PMUCAL_VERSION);
    json_object_end(j);
}

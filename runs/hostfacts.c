#include "runs/hostfacts.h"
#include "arch/isa.h"
#include "base/subprocess.h"
#include "base/util.h"
#include "base/version.h"
#include "core/kernel.h"
#include "core/mem.h"
#include "events/catalog.h"
#include "events/pfm.h"
#include "host/clock.h"
#include "host/geometry.h"
#include "host/kpmu.h"
#include "host/tlb.h"
#include "host/topo.h"
#include "host/uarch.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

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

/* Microcode revision: sysfs, else /proc/cpuinfo; virtual machines often report neither. */
static void microcode(char *out, size_t n)
{
    snprintf(out, n, "not reported");
    if (host_read_line("/sys/devices/system/cpu/cpu0/microcode/version", out, n))
        return;
    char line[256];
    FILE *f;
    if (!(f = fopen("/proc/cpuinfo", "r")))
        return;
    while (fgets(line, sizeof(line), f))
        if (!strncmp(line, "microcode", 9) && strchr(line, ':')) {
            char *v = strchr(line, ':') + 1;
            v += strspn(v, " \t");
            snprintf(out, n, "%.*s", (int)strcspn(v, "\n"), v);
            break;
        }
    fclose(f);
}

/* The kernel's name of the core PMU: on x86 the event source whose perf type is PERF_TYPE_RAW (4),
 * "cpu"; arm64's core PMUs take a dynamic type and list the CPUs they count in a "cpus" file
 * ("armv8_pmuv3", "armv8_pmuv3_0"). */
static void core_pmu_sysfs(char *out, size_t n)
{
    snprintf(out, n, "none");
    for (int pass = 0; pass < 2 && !strcmp(out, "none"); pass++) {
        DIR *d = opendir("/sys/bus/event_source/devices");
        struct dirent *de;
        while (d && (de = readdir(d))) {
            char path[512], type[16] = "";
            snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/%s", de->d_name, pass ? "cpus" : "type");
            bool found = pass ? access(path, R_OK) == 0 : host_read_line(path, type, sizeof(type)) && !strcmp(type, "4");
            if (found && de->d_name[0] != '.') {
                snprintf(out, n, "%.63s", de->d_name);
                break;
            }
        }
        if (d)
            closedir(d);
    }
}

/* Does /proc/cpuinfo's flags line hold x86's hypervisor bit (CPUID 1 ECX[31])? */
static bool hypervisor_flag(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[4096];
    bool hv = false;
    while (f && !hv && fgets(line, sizeof(line), f))
        hv = !strncmp(line, "flags", 5) && strstr(line, " hypervisor");
    if (f)
        fclose(f);
    return hv;
}

/* The first compatible strings QEMU's virt machines give their device trees (Arm's
 * linux,dummy-virt; RISC-V's riscv-virtio, its model riscv-virtio,qemu): no board has them. */
static const char *const qemu_virt_compatible[] = {"linux,dummy-virt", "riscv-virtio"};

void host_machine_name(const char *compat, const char *vendor, const char *product, bool hypervisor, char *out,
                       size_t n, bool *virt)
{
    bool qemu_virt = false;
    for (size_t i = 0; i < ARRAY_SIZE(qemu_virt_compatible); i++)
        qemu_virt = qemu_virt || !strcmp(compat, qemu_virt_compatible[i]);
    *virt = qemu_virt || strstr(vendor, "QEMU") || strstr(product, "KVM") || strstr(product, "Virtual") || hypervisor;
    if (qemu_virt)
        snprintf(out, n, "QEMU -M virt (device tree: %s)", compat);
    else if (*compat)
        snprintf(out, n, "%s (device tree)", compat);
    else if (*vendor || *product)
        snprintf(out, n, "%s %s (DMI)", vendor, product);
    else
        snprintf(out, n, "unknown");
}

static void machine_of(char *out, size_t n, bool *virt)
{
    char compat[128] = "", vendor[64] = "", product[64] = "";
    host_read_line("/sys/firmware/devicetree/base/compatible", compat, sizeof(compat));
    host_read_line("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
    host_read_line("/sys/class/dmi/id/product_name", product, sizeof(product));
    host_machine_name(compat, vendor, product, hypervisor_flag(), out, n, virt);
}

struct host_facts {
    char pmu_sysfs[64], machine[160];
    bool virt;
    const struct cpu_facts *cpu;
    struct pfm_core core;
    bool have_core, hw, huge;
    const struct catalog *table;   /* the events' vendor table where libpfm4 knows no core PMU */
    char table_why[512];
    char why[256], how[32], perf[128], libpfm[32], libpfm_api[16], hwloc[16], host[64], cpu_id[48], ucode[64];
    const struct topo *topo;
    const struct clock_info *clock;
    struct utsname uts;
};

/* The kernel's id of this boot: a pid recorded before a reboot names another process after it. */
void host_boot_id(char *buf, size_t n)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(buf, (int)n, f))
            buf[0] = '\0';
        fclose(f);
    }
    buf[strcspn(buf, "\n")] = '\0';
}

void host_cpu_id(char *buf, size_t n)
{
    /* perf's mapfile spelling: vendor-family-model(-stepping), e.g. GenuineIntel-6-55-4. */
    const struct cpu_facts *cpu = cpu_get();
    snprintf(buf, n, "%s-%d-%X-%d", cpu->vendor, cpu->family, cpu->model, cpu->stepping);
}

static void gather(struct host_facts *h)
{
    memset(h, 0, sizeof(*h));
    h->cpu = cpu_get();
    core_pmu_sysfs(h->pmu_sysfs, sizeof(h->pmu_sysfs));
    machine_of(h->machine, sizeof(h->machine), &h->virt);
    h->have_core = pfm_core_pmu(&h->core);
    if (!h->have_core)
        h->table = catalog_active(h->table_why, sizeof(h->table_why));
    h->hw = perf_hw_usable(h->why, sizeof(h->why));
    h->topo = topo_resolved();
    tlb_resolved();
    h->huge = host_huge_pages(h->how, sizeof(h->how));
    h->clock = clock_get();
    uname(&h->uts);
    /* perf is a separate program: asked with a deadline, without a shell. */
    char *perf_argv[] = {"perf", "--version", NULL};
    struct spawn_opts po = {.capture = h->perf, .capture_size = sizeof(h->perf), .timeout_ms = 2000};
    int prc = spawn_run(perf_argv, &po);
    if (prc == SPAWN_NOT_STARTED)
        snprintf(h->perf, sizeof(h->perf), "not installed (no perf in PATH)");
    else if (prc == SPAWN_TIMED_OUT)
        snprintf(h->perf, sizeof(h->perf), "unknown ('perf --version' gave no answer within 2 s)");
    else if (prc != 0 || !h->perf[0])
        snprintf(h->perf, sizeof(h->perf), "unknown ('perf --version' failed with status %d)", prc);
    h->perf[strcspn(h->perf, "\n")] = '\0';
    pfm_version(h->libpfm, h->libpfm_api);
    topo_lib_version(h->hwloc, sizeof(h->hwloc));
    gethostname(h->host, sizeof(h->host) - 1);
    host_cpu_id(h->cpu_id, sizeof(h->cpu_id));
    microcode(h->ucode, sizeof(h->ucode));
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
    struct uarch_group *g;
    int ng = uarch_groups(&g);   /* first: a uarch file that does not parse ends it before any line */
    fprintf(f, "cpu        %s (%s family %d model %d stepping %d)\n", h.cpu->brand, h.cpu->vendor, h.cpu->family,
            h.cpu->model, h.cpu->stepping);
    if (*h.cpu->ident)
        fprintf(f, "ident      %s\n", h.cpu->ident);
    for (int i = 0; i < ng; i++) {
        /* "CPU 3", "CPUs 0-1", "CPUs 0,2": one CPU is never written as a list. */
        const char *cpus = strpbrk(g[i].cpus, "-,") ? "CPUs" : "CPU";
        if (g[i].cpu)
            fprintf(f, "uarch      %s (%s %s: cpu %s of %s, %s)\n", g[i].cpu->uarch->name, cpus, g[i].cpus,
                    g[i].cpu->name, g[i].cpu->uarch->file, g[i].ident);
        else
            fprintf(f, "uarch      %s %s: %s%s%s\n", cpus, g[i].cpus, g[i].ident, g[i].ident[0] ? ": " : "", g[i].why);
    }
    free(g);
    fprintf(f, "features  ");
    for (size_t i = 0; i < isa_nexts; i++)
        fprintf(f, "%s %s %s", i ? "," : "", isa_exts[i].key, isa_ext_present(isa_exts[i].bit) ? "yes" : "no");
    fprintf(f, "\n");
    tlb_print(f);
    if (h.have_core)
        fprintf(f, "pmu        %s (%s): %d counters, %d fixed, %d events in libpfm4\n", h.core.name, h.core.desc,
                h.core.counters, h.core.fixed_counters, h.core.events);
    else if (h.table)
        fprintf(f, "pmu        " PFM_NO_CORE "; events from the vendor table %s (%s, %d events; "
                "%s): %d counters (%s)%s%s\n", h.table->name, h.table->path, h.table->vt.n, h.table->how,
                h.table->counters, h.table->counters_how, catalog_libpfm4_note(h.table->name) ? "; " : "",
                catalog_libpfm4_note(h.table->name) ? catalog_libpfm4_note(h.table->name) : "");
    else
        fprintf(f, "pmu        " PFM_NO_CORE ", and no vendor table: %s\n", h.table_why);
    fprintf(f, "pmu sysfs  %s (the Linux kernel's core PMU, perf type 4)\n", h.pmu_sysfs);
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
        geometry_print(f);
    }
    fprintf(f, "huge pages %s\n", h.huge ? h.how : "none (page=2m is an error; page=auto uses 4k)");
    char refs[64] = "dependent register adds alone";
    if (h.clock->mul_latency)
        snprintf(refs, sizeof(refs), "dependent register adds and %d-cycle multiplies", h.clock->mul_latency);
    fprintf(f, "clocks     %s %.4f GHz, core %.4f GHz (%.4f core cycles per tick from %s, spread %.2f%%), cycles "
            "from %s; regions end with %s%s\n", ISA_TICKS_NAME, h.clock->tsc_hz / 1e9, h.clock->core_hz / 1e9,
            h.clock->core_per_tsc, refs, 100 * h.clock->core_per_tsc_spread, h.hw ? "the PMU" : "the " ISA_TICKS_NAME,
            isa_stop_mark(), isa_stop_note());
    if (!h.clock->trusted)
        fprintf(f, "clock      NOT TRUSTED: %s; figures in core cycles are withheld\n", h.clock->why);
    if (h.clock->note[0])
        fprintf(f, "clock note %s\n", h.clock->note);
    fprintf(f, "host       %s, cpu id %s, microcode %s\n", h.host, h.cpu_id, h.ucode);
    fprintf(f, "machine    %s%s\n", h.machine, h.virt ? ", virtual or emulated" : "");
    fprintf(f, "software   Linux %s, %s, libpfm4 %s (API %s), hwloc %s, pmucal %s (%s)\n", h.uts.release, h.perf,
            h.libpfm, h.libpfm_api, h.hwloc, PMUCAL_VERSION, pmucal_commit());
}

void host_facts_json(struct json *j)
{
    struct host_facts h;
    gather(&h);
    const struct cpu_facts *cpu = h.cpu;
    json_string(j, "hostname", h.host);
    json_object_begin(j, "machine");
    json_string(j, "name", h.machine);
    json_bool(j, "virtual", h.virt);
    json_object_end(j);
    json_object_begin(j, "cpu");
    json_string(j, "id", h.cpu_id);
    json_string(j, "microcode", h.ucode);
    json_string(j, "vendor", cpu->vendor);
    json_string(j, "brand", cpu->brand);
    json_int(j, "family", cpu->family);
    json_int(j, "model", cpu->model);
    json_int(j, "stepping", cpu->stepping);
    if (*cpu->ident)
        json_string(j, "ident", cpu->ident);
    json_object_begin(j, "features");
    for (size_t i = 0; i < isa_nexts; i++)
        json_bool(j, isa_exts[i].key, isa_ext_present(isa_exts[i].bit));
    json_object_end(j);
    tlb_json(j);
    json_object_end(j);
    /* Which CPUs are which uarch: a host may have two core kinds. */
    struct uarch_group *g;
    int ng = uarch_groups(&g);
    json_array_begin(j, "uarchs");
    for (int i = 0; i < ng; i++) {
        json_object_begin(j, NULL);
        json_string(j, "cpus", g[i].cpus);
        json_string(j, "uarch", g[i].cpu ? g[i].cpu->uarch->name : NULL);
        json_string(j, "uarch_cpu", g[i].cpu ? g[i].cpu->name : NULL);
        json_string(j, "identity", g[i].ident[0] ? g[i].ident : NULL);
        json_string(j, "why", g[i].cpu ? NULL : g[i].why);
        json_object_end(j);
    }
    json_array_end(j);
    free(g);

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
    /* Where the events' names and encodings come from: libpfm4, else the vendor table. */
    json_string(j, "event_source", h.have_core ? "libpfm4" : h.table ? "vendor table" : NULL);
    if (h.table) {
        json_object_begin(j, "vendor_table");
        json_string(j, "name", h.table->name);
        json_string(j, "path", h.table->path);
        json_string(j, "chosen_by", h.table->how);
        json_int(j, "events", h.table->vt.n);
        json_int(j, "counters", h.table->counters);
        json_string(j, "counters_from", h.table->counters_how);
        json_string(j, "libpfm4_note", catalog_libpfm4_note(h.table->name));
        json_object_end(j);
    } else if (!h.have_core) {
        json_string(j, "vendor_table_missing", h.table_why);
    }
    json_string(j, "sysfs_name", h.pmu_sysfs);
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
            json_uint(j, "case_bytes", level_size(level_names[l]));   /* what size=Ln means */
            if (t->usable[l])   /* the part the latency curve shows this machine can keep (host/topo.h) */
                json_uint(j, "usable", t->usable[l]);
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
        json_uint(j, "dram_case_bytes", level_size("DRAM"));
    }
    geometry_json(j);
    json_bool(j, "huge_pages_2m", h.huge);
    json_string(j, "huge_pages_how", h.how);
    json_object_end(j);

    const struct clock_info *ci = h.clock;
    json_object_begin(j, "clocks");
    json_number(j, "tsc_hz", ci->tsc_hz);
    json_number(j, "core_cycles_per_tsc", ci->core_per_tsc);
    json_number(j, "core_hz", ci->core_hz);
    json_number(j, "ratio_rel_mad", ci->core_per_tsc_spread);
    json_int(j, "mul_latency_cycles", ci->mul_latency);   /* 0: the adds are the only reference */
    json_bool(j, "trusted", ci->trusted);
    json_string(j, "untrusted_why", ci->why);
    json_number(j, "imm_adds_per_cycle", ci->imm_per_cycle);
    json_string(j, "cycles_source", h.hw ? "pmu" : "tsc");
    json_string(j, "tsc_stop_mark", isa_stop_mark());
    json_object_end(j);

    json_object_begin(j, "software");
    json_string(j, "linux_kernel", h.uts.release);
    json_string(j, "perf", h.perf);
    json_string(j, "libpfm4", h.libpfm);
    json_string(j, "libpfm4_api", h.libpfm_api);
    json_string(j, "hwloc", h.hwloc);
    json_string(j, "pmucal", PMUCAL_VERSION);
    json_string(j, "pmucal_commit", pmucal_commit());
    json_object_end(j);
    kernel_facts_json(j, h.pmu_sysfs);
}

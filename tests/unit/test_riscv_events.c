/* RISC-V events: the mvendorid-marchid-mimpid signature perf's mapfile keys, perf's generic cache
 * event names, and a table entry's config placed through the cpu PMU's sysfs format fields (a
 * fixture tree under $PMUCAL_SYSFS: riscv-pmu-sbi's event config:0-47, firmware config:62-63, and
 * narrower or missing fields). */
#include "events/event_probe.h"
#include "events/perfsyntax.h"
#include "host/uarch.h"
#include "tap.h"
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char root[64];

/* root/bus/event_source/devices/cpu with these format files (NULL: none); type 4. */
static void pmu(const char *event, const char *firmware)
{
    char path[256];
    const char *parts[] = {"bus", "bus/event_source", "bus/event_source/devices", "bus/event_source/devices/cpu",
                           "bus/event_source/devices/cpu/format"};
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", root, parts[i]);
        mkdir(path, 0700);
    }
    const char *names[] = {"type", "format/event", "format/firmware"}, *texts[] = {"4\n", event, firmware};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s/bus/event_source/devices/cpu/%s", root, names[i]);
        remove(path);
        FILE *f = texts[i] ? fopen(path, "w") : NULL;
        if (f) {
            fprintf(f, "%s\n", texts[i]);
            fclose(f);
        }
    }
}

static const struct {
    int line;
    const char *in, *want;   /* want NULL: refused */
} sigs[] = {
    {__LINE__, "0x489-0x8000000000000007-0x0", "0x489-0x8000000000000007-0x0"},
    {__LINE__, "0x0489-0x08000000000000007-0x00", "0x489-0x8000000000000007-0x0"},
    {__LINE__, "0X489-0x1-0x1", NULL},
    {__LINE__, "0x489-0x1", NULL},
    {__LINE__, "0x489-0x1-0x1-0x1", NULL},
    {__LINE__, "0x489-0x-0x1", NULL},
    {__LINE__, "0x489-0x1-0x10000000000000000", NULL},
    {__LINE__, "489-0x1-0x1", NULL},
};

static const struct {
    int line;
    const char *name;
    uint64_t config;   /* PERF_TYPE_HW_CACHE config; ~0: not a cache event */
    const char *perf;  /* perf's own spelling */
} caches[] = {
    {__LINE__, "dTLB-read-misses", 0x10003, "dTLB-load-misses:u"},
    {__LINE__, "dTLB-write-misses:k", 0x10103, "dTLB-store-misses:k"},
    {__LINE__, "iTLB-load-misses", 0x10004, "iTLB-load-misses:u"},
    {__LINE__, "L1-dcache-loads", 0x0, "L1-dcache-loads:u"},
    {__LINE__, "LLC-prefetch-misses", 0x10202, "LLC-prefetch-misses:u"},
    {__LINE__, "dTLB-load", ~0ull, NULL},
    {__LINE__, "dTLB-load-hits", ~0ull, NULL},
    {__LINE__, "TLB-load-misses", ~0ull, NULL},
};

static const struct {
    int line;
    const char *event, *firmware;   /* the format files; NULL: none */
    uint64_t table;                 /* the table's config */
    bool firmware_event;
    uint64_t want;                  /* the config placed; 0 with why when refused */
    const char *why;
} places[] = {
    {__LINE__, "config:0-47", "config:62-63", 0x200, false, 0x200, NULL},
    {__LINE__, "config:0-47", "config:62-63", 0x8000000000000004ull, true, 0x8000000000000004ull, NULL},
    {__LINE__, "config:0-47", "config:62-63", 0xffffffffffffull, false, 0xffffffffffffull, NULL},
    /* A kernel whose fields sit elsewhere: the values go where its format says. */
    {__LINE__, "config:8-55", "config:60-61", 0x8000000000000004ull, true, 0x2000000000000400ull, NULL},
    {__LINE__, "config:0-7", "config:62-63", 0x100, false, 0, "wider than the cpu PMU's event field (config:0-7)"},
    {__LINE__, "config:0-47", NULL, 0x8000000000000004ull, true, 0, "states no two-bit firmware field"},
    {__LINE__, "config:0-47", "config:63", 0xc000000000000004ull, true, 0, "states no two-bit firmware field"},
    {__LINE__, NULL, "config:62-63", 0x200, false, 0, "states no event field"},
    {__LINE__, "config1:0-47", "config:62-63", 0x200, false, 0, "states no event field"},
};

int main(void)
{
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
        uint64_t id[3];
        char sig[128] = "";
        bool ok = riscv_signature_parse(sigs[i].in, id, sig, sizeof(sig));
        CHECK(sigs[i].want ? ok && !strcmp(sig, sigs[i].want) : !ok, sigs[i].line, "%s -> %s (want %s)", sigs[i].in,
              ok ? sig : "refused", sigs[i].want ? sigs[i].want : "refused");
    }
    for (size_t i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
        struct event_spec spec = {0};
        bool ok = perf_generic_event(caches[i].name, &spec);
        char *perf = ok ? perf_syntax_of(&spec) : NULL;
        bool want = caches[i].config != ~0ull;
        CHECK(want ? ok && spec.type == PERF_TYPE_HW_CACHE && spec.config == caches[i].config && !strcmp(perf, caches[i].perf)
                   : !ok,
              caches[i].line, "%s -> %s 0x%llx (want %s)", caches[i].name, ok ? perf : "none",
              (unsigned long long)spec.config, want ? caches[i].perf : "none");
        free(perf);
        free(spec.canonical);
    }
    snprintf(root, sizeof(root), "/tmp/pmucal-riscv-XXXXXX");
    if (!mkdtemp(root))
        return 1;
    setenv("PMUCAL_SYSFS", root, 1);
    for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
        pmu(places[i].event, places[i].firmware);
        struct cpu_pmu p;
        cpu_pmu_read(&p);
        struct vendor_event v = {.format = VENDOR_RISCV_PMU_EVENTS, .config = places[i].table,
                                 .firmware = places[i].firmware_event};
        uint64_t config = 0;
        char why[600] = "";
        bool ok = cpu_pmu_config(&p, &v, &config, why, sizeof(why));
        CHECK(p.found && p.type == 4 &&
                  (places[i].why ? !ok && strstr(why, places[i].why) : ok && config == places[i].want),
              places[i].line, "0x%llx through event %s, firmware %s -> %s 0x%llx %s", (unsigned long long)places[i].table,
              places[i].event ? places[i].event : "none", places[i].firmware ? places[i].firmware : "none",
              ok ? "config" : "refused", (unsigned long long)config, why);
    }
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
    if (system(cmd))
        return 1;
    return done_testing();
}

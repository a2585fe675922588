#include "penalties/models.h"
#include "arch/isa.h"
#include <stdio.h>
#include <string.h>

/* CPUID model ranges as perf's x86 mapfile assigns them (eventdata/amd/mapfile.csv,
 * eventdata/intel/mapfile.csv); Zen 4 as the Genoa, Raphael/Phoenix and Bergamo ranges. */
const struct cpu_model cpu_models[] = {
    {"zen4", "AuthenticAMD", 0x19, {{0x10, 0x1f}, {0x60, 0x7f}, {0xa0, 0xaf}}, "amd64_fam19h_zen4", "amd/amdzen4",
     "CYCLES_NOT_IN_HALT", "ls_not_halted_cyc", NULL},
    {"zen5", "AuthenticAMD", 0x1a, {{0x00, 0x2f}, {0x40, 0x4f}, {0x60, 0x7f}}, NULL, "amd/amdzen5", NULL,
     "ls_not_halted_cyc", NULL},
    {"skylake", "GenuineIntel", 6, {{0x4e, 0x4e}, {0x5e, 0x5e}, {0x8e, 0x8e}, {0x9e, 0x9e}}, "skl", "intel/SKL",
     "CPU_CLK_UNHALTED", "CPU_CLK_UNHALTED.THREAD", NULL},
    /* Golden Cove and its kin: one set of references and recipe events (core "goldencove"). libpfm4
     * 4.13 knows SPR (spr) only: EMR, which later libpfm4 encodes with spr's table, and Alder and
     * Raptor Lake's P-cores (their hybrid table's Core half) take their events from Intel's tables. */
    {"sapphirerapids", "GenuineIntel", 6, {{0x8f, 0x8f}}, "spr", "intel/SPR", "CPU_CLK_UNHALTED",
     "CPU_CLK_UNHALTED.THREAD", "goldencove"},
    {"emeraldrapids", "GenuineIntel", 6, {{0xcf, 0xcf}}, NULL, "intel/EMR", NULL, "CPU_CLK_UNHALTED.THREAD",
     "goldencove"},
    {"alderlake", "GenuineIntel", 6, {{0x97, 0x97}, {0x9a, 0x9a}, {0xb7, 0xb7}, {0xba, 0xbf}}, NULL,
     "intel/ADL/events/alderlake_goldencove_core.json.gz", NULL, "CPU_CLK_UNHALTED.THREAD", "goldencove"},
};
const int ncpu_models = (int)(sizeof(cpu_models) / sizeof(cpu_models[0]));

const struct cpu_model *cpu_model_of(const char *vendor, int family, int model)
{
    for (int i = 0; i < ncpu_models; i++) {
        const struct cpu_model *m = &cpu_models[i];
        if (strcmp(m->vendor, vendor) || m->family != family)
            continue;
        for (int r = 0; r < 4 && m->models[r].hi; r++)
            if (model >= m->models[r].lo && model <= m->models[r].hi)
                return m;
    }
    return NULL;
}

const struct cpu_model *cpu_model_named(const char *name)
{
    for (int i = 0; name && i < ncpu_models; i++)
        if (!strcmp(cpu_models[i].name, name))
            return &cpu_models[i];
    return NULL;
}

bool cpu_model_or_core_known(const char *name)
{
    for (int i = 0; name && i < ncpu_models; i++)
        if (!strcmp(cpu_models[i].name, name) || (cpu_models[i].core && !strcmp(cpu_models[i].core, name)))
            return true;
    return false;
}

const struct cpu_model *cpu_model_of_pmu(const char *pfm_pmu)
{
    for (int i = 0; pfm_pmu && i < ncpu_models; i++)
        if (cpu_models[i].pfm_pmu && !strcmp(cpu_models[i].pfm_pmu, pfm_pmu))
            return &cpu_models[i];
    return NULL;
}

/* By the CPU's signature, which a fixture's CPUID dump (HWLOC_CPUID_PATH) replays, as the vendor
 * tables are chosen: a fixture host is judged by its own model. */
const struct cpu_model *cpu_model_host(void)
{
    char sig[96], vendor[32];
    unsigned family, model;
    if (isa_cpu_signature(sig, sizeof(sig), NULL, 0) && sscanf(sig, "%31[^-]-%u-%x", vendor, &family, &model) == 3)
        return cpu_model_of(vendor, (int)family, (int)model);
    const struct cpu_facts *c = cpu_get();
    return cpu_model_of(c->vendor, c->family, c->model);
}

const char *cpu_model_names(void)
{
    static char buf[256];
    if (!buf[0])
        for (int i = 0; i < ncpu_models; i++)
            snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? ", " : "", cpu_models[i].name);
    return buf;
}

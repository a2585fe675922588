#include "arch/isa.h"
#include "base/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#ifndef HWCAP_SVE
#define HWCAP_SVE (1UL << 22)
#endif

static const struct {
    int implementer;
    const char *name;
} implementers[] = {
    {0x41, "ARM"}, {0x42, "Broadcom"}, {0x43, "Cavium"}, {0x46, "Fujitsu"}, {0x48, "HiSilicon"},
    {0x4e, "NVIDIA"}, {0x50, "APM"}, {0x51, "Qualcomm"}, {0x61, "Apple"}, {0x6d, "Microsoft"}, {0xc0, "Ampere"},
};

static const struct {
    int implementer, part;
    const char *name;
} parts[] = {
    {0x41, 0xd03, "Cortex-A53"}, {0x41, 0xd07, "Cortex-A57"}, {0x41, 0xd08, "Cortex-A72"},
    {0x41, 0xd0b, "Cortex-A76"}, {0x41, 0xd0c, "Neoverse N1"}, {0x41, 0xd40, "Neoverse V1"},
    {0x41, 0xd49, "Neoverse N2"}, {0x41, 0xd4f, "Neoverse V2"}, {0x41, 0xd8e, "Neoverse N3"},
    {0x41, 0xd84, "Neoverse V3"}, {0xc0, 0xac3, "AmpereOne"}, {0x46, 0x001, "A64FX"},
};

/* "0x41" after "KEY\t: " on a /proc/cpuinfo line; -1 when the line is not KEY's. */
static long cpuinfo_field(const char *line, const char *key)
{
    size_t k = strlen(key);
    if (strncmp(line, key, k) || !strchr(line + k, ':'))
        return -1;
    return strtol(strchr(line + k, ':') + 1, NULL, 0);
}

/* The MIDR of CPU 0, and where it came from; 0 with *from NULL when nothing says it. */
static uint64_t read_midr(const char **from)
{
    const char *env = getenv("PMUCAL_MIDR");
    if (env) {
        /* Read whole or refused: "zz" or "0x414fd0c1junk" became 0 or a prefix of it, in silence. */
        char *end = NULL;
        errno = 0;
        unsigned long long v = *env ? strtoull(env, &end, 0) : 0;
        if (!*env || *end || errno || !v || v > 0xffffffffull || *env == '-') {
            pm_error("PMUCAL_MIDR=%.64s: not an MIDR (a non-zero 32-bit number, e.g. 0x414fd0c1 for a Neoverse N1); "
                     "fix it or unset PMUCAL_MIDR for this CPU's", env);
            exit(2);
        }
        *from = "PMUCAL_MIDR";
        return v;
    }
    unsigned long long v = 0;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", "r");
    if (f) {
        int got = fscanf(f, "%llx", &v);
        fclose(f);
        if (got == 1 && v) {
            *from = "sysfs";
            return v;
        }
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f) {
        *from = NULL;
        return 0;
    }
    long impl = -1, var = -1, part = -1, rev = -1, x;
    char line[256];
    while (fgets(line, sizeof(line), f) && (impl < 0 || var < 0 || part < 0 || rev < 0)) {
        if ((x = cpuinfo_field(line, "CPU implementer")) >= 0) impl = x;
        if ((x = cpuinfo_field(line, "CPU variant")) >= 0) var = x;
        if ((x = cpuinfo_field(line, "CPU part")) >= 0) part = x;
        if ((x = cpuinfo_field(line, "CPU revision")) >= 0) rev = x;
    }
    fclose(f);
    if (impl < 0 || part < 0) {
        *from = NULL;
        return 0;
    }
    *from = "/proc/cpuinfo";
    /* bits 19:16 are the architecture, 0xf ("by ID registers") on every ARMv8 core */
    return (uint64_t)impl << 24 | (uint64_t)(var < 0 ? 0 : var) << 20 | 0xfu << 16 | (uint64_t)part << 4 |
           (uint64_t)(rev < 0 ? 0 : rev);
}

const struct cpu_facts *cpu_get(void)
{
    static struct cpu_facts c;
    static bool done;
    if (done)
        return &c;
    done = true;
    const char *from;
    c.midr = read_midr(&from);
    c.family = (int)(c.midr >> 24 & 0xff);
    c.variant = (int)(c.midr >> 20 & 0xf);
    c.model = (int)(c.midr >> 4 & 0xfff);
    c.stepping = (int)(c.midr & 0xf);
    snprintf(c.vendor, sizeof(c.vendor), "0x%02x", c.family);
    for (size_t i = 0; i < sizeof(implementers) / sizeof(implementers[0]); i++)
        if (implementers[i].implementer == c.family)
            snprintf(c.vendor, sizeof(c.vendor), "%s", implementers[i].name);
    snprintf(c.brand, sizeof(c.brand), "%s part 0x%03x", c.vendor, c.model);
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        if (parts[i].implementer == c.family && parts[i].part == c.model)
            snprintf(c.brand, sizeof(c.brand), "%s r%dp%d", parts[i].name, c.variant, c.stepping);
    if (from)
        snprintf(c.ident, sizeof(c.ident), "MIDR_EL1 0x%08llx (%s)", (unsigned long long)c.midr, from);
    else
        snprintf(c.ident, sizeof(c.ident), "MIDR_EL1 unknown");
    return &c;
}

const struct isa_ext_info isa_exts[] = {{ISA_SVE, "SVE", "sve"}};
const size_t isa_nexts = sizeof(isa_exts) / sizeof(isa_exts[0]);

bool isa_ext_present(unsigned bit)
{
    return bit == ISA_SVE && (getauxval(AT_HWCAP) & HWCAP_SVE);
}

bool isa_cpu_signature(char *sig, size_t n, char *how, size_t hn)
{
    const char *from;
    uint64_t midr = read_midr(&from);
    if (!from) {
        if (how)
            snprintf(how, hn, "no MIDR: neither /sys/devices/system/cpu/cpu0/regs/identification/midr_el1 nor "
                              "/proc/cpuinfo's CPU implementer and part lines");
        return false;
    }
    snprintf(sig, n, "0x%016llx", (unsigned long long)midr);
    if (how)
        snprintf(how, hn, "%s", from);
    return true;
}

/* PMUCAL_MIDR stands for every CPU (an emulated host is one core design); else CPU cpu's own
 * register in sysfs, else its block of /proc/cpuinfo. */
bool isa_cpu_ident(int cpu, struct cpu_ident *id, char *how, size_t hn)
{
    memset(id, 0, sizeof(*id));
    id->isa = CPU_AARCH64;
    const char *from = NULL;
    unsigned long long midr = 0;
    if (getenv("PMUCAL_MIDR")) {
        midr = read_midr(&from);
    } else {
        char path[96];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", cpu);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fscanf(f, "%llx", &midr) == 1 && midr)
                from = "sysfs";
            fclose(f);
        }
        f = from ? NULL : fopen("/proc/cpuinfo", "r");
        long impl = -1, part = -1, x, at = -1;
        char line[256];
        while (f && fgets(line, sizeof(line), f)) {
            if ((x = cpuinfo_field(line, "processor")) >= 0)
                at = x;
            else if (at == cpu && (x = cpuinfo_field(line, "CPU implementer")) >= 0)
                impl = x;
            else if (at == cpu && (x = cpuinfo_field(line, "CPU part")) >= 0)
                part = x;
        }
        if (f)
            fclose(f);
        if (!from && impl >= 0 && part >= 0) {
            midr = (unsigned long long)impl << 24 | (unsigned long long)part << 4;
            from = "/proc/cpuinfo";
        }
    }
    if (!from) {
        if (how)
            snprintf(how, hn, "CPU %d: no MIDR: neither /sys/devices/system/cpu/cpu%d/regs/identification/midr_el1 "
                     "nor its CPU implementer and part lines in /proc/cpuinfo", cpu, cpu);
        return false;
    }
    id->implementer = (unsigned)(midr >> 24 & 0xff);
    id->part = (unsigned)(midr >> 4 & 0xfff);
    if (how)
        snprintf(how, hn, "%s", from);
    return true;
}

int isa_pmu_counters(bool amd, const char **how)
{
    (void)amd;
    *how = "";
    return 0;
}

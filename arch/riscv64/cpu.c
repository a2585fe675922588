#include "arch/isa.h"
#include "base/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

/* JEDEC JEP106 IDs as mvendorid encodes them (bank - 1) << 7 | ID without parity. */
static const struct {
    uint64_t mvendorid;
    const char *name;
} vendors[] = {
    {0x489, "SiFive"}, {0x5b7, "T-Head"}, {0x31e, "Andes"}, {0x710, "SpacemiT"}, {0x602, "OpenHW"},
};

/* "0x489" after "KEY\t: " on a /proc/cpuinfo line into *v; false when the line is not KEY's. */
static bool cpuinfo_u64(const char *line, const char *key, uint64_t *v)
{
    size_t k = strlen(key);
    const char *colon = strchr(line, ':');
    if (strncmp(line, key, k) || !colon || strspn(line + k, " \t") != (size_t)(colon - line - (long)k))
        return false;
    char *end;
    unsigned long long x = strtoull(colon + 1, &end, 0);
    if (end == colon + 1)
        return false;
    *v = x;
    return true;
}

/* The IDs and ISA string of CPU cpu (-1: the first listed); false when its block lacks an ID. */
static bool read_ids(int cpu, uint64_t *vid, uint64_t *aid, uint64_t *iid, char *isa, size_t in)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    long at = -1;
    int got = 0;
    if (isa)
        isa[0] = 0;
    while (f && fgets(line, sizeof(line), f)) {
        uint64_t v;
        if (cpuinfo_u64(line, "processor", &v)) {
            if (cpu < 0 && got == 3)
                break;
            at = (long)v;
            continue;
        }
        if (cpu >= 0 && at != cpu)
            continue;
        if (cpuinfo_u64(line, "mvendorid", vid) || cpuinfo_u64(line, "marchid", aid) || cpuinfo_u64(line, "mimpid", iid))
            got++;
        else if (isa && !strncmp(line, "isa", 3) && strchr(line, ':') && !isa[0])
            snprintf(isa, in, "%.*s", (int)strcspn(strchr(line, ':') + 2, "\n"), strchr(line, ':') + 2);
    }
    if (f)
        fclose(f);
    return got == 3;
}

const struct cpu_facts *cpu_get(void)
{
    static struct cpu_facts c;
    static bool done;
    if (done)
        return &c;
    done = true;
    c.known = read_ids(-1, &c.mvendorid, &c.marchid, &c.mimpid, c.isa, sizeof(c.isa));
    snprintf(c.vendor, sizeof(c.vendor), "0x%llx", (unsigned long long)c.mvendorid);
    for (size_t i = 0; i < ARRAY_SIZE(vendors); i++)
        if (vendors[i].mvendorid == c.mvendorid)
            snprintf(c.vendor, sizeof(c.vendor), "%s", vendors[i].name);
    c.family = (int)(c.mvendorid & 0x7fffffff);
    c.model = (int)(c.marchid & 0x7fffffff);
    c.stepping = (int)(c.mimpid & 0x7fffffff);
    if (c.known) {
        snprintf(c.brand, sizeof(c.brand), "RISC-V 0x%llx/0x%llx/0x%llx", (unsigned long long)c.mvendorid,
                 (unsigned long long)c.marchid, (unsigned long long)c.mimpid);
        snprintf(c.ident, sizeof(c.ident), "mvendorid 0x%llx marchid 0x%llx mimpid 0x%llx, isa %s (/proc/cpuinfo)",
                 (unsigned long long)c.mvendorid, (unsigned long long)c.marchid, (unsigned long long)c.mimpid,
                 c.isa[0] ? c.isa : "not stated");
    } else {
        snprintf(c.brand, sizeof(c.brand), "RISC-V (IDs not stated)");
        snprintf(c.ident, sizeof(c.ident), "mvendorid, marchid, mimpid unknown: /proc/cpuinfo does not state them "
                 "(a Linux kernel before 6.1)");
    }
    return &c;
}

const struct isa_ext_info isa_exts[] = {{ISA_RVV, "V", "v"}};
const size_t isa_nexts = sizeof(isa_exts) / sizeof(isa_exts[0]);

/* The kernel's hwcap has a bit per single-letter extension, 'V' - 'A' for V, set only where it
 * enables V for user space. */
bool isa_ext_present(unsigned bit)
{
    return bit == ISA_RVV && (getauxval(AT_HWCAP) & (1ul << ('V' - 'A')));
}

bool isa_cpu_signature(char *sig, size_t n, char *how, size_t hn)
{
    const struct cpu_facts *c = cpu_get();
    if (!c->known) {
        if (how)
            snprintf(how, hn, "no mvendorid, marchid and mimpid lines in /proc/cpuinfo (a Linux kernel before 6.1)");
        return false;
    }
    snprintf(sig, n, "0x%llx-0x%llx-0x%llx", (unsigned long long)c->mvendorid, (unsigned long long)c->marchid,
             (unsigned long long)c->mimpid);
    if (how)
        snprintf(how, hn, "/proc/cpuinfo");
    return true;
}

bool isa_cpu_ident(int cpu, struct cpu_ident *id, char *how, size_t hn)
{
    memset(id, 0, sizeof(*id));
    id->isa = CPU_RISCV64;
    if (!read_ids(cpu, &id->mvendorid, &id->marchid, &id->mimpid, NULL, 0)) {
        if (how)
            snprintf(how, hn, "CPU %d: no mvendorid, marchid and mimpid lines in its block of /proc/cpuinfo (a Linux "
                     "kernel before 6.1 states none)", cpu);
        return false;
    }
    if (how)
        snprintf(how, hn, "/proc/cpuinfo");
    return true;
}

int isa_pmu_counters(bool amd, const char **how)
{
    (void)amd;
    *how = "";
    return 0;
}

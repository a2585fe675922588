#include "arch/isa.h"
#include "arch/x86_64/cpuid_leaf.h"
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cpu_facts *cpu_get(void)
{
    static struct cpu_facts c;
    static bool done;
    unsigned a, b, cc, d;
    if (done)
        return &c;
    done = true;
    __cpuid(0, a, b, cc, d);
    memcpy(c.vendor, &b, 4);
    memcpy(c.vendor + 4, &d, 4);
    memcpy(c.vendor + 8, &cc, 4);
    __cpuid(1, a, b, cc, d);
    c.family = (int)((a >> 8) & 0xf);
    c.model = (int)((a >> 4) & 0xf);
    if (c.family == 0xf)
        c.family += (int)((a >> 20) & 0xff);
    if (c.family >= 6)
        c.model |= (int)((a >> 16) & 0xf) << 4;
    c.stepping = (int)(a & 0xf);
    c.sse2 = d & bit_SSE2;
    c.fma = cc & bit_FMA;
    bool osxsave = cc & bit_OSXSAVE, avx_cpu = cc & bit_AVX;
    unsigned long long xcr0 = 0;
    if (osxsave) {
        unsigned lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        xcr0 = ((unsigned long long)hi << 32) | lo;
    }
    c.avx = avx_cpu && (xcr0 & 6) == 6;
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, a, b, cc, d);
        c.avx2 = c.avx && (b & bit_AVX2);
        c.avx512f = c.avx && (b & bit_AVX512F) && (xcr0 & 0xe0) == 0xe0;
    }
    if ((unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x80000001u) {
        __cpuid(0x80000001, a, b, cc, d);
        c.rdtscp = d & (1u << 27);   /* cpuid.h names no bit for it */
    }
    unsigned brand[12] = {0};
    if ((unsigned)__get_cpuid_max(0x80000000, NULL) >= 0x80000004u) {
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002 + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2], brand[4 * i + 3]);
        memcpy(c.brand, brand, 48);
    }
    return &c;
}

const struct isa_ext_info isa_exts[] = {{ISA_AVX2, "AVX2", "avx2"}, {ISA_FMA, "FMA", "fma"}, {ISA_AVX512, "AVX-512", "avx512f"}};
const size_t isa_nexts = sizeof(isa_exts) / sizeof(isa_exts[0]);

bool isa_ext_present(unsigned bit)
{
    const struct cpu_facts *cpu = cpu_get();
    return bit == ISA_AVX2 ? cpu->avx2 : bit == ISA_FMA ? cpu->fma : cpu->avx512f;
}

bool isa_cpu_signature(char *sig, size_t n, char *how, size_t hn)
{
    unsigned r[4], a[4];
    char why[600];
    if (!cpuid_origin(why, sizeof(why))) {
        if (how)
            snprintf(how, hn, "%s", why);
        return false;
    }
    if (!cpuid_query(0, 0, r) || !cpuid_query(1, 0, a)) {
        if (how)
            snprintf(how, hn, "no CPUID leaves 0 and 1 in %s/pu0", getenv("HWLOC_CPUID_PATH"));
        return false;
    }
    char vendor[13];
    memcpy(vendor, &r[1], 4), memcpy(vendor + 4, &r[3], 4), memcpy(vendor + 8, &r[2], 4);
    vendor[12] = '\0';
    /* perf's x86 rule: the extended family adds when the family is 0xf; the extended model is
     * the high nibble from family 6 on. */
    unsigned family = (a[0] >> 8) & 0xf, model = (a[0] >> 4) & 0xf, step = a[0] & 0xf;
    if (family == 0xf)
        family += (a[0] >> 20) & 0xff;
    if (family >= 6)
        model += ((a[0] >> 16) & 0xf) << 4;
    snprintf(sig, n, "%s-%u-%X-%X", vendor, family, model, step);
    if (how)
        snprintf(how, hn, "%s", getenv("HWLOC_CPUID_PATH") ? "HWLOC_CPUID_PATH" : "cpuid");
    return true;
}

bool isa_cpu_ident(int cpu, struct cpu_ident *id, char *how, size_t hn)
{
    /* Leaves 0 and 1 (vendor, signature); on a hybrid part (leaf 7 EDX bit 15) the core type of
     * leaf 0x1A EAX[31:24]: Intel's P- and E-cores share a family and model. */
    static const uint32_t leaves[4][2] = {{0, 0}, {1, 0}, {7, 0}, {0x1a, 0}};
    uint32_t out[4][4];
    bool got[4] = {false};
    char why[600];
    memset(id, 0, sizeof(*id));
    id->isa = CPU_X86_64;
    if (!cpuid_origin(why, sizeof(why)) || !cpuid_leaves_of(cpu, 4, leaves, out, got, why, sizeof(why))) {
        if (how)
            snprintf(how, hn, "%s", why);
        return false;
    }
    /* Read, but without the vendor or the signature (a dump's puN that lacks them). */
    if (!got[0] || !got[1]) {
        if (how)
            snprintf(how, hn, "no CPUID leaves 0 and 1 in %s", getenv("HWLOC_CPUID_PATH") ?
                     getenv("HWLOC_CPUID_PATH") : "this CPU's answers");
        return false;
    }
    const uint32_t *l0 = out[0], *l1 = out[1];
    if (got[2] && (out[2][3] >> 15 & 1) && got[3])
        id->core_type = out[3][0] >> 24;
    memcpy(id->vendor, &l0[1], 4), memcpy(id->vendor + 4, &l0[3], 4), memcpy(id->vendor + 8, &l0[2], 4);
    /* As isa_cpu_signature: perf's display family and model. */
    id->family = (l1[0] >> 8) & 0xf, id->model = (l1[0] >> 4) & 0xf;
    if (id->family == 0xf)
        id->family += (l1[0] >> 20) & 0xff;
    if (id->family >= 6)
        id->model += ((l1[0] >> 16) & 0xf) << 4;
    if (how)
        snprintf(how, hn, "%s", getenv("HWLOC_CPUID_PATH") ? "HWLOC_CPUID_PATH" : "cpuid");
    return true;
}

/* AMD's CPUID 0x80000022 EBX[3:0] (PerfMonV2), else 6 when 0x80000001 ECX bit 23
 * (PerfCtrExtCore) says so; Intel's CPUID 0xA EAX[15:8] (per logical CPU). */
int isa_pmu_counters(bool amd, const char **how)
{
    unsigned r[4];
    if (amd && cpuid_query(0x80000000u, 0, r) && r[0] >= 0x80000022u && cpuid_query(0x80000022u, 0, r) &&
        (r[0] & 1) && (r[1] & 0xf)) {
        *how = "CPUID 0x80000022 EBX[3:0] (PerfMonV2)";
        return (int)(r[1] & 0xf);
    }
    if (amd && cpuid_query(0x80000001u, 0, r) && (r[2] >> 23 & 1)) {
        *how = "CPUID 0x80000001 ECX bit 23 (PerfCtrExtCore)";
        return 6;
    }
    if (!amd && cpuid_query(0xa, 0, r) && (r[0] & 0xff) && ((r[0] >> 8) & 0xff)) {
        *how = "CPUID 0xA EAX[15:8] (architectural PMU: counters per logical CPU)";
        return (int)((r[0] >> 8) & 0xff);
    }
    return 0;
}

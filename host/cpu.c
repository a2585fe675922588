#include "host/cpu.h"
#include <cpuid.h>
#include <string.h>

static void amd_tlbs(struct cpu_facts *c)
{
    unsigned a, b, cc, d;
    if (__get_cpuid(0x80000005, &a, &b, &cc, &d)) {
        c->dtlb1_4k = (b >> 16) & 0xff;
        c->dtlb1_2m = (a >> 16) & 0xff;
    }
    if (__get_cpuid(0x80000006, &a, &b, &cc, &d)) {
        c->stlb_4k = (b >> 16) & 0xfff;
        c->stlb_2m = (a >> 16) & 0xfff;
    }
}

/* Leaf 0x18 enumerates each TLB: type in EDX[4:0] (1 data, 3 unified, 4 load-only), level in
 * EDX[7:5], page sizes in EBX[3:0], ways EBX[31:16], sets ECX. */
static void intel_tlbs(struct cpu_facts *c)
{
    unsigned a, b, cc, d, max;
    if (__get_cpuid_max(0, NULL) < 0x18)
        return;
    __cpuid_count(0x18, 0, max, b, cc, d);
    for (unsigned sub = 0; sub <= max && sub < 64; sub++) {
        __cpuid_count(0x18, sub, a, b, cc, d);
        unsigned type = d & 0x1f, level = (d >> 5) & 7;
        if (type != 1 && type != 3 && type != 4)
            continue;
        int entries = (int)((b >> 16) * cc);
        bool k4 = b & 1, m2 = b & 2;
        if (level == 1) {
            if (k4) c->dtlb1_4k += entries;
            if (m2) c->dtlb1_2m += entries;
        } else {
            if (k4) c->stlb_4k = entries;
            if (m2) c->stlb_2m = entries;
        }
    }
}

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
    if (__get_cpuid_max(0x80000000, NULL) >= 0x80000001) {
        __cpuid(0x80000001, a, b, cc, d);
        c.rdtscp = d & (1u << 27);   /* cpuid.h names no bit for it */
    }
    unsigned brand[12] = {0};
    if (__get_cpuid_max(0x80000000, NULL) >= 0x80000004) {
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002 + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2], brand[4 * i + 3]);
        memcpy(c.brand, brand, 48);
    }
    if (!strcmp(c.vendor, "AuthenticAMD") || !strcmp(c.vendor, "HygonGenuine"))
        amd_tlbs(&c);
    else
        intel_tlbs(&c);
    return &c;
}

/* What cpuid says about this CPU: identity, instruction-set features, TLB sizes. */
#ifndef PMUCAL_CPU_H
#define PMUCAL_CPU_H
#include <stdbool.h>

struct cpu_facts {
    char vendor[13];
    char brand[49];
    int family, model, stepping;
    bool sse2, avx, avx2, avx512f, fma;
    bool rdtscp;           /* CPUID 0x80000001 EDX[27]; a VM may leave it out */
    /* Data TLB entries for 4 KiB pages, first level and the last (shared) level; 0 = unknown. */
    int dtlb1_4k, stlb_4k;
    int dtlb1_2m, stlb_2m;
};

const struct cpu_facts *cpu_get(void);

#endif

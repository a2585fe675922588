/* What CPUID says about this CPU: identity, instruction-set features, TLB sizes, the PMU's
 * counters, and the signature perf's event tables are chosen by. */
#ifndef PMUCAL_X86_CPU_H
#define PMUCAL_X86_CPU_H
#include <stdbool.h>
#include <stddef.h>

struct cpu_facts {
    char vendor[13];
    char brand[49];
    int family, model, stepping;
    bool sse2, avx, avx2, avx512f, fma;
    bool rdtscp;           /* CPUID 0x80000001 EDX[27]; a VM may leave it out */
    char ident[40];        /* the identifying register where the ISA has one (AArch64's MIDR); "" */
    /* Data TLB entries for 4 KiB pages, first level and the last (shared) level; 0 = unknown. */
    int dtlb1_4k, stlb_4k;
    int dtlb1_2m, stlb_2m;
};

const struct cpu_facts *cpu_get(void);

/* Instruction-set extensions a kernel (or one of its variants) may need beyond x86-64 + SSE2,
 * and a counter source may be unable to execute (its isa_limits, core/source.h): the sim source
 * runs code under valgrind, which has no AVX-512 and dies with SIGILL on it. */
enum isa_ext {
    ISA_AVX2 = 1u << 0,
    ISA_FMA = 1u << 1,
    ISA_AVX512 = 1u << 2,   /* AVX-512F (and whatever subsets the variant names in its reason) */
};
/* Every extension once, in the order SKIP reasons name them. */
extern const struct isa_ext_info {
    unsigned bit;
    const char *name;      /* "AVX2", "FMA", "AVX-512" */
    const char *key;       /* its key in the manifest's cpu.features */
} isa_exts[];
extern const size_t isa_nexts;
/* Does this CPU (and its OS) let us run the extension? */
bool isa_ext_present(unsigned bit);
/* What the simulating counter source (valgrind) cannot execute. */
#define ISA_SIM_LIMITS ISA_AVX512

/* perf's signature of this CPU, VENDOR-FAMILY-MODEL-STEPPING (GenuineIntel-6-55-4), from CPUID
 * or the dump HWLOC_CPUID_PATH names; how says which ("cpuid", "HWLOC_CPUID_PATH"). false with
 * why in how when the dump cannot be read or lacks leaves 0 and 1. */
bool isa_cpu_signature(char *sig, size_t n, char *how, size_t hn);
/* The programmable core counters CPUID states (AMD's PerfMonV2 or PerfCtrExtCore, Intel's
 * architectural PMU leaf), with *how naming the leaf; 0 where it states none. */
int isa_pmu_counters(bool amd, const char **how);

#endif

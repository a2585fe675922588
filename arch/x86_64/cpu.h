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
};

/* Instruction-set extensions a kernel (or one of its variants) may need beyond x86-64 + SSE2,
 * and a counter source may be unable to execute (its isa_limits, core/source.h): the sim source
 * runs code under valgrind, which has no AVX-512 and dies with SIGILL on it. */
enum isa_ext {
    ISA_AVX2 = 1u << 0,
    ISA_FMA = 1u << 1,
    ISA_AVX512 = 1u << 2,   /* AVX-512F (and whatever subsets the variant names in its reason) */
};
/* What the simulating counter source (valgrind) cannot execute. */
#define ISA_SIM_LIMITS ISA_AVX512

/* isa_cpu_signature here: VENDOR-FAMILY-MODEL-STEPPING (GenuineIntel-6-55-4), from CPUID or the
 * dump HWLOC_CPUID_PATH names ("cpuid", "HWLOC_CPUID_PATH"); false when the dump cannot be read
 * or lacks leaves 0 and 1. isa_pmu_counters reads AMD's PerfMonV2 or PerfCtrExtCore leaf, or
 * Intel's architectural PMU leaf. */

#endif

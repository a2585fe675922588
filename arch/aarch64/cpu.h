/* What an AArch64 CPU says about itself to user space: its Main ID Register (MIDR_EL1, read
 * from sysfs or /proc/cpuinfo, as the kernel exposes it), the extensions the kernel's hwcaps
 * report, and the signature perf's arm64 event tables are chosen by. */
#ifndef PMUCAL_A64_CPU_H
#define PMUCAL_A64_CPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields the rest of pmucal reads on every ISA: vendor is the implementer's name ("ARM"),
 * family the implementer code (0x41), model the part number (0xd0c), stepping the revision;
 * brand the core's name where pmucal knows the part ("Neoverse N1"). */
struct cpu_facts {
    char vendor[13];
    char brand[49];
    int family, model, stepping;
    int variant;           /* MIDR[23:20] */
    uint64_t midr;         /* 0 = the kernel exposes none */
    char ident[40];        /* "MIDR_EL1 0x414fd0c1 (sysfs)": the identifying register and where it was read */
};

/* Extensions a kernel variant may need beyond ARMv8.0 with AdvSIMD (NEON, always there), and a
 * counter source may be unable to execute (valgrind has no SVE). */
enum isa_ext {
    ISA_SVE = 1u << 0,
};
/* What the simulating counter source (valgrind) cannot execute. */
#define ISA_SIM_LIMITS ISA_SVE

/* isa_cpu_signature here: the MIDR as 0x%016x ("0x00000000414fd0c1"), from PMUCAL_MIDR (a
 * test's stand-in host), sysfs or /proc/cpuinfo. isa_pmu_counters is 0: user space cannot read
 * PMCR_EL0.N (the event table's or libpfm4's count stands in). */

#endif

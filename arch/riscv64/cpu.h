/* What a RISC-V hart says about itself to user space: /proc/cpuinfo's mvendorid, marchid and
 * mimpid (the machine-mode ID CSRs, which user space cannot read itself; Linux prints them) and
 * its ISA string, the extensions the kernel's hwcaps report, and the signature perf's RISC-V
 * event tables are chosen by (mvendorid-marchid-mimpid). */
#ifndef PMUCAL_RV_CPU_H
#define PMUCAL_RV_CPU_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The fields the rest of pmucal reads on every ISA: vendor is the JEDEC vendor's name where
 * pmucal knows mvendorid ("SiFive"), else mvendorid in hex; family is mvendorid, model marchid's
 * low 31 bits, stepping mimpid's (what keys a host's cached facts; the whole IDs are in brand);
 * brand is the three IDs. */
struct cpu_facts {
    char vendor[13];
    char brand[49];
    int family, model, stepping;
    uint64_t mvendorid, marchid, mimpid;
    bool known;            /* /proc/cpuinfo gave the three IDs */
    char isa[128];         /* the ISA string ("rv64imafdch_zicsr_..."), "" when not stated */
    char ident[200];       /* "mvendorid 0x0 marchid 0x0 mimpid 0x0, isa rv64... (/proc/cpuinfo)" */
};

/* Extensions a kernel variant may need beyond RV64GC. */
enum isa_ext {
    ISA_RVV = 1u << 0,   /* the vector extension V */
};
/* What the simulating counter source (valgrind) cannot execute. */
#define ISA_SIM_LIMITS ISA_RVV

/* isa_cpu_signature here: "0x%x-0x%x-0x%x" of mvendorid, marchid and mimpid (perf's RISC-V
 * mapfile key). isa_pmu_counters is 0: user space reads no counter count (the SBI states it to
 * the kernel only). */

#endif

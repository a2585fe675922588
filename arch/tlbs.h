/* What the CPU says of its own data TLBs, one struct for every ISA: entries for 4 KiB and 2 MiB
 * pages at the first level (the one loads look up) and the shared second level, and which leaf
 * said each. x86 reads CPUID (deterministic leaf 0x18, AMD's 0x80000005/6, or leaf 2's
 * descriptors), from this CPU or the dump HWLOC_CPUID_PATH names; AArch64 user space can read
 * none. A hypervisor may describe no TLB at all (leaf 2 points to leaf 0x18, which is empty):
 * host/tlb.h measures what is missing. */
#ifndef PMUCAL_ARCH_TLBS_H
#define PMUCAL_ARCH_TLBS_H

enum tlb_kind { TLB_L1_4K, TLB_L2_4K, TLB_L1_2M, TLB_L2_2M, TLB_KINDS };

struct cpu_tlbs {
    const char *from;                  /* "this CPU" or the dump's path */
    int entries[TLB_KINDS];            /* 0 = not stated */
    const char *said_by[TLB_KINDS];    /* "CPUID leaf 0x18", ...; NULL with no entries */
    /* Why the CPU states nothing for the kinds left at 0: "CPUID leaf 2 points to leaf 0x18
     * (descriptor 0xFE), which describes no TLB". */
    char silent[240];
};

/* Fills t from what this CPU (or the dump HWLOC_CPUID_PATH names, where the ISA has one) states.
 * -1 with why when a dump cannot be read. */
int cpu_tlbs_read(struct cpu_tlbs *t, char *why, int whylen);
/* "4k first level" ... for messages and the manifest's keys ("l1_4k"). */
const char *tlb_kind_name(enum tlb_kind k);
const char *tlb_kind_key(enum tlb_kind k);

#endif

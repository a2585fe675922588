/* CPUID, from this CPU or replayed from a hwloc-gather-cpuid dump ($HWLOC_CPUID_PATH/pu0, as
 * hwloc itself does), so that a fixture host is judged by its own CPUID everywhere in pmucal.
 * Inside arch/x86_64 only: the rest of pmucal asks arch/isa.h. */
#ifndef PMUCAL_X86_CPUID_LEAF_H
#define PMUCAL_X86_CPUID_LEAF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where the answers come from: "this CPU", or the dump's path. NULL with why when
 * HWLOC_CPUID_PATH is set and its pu0 cannot be read. */
const char *cpuid_origin(char *why, size_t n);
/* cpuid_origin, and the vendor string of leaf 0 into vendor ("" when the dump lacks leaf 0):
 * what every reader of a description (caches, TLBs) starts with. */
/* Leaves (leaf, subleaf) of logical CPU pu: run on it, or from the dump's puN; got[k] says which
 * the CPU has (beyond its maximum, or absent from the dump: zeros). false with why when none can
 * be had (no such CPU, no such file in the dump). */
bool cpuid_leaves_of(int pu, int nleaves, const uint32_t (*leaf)[2], uint32_t (*out)[4], bool *got, char *why,
                     size_t n);
const char *cpuid_vendor_of(char vendor[13], char *why, size_t n);
/* One leaf (subleaf sub; ignored for leaves the dump recorded without one). false, with r
 * zeroed, when the leaf is beyond the CPU's maximum or absent from the dump. */
bool cpuid_query(uint32_t leaf, uint32_t sub, uint32_t r[4]);

#endif

/* AArch64 user space reads CTR_EL0 only (line sizes, no capacities; CCSIDR_EL1 is the kernel's),
 * so here the CPU says nothing and hwloc's levels (from the kernel's sysfs cacheinfo) stand. */
#include "arch/isa.h"
#include <stdio.h>
#include <string.h>

int cpu_caches_read(struct cpu_caches *c, char *why, int whylen)
{
    (void)why, (void)whylen;
    memset(c, 0, sizeof(*c));
    snprintf(c->vendor, sizeof(c->vendor), "%s", cpu_get()->vendor);
    c->from = "this CPU (AArch64 user space cannot read cache sizes)";
    return 0;
}

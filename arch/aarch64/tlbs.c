/* AArch64 user space has no register describing the TLBs (TLB geometry is in no ID register
 * EL0 may read): everything is left to host/tlb.h's measurement. */
#include "arch/isa.h"
#include <stdio.h>
#include <string.h>

int cpu_tlbs_read(struct cpu_tlbs *t, char *why, int whylen)
{
    (void)why, (void)whylen;
    memset(t, 0, sizeof(*t));
    t->from = "this CPU";
    snprintf(t->silent, sizeof(t->silent), "AArch64 user space can read no TLB sizes");
    return 0;
}

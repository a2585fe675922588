/* RISC-V user space has no register describing the TLBs; a device tree may state them
 * (cpus/cpu@N: d-tlb-size, d-tlb-sets, the devicetree specification's properties), else
 * everything is left to host/tlb.h's measurement. */
#include "arch/isa.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>

/* A big-endian 32-bit cell of the first cpu@ node's property; 0 when absent. */
static unsigned cpu_prop(const char *name)
{
    DIR *d = opendir("/proc/device-tree/cpus");
    struct dirent *e;
    unsigned v = 0;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, "cpu@", 4)) {
            char path[300];
            unsigned char b[4];
            snprintf(path, sizeof(path), "/proc/device-tree/cpus/%s/%s", e->d_name, name);
            FILE *f = fopen(path, "rb");
            if (f && fread(b, 1, 4, f) == 4)
                v = (unsigned)b[0] << 24 | (unsigned)b[1] << 16 | (unsigned)b[2] << 8 | b[3];
            if (f)
                fclose(f);
            break;
        }
    if (d)
        closedir(d);
    return v;
}

int cpu_tlbs_read(struct cpu_tlbs *t, char *why, int whylen)
{
    (void)why, (void)whylen;
    memset(t, 0, sizeof(*t));
    t->from = "this machine's device tree";
    unsigned entries = cpu_prop("d-tlb-size");
    if (entries) {
        t->entries[TLB_L1_4K] = (int)entries;
        t->said_by[TLB_L1_4K] = "device tree d-tlb-size";
    }
    snprintf(t->silent, sizeof(t->silent), "RISC-V user space can read no TLB sizes, and %s",
             entries ? "the device tree states the first-level data TLB only (d-tlb-size)"
                     : "the device tree states none (no d-tlb-size in cpus/cpu@*)");
    return 0;
}

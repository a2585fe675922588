#include "arch/isa.h"
#include <stdio.h>

bool isa_stop_serialized;

const char *isa_stop_mark(void)
{
    return "fence;rdtime;fence";
}

const char *isa_stop_note(void)
{
    return "";
}

/* A big-endian 32-bit cell (a 64-bit one on machines whose timebase does not fit 32 bits). */
double isa_ticks_hz_said(void)
{
    static double hz = -1;
    if (hz >= 0)
        return hz;
    hz = 0;
    FILE *f = fopen("/proc/device-tree/cpus/timebase-frequency", "rb");
    unsigned char b[8];
    size_t n = f ? fread(b, 1, sizeof(b), f) : 0;
    if (f)
        fclose(f);
    uint64_t v = 0;
    for (size_t i = 0; (n == 4 || n == 8) && i < n; i++)
        v = v << 8 | b[i];
    hz = (double)v;
    return hz;
}

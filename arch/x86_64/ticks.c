#include "arch/isa.h"
#include <valgrind/valgrind.h>

bool isa_stop_serialized;

/* Under valgrind CPUID is valgrind's: it advertises RDTSCP whatever the host has, and valgrind
 * then raises SIGILL where the host lacks it (this VM). Timing means nothing under the simulator,
 * so there the fenced RDTSC always does. */
__attribute__((constructor)) static void check_rdtscp(void)
{
    isa_stop_serialized = cpu_get()->rdtscp && !RUNNING_ON_VALGRIND;
}

const char *isa_stop_mark(void)
{
    return isa_stop_serialized ? "rdtscp;lfence" : "lfence;rdtsc;lfence";
}

const char *isa_stop_note(void)
{
    return isa_stop_serialized ? "" : " (CPUID has no RDTSCP)";
}

/* The kernels x86-64 has that RISC-V has not (core/kernel_absent.h). */
#include "core/kernel_absent.h"

__attribute__((constructor)) static void register_not_ported(void)
{
    static const char summary[] = "not on RISC-V (every case is a SKIP saying why)";
    kernel_register_absent("divsqrt", summary, "no RISC-V version yet: its dependent chains are x86's divsd/sqrtsd", __FILE__);
    kernel_register_absent("fpassist", summary, "x86 only: it provokes x87/SSE microcode assists through MXCSR", __FILE__);
}

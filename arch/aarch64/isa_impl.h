/* AArch64's side of the ISA seam (arch/isa.h lists what it provides). Included through
 * arch/isa.h only. */
#ifndef PMUCAL_A64_ISA_IMPL_H
#define PMUCAL_A64_ISA_IMPL_H
#include "arch/aarch64/a64_asm.h"
#include "arch/caches.h"
#include "arch/tlbs.h"
#include "arch/aarch64/cpu.h"
#include "arch/aarch64/regions.h"
#include "arch/aarch64/ticks.h"

/* The ISA's name in messages. */
#define ISA_NAME "AArch64"

#endif

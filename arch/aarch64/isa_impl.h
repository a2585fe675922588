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
/* What its tick counter is called (the clocks line), and why a missing L1d or L2 means the
 * levels stated are not the machine's (the geometry's findings). */
#define ISA_TICKS_NAME "generic timer"
#define ISA_CACHES_EXPECTED "every x86-64 and AArch64 server core has an L1d and an L2"

#endif

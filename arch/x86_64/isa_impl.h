/* x86-64's side of the ISA seam (arch/isa.h lists what it provides). Included through
 * arch/isa.h only. */
#ifndef PMUCAL_X86_ISA_IMPL_H
#define PMUCAL_X86_ISA_IMPL_H
#include "arch/caches.h"
#include "arch/tlbs.h"
#include "arch/x86_64/cpu.h"
#include "arch/x86_64/regions.h"
#include "arch/x86_64/ticks.h"
#include "arch/x86_64/x86_asm.h"

/* The ISA's name in messages. */
#define ISA_NAME "x86-64"

#endif

/* RISC-V's (RV64GC) side of the ISA seam (arch/isa.h lists what it provides). Included through
 * arch/isa.h only. */
#ifndef PMUCAL_RV_ISA_IMPL_H
#define PMUCAL_RV_ISA_IMPL_H
#include "arch/riscv64/rv_asm.h"
#include "arch/caches.h"
#include "arch/tlbs.h"
#include "arch/riscv64/cpu.h"
#include "arch/riscv64/regions.h"
#include "arch/riscv64/ticks.h"

/* The ISA's name in messages. */
#define ISA_NAME "RISC-V"

#endif

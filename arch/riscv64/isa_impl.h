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
/* What its tick counter is called (the clocks line), and why a missing L1d or L2 means the
 * levels stated are not the machine's (the geometry's findings). */
#define ISA_TICKS_NAME "time CSR"
#define ISA_CACHES_EXPECTED \
    "RISC-V cores that run Linux have an L1d and nearly all an L2, which Linux reads from the device " \
    "tree (QEMU's virt states none)"

#endif

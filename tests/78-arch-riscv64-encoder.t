#!/bin/sh
# The RISC-V assembler's golden rows (tests/unit/test_rv_asm.c: every instruction form of
# arch/riscv64/rv_asm.h with its 32-bit word and listing, the refusals, mapped code that runs,
# the snippet decoder's rows). The binary is riscv64 (make emu-riscv64 builds it beside
# build/riscv64/pmucal), so qemu-user's qemu-riscv64 runs it here; its own TAP is this file's.
. "$(dirname "$0")/lib.sh"
UT=$(dirname "${PMUCAL_EMU_RV_BIN:-build/riscv64/pmucal}")/tests/test_rv_asm
QEMU=qemu-riscv64

skip_all() { skip "the RISC-V assembler's golden rows" "$1"; done_testing; exit; }
[ "${PMUCAL_TEST_EMU:-1}" = 0 ] &&
    skip_all "PMUCAL_TEST_EMU=0: the cross-built tests are left out (this one needs gcc-riscv64-linux-gnu and qemu-user)"
command -v "$QEMU" > /dev/null 2>&1 || skip_all "$QEMU is missing: Debian's qemu-user has it (make deps)"
[ -x "$UT" ] || skip_all "$UT is missing: make emu-riscv64 builds it"
exec "$QEMU" "$UT"

#!/bin/sh
# make sweep-emu: a long parameter sweep on the emulated Neoverse N1 (QEMU -icount shift=0, Debian's
# arm64 kernel and its armv8_pmuv3 driver): SWEEP_CASES cases (default 300; make's EMU_SWEEP_CASES) drawn with SWEEP_SEED
# (default: the time, printed) from every kernel with an AArch64 version, INST_RETIRED and
# CPU_CYCLES counted by the real PMU driver and judged exact (tests/emu/icount.txt: one cycle an
# instruction under -icount). Prints the TAP summary and every 'not ok'; exits 1 on any, or when
# nothing was measured. tests/72-arch-emu-n1.t runs a short one (24 cases) in every make test.
# Usage: scripts/sweep-emu.sh PMUCAL-AARCH64 EMU-INIT   (make emu builds both); SWEEP_CASES is 1
# to 100000, SWEEP_SEED 0 to 4294967295, digits only (they reach the guest's command line).
set -eu
ME=sweep-emu
. "$(dirname "$0")/script-args.sh"
[ $# = 2 ] || die 2 "usage: scripts/sweep-emu.sh PMUCAL-AARCH64 EMU-INIT"
bin=$1 init=$2
cases=${SWEEP_CASES:-300}
seed=${SWEEP_SEED:-$(date +%s)}
# Both reach the guest's command line and the boot's limit: numbers only.
need_count SWEEP_CASES "$cases" 1 100000 "a number of cases"
need_count SWEEP_SEED "$seed" 0 4294967295 "a seed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "HWLOC_XMLFILE=/share/pmucal/emu/hwloc.xml HWLOC_THISSYSTEM=1 pmucal validate -r 2 --target-ms 2 --out /results" \
     "--label sweep --sweep $cases --seed $seed --expect /share/pmucal/emu/icount.txt -e INST_RETIRED,CPU_CYCLES" \
     > "$tmp/commands"
echo "# sweep-emu: $cases cases, seed $seed (again: make sweep-emu SWEEP_SEED=$seed EMU_SWEEP_CASES=$cases)"
start=$(date +%s)
scripts/emu-run.sh "$bin" "$init" "$tmp/commands" "$tmp/console.raw" $((120 + 3 * cases))
tr -d '\r' < "$tmp/console.raw" | sed 's/.*\x1b\[K//' > "$tmp/console"
grep -E '^(not )?ok [0-9]+ |^# summary|^# sweep' "$tmp/console" > "$tmp/tap" || true
inst=$(grep -c '^ok [0-9]* - .* :: INST_RETIRED = inst: .*(exact,' "$tmp/tap" || true)
cyc=$(grep -c '^ok [0-9]* - .* :: CPU_CYCLES = inst: .*(exact,' "$tmp/tap" || true)
skips=$(grep -c '^ok [0-9]* - .* :: INST_RETIRED # SKIP' "$tmp/tap" || true)
bad=$(grep -c '^not ok' "$tmp/tap" || true)
grep '^# summary' "$tmp/tap" || echo "# no summary: the guest did not finish (see the console's end below)"
echo "# $((cases)) cases in $(($(date +%s) - start)) s: INST_RETIRED exact in $inst, CPU_CYCLES in $cyc, $skips refused or without an AArch64 version, $bad not ok"
grep '^not ok' "$tmp/tap" || true
if [ "$bad" -ne 0 ] || [ "$inst" -eq 0 ] || ! grep -q '^### emu done' "$tmp/console"; then
    tail -n 5 "$tmp/console"
    exit 1
fi

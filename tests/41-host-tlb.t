#!/bin/sh
# TLB facts: where they come from (CPUID, a measured page-stride walk, none) in info and the
# manifest, and a model that lacks them makes its penalty a SKIP with the reason, never a
# 'not ok' on a NaN. Fixture hosts' CPUID is replayed (HWLOC_CPUID_PATH), so each host kind is
# checked on any machine: the Emerald Rapids guest states no TLB, the Zen 5 guest states its own.
. "$(dirname "$0")/lib.sh"
emr() { HWLOC_COMPONENTS=x86 HWLOC_CPUID_PATH="$PWD/tests/hosts/emr-vm/cpuid" "$@"; }
zen5() { HWLOC_COMPONENTS=x86 HWLOC_CPUID_PATH="$PWD/tests/hosts/zen5-vm/cpuid" "$@"; }

if [ "$(uname -m)" != x86_64 ]; then
    skip "TLB facts from CPUID fixtures" "the fixtures are x86 CPUID dumps; this machine is $(uname -m)"
    echo "1..$T_N"; exit 0
fi

emr "$PMUCAL" info > "$TMP/emr.txt" 2> "$TMP/emr.err"; rc=$?
grep -q "^dtlb  *4k first level  *none: CPUID leaf 2 points to leaf 0x18 (descriptor 0xFE), which describes no TLB" "$TMP/emr.txt"
ok $? "emr-vm: info names the TLB source, none: $(grep -m1 '^dtlb' "$TMP/emr.txt" | cut -c1-200) (exit $rc)"
grep -q "^tlb walk   not measured: the CPU is described by HWLOC_CPUID_PATH" "$TMP/emr.txt"
ok $? "emr-vm: a fixture's TLBs are not measured on this machine: $(grep -m1 '^tlb walk' "$TMP/emr.txt")"

emr "$PMUCAL" info --json > "$TMP/emr.json" 2> /dev/null
got=$(jq -r '[.cpu.dtlb_from[]] | join(",")' "$TMP/emr.json")
is "$got" "none,none,none,none" "emr-vm: the manifest's dtlb_from"
jq -e '.cpu.dtlb_why.l1_4k | test("leaf 0x18")' "$TMP/emr.json" > /dev/null
ok $? "emr-vm: the manifest's dtlb_why says why: $(jq -r '.cpu.dtlb_why.l1_4k' "$TMP/emr.json" | cut -c1-120)"

zen5 "$PMUCAL" info --json > "$TMP/zen5.json" 2> /dev/null
got=$(jq -r '"\(.cpu.dtlb_entries.l1_4k) \(.cpu.dtlb_from.l1_4k) \(.cpu.dtlb_from.l2_4k)"' "$TMP/zen5.json")
is "$got" "96 CPUID leaf 0x80000005 CPUID leaf 0x80000006" "zen5-vm: first-level entries and the leaves that state them"

# A penalty whose model lacks the entries: SKIP with the reason, the calibration still exits 0.
emr "$PMUCAL" calibrate --recipe stlb_hit --no-curve -r 3 > "$TMP/cal.tap" 2> "$TMP/cal.err"; rc=$?
line=$(grep -m1 ' - stlb_hit' "$TMP/cal.tap")
echo "$line" | grep -q "^ok [0-9]* - stlb_hit # SKIP .*does not state dtlb.miss: .*entries for 4 KiB pages are not known (CPUID leaf 2 points to leaf 0x18"
ok $? "emr-vm: stlb_hit without a TLB fact is a SKIP with the reason: $(echo "$line" | cut -c1-260)"
! grep -q "^not ok" "$TMP/cal.tap" && [ $rc -eq 0 ]
ok $? "emr-vm: no 'not ok' and exit 0 (exit $rc)"

echo "1..$T_N"
[ "$T_FAIL" -eq 0 ]

#!/bin/sh
# A CPU that libpfm4 does not know: the vendor table chosen by CPUID (perf's mapfile), its events
# by name and in perf's syntax, groups that perf stat -e takes, model diffs, Zen 5 expectations.
# The host is forced to be the Zen 5 VM on any machine: libpfm4's own core PMU hidden
# (LIBPFM_DISABLED_PMUS), the CPUID signature from the fixture's leaves or PMUCAL_CPUID.
. "$(dirname "$0")/lib.sh"

eventdata=eventdata
cpuid=tests/hosts/zen5-vm/cpuid
unset PMUCAL_CPUID LIBPFM_FORCE_PMU
# Hide every core PMU libpfm4 detects here (a hybrid Intel part has two).
for try in 1 2 3 4; do
    host_pmu=$($PMUCAL info --json 2> /dev/null | jq -r '.pmu.libpfm4_pmu // empty')
    [ -z "$host_pmu" ] && break
    export LIBPFM_DISABLED_PMUS="${LIBPFM_DISABLED_PMUS:+$LIBPFM_DISABLED_PMUS,}$host_pmu"
done
export HWLOC_CPUID_PATH="$cpuid"

# The table for a CPUID signature, as perf's mapfile rows choose it: SIGNATURE TABLE-OR-ERROR.
while IFS='|' read -r line sig want; do
    # (An Arm MIDR on an x86 build is first noted as another ISA's: tests/25-host-settings.t.)
    out=$(PMUCAL_CPUID=$sig $PMUCAL events 2>&1 | grep -v "^pmucal: PMUCAL_CPUID=.* is an Arm CPU's MIDR" | head -n 1)
    echo "$out" | grep -q -- "$want"
    ok $? "tests/48-events-vendor-tables.t:$line: CPUID $sig -> $want (got: $(echo "$out" | cut -c1-150))"
done << 'EOF'
26|AuthenticAMD-26-2|amd/amdzen5 (CPUID AuthenticAMD-26-2 matches row 'AuthenticAMD-26-(
27|AuthenticAMD-26-44-0|amd/amdzen5 (CPUID AuthenticAMD-26-44-0
28|AuthenticAMD-26-50|names .*amdzen6, which is not there
29|AuthenticAMD-25-11|amd/amdzen4 (CPUID
30|AuthenticAMD-25-1|amd/amdzen3 (CPUID
31|AuthenticAMD-23-31|amd/amdzen2 (CPUID
32|GenuineIntel-6-4E|intel/SKL/events/skylake_core.json.gz (CPUID GenuineIntel-6-4E matches
33|HygonGenuine-24-0|no row of .*mapfile.csv matches CPUID HygonGenuine-24-0
34|zen5|PMUCAL_CPUID=zen5 is not VENDOR-FAMILY-MODEL
35|0x414fd0c1|arm/arm/neoverse-n1 (CPUID 0x00000000414fd0c1 matches row '0x00000000410fd0c0'
36|0x410fd490|arm/arm/neoverse-n2-v2 (CPUID 0x00000000410fd490
37|0x411fd080|arm/arm/cortex-a57-a72 (CPUID 0x00000000411fd080 matches row '0x00000000410fd080'
38|0x41ffffff|no row of .*arm/mapfile.csv matches CPUID 0x0000000041ffffff
39|0xzz|PMUCAL_CPUID=0xzz is not an Arm MIDR
EOF
# perf's arm64 tables: a model's ArchStdEvent entries take their codes from the architecture's
# files (INST_RETIRED 0x08, BR_RETIRED 0x21, L1D_CACHE_REFILL 0x03; the N2's STALL_SLOT 0x3f).
is "$(PMUCAL_CPUID=0x410fd490 $PMUCAL groups -e INST_RETIRED,BR_RETIRED,L1D_CACHE_REFILL,STALL_SLOT 2>&1 | tail -n 1)" \
    "{r8:u,r21:u,r3:u,r3f:u}" "the Neoverse N2 table by MIDR resolves ArchStdEvent entries"
$PMUCAL tablediff neoverse-n1 neoverse-n2-v2 > "$TMP/armdiff" 2>&1
grep -q '^# totals neoverse-n1 .* -> neoverse-n2-v2 .*: same [0-9]*, changed 0, re-meant 0' "$TMP/armdiff"
ok $? "tablediff between two Arm cores: $(tail -n 1 "$TMP/armdiff" | cut -c1-200)"
# An Arm event number is one number: the N2's CNT_CYCLES is event 0x4004, not x86's event 0x04 with
# unit mask 0x40.
grep -q '^# new: CNT_CYCLES (event 0x4004): ' "$TMP/armdiff" && ! grep -q 'umask' "$TMP/armdiff"
ok $? "tablediff prints Arm events by their number: $(grep -m1 'CNT_CYCLES' "$TMP/armdiff" | cut -c1-120)"

# Without an override the signature comes from the fixture's replayed CPUID leaves (HWLOC_CPUID_PATH).
$PMUCAL events > "$TMP/events.txt" 2> "$TMP/events.err"
head -n 1 "$TMP/events.txt" | grep -q "amd/amdzen5 (CPUID AuthenticAMD-26-2-1 matches row" &&
    head -n 1 "$TMP/events.txt" | grep -q "; 6 programmable counters"
ok $? "events: the Zen 5 table by the fixture's CPUID (AuthenticAMD-26-2-1), six counters: $(head -n 1 "$TMP/events.txt" | cut -c1-200)"
is "$(grep -v '^#' "$TMP/events.txt" | grep -vc ', uncore ')" "368" "events lists the 368 core events of amdzen5"
is "$(grep -c '^umc_.*# amdzen5/memory-controller.json, uncore amd_umc$' "$TMP/events.txt")" "13" \
    "and the 13 of its memory controllers (UMCPMC), each marked uncore"
grep -q '^ls_dispatch.ld_dispatch  *# amdzen5/load-store.json$' "$TMP/events.txt"
ok $? "each event with its source file"

# Encodings: NAME -> perf syntax (events --describe), AMD's bits 11:8 in config 35:32, Intel's fields.
while IFS='|' read -r line table name want; do
    got=$($PMUCAL events --vendor-json "$table" --describe | awk -F'\t' -v n="$name" '$1 == n { print $2 }')
    is "$got" "$want" "tests/48-events-vendor-tables.t:$line: $table $name"
done << 'EOF'
69|amdzen5|ls_dispatch.ld_dispatch|r129:u
70|amdzen5|ic_tag_hit_miss.instruction_cache_miss|r10000188e:u
71|amdzen5|fp_ret_sse_avx_ops.all|rf03:u
72|amdzen4|fp_ret_sse_avx_ops.all|r1f03:u
73|SKL|CYCLE_ACTIVITY.STALLS_TOTAL|r40004a3:u
74|SKL|INST_RETIRED.ANY|r100:u
75|SKL|OFFCORE_RESPONSE.DEMAND_DATA_RD.L3_HIT.ANY_SNOOP|cpu/config=0x1b7,config1=0x3fc01c0001/u
76|SKL|RS_EVENTS.EMPTY_END|r184015e:u
77|amdzen5|umc_cas_cmd.rd|amd_umc/config=0x10a/
78|amdzen5|umc_cas_cmd.wr|amd_umc/config=0x20a/
79|amdzen4|umc_cas_cmd.rd|amd_umc/config=0x10a/
EOF

# perf's syntax in -e: each spelling resolves to this group line (groups prints perf stat syntax).
while IFS='|' read -r line ev want; do
    got=$($PMUCAL groups -e "$ev" 2>&1)
    is "$got" "$want" "tests/48-events-vendor-tables.t:$line: -e '$ev'"
done << 'EOF'
87|ex_ret_instr|{rc0:u}
88|ex_ret_instr:k|{rc0:k}
89|r00c0:uk|{rc0:uk}
90|cpu/event=0x1c0,umask=0x2,cmask=3,inv,edge/k|{r1038402c0:k}
91|cpu/event=0x29,umask=0x1/|{r129:u}
92|{ex_ret_brn,ex_ret_brn_misp},page-faults|{rc2:u,rc3:u,page-faults:u}
93|instructions:k|{instructions:k}
94|instructions:uk|{instructions:uk}
95|page-faults:k|{page-faults:k}
96|ex_ret_instr,umc_cas_cmd.rd|{rc0:u},amd_umc/config=0x10a/
97|umc_cas_cmd.wr:k|amd_umc/config=0x20a/
EOF

# Malformed perf syntax and unknown names: exit 2, one message naming the input and the fix.
while IFS='|' read -r line ev want; do
    $PMUCAL groups -e "$ev" > "$TMP/o" 2>&1
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/o")" -eq 1 ] && grep -q -- "$want" "$TMP/o"
    ok $? "tests/48-events-vendor-tables.t:$line: -e '$ev' exits 2 (got $rc): $(cat "$TMP/o")"
done << 'EOF'
107|cpu/event=0x1000/|term event=0x1000: give a number from 0 to 0xfff
108|cpu/umask=1,foo=2/|unknown term 'foo'
109|uncore/event=1/|PMU 'uncore' in 'uncore/event=1/'
110|r00c0:p|modifier 'p'
111|{ex_ret_brn,{ex_ret_cond}}|a group inside a group
112|{ex_ret_brn,ex_ret_cond|an unclosed '{'
113|ex_ret_no_such_event|unknown event 'ex_ret_no_such_event': not in the amdzen5 table
EOF

# A vendor field out of range is an error naming the file, the event and the field, never a cast.
mkdir -p "$TMP/bad"
while IFS='|' read -r line json want; do
    printf '%s\n' "$json" > "$TMP/bad/t.json"
    $PMUCAL events --vendor-json "$TMP/bad/t.json" > "$TMP/o" 2>&1
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "$want" "$TMP/o"
    ok $? "tests/48-events-vendor-tables.t:$line: $json exits 2 (got $rc): $(cat "$TMP/o")"
done << 'EOF'
125|[{"EventName": "x", "EventCode": "-1"}]|t.json: event x: EventCode "-1" is not a whole number in 0..0xfff
126|[{"EventName": "x", "EventCode": "0x1000"}]|EventCode "0x1000" is not a whole number in 0..0xfff
127|[{"EventName": "x", "EventCode": -3}]|EventCode "-3" is not a whole number
128|[{"EventName": "x", "EventCode": "0x29", "UMask": "0x100"}]|UMask "0x100" is not a whole number in 0..0xff
129|{"Events": [{"EventName": "X", "EventCode": "0x1c0", "Counter": "0"}]}|EventCode "0x1c0" is not a whole number in 0..0xff
130|[{"EventName": "x", "EventCode": "0x29", "Invert": "2"}]|Invert "2" is not a whole number in 0..0x1
EOF

# Counters from the model: --group-size auto takes six at a time without libpfm4.
is "$($PMUCAL groups --names -e all --group-size auto | head -n 1 | tr ',' '\n' | wc -l)" "6" "groups -e all --group-size auto: six counters of Zen 5"

# groups' lines paste into perf stat -e as they are (an event may be unsupported; a parse error is a failure).
if command -v perf > /dev/null 2>&1; then
    $PMUCAL groups -e 'ex_ret_instr,r00c0:k,cpu/event=0x29,umask=0x1/,{ex_ret_brn,ex_ret_brn_misp},page-faults,context-switches,instructions,instructions:k,cycles:uk' > "$TMP/g.txt"
    bad=0
    while read -r g; do
        perf stat -e "$g" true > /dev/null 2> "$TMP/perf.err"
        if grep -q 'event syntax error\|parser error\|Cannot find PMU\|Unknown event' "$TMP/perf.err"; then
            bad=1
            sed 's/^/# /' "$TMP/perf.err"
        fi
    done < "$TMP/g.txt"
    [ "$bad" -eq 0 ] && [ "$(wc -l < "$TMP/g.txt")" -ge 2 ]
    ok $? "perf stat -e takes every groups line as it is: $(tr '\n' ' ' < "$TMP/g.txt")"
else
    skip "perf stat -e takes groups' lines" "perf is not installed"
fi

# The model diff Zen 4 -> Zen 5: the changes a bring-up must see (golden lines).
$PMUCAL tablediff amdzen4 amdzen5 > "$TMP/diff.tap"
is "$?" "1" "tablediff amdzen4 amdzen5 exits 1 (something changed)"
# Its old name still runs it, with one note.
$PMUCAL modeldiff amdzen4 amdzen5 > "$TMP/olddiff.tap" 2> "$TMP/olddiff.err"
rc=$?
[ $rc -eq 1 ] && cmp -s "$TMP/diff.tap" "$TMP/olddiff.tap" && [ "$(cat "$TMP/olddiff.err")" = "pmucal: modeldiff is now tablediff" ]
ok $? "modeldiff (the old name) runs tablediff, with one note (exit $rc: $(head -c 100 "$TMP/olddiff.err"))"
while IFS='|' read -r line want; do
    grep -q -- "$want" "$TMP/diff.tap"
    ok $? "tests/48-events-vendor-tables.t:$line: tablediff shows: $want"
done << 'EOF'
165|^not ok [0-9]* - changed: ls_mab_alloc.load_store_allocations: event 0x41 umask 0x3f .* -> event 0x41 umask 0x07
166|^not ok [0-9]* - changed: ls_mab_alloc.hardware_prefetcher_allocations: event 0x41 umask 0x40 .* -> event 0x41 umask 0x08
167|^not ok [0-9]* - changed: ls_mab_alloc.all_allocations: event 0x41 umask 0x7f .* -> event 0x41 umask 0x0f
168|^not ok [0-9]* - changed: l2_request_g1.all: event 0x60 umask 0xff .* -> event 0x60 umask 0xf7
169|^not ok [0-9]* - changed: fp_ret_sse_avx_ops.all: event 0x03 umask 0x1f .* -> event 0x03 umask 0x0f
170|^not ok [0-9]* - re-meant: de_dis_dispatch_token_stalls2.int_sch0_token_stall -> de_dispatch_stall_cycle_dynamic_tokens_part2.al_tokens (event 0xaf umask 0x01
171|^not ok [0-9]* - re-meant: de_dis_dispatch_token_stalls2.int_sch1_token_stall -> de_dispatch_stall_cycle_dynamic_tokens_part2.ag_tokens (event 0xaf umask 0x02
172|^not ok [0-9]* - re-meant: de_dis_dispatch_token_stalls2.int_sch2_token_stall -> de_dispatch_stall_cycle_dynamic_tokens_part2.ex_flush_recovery (event 0xaf umask 0x04
173|^# new: bp_redirects.all (event 0x9f umask 0x00
174|^# new: l2_fill_rsp_src.all (event 0x165 umask 0xde
175|^# new: ex_ret_mmx_fp_instr.sse (event 0xcb umask 0x04
176|^ok [0-9]* - renamed: de_dis_dispatch_token_stalls1.fp_sch_rsrc_stall -> de_dispatch_stall_cycle_dynamic_tokens_part1.fp_sch_rsrc_stall
177|^# totals .*: same 271, changed 7, re-meant 15, renamed 6, new 63, removed 37$
EOF
$PMUCAL tablediff amdzen4 amdzen5 --table > "$TMP/diff.txt"
grep -q '^changed  *ls_mab_alloc.all_allocations  *event 0x41 umask 0x7f .* ls_mab_alloc.all_allocations  *event 0x41 umask 0x0f' "$TMP/diff.txt" &&
    [ "$(grep -c '^re-meant ' "$TMP/diff.txt")" -eq 15 ]
ok $? "tablediff --table: one row per difference (15 re-meant rows)"

# encodings of a Zen 4 libpfm4 PMU against the Zen 5 table is no all-clear: cross-model, exit 1.
$PMUCAL encodings --pmu amd64_fam19h_zen4 --vendor-json "$eventdata/amd/amdzen5" --quiet > "$TMP/enc.tap"
rc=$?
[ $rc -eq 1 ] && grep -q '^# cross-model comparison: libpfm4 amd64_fam19h_zen4 is amdzen4, the table is amdzen5' "$TMP/enc.tap" &&
    grep -q '^# cross-model amdzen4 -> amdzen5: 7 same-name events re-encoded, 15 encodings re-meant' "$TMP/enc.tap" &&
    grep -q '^not ok [0-9]* - changed: fp_ret_sse_avx_ops.all' "$TMP/enc.tap"
ok $? "encodings zen4 vs amdzen5 says cross-model, lists 7 re-encodings and 15 re-meant encodings, exits 1 (got $rc)"

# Zen 5 expectations by the table's names, checked offline; a name not in the table is not ok.
$PMUCAL expect check validate/expect/amdzen5.txt > "$TMP/exp.tap"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^ok' "$TMP/exp.tap")" -ge 20 ] && grep -q 'fp_ret_sse_avx_ops.all = flops.dp + flops.sp 1% (config 0xf03)' "$TMP/exp.tap"
ok $? "expect check amdzen5.txt: $(grep -c '^ok' "$TMP/exp.tap") rules resolve in the amdzen5 table (exit $rc)"
mkdir -p "$TMP/exp"
printf 'ex_ret_instr inst exact\nRETIRED_INSTRUCTIONS inst exact\n' > "$TMP/exp/amdzen5.txt"
$PMUCAL expect check "$TMP/exp/amdzen5.txt" > "$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "^not ok 2 - .*amdzen5.txt:2: RETIRED_INSTRUCTIONS does not encode for amdzen5: no event 'RETIRED_INSTRUCTIONS' in the amdzen5 table" "$TMP/o"
ok $? "a Zen 4 libpfm4 name in amdzen5.txt is not ok with file:line"

# validate on the unknown model: the rules load by the table, events by name and perf syntax;
# never 'unknown event'. Without a hardware PMU every one is a SKIP saying so.
events=$(grep -v '^#' validate/expect/amdzen5.txt | awk 'NF { print $1 }' | paste -sd, -)
$PMUCAL validate --case 'walker size=L1' -r 3 -e "$events,r00c0" --label zen5 > "$TMP/v.tap" 2> "$TMP/v.err"
rc=$?
n=$(grep -v '^#' validate/expect/amdzen5.txt | awk 'NF' | wc -l)
is "$(jq -r '.rule_file | split("/") | last' "$PMUCAL_RESULTS"/*-zen5/manifest.json)" "amdzen5.txt" "validate loads amdzen5.txt for the host's table"
is "$(jq -r '[.pmu.event_source, .pmu.vendor_table.name, .pmu.vendor_table.counters] | join(" ")' "$PMUCAL_RESULTS"/*-zen5/manifest.json)" \
   "vendor table amdzen5 6" "the run records where its events came from"
! grep -qi 'unknown event' "$TMP/v.tap" "$TMP/v.err" && [ $rc -ne 2 ]
ok $? "validate takes all $n Zen 5 rule events and r00c0 (exit $rc)"
if [ "$($PMUCAL info --json | jq -r .pmu.hardware_usable)" = "false" ]; then
    # One probe decides (issue 16): the core events are one SKIP block with their count; the
    # memory controllers' (uncore, not the core PMU) each SKIP naming their own missing unit.
    unc=$(grep -v '^#' validate/expect/amdzen5.txt | grep -c '^umc_')
    grep -q "^ok [0-9]* - $((n + 1 - unc)) hardware events x 1 cases # SKIP no hardware PMU" "$TMP/v.tap" &&
        [ "$(grep -c ':: umc_cas_cmd.[rw][dr] # SKIP no uncore PMU amd_umc' "$TMP/v.tap")" -eq "$unc" ] && [ "$unc" -eq 2 ]
    ok $? "all $((n + 1 - unc)) core ones are one SKIP: no hardware PMU: $(grep -m1 'SKIP' "$TMP/v.tap"); the $unc uncore ones their own"
else
    skip "SKIP without a hardware PMU" "this host has one: the verdicts are real"
fi
# r00c0 is ex_ret_instr in the table (catalog_event_name): it takes that rule.
$PMUCAL run walker size=L1 -e r00c0 --json 2> /dev/null | jq -r '.events[0].canonical' > "$TMP/canon"
is "$(cat "$TMP/canon")" "ex_ret_instr" "a raw encoding takes the table's name (perf's own name for it)"

# --pmu naming another model than the host's: said once.
$PMUCAL validate --case 'walker size=L1' -r 3 -e page-faults --pmu amd64_fam19h_zen4 --label other > /dev/null 2> "$TMP/o"
is "$(grep -c "is another CPU's PMU, not this host's" "$TMP/o")" "1" "--pmu amd64_fam19h_zen4 on the Zen 5 host: one note"
grep -q "the verdicts speak for amd64_fam19h_zen4's encodings" "$TMP/o"
ok $? "the note says whose encodings the verdicts speak for: $(head -n 1 "$TMP/o")"
# Uncore events count CPU-wide for the socket (events/uncore.h): where the kernel exposes no such
# unit (this VM) each is a SKIP naming it; a unit that is there but refuses the event names its
# instance and CPU (a fixture sysfs whose amd_umc_0 has a type no PMU has).
if ls /sys/bus/event_source/devices/ 2> /dev/null | grep -q '^amd_umc'; then
    skip "uncore events SKIP where there is no memory-controller PMU" "this host has amd_umc PMUs"
else
    $PMUCAL validate --case 'triad size=8k' -e umc_cas_cmd.rd,umc_cas_cmd.wr,page-faults -r 2 --label unc > "$TMP/unc.tap" 2>&1
    [ "$(grep -c '^ok [0-9]* - triad size=8k :: umc_cas_cmd.[rw][dr] # SKIP no uncore PMU amd_umc on this host (/sys/bus/event_source/devices has no amd_umc' "$TMP/unc.tap")" -eq 2 ] &&
        grep -q '^ok [0-9]* - triad size=8k :: page-faults = pf.minor' "$TMP/unc.tap"
    ok $? "umc_cas_cmd.rd and .wr SKIP here naming the missing unit, beside a counted event: $(grep -m1 'umc_cas_cmd.rd' "$TMP/unc.tap" | cut -c1-160)"
fi
mkdir -p "$TMP/sysfs/bus/event_source/devices/amd_umc_0"
echo 4294967 > "$TMP/sysfs/bus/event_source/devices/amd_umc_0/type"
echo 0 > "$TMP/sysfs/bus/event_source/devices/amd_umc_0/cpumask"
PMUCAL_SYSFS="$TMP/sysfs" $PMUCAL validate --case 'triad size=8k' -e umc_cas_cmd.rd -r 2 --label uncfix > "$TMP/unc.tap" 2>&1
grep -q '^ok [0-9]* - triad size=8k :: umc_cas_cmd.rd # SKIP amd_umc_0 on CPU 0: the Linux kernel does not support this event' "$TMP/unc.tap"
ok $? "an instance the kernel refuses is a SKIP naming it and its CPU: $(grep -m1 'umc_cas_cmd.rd' "$TMP/unc.tap" | cut -c1-160)"
# RISC-V (perf's arch/riscv): the table by mvendorid-marchid-mimpid, as perf's mapfile rows (whole-
# string regular expressions) choose it; a CPU no row names gets the SBI firmware events.
while IFS='|' read -r line sig want; do
    out=$(PMUCAL_CPUID=$sig $PMUCAL events 2>&1 | grep -v "^pmucal: PMUCAL_CPUID=.* is a RISC-V CPU's" | head -n 1)
    echo "$out" | grep -q -- "$want"
    ok $? "tests/48-events-vendor-tables.t:$line: CPUID $sig -> $want (got: $(echo "$out" | cut -c1-150))"
done << 'EOF'
257|0x489-0x8000000000000007-0x0|riscv/sifive/bullet (CPUID 0x489-0x8000000000000007-0x0 matches row '0x489-0x8000000000000007-0x\[\[:xdigit:\]\]+'
258|0x489-0x8000000000000007-0x20181004|riscv/sifive/bullet (CPUID 0x489-0x8000000000000007-0x20181004
259|0x0489-0x08000000000000007-0x0|riscv/sifive/bullet (CPUID 0x489-0x8000000000000007-0x0
260|0x5b7-0x0-0x0|riscv/thead/c900-legacy (CPUID 0x5b7-0x0-0x0 matches row '0x5b7-0x0-0x0'
261|0x5b7-0x0-0x1|riscv-sbi-firmware.json (no row of .*riscv/mapfile.csv matches 0x5b7-0x0-0x1: the SBI PMU's firmware events
262|0x67e-0x80000000db000080-0x1|riscv/starfive/dubhe-80 (CPUID
263|0x67e-0x80000000db000090-0x0|riscv/starfive/dubhe-80 (CPUID
264|0x67e-0x80000000db0000a0-0x0|riscv-sbi-firmware.json (no row
265|0x31e-0x8000000000008a45-0x500|riscv/andes/ax45 (CPUID
266|0x489-0x8000000000000008-0x1|riscv/sifive/p550 (CPUID 0x489-0x8000000000000008-0x1 matches row
267|0x489-0x8000000000000108-0x9000|riscv/sifive/p650 (CPUID
268|0x489-0x8000000000000107-0x70|riscv/sifive/bullet-07 (CPUID
269|0x489-0x8000000000000107-0xd0|riscv/sifive/bullet-0d (CPUID
270|0x489-0x8000000000000f07-0x70|riscv-sbi-firmware.json (no row
271|0x602-0x3-0x0|riscv/openhwgroup/cva6 (CPUID 0x602-0x3-0x0 matches row '0x602-0x3-0x0'
272|0x0-0x70216-0x70216|riscv-sbi-firmware.json (no row of .*riscv/mapfile.csv matches 0x0-0x70216-0x70216
273|0x0-0x0-0x0|riscv-sbi-firmware.json (no row
274|0x489-0xzz-0x0|PMUCAL_CPUID=0x489-0xzz-0x0 is not a RISC-V mvendorid-marchid-mimpid
275|0x489-0x1|PMUCAL_CPUID=0x489-0x1 is not a RISC-V mvendorid-marchid-mimpid
276|0x489-0x1-0x10000000000000000|is not a RISC-V mvendorid-marchid-mimpid (three 0x hex numbers of at most 64 bits
EOF

# RISC-V encodings: a hardware event's EventCode is the cpu PMU's event field (config:0-47), a
# firmware event's ConfigCode the whole config (bit 63: an SBI firmware event); a model's
# ArchStdEvent entries take theirs from riscv-sbi-firmware.json.
while IFS='|' read -r line table name want; do
    got=$($PMUCAL events --vendor-json "$eventdata/riscv/$table" --describe | awk -F'\t' -v n="$name" '$1 == n { print $2 }')
    is "$got" "$want" "tests/48-events-vendor-tables.t:$line: riscv/$table $name"
done << 'EOF'
286|sifive/bullet|INTEGER_LOAD_RETIRED|r200:u
287|sifive/bullet|FW_ILLEGAL_INSN|r8000000000000004:u
288|riscv-sbi-firmware.json|FW_SET_TIMER|r8000000000000005:u
289|riscv-sbi-firmware.json|FW_HFENCE_VVMA_ASID_RECEIVED|r8000000000000015:u
290|thead/c900-legacy|L1_ICACHE_MISS|r2:u
291|starfive/dubhe-80|MISS_MMU_STLB|r2:u
292|andes/ax45|inst_count|r20:u
EOF
# By name in -e: the firmware events of a host no row names, perf's generic cache events beside them.
is "$(PMUCAL_CPUID=0x0-0x70216-0x70216 $PMUCAL groups -e FW_ILLEGAL_INSN,dTLB-read-misses,dTLB-write-misses,iTLB-read-misses:k,cycles 2> /dev/null)" \
    "{dTLB-load-misses:u,dTLB-store-misses:u,iTLB-load-misses:k,cycles:u,r8000000000000004:u}" \
    "a RISC-V host no row names: SBI firmware events by name, and the TLB cache events the virt machine maps"

# tablediff prints a RISC-V event by its number, the whole config, as Arm's (no x86 fields).
$PMUCAL tablediff "$eventdata/riscv/sifive/bullet" "$eventdata/riscv/andes/ax45" > "$TMP/rvdiff" 2>&1
grep -q '^# removed: FP_INTERLOCK (event 0x40001): ' "$TMP/rvdiff" && ! grep -q 'umask' "$TMP/rvdiff" &&
    grep -q '^# totals bullet .* -> ax45 .*: same 22, ' "$TMP/rvdiff"
ok $? "tablediff between two RISC-V cores: the 22 firmware events the same, events by number: $(tail -n 1 "$TMP/rvdiff" | cut -c1-200)"

# Hostile RISC-V tables, in perf's riscv layout (the firmware file two folders above the model):
# exit 2 and one message naming the file, the event and what is wrong.
rv=$TMP/rv/riscv
mkdir -p "$rv/x/bad"
cp "$eventdata/riscv/riscv-sbi-firmware.json" "$rv/"
while IFS='|' read -r line json want; do
    printf '%s\n' "$json" > "$rv/x/bad/t.json"
    $PMUCAL events --vendor-json "$rv/x/bad" > "$TMP/o" 2> "$TMP/e"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/e")" -eq 1 ] && grep -q -- "$want" "$TMP/e"
    ok $? "tests/48-events-vendor-tables.t:$line: $json exits 2 with one line (got $rc): $(cat "$TMP/e")"
done << 'EOF'
317|[{"EventName": "FW_X", "ConfigCode": "0x4000000000000001"}]|t.json: event FW_X: ConfigCode "0x4000000000000001" has bits 63:62 = 01, which the SBI PMU extension gives no event
318|[{"EventName": "FW_X", "ConfigCode": "0xzz"}]|event FW_X: ConfigCode "0xzz" is not a whole number
319|[{"EventName": "FW_X", "ConfigCode": "0x8000000000010000"}]|ConfigCode "0x8000000000010000" is an SBI firmware event (bit 63) with bits set above 15
320|[{"EventName": "CYC", "EventCode": "0x8000000000000001"}]|EventCode "0x8000000000000001" sets bit 63, which marks an SBI firmware event: a firmware event is a ConfigCode
321|[{"EventName": "CYC", "EventCode": "0x1000000000000"}]|EventCode "0x1000000000000" is wider than the cpu PMU's event field (config:0-47
322|[{"EventName": "CYC", "ConfigCode": "0x1000000000000"}]|ConfigCode "0x1000000000000" is a hardware event (bits 63:62 = 00) wider than the cpu PMU's event field
323|[{"EventName": "CYC", "EventCode": "0x1", "ConfigCode": "0x8000000000000001"}]|event CYC has both EventCode and ConfigCode
324|[{"ArchStdEvent": "FW_NO_SUCH"}]|t.json: ArchStdEvent FW_NO_SUCH is in none of riscv-sbi-firmware.json
EOF
# A hostile mapfile: a row that is a pattern from its first character (it would claim every CPU),
# a row that is no regular expression: exit 2, one message naming the file, its line and the fix.
mkdir -p "$rv/sifive/bullet"
cp "$eventdata"/riscv/sifive/bullet/*.json "$rv/sifive/bullet/"
while IFS='|' read -r line row want; do
    printf '#MVENDORID-MARCHID-MIMPID,Version,Filename,EventType\n%s,v1,sifive/bullet,core\n' "$row" > "$rv/mapfile.csv"
    PMUCAL_EVENTDATA=$TMP/rv PMUCAL_CPUID=0x489-0x8000000000000007-0x0 $PMUCAL events > "$TMP/o" 2> "$TMP/e"
    rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/e")" -eq 1 ] && grep -q -- "$want" "$TMP/e"
    ok $? "tests/48-events-vendor-tables.t:$line: mapfile row '$row' exits 2 with one line (got $rc): $(cat "$TMP/e")"
done << 'EOF'
337|.*|riscv/mapfile.csv line 2: row '.\*' does not begin with a literal mvendorid (0x489-...): a pattern there matches other vendors' CPUs
338|0x[[:xdigit:]]+-.*-.*|row '0x\[\[:xdigit:\]\]+-.\*-.\*' does not begin with a literal mvendorid
339|0x489-(|riscv/mapfile.csv line 2: row '0x489-(' is not a regular expression
EOF

# pmucal events --open on the emulated RISC-V host's fixture (its sysfs cpu PMU: type 4, event
# config:0-47, firmware config:62-63): every event gets a verdict, each table event encoded
# through that format. This machine has no RISC-V PMU: what opens is asserted inside the
# emulated host (tests/77-arch-emu-riscv64.t); here, the form and the encodings.
# The fixture mirrors /sys/bus/event_source as sys-bus-event_source/; PMUCAL_SYSFS takes a /sys.
fix=$TMP/rvsys
mkdir -p "$fix/bus" && ln -s "$PWD/tests/hosts/qemu-riscv64-virt/sys-bus-event_source" "$fix/bus/event_source"
PMUCAL_SYSFS=$fix PMUCAL_CPUID=0x0-0x70216-0x70216 $PMUCAL events --open > "$TMP/open.out" 2> "$TMP/open.err"
rc=$?
grep -v '^#' "$TMP/open.out" > "$TMP/open.rows"
bad=$(awk -F'\t' 'NF != 5 || $2 !~ /^(opens|opens-unfiltered|unencodable|E[A-Z0-9]+)$/ || ($2 != "opens" && $5 == "")' "$TMP/open.rows" | head -n 3)
[ $rc -eq 0 ] && [ -s "$TMP/open.rows" ] && [ -z "$bad" ] &&
    grep -q "^# cpu PMU: $fix/bus/event_source/devices/cpu: type 4, format event config:0-47, firmware config:62-63$" "$TMP/open.out"
ok $? "events --open on the qemu-riscv64-virt fixture: $(wc -l < "$TMP/open.rows") events, each NAME, verdict, encoding, source, meaning (exit $rc)${bad:+; malformed: $bad} $(head -c 200 "$TMP/open.err")"
while IFS='|' read -r line name enc source; do
    got=$(awk -F'\t' -v n="$name" '$1 == n { print $3 "|" $4 }' "$TMP/open.rows")
    is "$got" "$enc|$source" "tests/48-events-vendor-tables.t:$line: --open encodes $name as $enc ($source)"
done << 'EOF'
360|cycles|cycles:u|generic
361|dTLB-load-misses|dTLB-load-misses:u|generic
362|dTLB-store-misses|dTLB-store-misses:u|generic
363|iTLB-load-misses|iTLB-load-misses:u|generic
364|FW_MISALIGNED_LOAD|r8000000000000000:u|riscv/riscv-sbi-firmware.json
365|FW_ILLEGAL_INSN|r8000000000000004:u|riscv/riscv-sbi-firmware.json
EOF
tab=$(printf '\t')
is "$(grep -c "${tab}generic${tab}" "$TMP/open.rows") $(grep -c "${tab}riscv/riscv-sbi-firmware.json${tab}" "$TMP/open.rows")" "52 22" \
    "--open asks perf's 10 generic hardware and 42 cache events, then the 22 SBI firmware events"
tail -n 1 "$TMP/open.out" | grep -q "^# [0-9]* open, [0-9]* open only unfiltered, [0-9]* refused$"
ok $? "and counts them: $(tail -n 1 "$TMP/open.out")"
# A cpu PMU whose format has no firmware field (a kernel whose driver takes no SBI firmware events),
# or a narrower event field: those entries are unencodable, said per event, not opened.
mkdir -p "$TMP/nofw/bus/event_source/devices/cpu/format"
echo 4 > "$TMP/nofw/bus/event_source/devices/cpu/type"
echo config:0-7 > "$TMP/nofw/bus/event_source/devices/cpu/format/event"
PMUCAL_SYSFS=$TMP/nofw $PMUCAL events --open --vendor-json "$eventdata/riscv/sifive/bullet" > "$TMP/nofw.out" 2>&1
grep -q "^FW_ILLEGAL_INSN${tab}unencodable${tab}-${tab}bullet/firmware.json${tab}a firmware event, and the cpu PMU states no two-bit firmware field" "$TMP/nofw.out" &&
    grep -q "^EXCEPTION_TAKEN${tab}unencodable${tab}-${tab}bullet/instruction.json${tab}0x100 is wider than the cpu PMU.s event field (config:0-7)" "$TMP/nofw.out"
ok $? "a cpu PMU without a firmware field, or a narrower event field: unencodable, with why: $(grep -m1 FW_ILLEGAL_INSN "$TMP/nofw.out" | cut -c1-160)"
$PMUCAL events --open --describe > "$TMP/o" 2> "$TMP/e"
rc=$?
[ $rc -eq 2 ] && grep -q -- "--describe and --open" "$TMP/e"
ok $? "events --open --describe: exit 2 (got $rc): $(head -n 1 "$TMP/e")"
done_testing

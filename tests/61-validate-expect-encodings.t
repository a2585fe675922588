#!/bin/sh
# Offline checks of the shipped rule files, and libpfm4's encodings against the vendor
# tables pmucal ships (eventdata/).
. "$(dirname "$0")/lib.sh"

$PMUCAL expect check > "$TMP/expect.tap" 2> "$TMP/expect.err"
rc=$?
grep '^#' "$TMP/expect.tap"
[ $rc -eq 0 ] && [ "$(grep -c '^not ok' "$TMP/expect.tap")" -eq 0 ] && [ "$(grep -c '^ok' "$TMP/expect.tap")" -gt 100 ]
ok $? "pmucal expect check: every shipped rule encodes for its PMU and names known quantities ($(grep -c '^ok' "$TMP/expect.tap") rules)"
for pmu in amd64_fam19h_zen4 amd64_fam19h_zen3 skl icx spr; do
    n=$(grep -c "expect/$pmu.txt:[0-9]*: " "$TMP/expect.tap")
    [ "$n" -ge 15 ]
    ok $? "$pmu.txt ships $n rules"
done
# Memory-controller (uncore) rules: each row's golden encoding, counted CPU-wide on every instance
# of its unit; Intel's from libpfm4's skx_unc_imc (LIBPFM_FORCE_PMU=skx), AMD's from the tables'
# UMCPMC (Zen 4's too: libpfm4 4.13 has no Zen 4 UMC, so amd64_fam19h_zen4.txt takes amdzen4's).
while IFS='|' read -r line file event want; do
    grep -q "expect/$file:[0-9]*: $event = mem\.[a-z]*\.lines >=10% (config $want)" "$TMP/expect.tap"
    ok $? "tests/61-validate-expect-encodings.t:$line: $file $event: config $want"
done << 'EOF'
23|skx.txt|skx_unc_imc0::UNC_M_CAS_COUNT:RD|0x304, CPU-wide on every uncore_imc
24|skx.txt|skx_unc_imc0::UNC_M_CAS_COUNT:WR|0xc04, CPU-wide on every uncore_imc
25|amdzen5.txt|umc_cas_cmd.rd|0x10a, CPU-wide on every amd_umc
26|amdzen5.txt|umc_cas_cmd.wr|0x20a, CPU-wide on every amd_umc
27|amd64_fam19h_zen4.txt|umc_cas_cmd.rd|0x10a, CPU-wide on every amd_umc
28|amd64_fam19h_zen4.txt|umc_cas_cmd.wr|0x20a, CPU-wide on every amd_umc
EOF
# It catches what it is for: an event of another PMU, an unknown quantity, a duplicate, an unknown file stem.
mkdir -p "$TMP/exp"
printf 'RETIRED_INSTRUCTIONS inst exact\nINST_RETIRED:ANY_P inst exact\n' > "$TMP/exp/amd64_fam19h_zen4.txt"
$PMUCAL expect check "$TMP/exp/amd64_fam19h_zen4.txt" > "$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "^not ok 2 - .*amd64_fam19h_zen4.txt:2: INST_RETIRED:ANY_P does not encode for amd64_fam19h_zen4" "$TMP/o"
ok $? "an Intel event in the zen4 file is 'not ok' with file:line"
printf 'INST_RETIRED:ANY_P inst exact\nINST_RETIRED:ANY_P inst 1%%\n' > "$TMP/exp/skl.txt"
$PMUCAL expect check "$TMP/exp/skl.txt" > "$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "skl.txt:2: a second rule for INST_RETIRED:ANY_P (the first is at .*skl.txt:1); keep one" "$TMP/o"
ok $? "a duplicate rule is refused naming both rows (docs/grammar.md: one rule an event a file)"
printf 'INST_RETIRED:ANY_P instructions exact\n' > "$TMP/exp/icx.txt"
$PMUCAL expect check "$TMP/exp/icx.txt" > "$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "icx.txt:1: unknown quantity 'instructions'" "$TMP/o"
ok $? "an unknown quantity names file:line"
# A CPU-wide count includes the socket's other work: a two-sided rule on one is not ok; an uncore
# unit or core PMU of another model in a model's file is not ok either.
while IFS='|' read -r line file rule want; do
    printf '%s\n' "$rule" > "$TMP/exp/$file"
    $PMUCAL expect check "$TMP/exp/$file" > "$TMP/o" 2>&1
    [ $? -eq 1 ] && grep -q -- "^not ok 1 - .*$file:1: .*$want" "$TMP/o"
    ok $? "tests/61-validate-expect-encodings.t:$line: '$rule' in $file is not ok: $(grep -m1 '^not ok' "$TMP/o" | cut -c1-200)"
done << 'EOF'
52|amdzen5.txt|umc_cas_cmd.rd mem.read.lines 10%|counts CPU-wide (uncore amd_umc: the whole socket, other work included): its rule must be a lower bound, >=N%, not 10%
53|skx.txt|skx_unc_imc0::UNC_M_CAS_COUNT:RD mem.read.lines exact|must be a lower bound, >=N%, not exact
54|skx.txt|bdx_unc_imc0::UNC_M_CAS_COUNT:RD mem.read.lines >=10%|bdx_unc_imc0 is an uncore unit of another model than skx
55|icx.txt|skl::INST_RETIRED:ANY_P inst exact|names the core PMU skl, not icx
EOF
printf 'X inst exact\n' > "$TMP/exp/nosuchpmu.txt"
$PMUCAL expect check "$TMP/exp/nosuchpmu.txt" > "$TMP/o" 2>&1
[ $? -eq 1 ] && grep -q "no libpfm4 PMU, counter source or vendor table (under .*) is named 'nosuchpmu'" "$TMP/o"
ok $? "a file named after no PMU or source is 'not ok'"

# On a host whose kernel exports no such unit (this VM), a libpfm4 uncore event is known but not
# countable: a SKIP saying so, beside an event that counts; never an unknown event.
if ls /sys/bus/event_source/devices/ 2> /dev/null | grep -q '^uncore_imc'; then
    skip "libpfm4's skx_unc_imc0 SKIPs without an uncore_imc PMU" "this host has uncore_imc PMUs"
else
    $PMUCAL validate --case 'triad size=8k' -e skx_unc_imc0::UNC_M_CAS_COUNT:RD,page-faults -r 2 --label skxunc > "$TMP/unc.tap" 2>&1
    grep -q "^ok [0-9]* - triad size=8k :: skx_unc_imc0::UNC_M_CAS_COUNT:RD # SKIP libpfm4 knows skx_unc_imc0, but the Linux kernel exports no uncore_imc PMU here" "$TMP/unc.tap" &&
        grep -q '^ok [0-9]* - triad size=8k :: page-faults = pf.minor' "$TMP/unc.tap"
    ok $? "skx_unc_imc0::UNC_M_CAS_COUNT:RD SKIPs here naming the missing unit: $(grep -m1 'UNC_M_CAS' "$TMP/unc.tap" | cut -c1-170)"
fi

# The host PMU's file loads by itself; --no-auto-expect withholds it.
host=$($PMUCAL info --json | jq -r '.pmu.name // empty')
if [ -n "$host" ] && [ -f "validate/expect/$host.txt" ]; then
    $PMUCAL validate --case 'walker size=L1' -e page-faults --label auto > /dev/null 2>&1
    is "$(jq -r '.rule_file | split("/") | last' "$PMUCAL_RESULTS"/*-auto/manifest.json)" "$host.txt" "validate loads validate/expect/$host.txt for the host PMU"
    $PMUCAL validate --case 'walker size=L1' -e page-faults --label noauto --no-auto-expect > /dev/null 2>&1
    is "$(jq -r '.rule_file' "$PMUCAL_RESULTS"/*-noauto/manifest.json)" "null" "--no-auto-expect withholds it"
else
    skip "automatic rule file" "no shipped file for host PMU '${host:-none}'"
    skip "--no-auto-expect" "no shipped file for host PMU '${host:-none}'"
fi

# Checker: an erratum turns a failure into TODO; the run does not fail for it. Zero-quantity cases
# are negative tests (cpu-migrations must be 0; a rule claiming page-faults count loads fails).
printf 'page-faults ld.all exact\ncpu-migrations pf.minor exact erratum=TEST001\n' > "$TMP/neg.rules"
$PMUCAL validate --case 'walker size=L1' -e page-faults,cpu-migrations --expect "$TMP/neg.rules" --label neg > "$TMP/neg.tap" 2>/dev/null
rc=$?
grep -q '^not ok [0-9]* - walker :: page-faults = ld.all: measured 0.0000 expected 16.0000' "$TMP/neg.tap" && [ $rc -eq 1 ]
ok $? "a wrong rule is 'not ok' with measured and expected, and validate exits 1 (got $rc)"
grep -q '^#   page-faults  *FAILS in 1 of 1 cases: walker' "$TMP/neg.tap"
ok $? "the per-event summary names where it fails"

# Encoding cross-check against the shared reference tables.
eventdata=eventdata
for pair in skl:intel/SKL icx:intel/ICX spr:intel/SPR amd64_fam19h_zen4:amd/amdzen4; do
    pmu=${pair%%:*} table=$eventdata/${pair#*:}
    $PMUCAL encodings --pmu "$pmu" --vendor-json "$table" > "$TMP/enc-$pmu.tap" 2> "$TMP/enc.err"
    rc=$?
    totals=$(grep '^# totals' "$TMP/enc-$pmu.tap")
    echo "$totals"
    grep '^not ok' "$TMP/enc-$pmu.tap" | head -n 3 | sed 's/^/#   /'
    same=$(echo "$totals" | sed -n 's/.*identical \([0-9]*\).*/\1/p')
    diff=$(echo "$totals" | sed -n 's/.*different \([0-9]*\),.*/\1/p')
    plan=$(grep -c '^1\.\.' "$TMP/enc-$pmu.tap")
    { [ $rc -eq 0 ] && [ "$diff" -eq 0 ]; } || { [ $rc -eq 1 ] && [ "$diff" -gt 0 ]; }
    ok $? "encodings $pmu: exit $rc agrees with $diff differences"
    [ "$plan" -eq 1 ] && [ "$same" -gt 150 ] && [ "$(grep -c '^ok\|^not ok' "$TMP/enc-$pmu.tap")" -eq $((same + diff)) ]
    ok $? "encodings $pmu: $same identical, one TAP line per compared event, one plan"
done
grep -q '^not ok [0-9]* - MEM_LOAD_MISC_RETIRED.UC != icx::MEM_LOAD_MISC_RETIRED:UC: vendor event 0xd4 umask 0x04 .*; libpfm4 event 0xc4 umask 0x04' "$TMP/enc-icx.tap"
ok $? "a real difference is shown with both encodings (icx MEM_LOAD_MISC_RETIRED.UC: 0xd4 vs 0xc4)"
grep -q '^# vendor only: ' "$TMP/enc-icx.tap" && grep -q '^# libpfm4 only: ' "$TMP/enc-icx.tap"
ok $? "events on one side only are listed as such"
printf '{"Events": [' > "$TMP/broken.json"
$PMUCAL encodings --pmu skl --vendor-json "$TMP/broken.json" > /dev/null 2> "$TMP/err"
[ $? -eq 2 ] && grep -q "broken.json: line 1 column 13: " "$TMP/err"
ok $? "a broken vendor table is one error naming file, line and column: $(cat "$TMP/err")"
done_testing

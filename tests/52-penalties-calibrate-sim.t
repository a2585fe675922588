#!/bin/sh
# calibrate --source sim: the recipes' cases under callgrind, judged as validate judges them, and
# per recipe one verdict on its occurrence quantity (penalties/occurrence_sim.c): ok when the
# simulated counts equal the model's occurrences, not ok when they do not (a perturbed count),
# SKIP where callgrind cannot count that kind of occurrence. No penalties; emit never takes it.
. "$(dirname "$0")/lib.sh"
# The progress lines (written to a file only when asked): one per case, [i/n] by recipe.
export PMUCAL_PROGRESS=1
# The simulated machine comes from a fixture, never from the machine the test runs on.
[ -n "${PMUCAL_TEST_HOST:-}" ] || use_host zen4

# Bad input, in any build: one message naming the option, exit 2, no run folder.
while IFS='|' read -r args says; do
    [ -z "$args" ] && continue
    # shellcheck disable=SC2086
    $PMUCAL calibrate $args --label bad > /dev/null 2> "$TMP/bad.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q -- "$says" "$TMP/bad.err" && [ -z "$(ls -d "$PMUCAL_RESULTS"/*-bad* 2> /dev/null)" ]
    ok $? "calibrate $args: exit $rc, '$(head -c 300 "$TMP/bad.err")'"
done << 'ROWS'
--source sim --target-ms 5 --recipe l1_hit|--target-ms times the cases: it has no meaning with --source sim
--source sim --curve|--curve times the cases
--iters 100 --recipe l1_hit|--iters goes with --source sim
--source perfstat --recipe l1_hit|calibrate times its cases with the perf source
--source nope|nope
ROWS

if ! sim_usable; then
    sim_skip_or_fail "calibrate --source sim runs"
    done_testing
    exit $?
fi

# l1_hit (ld.l1 = sim::Dr - sim::D1mr) and mispredict (br.mispred = sim::Bcm + sim::Bim), at the
# default iterations: the branch kernel reads its pattern table in laps that far fewer would cut.
start=$(date +%s)
$PMUCAL calibrate --source sim --recipe l1_hit --recipe mispredict --label s > "$TMP/s.tap" 2> "$TMP/s.err"
rc=$?
dir=$(ls -d "$PMUCAL_RESULTS"/*-s 2> /dev/null | head -n 1)
[ $rc -eq 0 ] && [ -n "$dir" ]
ok $? "calibrate --source sim --recipe l1_hit --recipe mispredict: exit $rc in $(($(date +%s) - start))s $(grep '^not ok' "$TMP/s.tap" | head -n 1 | cut -c 4-)"
grep -q '^ok [0-9]* - l1_hit: occurrences ld.l1 checked under sim, ld.l1 = sim::Dr - sim::D1mr: walker size=L1: ld.l1 16 per iteration (sim::Dr 16.0000 = ld.all 16.0000; sim::D1mr 0.0[0-9]* = ld.all - ld.l1 0.0000)' "$TMP/s.tap"
ok $? "l1_hit: its occurrences are shown by the simulated counts: $(grep -- '- l1_hit: occ' "$TMP/s.tap" | cut -c1-200)"
grep -q '^ok [0-9]* - mispredict: occurrences br.mispred checked under sim, .*branch pattern=random: br.mispred 4[.0-9]* per iteration (sim::Bcm [34]\.[0-9]* = .*control branch pattern=never: br.mispred 0 per iteration' "$TMP/s.tap"
ok $? "mispredict: issue and control cases both shown: $(grep -- '- mispredict: occ' "$TMP/s.tap" | cut -c1-200)"
[ "$(grep -c '^pmucal: \[[12]/2\] ' "$TMP/s.err")" -eq 3 ]
ok $? "one progress line per case on stderr, [i/n] by recipe: $(grep '^pmucal: \[' "$TMP/s.err" | tr '\n' ' ')"
n=$(grep -c ' :: sim::[A-Za-z0-9]* = ' "$TMP/s.tap")
[ "$n" -ge 27 ] && grep -q '^ok .*walker :: sim::Dr = ld.all: measured 16.0000 expected 16.0000' "$TMP/s.tap"
ok $? "each case's model is checked under sim as validate reports it ($n rule lines over 3 cases)"
[ -n "$dir" ] || dir="$TMP/no-run-folder"
jq -e '.source == "sim" and .status == "complete" and .occurrences_checked == 2 and .occurrences_wrong == 0 and (.sim.D1.size > 0)' \
    "$dir/manifest.json" > /dev/null
ok $? "the manifest says source sim, complete, 2 occurrences checked: $(jq -c '{source, status, occurrences_checked, iters}' "$dir/manifest.json" 2> /dev/null)"
[ "$(wc -l < "$dir/measurements.ndjson")" -eq 3 ] && jq -e -s 'all(.[]; .source == "sim" and .iters == 10000)' "$dir/measurements.ndjson" > /dev/null
ok $? "measurements.ndjson: one sim record per case ($(wc -l 2> /dev/null < "$dir/measurements.ndjson") records)"
[ ! -e "$dir/penalties.json" ] && [ ! -e "$dir/tables" ] && [ ! -e "$dir/curve.csv" ] && diff -q "$dir/validate.tap" "$TMP/s.tap" > /dev/null
ok $? "no penalties.json, tables or curve (a simulator's cycles mean nothing); validate.tap is the TAP printed"
$PMUCAL emit -f csv > /dev/null 2> "$TMP/emit1.err"
rc1=$?
$PMUCAL emit -f csv "$dir" > /dev/null 2> "$TMP/emit2.err"
rc2=$?
[ $rc1 -eq 2 ] && grep -q 'no finished calibration of every recipe' "$TMP/emit1.err" && [ $rc2 -eq 2 ] &&
    grep -q "a 'calibrate --source sim' run: it checks the models' occurrence counts and holds no penalties" "$TMP/emit2.err"
ok $? "emit takes no sim run, newest or named (exit $rc1, $rc2): $(cat "$TMP/emit2.err")"

# A recipe whose occurrences callgrind cannot count: SKIP with the reason, never ok.
$PMUCAL calibrate --source sim --recipe div64_latency --iters 500 --label d > "$TMP/d.tap" 2> "$TMP/d.err"
rc=$?
[ $rc -eq 0 ] && grep -q "^ok [0-9]* - div64_latency: occurrences arith.div under sim # SKIP callgrind counts instructions (Ir), not instructions by kind" "$TMP/d.tap" &&
    [ "$(grep -c -- '- div64_latency: occ' "$TMP/d.tap")" -eq 1 ] && grep -q '^ok .*divsqrt :: sim::Ir = inst' "$TMP/d.tap"
ok $? "div64_latency: its case checked, its occurrences a SKIP with the reason (exit $rc): $(grep -- '- div64_latency: occ' "$TMP/d.tap" | sed 's/.* # SKIP //')"

# Wrong counts: the verdict turns not ok and the exit status 1 (a stub that always passed fails here).
while IFS='|' read -r label spec recipe want; do
    [ -z "$label" ] && continue
    $PMUCAL calibrate --source "perturb:sim/$spec" --recipe "$recipe" --label "$label" > "$TMP/$label.tap" 2> "$TMP/$label.err"
    rc=$?
    [ $rc -eq 1 ] && grep -q "^not ok [0-9]* - $recipe: occurrences $want" "$TMP/$label.tap"
    ok $? "perturb $spec: $recipe's occurrences not ok (exit $rc): $(grep -- "- $recipe: occ" "$TMP/$label.tap" | cut -c1-240)"
done << 'ROWS'
p1|level=sim::D1mr<sim::Dr|l1_hit|ld.l1 wrong under sim in walker size=L1: sim::D1mr = ld.all - ld.l1: measured 16.0000 expected 0.0000
p2|scale=sim::Bcm*1.5|mispredict|br.mispred wrong under sim in branch pattern=random: sim::Bcm = br.mispred - br.indirect.mispred: measured [56]\.[0-9]* expected 4\.0[0-9]*
ROWS
done_testing

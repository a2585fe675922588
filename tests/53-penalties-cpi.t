#!/bin/sh
# pmucal cpi: the cycle stack's arithmetic, exactly, on hand-made counts (tests/data): a 'perf stat
# -x,' CSV and a run folder, with the penalties of tests/data/penalties-zen5.json (l1_hit 4,
# l2_hit 14, dram 400 cycles = 100 ns at 4 GHz; page_walk not ok, alias_4k unstable).
. "$(dirname "$0")/lib.sh"
pj=tests/data/penalties-zen5.json csv=tests/data/perf-stat-zen5.csv

# 1200000 cycles = 0.25 x 400000 instructions + 4 x 100000 + 14 x 20000 + 400 x 1000 + 20000 left.
$PMUCAL cpi --penalties "$pj" --base-cpi 0.25 --json "$csv" > "$TMP/s.json"; rc=$?
jq -e '.cycles == 1200000 and .base == 100000 and ([.components[] | [.name, .occurrences, .penalty, .cycles]] ==
    [["l1_hit", 100000, 4, 400000], ["l2_hit", 20000, 14, 280000], ["dram", 1000, 400, 400000]]) and .explained == 1180000
    and .remainder == 20000 and .closed' "$TMP/s.json" > /dev/null && [ $rc -eq 0 ]
ok $? "perf stat CSV: base 100000 + 400000 + 280000 + 400000, remainder 20000 (1.7%): closed, exit $rc: $(jq -c '[.base, [.components[].cycles], .remainder, .verdict]' "$TMP/s.json")"
jq -e '[.left_out[]] | (map(test("page_walk: not_ok")) | any) and (map(test("alias_4k: unstable")) | any)' "$TMP/s.json" > /dev/null
ok $? "a penalty that is not ok, or unstable, is no component even with its event counted: $(jq -c .left_out "$TMP/s.json")"
jq -e '[.components[].counter] == ["ls_dispatch.ld_dispatch", "ls_dmnd_fills_from_sys.local_l2", "ls_dmnd_fills_from_sys.dram_io_near"]' "$TMP/s.json" > /dev/null
ok $? "components use perf's event names for the model (':u' dropped)"

# --core-ghz 2: DRAM's 100 ns is 200 cycles; the stack no longer closes (18.3% unexplained): exit 1.
$PMUCAL cpi --penalties "$pj" --base-cpi 0.25 --core-ghz 2 "$csv" > "$TMP/t.out"; rc=$?
[ $rc -eq 1 ] && grep -q '^  dram .* 1000 *200.00 *200000' "$TMP/t.out" && grep -q '^closure: not closed: 18.3% of the cycles unexplained' "$TMP/t.out"
ok $? "--core-ghz 2: dram 200 cycles, 220000 unexplained, not closed, exit 1: $(tail -n 1 "$TMP/t.out")"
# Without a base the components alone over-explain nothing here: 80000 = 6.7% left, within 10%.
$PMUCAL cpi --penalties "$pj" --tolerance 5 --json "$csv" > "$TMP/u.json"; rc=$?
jq -e '.base == 0 and .remainder == 120000 and (.closed | not) and (.verdict | test("10.0% of the cycles unexplained .beyond 5.0%"))' "$TMP/u.json" > /dev/null && [ $rc -eq 1 ]
ok $? "--base-cpi 0 --tolerance 5: remainder 120000 (10%) does not close: $(jq -r .verdict "$TMP/u.json")"

# A run folder: one case's per-iteration counts, the model's quantities where no event counted.
mkdir -p "$TMP/run"
# Its manifest says which command made it: a folder of one without records (c2c) is refused.
printf '{"command": ["pmucal", "validate"], "status": "complete"}\n' > "$TMP/run/manifest.json"
cat > "$TMP/run/measurements.ndjson" <<'EON'
{"case": "walker-l1", "events": [{"name": "page-faults", "stats": {"median": 0}}], "cycles": {"stats": {"median": 9}}, "model": {"ld.l1": 2}}
{"case": "mixwalk", "events": [{"name": "page-faults", "stats": {"median": 0}}, {"name": "ls_dispatch.ld_dispatch", "unsupported": "no hardware PMU"}], "cycles": {"stats": {"median": 70}}, "model": {"ld.l1": 10, "ld.l2": 2, "ld.l3": 0.5, "inst": 40}}
EON
$PMUCAL cpi --penalties "$pj" --case mixwalk --json "$TMP/run" > "$TMP/r.json"; rc=$?
jq -e '.cycles == 70 and ([.components[] | [.name, .counter, .cycles]] == [["l1_hit", "ld.l1", 40], ["l2_hit", "ld.l2", 28]]) and .remainder == 2 and .closed' "$TMP/r.json" > /dev/null && [ $rc -eq 0 ]
ok $? "run folder, case mixwalk: 4 x 10 + 14 x 2 of 70 cycles, the model's quantities as occurrences: $(jq -c '[[.components[] | [.name, .counter, .cycles]], .remainder]' "$TMP/r.json")"

$PMUCAL cpi --penalties "$pj" --svg "$TMP/s.svg" "$csv" > /dev/null
grep -c '<rect' "$TMP/s.svg" | grep -qx 10 && grep -q 'l2_hit: 280000 cycles (23.3%)' "$TMP/s.svg"
ok $? "--svg: a measured bar, a stacked bar of 3 components and the remainder, a legend with each share"

# A multiplexed count (ran < 100% of the time) is perf's scaled estimate: a note per event says so.
sed 's/^20000,,ls_dmnd_fills_from_sys.local_l2:u,1000000,100.00/20000,,ls_dmnd_fills_from_sys.local_l2:u,500000,50.00/' "$csv" > "$TMP/mux.csv"
$PMUCAL cpi --penalties "$pj" --base-cpi 0.25 --json "$TMP/mux.csv" > "$TMP/mux.json" 2> "$TMP/mux.err"; rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'multiplexed' "$TMP/mux.err")" -eq 1 ] &&
    grep -q 'mux.csv:6: ls_dmnd_fills_from_sys.local_l2 counted 50.00% of the time (multiplexed): its count is perf.s scaled estimate' "$TMP/mux.err"
ok $? "a multiplexed line is used with one note naming file:line and the event (exit $rc): $(cat "$TMP/mux.err")"
# A calibration that did not finish is refused as emit refuses it, unless --allow-incomplete.
mkdir -p "$TMP/cal"
cp "$pj" "$TMP/cal/penalties.json"
printf '{"status": "interrupted", "status_reason": "stopped by SIGINT"}\n' > "$TMP/cal/manifest.json"
$PMUCAL cpi --penalties "$TMP/cal" "$csv" > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc -eq 2 ] && [ ! -s "$TMP/o" ] && grep -q 'it is interrupted: stopped by SIGINT; .*--allow-incomplete' "$TMP/e"
ok $? "--penalties of an interrupted calibration is refused (exit $rc): $(cat "$TMP/e")"
$PMUCAL cpi --allow-incomplete --penalties "$TMP/cal" --base-cpi 0.25 "$csv" > "$TMP/o" 2> "$TMP/e"; rc=$?
[ $rc -eq 0 ] && grep -q '^closure: closed' "$TMP/o"
ok $? "and used with --allow-incomplete (exit $rc)"

# Bad input: one message naming the input and the fix; exit 2.
printf '12,,cycles\nlots,,instructions\n' > "$TMP/bad.csv"
printf '1e400,,cycles\n' > "$TMP/inf.csv"
printf '# zero\n0,,cycles:u,1000,100.00,,\n5,,instructions\n' > "$TMP/zero.csv"
for row in "bad.csv:2: the count 'lots' of instructions is not a number|$TMP/bad.csv" \
           "is a run folder: name the case with --case LABEL|$TMP/run" \
           "no measurement of case 'nope'|--case nope $TMP/run" \
           "no instructions count, which --base-cpi 0.5 multiplies|--base-cpi 0.5 --case walker-l1 $TMP/run" \
           "--tolerance x: give a number from 0 to 100|--tolerance x $csv" \
           "inf.csv:1: the count '1e400' of cycles is not a finite number|$TMP/inf.csv" \
           "zero.csv:2: cycles is 0: a stack needs a positive cycles count|$TMP/zero.csv"; do
    want=${row%%|*}
    # shellcheck disable=SC2086
    $PMUCAL cpi --penalties "$pj" ${row#*|} > /dev/null 2> "$TMP/e"; rc=$?
    [ $rc -eq 2 ] && grep -qF -- "$want" "$TMP/e" && [ "$(wc -l < "$TMP/e")" -eq 1 ]
    ok $? "bad input exits 2 ($rc) with one message: $(head -n 1 "$TMP/e")"
done
done_testing

#!/bin/sh
# pmucal replay: a stored run judged again without measuring gives the verdicts validate gave
# (also where a perturbed source made them fail); a changed expectation changes them offline.
. "$(dirname "$0")/lib.sh"

TOUCH="walker size=4M page=4k phase=touch"
EV=page-faults,minor-faults,cpu-migrations   # not context-switches: beside other work their verdict is the load's (tests/36)
$PMUCAL validate --case "$TOUCH" --case 'walker size=16k' --iters 1024 -e $EV --label a > "$TMP/a.tap" 2> /dev/null
A=$(ls -d "$PMUCAL_RESULTS"/*-a | head -n 1)
$PMUCAL replay "$A" > "$TMP/ra.tap" 2> "$TMP/ra.err"
rc=$?
grep '^\(not \)\{0,1\}ok' "$TMP/a.tap" > "$TMP/a.points"
grep '^\(not \)\{0,1\}ok' "$TMP/ra.tap" > "$TMP/ra.points"
[ $rc -eq 0 ] && [ -s "$TMP/a.points" ] && cmp -s "$TMP/a.points" "$TMP/ra.points"
ok $? "replay prints the very verdict lines validate printed (exit $rc)"
grep -q "^# summary: 6 ok, 0 not ok.* 0 verdicts differ" "$TMP/ra.tap"; ok $? "and says no verdict differs: $(tail -n 1 "$TMP/ra.tap" | sed "s/^# //")"

# A run whose counts were wrong in each hidden way: replay finds the same failures.
for p in 'offset=page-faults+500' 'zero=minor-faults%3' 'scale=page-faults*1.05'; do
    validate_perturbed "$p" p "$TMP/p.tap"
    P=$perturbed_dir
    $PMUCAL replay "$P" > "$TMP/rp.tap" 2> /dev/null
    rc=$?
    v=$(grep -c '^not ok' "$TMP/p.tap")
    r=$(grep -c '^not ok' "$TMP/rp.tap")
    [ $rc -eq 1 ] && [ "$v" -ge 1 ] && [ "$v" = "$r" ] && grep -q ' 0 verdicts differ' "$TMP/rp.tap"
    ok $? "perturb $p: replay fails the same $r points as validate did ($v), exit $rc"
    rm -rf "$P"
done

# The source's slack per counted loop is judged as the run recorded it, under its key
# source_slack_per_loop or, in a folder of a pmucal before the word, source_slack_per_run: a
# slack of 1000 explains the 500 counts the offset adds, so both failures turn ok.
validate_perturbed 'offset=page-faults+500' slack "$TMP/s.tap"
S=$perturbed_dir
for key in source_slack_per_loop source_slack_per_run; do
    rm -rf "$TMP/slack" && cp -R "$S" "$TMP/slack" &&
        jq --arg k "$key" 'del(.source_slack_per_loop) | .[$k] = 1000' "$S/manifest.json" > "$TMP/slack/manifest.json"
    $PMUCAL replay "$TMP/slack" > "$TMP/rs.tap" 2> /dev/null
    rc=$?
    [ $perturbed_rc -eq 1 ] && [ "$(grep -c '^not ok' "$TMP/s.tap")" -eq 2 ] && [ $rc -eq 0 ] &&
        grep -q '^# summary: 6 ok, 0 not ok.* 2 verdicts differ' "$TMP/rs.tap"
    ok $? "a recorded $key of 1000 judges the offset's 2 failures ok (exit $rc): $(tail -n 1 "$TMP/rs.tap")"
done
rm -rf "$S" "$TMP/slack"

# Today's rules: a changed expectation is checked offline.
printf 'page-faults  pf.minor + 1  exact\n' > "$TMP/rule.txt"
$PMUCAL replay "$A" --expect "$TMP/rule.txt" > "$TMP/rr.tap" 2> /dev/null
rc=$?
[ $rc -eq 1 ] && [ "$(grep -c '^not ok .*page-faults = pf.minor + 1' "$TMP/rr.tap")" -eq 2 ] &&
    grep -q '^# verdict changed since the run: walker size=16k :: page-faults ok -> not ok' "$TMP/rr.tap"
ok $? "a new rule turns both page-faults points not ok, said as changed since the run (exit $rc)"
# The run's own --expect rule file, as its manifest names it, is not read (a run folder is data): the
# same rule given by the user above fails, named by the manifest it changes nothing.
printf 'SECRET_TOKEN\n' > "$TMP/secret.json"
jq --arg f "$TMP/rule.txt" --arg v "$TMP/secret.json" '.expect = $f | .rule_file = $f | .vendor_json = $v' "$A/manifest.json" > "$TMP/m.json" &&
    cp "$TMP/m.json" "$A/manifest.json"
$PMUCAL replay "$A" > "$TMP/rx.tap" 2> "$TMP/rx.err"
rc=$?
[ $rc -eq 0 ] && grep -q "^# summary: 6 ok, 0 not ok" "$TMP/rx.tap" && grep -q 'give --expect FILE' "$TMP/rx.err" &&
    grep -q 'give --vendor-json PATH' "$TMP/rx.err" && ! grep -q SECRET "$TMP/rx.err" "$TMP/rx.tap"
ok $? "files the manifest names are not loaded; a note says to give --expect FILE (exit $rc): $(cat "$TMP/rx.err")"
jq '.status = "running"' "$A/manifest.json" > "$TMP/m.json" && cp "$TMP/m.json" "$A/manifest.json"
$PMUCAL replay "$A" > /dev/null 2> "$TMP/inc.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'still says running.*--allow-incomplete' "$TMP/inc.err"; ok $? "a run still 'running' is refused (exit $rc)"
$PMUCAL replay "$A" --allow-incomplete > /dev/null 2>&1
rc=$?
[ $rc -eq 0 ]; ok $? "and judged with --allow-incomplete (exit $rc)"
# A calibration on a host without an L3 (the fixture): its l3_hit case was skipped at set-up and
# left no record; replay gives the same SKIP line, from the run, not from this host, and rule
# options are refused for a calibration.
C="$TMP/cal"
HWLOC_XMLFILE="$PWD/tests/hosts/no-l3/hwloc.xml" HWLOC_THISSYSTEM=1 PMUCAL_RESULTS="$C" \
    $PMUCAL calibrate --quick --recipe l1_hit --recipe l3_hit --no-curve > "$TMP/cal.out" 2> "$TMP/cal.err"
crc=$?
run=$(ls -d "$C"/* 2> /dev/null | head -n 1)
$PMUCAL replay "$run" > "$TMP/cal.rep" 2> "$TMP/cal.rep.err"
rc=$?
grep -E '^(not )?ok [0-9]+ - ' "$run/validate.tap" > "$TMP/cal.v1"
grep -E '^(not )?ok [0-9]+ - ' "$TMP/cal.rep" > "$TMP/cal.v2"
grep -q '^ok 2 - l3_hit # SKIP size=L3: this machine has no L3 cache' "$TMP/cal.v1" && cmp -s "$TMP/cal.v1" "$TMP/cal.v2" &&
    [ $rc -eq $crc ] && grep -q '0 verdicts differ from the stored ones' "$TMP/cal.rep"
ok $? "replay of a calibration whose l3_hit was skipped at set-up gives its lines again (exit $rc, calibrate's $crc): $(diff "$TMP/cal.v1" "$TMP/cal.v2" | tr '\n#' ' %' | head -c 300) $(head -c 200 "$TMP/cal.rep.err")"
$PMUCAL replay "$run" --expect "$TMP/rule.txt" > /dev/null 2> "$TMP/cal.opt.err"
rc=$?
[ $rc -eq 2 ] && grep -q 'not by rule files' "$TMP/cal.opt.err"
ok $? "--expect with a calibration is refused (exit $rc): $(cat "$TMP/cal.opt.err")"
# A number of the folder is checked before use: a CPU of 1e300 (an int overflow) is refused.
cp -R "$run" "$TMP/calbad" && jq '.measure_cpu = 1e300' "$run/manifest.json" > "$TMP/calbad/manifest.json"
$PMUCAL replay "$TMP/calbad" > /dev/null 2> "$TMP/calbad.err"; rc=$?
[ $rc -eq 2 ] && grep -q 'manifest.json: "measure_cpu" is 1e+300; give a number from 0 to' "$TMP/calbad.err"
ok $? "replay refuses a calibration whose measure_cpu is 1e300 (exit $rc): $(cat "$TMP/calbad.err")"
# A curve point's size comes from its record's key: a size no memory has (-1 read as 2^64-1) is
# refused, where the curve's sweep to it would never have ended.
rm -rf "$TMP/calkey" && cp -R results/reference/zen5-vm-calibrate "$TMP/calkey" &&
    sed -i '0,/"key":"walker size=4096 order=random/s//"key":"walker size=-1 order=random/' "$TMP/calkey/measurements.ndjson"
timeout 60 $PMUCAL replay "$TMP/calkey" > /dev/null 2> "$TMP/calkey.err"; rc=$?
[ $rc -eq 2 ] && grep -q "measurements.ndjson: record [0-9]*: the curve point's size -1 is not from 4K to 16T" "$TMP/calkey.err"
ok $? "replay refuses a calibration whose curve point is sized -1 (exit $rc): $(head -c 200 "$TMP/calkey.err")"
done_testing

#!/bin/sh
# pmucal export --ktap: a run's verdicts as KTAP version 1, checked line by line against the rules
# of Linux's Documentation/dev-tools/ktap.rst by scripts/ktap-check.pl (a version line opens every
# level and the plan follows it; results numbered from 1 at their level, as many as planned;
# subtests indented two spaces more, before their parent's result; a parent not ok exactly when a
# subtest is; no '#' in a name; TODO is no KTAP directive), and the paths it gives are
# pmucal.validate.<case>.<event>, one per verdict of the run (a component: letters, digits, '_', '-').
. "$(dirname "$0")/lib.sh"
ref=results/reference
for run in zen5-vm-validate-perf zen5-vm-validate-sim zen5-vm-calibrate; do
    $PMUCAL export --ktap "$ref/$run" > "$TMP/$run.ktap" 2> "$TMP/err"
    rc=$?
    scripts/ktap-check.pl "$TMP/$run.ktap" > "$TMP/$run.paths" 2> "$TMP/check.err"
    crc=$?
    [ $rc -eq 0 ] && [ $crc -eq 0 ] && [ -s "$TMP/$run.paths" ]
    ok $? "$run: export --ktap (exit $rc) follows the KTAP rules (exit $crc): $(head -c 300 "$TMP/check.err") $(head -c 200 "$TMP/err")"
done
# Every (case, event) verdict of validate.tap is one path pmucal.validate.<case>.<event> with its result.
for run in zen5-vm-validate-perf zen5-vm-validate-sim; do
    grep -E '^(not )?ok [0-9]+ - .* :: ' "$ref/$run/validate.tap" |
        awk '{ r = /^not ok/ ? "not ok" : "ok"; d = / # SKIP / ? " SKIP" : ""
               line = $0; sub(/^(not )?ok [0-9]+ - /, "", line); i = index(line, " :: ")
               c = substr(line, 1, i - 1); ev = substr(line, i + 4); sub(/ .*/, "", ev); sub(/:$/, "", ev)
               gsub(/[^A-Za-z0-9_-]/, "_", c); gsub(/[^A-Za-z0-9_-]/, "_", ev); print r " pmucal.validate." c "." ev d }' | sort > "$TMP/want"
    grep '^[a-z ]* pmucal\.validate\.[^.]*\..*' "$TMP/$run.paths" | sed 's/ XFAIL$//' | sort > "$TMP/got"
    n=$(wc -l < "$TMP/want")
    [ "$n" -gt 50 ] && diff "$TMP/want" "$TMP/got" > "$TMP/d"
    ok $? "$run: the $n (case, event) verdicts are the KTAP paths pmucal.validate.<case>.<event>, same results: $(head -n 4 "$TMP/d" | tr '\n' ' ')"
done
grep -q '^ok pmucal\.calibrate\.penalty_l1_hit$' "$TMP/zen5-vm-calibrate.paths" &&
    grep -q '^ok pmucal\.calibrate\.penalty_l3_hit XFAIL$' "$TMP/zen5-vm-calibrate.paths" &&
    grep -q '^not ok pmucal\.calibrate$' "$TMP/zen5-vm-calibrate.paths"
ok $? "a calibration: a test per penalty by its name (figures in diagnostics), unstable ones XFAIL, the run not ok with its one failure"

# validate --ktap FILE writes the same when its run ends.
$PMUCAL validate --case 'walker size=4k' -e page-faults,minor-faults --ktap "$TMP/v.ktap" > "$TMP/v.tap" 2> "$TMP/err"
rc=$?
scripts/ktap-check.pl "$TMP/v.ktap" > "$TMP/v.paths" 2> "$TMP/check.err"
crc=$?
[ $rc -eq 0 ] && [ $crc -eq 0 ] && grep -qx 'ok pmucal.validate.walker_size_4k.page-faults' "$TMP/v.paths" &&
    grep -qx 'ok pmucal.validate.walker_size_4k.minor-faults' "$TMP/v.paths"
ok $? "validate --ktap FILE (exit $rc): KTAP by the rules (exit $crc) with the case's events: $(tr '\n' ' ' < "$TMP/v.paths" | head -c 200) $(head -c 200 "$TMP/check.err")"

# The checker finds what breaks the rules (a check that cannot fail proves nothing).
printf 'KTAP version 1\n1..2\nok 1 a\n' > "$TMP/short.ktap"
printf 'KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  not ok 1 b\nok 1 a\n' > "$TMP/parent.ktap"
printf '1..1\nok 1 a\n' > "$TMP/noversion.ktap"
printf 'KTAP version 1\n1..1\nok 2 a\n' > "$TMP/number.ktap"
printf 'KTAP version 1\nok 1 a\n1..1\n' > "$TMP/planlast.ktap"
printf 'KTAP version 1\n1..1\nnot ok 1 a # TODO later\n' > "$TMP/todo.ktap"
for bad in short parent noversion number planlast todo; do
    scripts/ktap-check.pl "$TMP/$bad.ktap" > /dev/null 2> "$TMP/err"
    rc=$?
    [ $rc -eq 1 ] && [ -s "$TMP/err" ]
    ok $? "ktap-check.pl refuses $bad.ktap (exit $rc): $(head -c 160 "$TMP/err")"
done
$PMUCAL export "$ref/zen5-vm-calibrate" > /dev/null 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'give one format: --ktap or --kcidb' "$TMP/err"; ok $? "export without a format exits 2: $(cat "$TMP/err")"
done_testing

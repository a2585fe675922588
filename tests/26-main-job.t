#!/bin/sh
# scripts/main-job.sh (what 'make run' runs): its exit status follows the verdicts through the
# pipes that show the output, and its summary lines are printed whole. A stand-in pmucal plays
# each outcome, so this runs in a blink on any host.
. "$(dirname "$0")/lib.sh"

cat > "$TMP/pmucal" <<'STUB'
#!/bin/sh
case "$1" in
info) echo "cpu stand-in" ;;
report) echo "$5" ;;
validate)
    echo "# pmucal validate: default matrix, results in /tmp/stand-in-v"
    echo "ok 1 - walker :: page-faults = pf.minor"
    [ "$STUB" = validate-fails ] && { echo "not ok 2 - walker :: x"; echo "# summary: 1 ok, 1 not ok, 0 skip, 0 todo, 0 info; 1 measurements in /r (a (nested) note)"; exit 1; }
    echo "# summary: 1 ok, 0 not ok, 0 skip, 0 todo, 0 info; 1 measurements in /r (a (nested) note)" ;;
calibrate)
    echo "# pmucal calibrate: 3 repetitions, results in /tmp/stand-in-c"
    echo "# l2_hit               memory  ok            14.78   [   14.70,    14.90]       4.10"
    echo "ok 1 - closure: mixwalk predicted 10.0 (from l1 (4.2), l2 (14.8)), measured 10.1 (1.0%)"
    [ "$STUB" = calibrate-not-ok ] && echo "not ok 2 - l3_hit: off its plateau"
    [ "$STUB" = calibrate-fails ] && exit 3 ;;
esac
exit 0
STUB
chmod +x "$TMP/pmucal"

for mode in good validate-fails calibrate-not-ok calibrate-fails; do
    STUB=$mode PMUCAL="$TMP/pmucal" scripts/main-job.sh > "$TMP/$mode.out" 2> "$TMP/$mode.err"
    echo $? > "$TMP/$mode.rc"
done
is "$(cat "$TMP/good.rc")" 0 "all verdicts ok: exit 0"
grep -qx 'report: /tmp/stand-in-v/report.html' "$TMP/good.out"; ok $? "the report page of both runs is named"
is "$(cat "$TMP/validate-fails.rc")" 1 "validate exits 1 behind tee: the job exits 1"
is "$(cat "$TMP/calibrate-not-ok.rc")" 1 "a 'not ok' verdict with exit 0: the job still exits 1"
is "$(cat "$TMP/calibrate-fails.rc")" 3 "calibrate's own status (3) comes through tee"
grep -qxF 'pmucal validate: 1 ok, 0 not ok, 0 skip, 0 todo, 0 info; 1 measurements in /r (a (nested) note), exit 0' "$TMP/good.out"
ok $? "the validate summary is printed whole: $(grep '^pmucal validate:' "$TMP/good.out")"
grep -qxF 'closure: ok 1 - closure: mixwalk predicted 10.0 (from l1 (4.2), l2 (14.8)), measured 10.1 (1.0%)' "$TMP/good.out"
ok $? "the closure verdict is printed whole: $(grep '^closure:' "$TMP/good.out")"
grep -q '^pmucal calibrate: 1 penalties ok, .* verdicts: 1 ok, 1 not ok; exit 0' "$TMP/calibrate-not-ok.out"
ok $? "the calibrate summary counts its verdicts: $(grep '^pmucal calibrate:' "$TMP/calibrate-not-ok.out")"
# An output that cannot be written fails the job: the validate log goes to an unwritable folder.
STUB=good PMUCAL="$TMP/pmucal" TMPDIR=/nonexistent/dir scripts/main-job.sh > "$TMP/nolog.out" 2>&1
rc=$?
[ $rc -ne 0 ]; ok $? "no place for its logs: the job exits non-zero ($rc): $(head -c 200 "$TMP/nolog.out" | tr '\n' ' ')"
done_testing

#!/bin/sh
# scripts/main-job.sh (what 'make run' runs): its exit status follows the verdicts through the
# pipes that show the output, as TAP means them (a TODO or a SKIP fails nothing, a broken plan
# does), and its summary lines are printed whole. A stand-in pmucal plays
# each outcome, so this runs in a blink on any host.
. "$(dirname "$0")/lib.sh"

cat > "$TMP/pmucal" <<'STUB'
#!/bin/sh
case "$1" in
info) echo "cpu stand-in" ;;
report) case "$5" in "$3"/*) echo "report: --out $5: inside the run folder $3" >&2; exit 2 ;; esac   # runs/outputs.c
        echo "$5" ;;
validate)
    echo "# pmucal validate: default matrix, results in /tmp/stand-in-v"
    echo "ok 1 - walker :: page-faults = pf.minor"
    [ "$STUB" = validate-fails ] && { echo "not ok 2 - walker :: x"; echo "1..2"; echo "# summary: 1 ok, 1 not ok, 0 skip, 0 todo, 0 info; 1 measurements in /r (a (nested) note)"; exit 1; }
    echo "1..1"
    echo "# summary: 1 ok, 0 not ok, 0 skip, 0 todo, 0 info; 1 measurements in /r (a (nested) note)" ;;
calibrate)
    echo "# pmucal calibrate: 3 repetitions, results in /tmp/stand-in-c"
    echo "# l2_hit               memory  ok            14.78   [   14.70,    14.90]       4.10"
    echo "ok 1 - closure: mixwalk predicted 10.0 (from l1 (4.2), l2 (14.8)), measured 10.1 (1.0%)"
    case $STUB in
    calibrate-not-ok) echo "not ok 2 - l3_hit: off its plateau"; echo "1..2" ;;
    todo-and-skip) echo "not ok 2 - penalty l3_hit: 88.12 cycles # TODO unstable: interval too wide"
                   echo "ok 3 - fp_assist_add # SKIP denormal adds take no assist on this core"; echo "1..3" ;;
    bad-plan) echo "1..5" ;;
    *) echo "1..1" ;;
    esac
    [ "$STUB" = calibrate-fails ] && exit 3 ;;
esac
exit 0
STUB
chmod +x "$TMP/pmucal"

for mode in good validate-fails calibrate-not-ok calibrate-fails todo-and-skip bad-plan; do
    STUB=$mode PMUCAL="$TMP/pmucal" scripts/main-job.sh > "$TMP/$mode.out" 2> "$TMP/$mode.err"
    echo $? > "$TMP/$mode.rc"
done
is "$(cat "$TMP/good.rc")" 0 "all verdicts ok: exit 0"
is "$(tail -n 2 "$TMP/good.out" | tr '\n' '|')" "tables: /tmp/stand-in-c/tables|report: /tmp/stand-in-v-main-job.html|" \
    "the job ends with the paths of the tables and of the page of both runs (beside the validate run: report writes nothing inside a run folder)"
is "$(cat "$TMP/todo-and-skip.rc")" 0 "a 'not ok' point marked TODO and a point marked SKIP fail nothing (TAP): exit 0"
grep -q '^  calibrate: 3 points: 1 ok, 0 not ok, 1 todo, 1 skip$' "$TMP/todo-and-skip.out" && grep -q '^main job: exit 0 (no point failed)' "$TMP/todo-and-skip.out"
ok $? "the parser counts them as TODO and SKIP: $(grep -E '^  calibrate:|^main job' "$TMP/todo-and-skip.out" | tr '\n' ' ')"
is "$(cat "$TMP/bad-plan.rc")" 1 "a plan of 5 with 1 point is broken TAP: exit 1"
grep -q '^    calibrate: TAP error: Bad plan.  You planned 5 tests but ran 1.' "$TMP/bad-plan.out"
ok $? "and the parser's error is shown: $(grep 'TAP error' "$TMP/bad-plan.out")"
is "$(cat "$TMP/validate-fails.rc")" 1 "validate exits 1 behind tee: the job exits 1"
is "$(cat "$TMP/calibrate-not-ok.rc")" 1 "a 'not ok' verdict with exit 0: the job still exits 1"
is "$(cat "$TMP/calibrate-fails.rc")" 3 "calibrate's own status (3) comes through tee"
grep -qxF 'pmucal validate: 1 ok, 0 not ok, 0 skip, 0 todo, 0 info; 1 measurements in /r (a (nested) note), exit 0' "$TMP/good.out"
ok $? "the validate summary is printed whole: $(grep '^pmucal validate:' "$TMP/good.out")"
grep -qxF 'closure: ok 1 - closure: mixwalk predicted 10.0 (from l1 (4.2), l2 (14.8)), measured 10.1 (1.0%)' "$TMP/good.out"
ok $? "the closure verdict is printed whole: $(grep '^closure:' "$TMP/good.out")"
grep -q '^  calibrate: 2 points: 1 ok, 1 not ok, 0 todo, 0 skip$' "$TMP/calibrate-not-ok.out" &&
    grep -q '^    calibrate: not ok 2 - l3_hit: off its plateau$' "$TMP/calibrate-not-ok.out"
ok $? "the verdicts are counted and the failing point named: $(grep -A1 '^  calibrate:' "$TMP/calibrate-not-ok.out" | tr '\n' ' ')"
# An output that cannot be written fails the job: the validate log goes to an unwritable folder.
STUB=good PMUCAL="$TMP/pmucal" TMPDIR=/nonexistent/dir scripts/main-job.sh > "$TMP/nolog.out" 2>&1
rc=$?
[ $rc -ne 0 ]; ok $? "no place for its logs: the job exits non-zero ($rc): $(head -c 200 "$TMP/nolog.out" | tr '\n' ' ')"
done_testing

#!/bin/sh
# A run that did not finish is not taken for one: emit passes over interrupted, still running and
# --curve-only calibrations and refuses them by name (unless --allow-incomplete); classify refuses a
# partial validate run the same way.
. "$(dirname "$0")/lib.sh"

pen='{"name":"l2_hit","status":"ok","domain":"core","cycles":14.2,"cycles_lo":14,"cycles_hi":14.4,"ns":4.5,"brief":"L2"}'
mkrun() { # mkrun NAME STATUS PENALTIES-ARRAY: a calibrate folder under $PMUCAL_RESULTS, made in order
    mkdir -p "$PMUCAL_RESULTS/$1"
    printf '{"status": "%s", "status_reason": "test"}\n' "$2" > "$PMUCAL_RESULTS/$1/manifest.json"
    printf '{"penalties": %s}\n' "$3" > "$PMUCAL_RESULTS/$1/penalties.json"
    touch -d "@$((1700000000 + $(ls "$PMUCAL_RESULTS" | wc -l)))" "$PMUCAL_RESULTS/$1/penalties.json"
}
mkrun 2026-01-01-h-calibrate complete "[$pen]"
mkrun 2026-01-02-h-calibrate interrupted "[$pen]"
mkrun 2026-01-03-h-calibrate running "[]"
mkrun 2026-01-04-h-calibrate complete "[]"

$PMUCAL emit --format json > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && jq -e '.penalties[0].name == "l2_hit"' "$TMP/out" > /dev/null
ok $? "emit without RUN takes the newest finished run with penalties, passing over interrupted, running and curve-only ones (exit $rc)"
emit_err() { # emit_err STATUS PATTERN DESCRIPTION -- args
    want=$1 pattern=$2 what=$3
    shift 4
    $PMUCAL emit --format c "$@" > "$TMP/out" 2> "$TMP/err"
    got=$?
    [ "$got" = "$want" ] && grep -q -- "$pattern" "$TMP/err"
    ok $? "$what: exit $got, $(head -c 150 "$TMP/err")"
}
emit_err 2 "it is interrupted" "emit refuses a named interrupted run" -- "$PMUCAL_RESULTS/2026-01-02-h-calibrate"
emit_err 2 "holds no penalties" "emit refuses a --curve-only run" -- "$PMUCAL_RESULTS/2026-01-04-h-calibrate"
$PMUCAL emit --format c --allow-incomplete "$PMUCAL_RESULTS/2026-01-02-h-calibrate" > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && grep -q '^#define PMUCAL_L2_HIT_CYCLES' "$TMP/out"
ok $? "emit --allow-incomplete takes it (exit $rc)"
rm -rf "$PMUCAL_RESULTS/2026-01-01-h-calibrate"
emit_err 2 "no finished calibration with penalties" "with no finished run, emit says so" --

# classify: a validate run stopped halfway.
$PMUCAL validate --case 'walker size=4k' -e page-faults,context-switches --label v > /dev/null 2>&1
dir=$(ls -d "$PMUCAL_RESULTS"/*-v | head -n 1)
jq '.status = "interrupted" | .status_reason = "stopped by SIGTERM after 0 of 1 cases"' "$dir/manifest.json" > "$TMP/m" &&
    mv "$TMP/m" "$dir/manifest.json"
$PMUCAL classify "$dir" > /dev/null 2> "$TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "it is interrupted: stopped by SIGTERM" "$TMP/err"
ok $? "classify refuses an interrupted run (exit $rc: $(head -c 150 "$TMP/err"))"
$PMUCAL classify --allow-incomplete "$dir" > /dev/null 2> "$TMP/err"
rc=$?
[ $rc -le 1 ] && [ -s "$dir/classify.json" ]
ok $? "classify --allow-incomplete fits what it holds (exit $rc)"
done_testing

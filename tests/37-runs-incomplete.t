#!/bin/sh
# A run that did not finish is not taken for one: emit passes over interrupted, still running and
# --curve-only calibrations and refuses them by name (unless --allow-incomplete); classify refuses a
# partial validate run the same way.
. "$(dirname "$0")/lib.sh"

pen='{"name":"l2_hit","status":"ok","domain":"core","cycles":14.2,"cycles_lo":14,"cycles_hi":14.4,"ns":3.55,"ns_lo":3.5,"ns_hi":3.6,"brief":"L2"}'
mkrun() { # mkrun NAME STATUS PENALTIES-ARRAY [COMMAND]: a calibrate folder under $PMUCAL_RESULTS, made in order
    mkdir -p "$PMUCAL_RESULTS/$1"
    printf '{"command": ["pmucal", "%s"], "status": "%s", "status_reason": "test"}\n' "${4:-calibrate}" "$2" \
        > "$PMUCAL_RESULTS/$1/manifest.json"
    printf '{"clock": {"core_ghz": 4}, "penalties": %s}\n' "$3" > "$PMUCAL_RESULTS/$1/penalties.json"
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
emit_err 2 "no finished calibration of every recipe" "with no finished run, emit says so" --
# A calibration is known by the command its manifest records, not by its folder's name.
mkrun 2026-01-05-h-foo complete "[$pen]"
mkrun 2026-01-06-h-calibrate complete "[$(echo "$pen" | sed 's/l2_hit/l3_hit/')]" validate
$PMUCAL emit --format json > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && jq -e '.penalties[0].name == "l2_hit"' "$TMP/out" > /dev/null
ok $? "emit without RUN finds 'calibrate --label foo', and passes over a newer *-calibrate folder validate wrote (exit $rc)"
rm -rf "$PMUCAL_RESULTS/2026-01-05-h-foo" "$PMUCAL_RESULTS/2026-01-06-h-calibrate"
# A partial calibration (calibrate --recipe) is passed over without RUN, whether penalties.json says
# so (recipes_only) or, for a run older than that field, its command line does; named, it is taken.
l3=$(echo "$pen" | sed 's/l2_hit/l3_hit/')
mkrun 2026-01-07-h-calibrate complete "[$pen]"
mkrun 2026-01-08-h-calibrate complete "[$l3]"
jq -c '.recipes_only = ["l3_hit"]' "$PMUCAL_RESULTS/2026-01-08-h-calibrate/penalties.json" > "$TMP/p" &&
    cp "$TMP/p" "$PMUCAL_RESULTS/2026-01-08-h-calibrate/penalties.json"
mkrun 2026-01-09-h-calibrate complete "[$l3]"
jq -c '.command = ["pmucal", "calibrate", "--rec", "l3_hit"]' "$PMUCAL_RESULTS/2026-01-09-h-calibrate/manifest.json" > "$TMP/m" &&
    mv "$TMP/m" "$PMUCAL_RESULTS/2026-01-09-h-calibrate/manifest.json"
touch -d @1800000000 "$PMUCAL_RESULTS"/2026-01-08-h-calibrate/penalties.json "$PMUCAL_RESULTS"/2026-01-09-h-calibrate/penalties.json
$PMUCAL emit --format c > "$TMP/out" 2> "$TMP/err"
rc=$?
[ $rc = 0 ] && grep -q '^#define PMUCAL_L2_HIT_CYCLES' "$TMP/out" && grep -q '^#define PMUCAL_HAVE_L3_HIT 0' "$TMP/out" &&
    grep -q "emit: $PMUCAL_RESULTS/2026-01-07-h-calibrate/penalties.json" "$TMP/err" &&
    grep -q "Read from $PMUCAL_RESULTS/2026-01-07-h-calibrate/penalties.json" "$TMP/out"
ok $? "emit without RUN passes over two newer partial calibrations (recipes_only; --rec in the command) and names the run it read (exit $rc): $(head -c 200 "$TMP/err")"
for partial in 2026-01-08-h-calibrate 2026-01-09-h-calibrate; do
    $PMUCAL emit --format c "$PMUCAL_RESULTS/$partial" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    [ $rc = 0 ] && grep -q '^#define PMUCAL_L3_HIT_CYCLES' "$TMP/out" && grep -q '^#define PMUCAL_HAVE_L2_HIT 0 .*not measured in this calibration' "$TMP/out"
    ok $? "a partial calibration named as RUN is taken, and what it did not measure is HAVE 0 ($partial, exit $rc)"
done
rm -rf "$PMUCAL_RESULTS"/2026-01-0[789]-h-calibrate

# A real curve-only calibration writes no tables (an empty header would look whole) and says so.
$PMUCAL calibrate --curve --quick --label curve > /dev/null 2> "$TMP/err"
rc=$?
cdir=$(ls -d "$PMUCAL_RESULTS"/*-curve | head -n 1)
[ $rc = 0 ] && [ -s "$cdir/curve.csv" ] && [ ! -e "$cdir/tables" ] && grep -q 'no penalties measured (--curve only): no tables written' "$TMP/err"
ok $? "calibrate --curve writes the curve and no tables, with a note (exit $rc): $(ls "$cdir" | tr '\n' ' ')"

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
ok $? "classify --allow-incomplete classifies what it holds (exit $rc)"
done_testing

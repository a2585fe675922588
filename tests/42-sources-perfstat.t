#!/bin/sh
# --source perfstat: the perf tool counts the same kernels, bracketed by its control pipe, and
# gives the direct source's verdicts; compare of the two shows nothing perf adds to ruled events.
. "$(dirname "$0")/lib.sh"

if ! command -v perf > /dev/null 2>&1 || ! perf --version > /dev/null 2>&1; then
    $PMUCAL validate --source perfstat --case 'walker size=16k' -e page-faults > /dev/null 2> "$TMP/np.err"
    rc=$?
    [ $rc -eq 2 ] && grep -q "linux-perf" "$TMP/np.err"; ok $? "without perf: exit $rc and $(cat "$TMP/np.err")"
    skip "perfstat runs" "perf is not installed (Debian package linux-perf)"
    done_testing
    exit $?
fi
TOUCH="walker size=4M page=4k phase=touch"
EV=page-faults,minor-faults,cpu-migrations   # not context-switches: beside other work their verdict is the load's (tests/36)
for s in perf perfstat; do
    $PMUCAL validate --source $s --case "$TOUCH" --case 'walker size=16k' --iters 1024 -e $EV --label $s \
        > "$TMP/$s.tap" 2> "$TMP/$s.err"
    eval "rc_$s=$?"
    grep '^\(not \)\{0,1\}ok' "$TMP/$s.tap" > "$TMP/$s.points"
done
[ "$rc_perfstat" -eq 0 ] && [ "$(grep -c '^ok' "$TMP/perfstat.points")" -eq 6 ]
ok $? "validate --source perfstat: 6 verdicts, all ok (exit $rc_perfstat): $(grep '^not ok' "$TMP/perfstat.tap" | head -n 2)"
cmp -s "$TMP/perf.points" "$TMP/perfstat.points"; ok $? "the very verdict lines of the direct perf source"
PS=$(ls -d "$PMUCAL_RESULTS"/*-perfstat | head -n 1)
PD=$(ls -d "$PMUCAL_RESULTS"/*-perf | head -n 1)
jq -s -e --arg t "$TOUCH" 'map(select(.case == $t)) | .[0].events[] | select(.name == "page-faults")
    | .raw == [[1024, 0], [1024, 0], [1024, 0], [1024, 0], [1024, 0]]' "$PS/measurements.ndjson" > /dev/null
ok $? "perf stat's page-faults: 1024 over 1024 fresh pages, 0 in the zero-iteration run, every repetition"
jq -e '.source == "perfstat" and (.software.perf | startswith("perf version"))' "$PS/manifest.json" > /dev/null
ok $? "the manifest names the source and perf's version"
$PMUCAL compare "$PD" "$PS" > "$TMP/cmp.tap"
rc=$?
[ $rc -eq 0 ] && grep -q '^# changed: source: perf -> perfstat' "$TMP/cmp.tap"
ok $? "compare perf vs perfstat: no change on the ruled events (exit $rc)"

# A hardware event: counted where the PMU has it, else SKIP with the reason, never a count.
hw=$($PMUCAL info --json | jq -r .pmu.hardware_usable)
$PMUCAL validate --source perfstat --case 'walker size=16k' --iters 1024 -e instructions,page-faults --label hw \
    > "$TMP/hw.tap" 2> /dev/null
if [ "$hw" = false ]; then
    grep -q '^ok [0-9]* - walker size=16k :: instructions # SKIP perf stat -e instructions:u: <not supported>' "$TMP/hw.tap"
    ok $? "instructions is a SKIP saying perf stat could not count it: $(grep instructions "$TMP/hw.tap")"
else
    grep -q '^ok [0-9]* - walker size=16k :: instructions = inst' "$TMP/hw.tap"
    ok $? "instructions gets a real verdict on this PMU host"
fi
env PATH=/nonexistent "$PWD/$PMUCAL" validate --source perfstat --case 'walker size=16k' --iters 1024 -e page-faults \
    --label noperf > /dev/null 2> "$TMP/noperf.err"
rc=$?
[ $rc -eq 2 ] && grep -q "apt-get install linux-perf" "$TMP/noperf.err" && [ "$(wc -l < "$TMP/noperf.err")" -eq 1 ] &&
    [ -z "$(ls -d "$PMUCAL_RESULTS"/*-noperf 2> /dev/null)" ]
ok $? "perf missing from PATH: one message, exit $rc, no run folder: $(cat "$TMP/noperf.err")"
done_testing

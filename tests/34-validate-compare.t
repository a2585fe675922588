#!/bin/sh
# pmucal compare: two runs of the same build compare clean; a 5% count change, a verdict change,
# an encoding change and support lost are each flagged on their (case, event) only; an
# incomplete run is refused unless --allow-incomplete; --json carries the same.
. "$(dirname "$0")/lib.sh"

TOUCH="walker size=4M page=4k phase=touch"
EV=page-faults,minor-faults,cpu-migrations   # not context-switches: beside other work their verdict is the load's (tests/36)
run() { # run LABEL [SOURCE]
    $PMUCAL validate --source "${2:-perf}" --case "$TOUCH" --case 'walker size=16k' --iters 1024 -e $EV \
        --label "$1" > /dev/null 2>&1
    ls -d "$PMUCAL_RESULTS"/*-"$1" | head -n 1
}
A=$(run a)
B=$(run b)
$PMUCAL compare "$A" "$B" > "$TMP/ab.tap" 2> "$TMP/ab.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c '^ok' "$TMP/ab.tap")" -eq 6 ] && ! grep -q '^not ok' "$TMP/ab.tap"
ok $? "two runs of the same build compare clean: exit $rc, 6 points ok"
grep -q '^# same host, versions, source and settings' "$TMP/ab.tap"; ok $? "and the header says nothing differs"
grep -q '^#   page-faults  *same in all 2 cases' "$TMP/ab.tap"; ok $? "the per-event summary lists each event"

# A 5% over-count on the one stable non-zero event: the count test flags it (the copy keeps its
# verdicts, so only the count can tell).
C="$TMP/c"
mkdir -p "$C"
cp "$A/manifest.json" "$C/"
jq -c '(.events[] | select(.name == "page-faults" and .stats.median > 0) | .per_iter) |= map(. * 1.05)' \
    "$A/measurements.ndjson" > "$C/measurements.ndjson"
$PMUCAL compare --json "$A" "$C" > "$TMP/ac.json"
rc=$?
flagged=$(jq -r '[.points[] | select(.regression) | "\(.case) :: \(.event) \(.flags | join(","))"] | join("; ")' "$TMP/ac.json")
[ $rc -eq 1 ] && [ "$flagged" = "$TOUCH :: page-faults count" ]
ok $? "a 5% change of page-faults is caught on that point alone (exit $rc): $flagged"
jq -e '.summary.points == 6 and .summary.regressions == 1 and (.events[] | select(.event == "page-faults")
    | .regressions == 1 and .cases == 2) and (.points[0] | has("p") and has("threshold") and .base.n == 5)' \
    "$TMP/ac.json" > /dev/null
ok $? "--json: summary, per-event entry and the test's numbers"
# 1% stays below the 2% threshold.
jq -c '(.events[] | select(.name == "page-faults" and .stats.median > 0) | .per_iter) |= map(. * 1.01)' \
    "$A/measurements.ndjson" > "$C/measurements.ndjson"
$PMUCAL compare "$A" "$C" > /dev/null
rc=$?
[ $rc -eq 0 ]; ok $? "a 1% change is below the default 2% threshold (exit $rc)"
$PMUCAL compare --threshold 0.5 "$A" "$C" > /dev/null
rc=$?
[ $rc -eq 1 ]; ok $? "and caught with --threshold 0.5 (exit $rc)"

# A fixed excess per measurement that the per-iteration counts hide: the intercept moved.
jq -c '(.events[] | select(.name == "minor-faults") | .raw) |= map([.[0] + 500, .[1] + 500])' \
    "$A/measurements.ndjson" > "$C/measurements.ndjson"
$PMUCAL compare --json "$A" "$C" > "$TMP/icpt.json"
rc=$?
is "$(jq -r '[.points[] | select(.regression) | "\(.event):\(.flags | join(","))"] | unique | join(" ")' "$TMP/icpt.json")" \
    "minor-faults:intercept" "500 more counts per measurement are flagged as an intercept change (exit $rc)"

# An event under an "info" rule (time, cycles) may move: the change is said, never a regression.
jq -c '(.events[] | select(.name == "page-faults" and .stats.median > 0)) |= (.per_iter |= map(. * 1.5) | .verdict.tolerance = "info")' \
    "$A/measurements.ndjson" > "$C/measurements.ndjson"
$PMUCAL compare --json "$A" "$C" > "$TMP/info.json"
rc=$?
[ $rc -eq 0 ] && jq -e '.summary.regressions == 0 and ([.points[] | select(.flags == ["info"])] | length == 1)' \
    "$TMP/info.json" > /dev/null
ok $? "a 50% change under an info rule is flagged info, not a regression (exit $rc)"

# A real perturbed run: verdict and count flagged together, other events untouched.
D=$(run d 'perturb:perf/scale=minor-faults*0.95')
$PMUCAL compare "$A" "$D" > "$TMP/ad.tap"
rc=$?
bad=$(sed -n 's/^not ok [0-9]* - \(.*\) :: \([^ ]*\) .*/\1 :: \2/p' "$TMP/ad.tap" | paste -s -d ';' -)
[ $rc -eq 1 ] && [ "$bad" = "$TOUCH :: minor-faults" ] && grep -q '^not ok .*verdict ok -> not ok.*count -' "$TMP/ad.tap"
ok $? "a 5% under-count from the perturbed source: verdict and count flagged on its point only ($bad)"
grep -q '^# changed: source: perf -> perturb:perf/' "$TMP/ad.tap"; ok $? "the header names the changed source"

# Encoding change (a libpfm4 upgrade that re-encodes a name) and an event that became unsupported.
jq -c '(.events[] | select(.name == "minor-faults") | .attr.config) |= 99
       | (.events[] | select(.name == "cpu-migrations") | .unsupported) |= "no such event here"' \
    "$A/measurements.ndjson" > "$C/measurements.ndjson"
$PMUCAL compare --json "$A" "$C" > "$TMP/enc.json"
rc=$?
is "$(jq -r '[.points[] | select(.regression) | "\(.event):\(.flags | join(","))"] | unique | join(" ")' "$TMP/enc.json")" \
    "cpu-migrations:support minor-faults:encoding" "encoding and support changes are flagged (exit $rc)"

# Host facts and versions in the header.
jq '.software.linux_kernel = "9.9.9-test" | .software.libpfm4 = "4.99.0"' "$A/manifest.json" > "$C/manifest.json"
cp "$A/measurements.ndjson" "$C/"
$PMUCAL compare "$A" "$C" > "$TMP/facts.tap"
rc=$?
[ $rc -eq 0 ] && grep -q "^# changed: software.linux_kernel: .* -> 9.9.9-test" "$TMP/facts.tap" &&
    grep -q "^# changed: software.libpfm4: .* -> 4.99.0" "$TMP/facts.tap"
ok $? "changed versions are in the header, not regressions by themselves (exit $rc)"
# An older pmucal named the Linux kernel's release software.kernel: read as today's key, the same
# release is no change, and another one is said under today's name.
old="$TMP/old-kernel-key" && mkdir -p "$old" && cp "$A/measurements.ndjson" "$old/"
jq '.software.kernel = .software.linux_kernel | del(.software.linux_kernel)' "$A/manifest.json" > "$old/manifest.json"
$PMUCAL compare "$old" "$A" > "$TMP/oldkey.tap"
rc=$?
$PMUCAL compare "$old" "$C" > "$TMP/oldkey2.tap"
[ $rc -eq 0 ] && jq -e '.software.kernel and (.software.linux_kernel | not)' "$old/manifest.json" > /dev/null &&
    ! grep -q 'software\.' "$TMP/oldkey.tap" && grep -q "^# changed: software.linux_kernel: .* -> 9.9.9-test" "$TMP/oldkey2.tap"
ok $? "an older run's software.kernel is read as software.linux_kernel (exit $rc): $(grep -m1 'software' "$TMP/oldkey2.tap")"
# ... and its "kernel" object (kernel-check's description of the Linux kernel's PMU) as linux_kernel.
pmu='{"pmu": {"name": "armv8_pmuv3_0", "counters": 7}}'
jq --argjson k "$pmu" '.kernel = $k | del(.linux_kernel)' "$A/manifest.json" > "$old/manifest.json"
new="$TMP/new-kernel-key" && mkdir -p "$new" && cp "$A/measurements.ndjson" "$new/"
jq --argjson k "$pmu" '.linux_kernel = ($k | .pmu.counters = 6)' "$A/manifest.json" > "$new/manifest.json"
$PMUCAL compare "$old" "$new" > "$TMP/oldkobj.tap"
rc=$?
[ $rc -eq 1 ] && grep -q '^not ok [0-9]* - Linux kernel PMU :: counters counters changed: 7 -> 6' "$TMP/oldkobj.tap"
ok $? "an older run's kernel object is read as linux_kernel: fewer counters is a regression (exit $rc): $(grep -m1 'Linux kernel PMU' "$TMP/oldkobj.tap")"

# ... and its "expectations" (the rule file loaded by itself, string or null) as rule_file.
other="$TMP/other-rule" && mkdir -p "$other" && cp "$A/measurements.ndjson" "$other/"
for v in '"/x/expect/sim.txt"' null; do
    jq --argjson v "$v" '.expectations = $v | del(.rule_file)' "$A/manifest.json" > "$old/manifest.json"
    jq --argjson v "$v" '.rule_file = $v | del(.expectations)' "$A/manifest.json" > "$new/manifest.json"
    jq --argjson v "$v" '.rule_file = "/y/other.txt" | del(.expectations)' "$A/manifest.json" > "$other/manifest.json"
    $PMUCAL compare "$old" "$new" > "$TMP/oldrule.tap"
    rc=$?
    $PMUCAL compare "$old" "$other" > "$TMP/oldrule2.tap"
    [ $rc -eq 0 ] && ! grep -q -E 'rule_file|expectations' "$TMP/oldrule.tap" &&
        grep -q "^# changed: rule_file: .* -> /y/other.txt" "$TMP/oldrule2.tap"
    ok $? "an older run's expectations=$v is read as rule_file (exit $rc): $(grep -m1 'rule_file' "$TMP/oldrule2.tap")"
done

# Incomplete runs: refused, or compared with --allow-incomplete and marked.
jq '.status = "interrupted" | .status_reason = "stopped by SIGTERM after 1 of 2 cases"' "$A/manifest.json" > "$C/manifest.json"
head -n 1 "$A/measurements.ndjson" > "$C/measurements.ndjson"
$PMUCAL compare "$A" "$C" > "$TMP/inc.tap" 2> "$TMP/inc.err"
rc=$?
[ $rc -eq 2 ] && grep -q "interrupted: stopped by SIGTERM.*--allow-incomplete" "$TMP/inc.err" && [ ! -s "$TMP/inc.tap" ]
ok $? "an interrupted NEW is refused (exit $rc): $(cat "$TMP/inc.err")"
$PMUCAL compare --allow-incomplete "$A" "$C" > "$TMP/inc.tap" 2> /dev/null
rc=$?
[ $rc -eq 0 ] && grep -q '^# WARNING: NEW is incomplete' "$TMP/inc.tap" &&
    [ "$(grep -c '# SKIP measured in BASE only' "$TMP/inc.tap")" -eq 3 ]
ok $? "--allow-incomplete compares what it holds, marks it, and SKIPs the rest (exit $rc)"
$PMUCAL compare "$A" > /dev/null 2> "$TMP/one.err"
rc=$?
[ $rc -eq 2 ]; ok $? "one run is a usage error (exit $rc): $(cat "$TMP/one.err")"
$PMUCAL compare "$A" "$TMP/nothing" > /dev/null 2> "$TMP/none.err"
rc=$?
[ $rc -eq 2 ] && grep -q "$TMP/nothing/manifest.json" "$TMP/none.err"; ok $? "a missing run is named (exit $rc)"
done_testing

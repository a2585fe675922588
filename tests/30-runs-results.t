#!/bin/sh
# The run folder of a validate run: manifest, measurements and verdicts that parse and agree;
# an interrupted run keeps every measurement it finished.
. "$(dirname "$0")/lib.sh"

$PMUCAL validate --kernel walker -e page-faults,cpu-migrations,instructions --label t1 > "$TMP/v.out" 2> "$TMP/v.err"
rc=$?
[ $rc -eq 0 ]; ok $? "validate over the walker matrix exits 0 (got $rc)"
dir=$(ls -d "$PMUCAL_RESULTS"/*-t1 | head -n 1)
[ -n "$dir" ] && [ -f "$dir/manifest.json" ] && [ -f "$dir/measurements.ndjson" ] && [ -f "$dir/validate.tap" ]
ok $? "run folder $dir has manifest.json, measurements.ndjson, validate.tap"
jq -e '.cpu.vendor and .pmu and .topology.caches and .clocks.core_cycles_per_tsc > 0 and .software.linux_kernel and (.command | length > 1)' "$dir/manifest.json" > /dev/null
ok $? "manifest.json parses and records cpu, pmu, topology, clocks, versions, command"
# jq keeps the last of two equal keys, so count them in the text: compare and replay read "pmu" as
# the host's PMU facts, and a second "pmu" (the --pmu option) hid them.
dups=$(python3 -c 'import json, sys
def pairs(p):
    ks = [k for k, _ in p]
    for k in set(ks):
        if ks.count(k) > 1: print(k)
    return dict(p)
json.load(open(sys.argv[1]), object_pairs_hook=pairs)' "$dir/manifest.json" | tr '\n' ' ')
[ -z "$dups" ] && jq -e '(.pmu | type) == "object" and has("pmu_option")' "$dir/manifest.json" > /dev/null
ok $? "no object of the manifest has a key twice ($dups); --pmu is pmu_option"
lines=$(wc -l < "$dir/measurements.ndjson")
parsed=$(jq -c . "$dir/measurements.ndjson" | wc -l)
cases=$($PMUCAL kernels walker | grep -c '^    walker ')
# A case the host cannot hold (size=L3 without an L3) is a SKIP naming the case, not a record.
absent=$(grep -E ':: page-faults # SKIP size=' "$dir/validate.tap" | wc -l)
[ "$lines" -eq $((cases - absent)) ] && [ "$parsed" -eq "$lines" ] && [ "$lines" -gt 0 ]
ok $? "one parsable measurement line per case the host holds ($lines lines, $parsed parsed, $cases cases, $absent skipped)"
# Where hardware events cannot be counted, one probe decides and they are one SKIP block
# (issue 16); the records then carry the software events only.
hw=$($PMUCAL info --json | jq -r .pmu.hardware_usable)
if [ "$hw" = "false" ]; then want='["cpu-migrations", "page-faults"]'; else want='["cpu-migrations", "instructions", "page-faults"]'; fi
jq -s -e --argjson w "$want" 'all(.[]; .events | map(.name) | sort == $w)' "$dir/measurements.ndjson" > /dev/null
ok $? "every record carries the requested events that can be counted here ($want)"
jq -s -e 'all(.[]; .events[] | select(.name == "page-faults") | .attr.type == 1 and .attr.config == 2)' "$dir/measurements.ndjson" > /dev/null
ok $? "every record keeps the perf_event_attr values it used (software, PAGE_FAULTS)"
diff "$dir/validate.tap" "$TMP/v.out" > /dev/null
ok $? "validate.tap is exactly the TAP printed on stdout"
if [ "$hw" = "false" ]; then
    [ "$(grep -c '^not ok' "$dir/validate.tap")" -eq 0 ] && [ "$(grep -c '^ok' "$dir/validate.tap")" -eq $((cases * 2 + 1)) ] &&
        grep -q "^ok [0-9]* - 1 hardware events x $cases cases # SKIP ." "$dir/validate.tap"
    ok $? "one verdict per (case, software event) and one SKIP block for instructions, none 'not ok'"
else
    [ "$(grep -c '^not ok' "$dir/validate.tap")" -eq 0 ] && [ "$(grep -c '^ok' "$dir/validate.tap")" -eq $((cases * 3)) ]
    ok $? "one verdict per (case, event), none 'not ok'"
fi

# The model's numbers are in the record, and the cycles per load come from the TSC.
jq -s -e 'map(select(.case == "walker")) | length == 1 and (.[0] | .model.inst == 18 and .model."ld.all" == 16
    and .cycles.source == "tsc" and .cycles.stats.median > 0)' "$dir/measurements.ndjson" > /dev/null
ok $? "the walker record holds its model (inst 18, ld.all 16) and TSC cycles"

# Ctrl-C: the run stops between repetitions, keeps every finished line, exits 130.
$PMUCAL validate --kernel walker -e page-faults -r 50 --label t2 > "$TMP/i.out" 2> "$TMP/i.err" &
stop_after_records t2 2 INT $!
dir2=$stopped_dir rc=$stopped_rc
kept=$(wc -l < "$dir2/measurements.ndjson")
[ $rc -eq 130 ]; ok $? "an interrupted validate exits 130 (got $rc)"
[ "$kept" -ge 2 ] && [ "$(jq -c . "$dir2/measurements.ndjson" | wc -l)" -eq "$kept" ]
ok $? "it kept $kept finished measurements, every line whole"
grep -q "interrupted: $kept finished measurements are kept" "$TMP/i.err"
ok $? "and said how many and where: $(grep interrupted "$TMP/i.err")"
done_testing

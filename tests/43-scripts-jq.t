#!/bin/sh
# The jq scripts over run folders: events that changed between two runs, a CSV of per-event
# medians, runs of one host merged (and runs of two hosts refused).
. "$(dirname "$0")/lib.sh"

TOUCH="walker size=4M page=4k phase=touch"
EV=page-faults,minor-faults,cpu-migrations
for l in a b; do
    $PMUCAL validate --case "$TOUCH" --case 'walker size=16k' --iters 1024 -e $EV --label $l > /dev/null 2>&1
done
A=$(ls -d "$PMUCAL_RESULTS"/*-a | head -n 1)
B=$(ls -d "$PMUCAL_RESULTS"/*-b | head -n 1)
out=$(jq -n -r --slurpfile base "$A/measurements.ndjson" --slurpfile new "$B/measurements.ndjson" -f scripts/changed.jq)
rc=$?
[ $rc -eq 0 ] && [ -z "$out" ]; ok $? "changed.jq: two runs of one build, nothing changed (exit $rc)${out:+: $out}"

# B' = B with page-faults 5% higher where it counts, its verdict not ok, and minor-faults re-encoded.
C="$TMP/c"
mkdir -p "$C"
cp "$B/manifest.json" "$C/"
jq -c '(.events[] | select(.name == "page-faults" and .stats.median > 0)) |= (.stats.median *= 1.05 | .verdict.kind = "not ok")
       | (.events[] | select(.name == "minor-faults") | .attr.config) |= 99' "$B/measurements.ndjson" > "$C/measurements.ndjson"
jq -n -r --slurpfile base "$A/measurements.ndjson" --slurpfile new "$C/measurements.ndjson" -f scripts/changed.jq > "$TMP/ch.tsv"
printf '%s\tpage-faults\tcount,verdict\t1\t1.05\t0.05\n' "$TOUCH" > "$TMP/want.tsv"
printf '%s\tminor-faults\tencoding\t1\t1\t0\n' "$TOUCH" >> "$TMP/want.tsv"
printf 'walker size=16k\tminor-faults\tencoding\t0\t0\tnull\n' >> "$TMP/want.tsv"
sort "$TMP/ch.tsv" > "$TMP/ch.sorted"
sort "$TMP/want.tsv" > "$TMP/want.sorted"
cmp -s "$TMP/ch.sorted" "$TMP/want.sorted"; ok $? "changed.jq lists exactly the changed count, verdict and encodings: $(tr '\t\n' ' |' < "$TMP/ch.sorted")"
n=$(jq -n -r --slurpfile base "$A/measurements.ndjson" --slurpfile new "$C/measurements.ndjson" --argjson threshold 0.10 \
    -f scripts/changed.jq | grep -c 'page-faults.*count')
[ "$n" -eq 0 ]; ok $? "with --argjson threshold 0.10 the 5% count change is not listed"

# Medians as CSV: a header and one row per (case, event), as many as the records hold.
jq -r -s -f scripts/medians-csv.jq "$A/measurements.ndjson" > "$TMP/m.csv"
rc=$?
head -n 1 "$TMP/m.csv" | grep -q '^"case","kernel","event","median"'; ok $? "medians-csv.jq: header $(head -n 1 "$TMP/m.csv")"
[ $rc -eq 0 ] && [ "$(($(wc -l < "$TMP/m.csv") - 1))" -eq "$(jq -s '[.[].events[]] | length' "$A/measurements.ndjson")" ]
ok $? "one row per (case, event): $(($(wc -l < "$TMP/m.csv") - 1)) rows"
grep -q "^\"$TOUCH\",\"walker\",\"page-faults\",1,1,1,0,1024,5,\"ok\",\"\"\$" "$TMP/m.csv"
ok $? "the touch case's page-faults row: $(grep "page-faults" "$TMP/m.csv" | head -n 1)"

# Merge: for each (case, event) the newest run; runs of two hosts are refused.
jq -n -c -f scripts/merge-host.jq "$A/manifest.json" "$A/measurements.ndjson" "$C/manifest.json" \
    "$C/measurements.ndjson" > "$TMP/merged.ndjson"
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l < "$TMP/merged.ndjson")" -eq 6 ] &&
    jq -s -e --arg c "$C" 'all(.[]; .run == $c) and (map(select(.event == "page-faults" and .median > 1)) | length == 1)' \
        "$TMP/merged.ndjson" > /dev/null
ok $? "merge-host.jq: 6 (case, event) lines, each from the newer run (exit $rc)"
jq '.hostname = "elsewhere"' "$B/manifest.json" > "$C/manifest.json"
jq -n -c -f scripts/merge-host.jq "$A/manifest.json" "$A/measurements.ndjson" "$C/manifest.json" \
    "$C/measurements.ndjson" > /dev/null 2> "$TMP/merge.err"
rc=$?
[ $rc -ne 0 ] && grep -q "runs of different hosts" "$TMP/merge.err"; ok $? "runs of two hosts are refused (exit $rc): $(cat "$TMP/merge.err")"
done_testing

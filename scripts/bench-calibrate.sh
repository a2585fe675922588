#!/bin/sh
# make bench-calibrate: does 'pmucal calibrate' give this host's penalties the same from run to
# run? RUNS whole calibrations in a row (default 5), pinned to one CPU; for each penalty its figure
# in every run (cycles; ns for the memory domain) or its status where it was not ok, the median of
# the ok figures and each run's distance from it against the recipe's allowed spread
# (spread_allowed in penalties.json: 2% core, 3% the memory hierarchy), and the closure per run.
# The verdict (issue 47): exit 0 when every penalty that is not a SKIP was ok in every run, within
# its allowed distance of the median, and the closure was ok in every run (or ran in none: it needs
# an ok l3_hit from its run, which was not asked or not ok, a row of its own); else 1, naming what
# was not, with each such row's reasons run by run under the table.
# Usage: scripts/bench-calibrate.sh [RUNS [CALIBRATE-OPTION...]]   (RUNS 1 to 100; the options go to
#        every calibration as they are, e.g. --recipe l3_hit --recipe dram --no-curve)
#   PMUCAL  the binary (default bin/pmucal)
#   CPU     the CPU to measure on (default: the last of the affinity mask)
#   OUT     a folder to keep the runs in (default: a temporary one, removed)
set -eu
ME=bench-calibrate
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
pmucal=${PMUCAL:-bin/pmucal}
runs=${1:-5}
need_count RUNS "$runs" 1 100 "a number of runs"
[ $# -gt 0 ] && shift
cpus=$(taskset -pc $$ | sed 's/.*: //')
cpu=${CPU:-$(echo "$cpus" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | tail -n 1)}
need_count CPU "$cpu" 0 65535 "a CPU number"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=${OUT:-$tmp/runs}
mkdir -p "$out"

echo "# $(grep -m 1 'model name' /proc/cpuinfo | sed 's/.*: //'); load average $(cut -d' ' -f1-3 /proc/loadavg); CPU $cpu; $runs calibrations"
: > "$tmp/all.ndjson"
for r in $(seq 1 "$runs"); do
    t0=$(date +%s)
    rc=0
    "$pmucal" calibrate --cpu "$cpu" --out "$out" --label "bench$r" "$@" > "$tmp/run$r.tap" 2> "$tmp/run$r.err" || rc=$?
    dir=$(sed -n '1,5s/^# pmucal calibrate:.*results in //p' "$tmp/run$r.tap" | head -n 1)
    [ -n "$dir" ] && [ -f "$dir/penalties.json" ] ||
        { echo "$ME: run $r wrote no penalties.json (exit $rc): $(tail -n 1 "$tmp/run$r.err")" >&2; exit 1; }
    jq -c --argjson r "$r" '{run: $r, closure: (if .closure then (if .closure.ok then "ok" elif .closure.undecided
        then "undecided" else "not ok" end) + " \(.closure.error * 1000 | round / 10)%" else "not run" end),
        p: [.penalties[] | {name, status, domain, allowed: .spread_allowed, reason: (.reason // ""),
            v: (if .domain == "memory" then .ns else .cycles end)}]}' "$dir/penalties.json" >> "$tmp/all.ndjson"
    echo "# run $r: exit $rc, $(( $(date +%s) - t0 )) s, closure $(jq -r 'select(.run == '"$r"') | .closure' "$tmp/all.ndjson")"
    # What failed, said where it is seen: the run folders are temporary unless OUT names a folder.
    jq -r --argjson r "$r" '(.penalties[] | select(.status == "not_ok") | "# run \($r): \(.name) not ok: \(.reason)"),
        (.closure // empty | select(.ok == false and .undecided == false) |
         "# run \($r): closure not ok: predicted \(.predicted_cycles * 10 | round / 10), measured \(.measured_cycles * 10 | round / 10) cycles an iteration (\(.ld_l1 * 100 | round / 100) L1, \(.ld_l2 * 100 | round / 100) L2, \(.ld_l3 * 100 | round / 100) L3 loads)")' \
        "$dir/penalties.json"
done

# One row a penalty (T:): each run's figure (or its status), the median of the ok ones, the largest
# distance from it, the allowed one, and the row's verdict. Under a NOT OK row's (W:), why, run by
# run: a status and its reason, or an ok figure too far from the median, so that what the table
# withholds is read without opening the run folders.
jq -s -r '
  def median: sort | if length == 0 then null elif length % 2 == 1 then .[length / 2 | floor]
    else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  . as $all
  | (.[0].p | map(.name)) as $names
  | ("T:" + (["penalty", (range(1; length + 1) | "run \(.)"), "median", "max dist", "allowed", "verdict"] | @tsv)),
  ( $names[] as $n
    | [$all[] | {run, r: (.p[] | select(.name == $n))}] as $runs
    | [$runs[].r] as $rows
    | [$rows[] | select(.status == "ok") | .v] as $ok
    | ($ok | median) as $med
    | ($rows[0].allowed) as $allowed
    | (if $med == null then null else [$ok[] | (. - $med) / $med | fabs] | max end) as $dist
    | ([$rows[] | select(.status == "skip")] | length == ($rows | length)) as $skipped
    | (if $skipped then "skip" elif ($ok | length) == ($rows | length) and $dist <= $allowed then "ok"
       else "NOT OK" end) as $verdict
    | ("T:" + ([$n, ($rows[] | if .status == "ok" then (.v * 100 | round / 100 | tostring) else .status end),
        (if $med == null then "-" else ($med * 100 | round / 100 | tostring) end),
        (if $dist == null then "-" else "\($dist * 1000 | round / 10)%" end),
        "\($allowed * 100)%", $verdict] | @tsv)),
      (select($verdict == "NOT OK") | $runs[]
       | if .r.status == "ok" then
           ((.r.v - $med) / $med | fabs) as $d
           | select($d > $allowed)
           | "W:# \($n) run \(.run): \(.r.v * 100 | round / 100), \($d * 1000 | round / 10)% from the median \($med * 100 | round / 100) (\($allowed * 100)% allowed)"
         else "W:# \($n) run \(.run): \(.r.status): \(.r.reason | if length > 300 then .[0:300] + " ..." else . end)" end) ),
  ("T:" + (["closure", (.[] | .closure), "", "", "", (if all(.[]; .closure | startswith("ok")) then "ok"
    elif all(.[]; .closure == "not run") then "skip" else "NOT OK" end)] | @tsv))
' "$tmp/all.ndjson" > "$tmp/rows"
sed -n 's/^T://p' "$tmp/rows" | column -t -s "$(printf '\t')" > "$tmp/table"
cat "$tmp/table"
sed -n 's/^W://p' "$tmp/rows"
bad=$(grep -c 'NOT OK$' "$tmp/table" || true)
[ "$bad" = 0 ] || { echo "$ME: $bad rows not ok: $(grep 'NOT OK$' "$tmp/table" | awk '{ print $1 }' | paste -sd, -)" >&2; exit 1; }

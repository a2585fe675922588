#!/bin/sh
# False alarms of 'pmucal compare': PAIRS pairs (default 10) of identical validate runs with the
# perf source and software events, each pair compared; prints every pair's result and the rate of
# flagged (case, event) points and of pairs with any flag. Identical runs should compare clean, so
# every flag is a false alarm.
# ITERS unset: iterations calibrated to --target-ms as validate does by default.
#   scripts/bench-compare.sh            PAIRS=20 ITERS=4096 EVENTS=page-faults,task-clock scripts/bench-compare.sh
set -u
cd "$(dirname "$0")/.." || exit 1
PMUCAL=${PMUCAL:-bin/pmucal}
PAIRS=${PAIRS:-10}
ITERS=${ITERS:-}
EVENTS=${EVENTS:-page-faults,minor-faults,major-faults,context-switches,cpu-migrations}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PMUCAL_RESULTS="$TMP/results"
set -- --case 'walker size=16k' --case 'walker size=256k' --case 'walker size=4M page=4k phase=touch' \
    --case 'walker size=16M page_stride=4096 page=4k' --case 'branch pattern=random' \
    --case 'branch kind=indirect pattern=random targets=4' --case 'callchain depth=64' --case 'bbexec copy=4 sqrts=1' \
    --case 'triad size=16k' --case 'stlf' --case 'linesplit offset=60' --case 'alias4k store=alias' \
    --case 'divsqrt op=div width=64'
points=0 flagged=0 bad_pairs=0
for i in $(seq 1 "$PAIRS"); do
    for side in a b; do
        nice "$PMUCAL" validate "$@" ${ITERS:+--iters "$ITERS"} -e "$EVENTS" --label "p$i$side" > /dev/null 2> "$TMP/err" ||
            { [ $? -eq 1 ] || { cat "$TMP/err" >&2; exit 2; }; }
    done
    "$PMUCAL" compare --json "$PMUCAL_RESULTS"/*-p"$i"a "$PMUCAL_RESULTS"/*-p"$i"b > "$TMP/c.json"
    n=$(jq '[.points[] | select(.result != "only_base" and .result != "only_new")] | length' "$TMP/c.json")
    f=$(jq '.summary.regressions' "$TMP/c.json")
    echo "pair $i: $n points compared, $f flagged$( [ "$f" -gt 0 ] && jq -r '[.points[] | select(.regression) | ": \(.case) :: \(.event) (\(.why))"] | join("")' "$TMP/c.json")"
    points=$((points + n))
    flagged=$((flagged + f))
    [ "$f" -gt 0 ] && bad_pairs=$((bad_pairs + 1))
    rm -rf "$PMUCAL_RESULTS"
done
awk -v p="$points" -v f="$flagged" -v n="$PAIRS" -v b="$bad_pairs" 'BEGIN {
    printf "false alarms: %d of %d points (%.2f%%); pairs with any: %d of %d\n", f, p, p ? 100 * f / p : 0, b, n }'

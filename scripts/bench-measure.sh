#!/bin/sh
# Benchmark of the measurement core's own cost, run several times, median and spread:
#  1. one group measurement outside the region (open, start+stop+read, close): pmucal bench;
#     beside it the alternative of one 'perf stat' process per measurement;
#  2. the share of a validate run's wall time spent inside measured regions, on the default case
#     matrix (issue 25 asks for at least 80%), VALIDATE_RUNS times (default 3); with
#     BASE=OTHER-BINARY the same for another build beside it (before/after a change).
# Usage: scripts/bench-measure.sh [RUNS]   (default 5; 1 to 1000, as VALIDATE_RUNS)
set -eu
ME=bench-measure
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
runs=${1:-5}
need_count RUNS "$runs" 1 1000 "a number of runs"
need_count VALIDATE_RUNS "${VALIDATE_RUNS:-3}" 1 1000 "a number of runs"
pmucal=${PMUCAL:-bin/pmucal}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
med() { sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "median %.2f  min %.2f  max %.2f  (n=%d)", m, v[1], v[NR], NR }'; }

for i in $(seq "$runs"); do "$pmucal" bench --rounds 201 > "$tmp/b$i"; done
for what in "open group" "start+stop+read" "close group"; do
    printf '%-18s us: %s\n' "$what" "$(cat "$tmp"/b* | grep "^$what" | sed 's/.*median *\([0-9.]*\).*/\1/' | med)"
done
if command -v perf > /dev/null; then
    for i in $(seq "$runs"); do
        t0=$(date +%s%N)
        for j in $(seq 20); do perf stat -x, -e page-faults,minor-faults,task-clock,cpu-clock true 2> /dev/null; done
        t1=$(date +%s%N)
        echo "$(( (t1 - t0) / 20000 ))"
    done > "$tmp/perfstat"
    printf '%-18s us: %s\n' "perf stat process" "$(med < "$tmp/perfstat")"
fi
for bin in "$pmucal" ${BASE:-}; do
    for i in $(seq "${VALIDATE_RUNS:-3}"); do
        PMUCAL_RESULTS="$tmp/results" "$bin" validate 2> /dev/null \
            | sed -n 's/^# time: \([0-9.]*\) s wall for the cases, \([0-9.]*\) s inside measured regions (\([0-9.]*\)%)/\1 \2 \3/p'
    done > "$tmp/share"
    echo "validate, default matrix, $bin (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
    printf '  %-18s  s: %s\n' "wall for the cases" "$(awk '{ print $1 }' "$tmp/share" | med)"
    printf '  %-18s  s: %s\n' "inside regions" "$(awk '{ print $2 }' "$tmp/share" | med)"
    printf '  %-18s  %%: %s\n' "share in regions" "$(awk '{ print $3 }' "$tmp/share" | med)"
done

#!/bin/sh
# Side by side: pmucal's triad (a = b + s*c, AVX2, ordinary stores) against likwid-bench's
# stream_avx (the same three-array triad) at the same working sets, RUNS times each; GB/s of
# loads + stores (24 bytes an element in both tools), median and range.
# Usage: scripts/compare-likwid.sh [RUNS]   (default 5, 1 to 1000; needs likwid: apt-get install likwid)
set -eu
ME=compare-likwid
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
runs=${1:-5}
need_count RUNS "$runs" 1 1000 "a number of runs"
pmucal=${PMUCAL:-bin/pmucal}
command -v likwid-bench > /dev/null || { echo "likwid-bench is missing: sudo apt-get install likwid" >&2; exit 1; }
med() { sort -n | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%8.1f [%6.1f..%6.1f]", m, v[1], v[NR] }'; }
printf '%-6s %-10s %-28s %-28s\n' level bytes "pmucal triad GB/s" "likwid stream_avx GB/s"
for level in L1 L2 L3 DRAM; do
    bytes=$("$pmucal" run triad size=$level -e page-faults --json | jq '.model."bytes.read" / 16 * 24 | floor')
    kb=$((bytes / 1024))
    p=$(for i in $(seq "$runs"); do
        "$pmucal" run triad size=$level -e page-faults | sed -n 's/.*cycle, \([0-9.]*\) GB\/s.*/\1/p'; done | med)
    l=$(for i in $(seq "$runs"); do
        likwid-bench -t stream_avx -w "S0:${kb}kB:1" 2> /dev/null | awk '/^MByte\/s:/ { print $2 / 1000 }'; done | med)
    printf '%-6s %-10s %-28s %-28s\n' "$level" "${kb}kB" "$p" "$l"
done

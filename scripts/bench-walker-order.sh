#!/bin/sh
# make bench-walker: does the walker's order defeat this host's prefetchers? For each size (default
# the L3 and DRAM the walker picks here), each page size and each order (block, the default, and
# random), RUNS runs of 'pmucal run walker' (default 3): ns a load, median and spread (min-max),
# beside the latency curve's figure at that size ('pmucal info': a random walk of the same size),
# and whether the walker's own prefetcher check withheld the case. A block order well below the
# random walk is the prefetchers' work, not the level's latency (issue 41).
# Usage: scripts/bench-walker-order.sh [SIZE...]   (sizes as the walker takes them: 8M, L3, DRAM)
#   RUNS     runs of each (default 3)
#   PMUCAL   the binary (default bin/pmucal)
#   CPU      the CPU to walk on (default: the last of the affinity mask)
set -eu
ME=bench-walker-order
. "$(dirname "$0")/script-args.sh"
cd "$(dirname "$0")/.."
pmucal=${PMUCAL:-bin/pmucal}
runs=${RUNS:-3}
need_count RUNS "$runs" 1 1000 "a number of runs"
cpus=$(taskset -pc $$ | sed 's/.*: //')
cpu=${CPU:-$(echo "$cpus" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | tail -n 1)}
need_count CPU "$cpu" 0 65535 "a CPU number"
[ $# -gt 0 ] || set -- L3 DRAM
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The curve measured now, beside the walks, not read from an older cache; the walks size their
# levels by it.
export PMUCAL_CACHE_DIR="$tmp/cache"
"$pmucal" info --measure --json > "$tmp/info.json" 2> "$tmp/info.err" ||
    { cat "$tmp/info.err" >&2; exit 1; }
curve_file=$(ls "$tmp"/cache/geometry-*.json 2> /dev/null | head -n 1)
echo "# $(jq -r '"\(.cpu.brand) (\(.cpu.id))"' "$tmp/info.json"); load average $(cut -d' ' -f1-3 /proc/loadavg); CPU $cpu; $runs runs each"
echo "# curve: $(jq -r '.topology.geometry.curve // "none"' "$tmp/info.json"); levels $(jq -r '[.topology.geometry.levels[] | "\(.level) \(.bytes / 1048576 * 100 | round / 100)M"] | join(", ")' "$tmp/info.json"); size=L3 is $(jq -r '[.topology.caches[] | select(.name == "L3") | .case_bytes / 1048576][0] // "-"' "$tmp/info.json")M, size=DRAM $(jq -r '.topology.dram_case_bytes / 1048576' "$tmp/info.json")M"
# curve_ns BYTES: the curve's ns a load at BYTES (log-linear between its points; beyond its end, the
# median of its last three points: memory's plateau), or '-'
curve_ns() {
    [ -f "$curve_file" ] || { echo -; return; }
    jq -r --argjson b "$1" '[.points[] | select(.[0] <= $b)] as $lo | [.points[] | select(.[0] >= $b)] as $hi
        | if ($lo | length) == 0 then "-"
          elif ($hi | length) == 0 then [.points[-3:][][2]] | sort | .[1] | . * 10 | round / 10
          else
            ($lo | last) as $a | ($hi | first) as $c
            | if $a[0] == $c[0] then $a[2] else
                $a[2] + ($c[2] - $a[2]) * ((($b | log) - ($a[0] | log)) / (($c[0] | log) - ($a[0] | log))) end
            | . * 10 | round / 10 end' "$curve_file"
}
printf '%-6s %-4s %-6s %22s %8s %8s  %s\n' size page order "ns: median (min-max)" fastest "curve" "the walker's check"
for size in "$@"; do
    for page in 2m 4k; do
        for order in block random; do
            : > "$tmp/ns"
            : > "$tmp/fast"
            check=-
            for r in $(seq 1 "$runs"); do
                "$pmucal" run walker "size=$size" "order=$order" "page=$page" -e page-faults --cpu "$cpu" --json \
                    > "$tmp/run.json" 2> "$tmp/run.err" || true
                jq -r '(.cycles.core_per_tsc * .cycles.tsc_hz / 1e9 * (.params.loads | tonumber)) as $per
                    | "\(.cycles.stats.median / $per) \(.cycles.stats.min / $per)"' "$tmp/run.json" 2> /dev/null |
                    while read -r med fast; do echo "$med" >> "$tmp/ns"; echo "$fast" >> "$tmp/fast"; done || true
                bytes=$(jq -r '.detail | capture("elements=(?<e>[0-9]+)").e' "$tmp/run.json" 2> /dev/null || echo)
                stride=$(jq -r '.params.stride' "$tmp/run.json" 2> /dev/null || echo 64)
                case $(jq -r '.detail' "$tmp/run.json" 2> /dev/null) in
                *prefetched*) check="withheld: $(jq -r '.model_unstated_why // empty | tostring' "$tmp/run.json" |
                    sed -n 's/^\([0-9.]*\) ns a load in this order against \([0-9.]*\) ns in a random walk.*/its check read \1 ns against \2 random/p' | head -n 1)" ;;
                *) [ "$order" = block ] && check="not withheld" ;;
                esac
            done
            stat=$(sort -g "$tmp/ns" | awk '{ v[NR] = $1 } END { if (!NR) { print "no figure"; exit }
                m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                printf "%.1f (%.1f-%.1f)", m, v[1], v[NR] }')
            fast=$(sort -g "$tmp/fast" | head -n 1 | awk '{ printf "%.1f", $1 }')
            c=-
            [ -n "$bytes" ] && [ "$bytes" != null ] && c=$(curve_ns $((bytes * stride)))
            printf '%-6s %-4s %-6s %22s %8s %8s  %s\n' "$size" "$page" "$order" "$stat" "${fast:--}" "$c" "$check"
        done
    done
done

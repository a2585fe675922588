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
cd "$(dirname "$0")/.."
pmucal=${PMUCAL:-bin/pmucal}
runs=${RUNS:-3}
cpus=$(taskset -pc $$ | sed 's/.*: //')
cpu=${CPU:-$(echo "$cpus" | tr ',' '\n' | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | tail -n 1)}
[ $# -gt 0 ] || set -- L3 DRAM
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$pmucal" info --json > "$tmp/info.json"
curve_file=$(jq -r '.topology.geometry.curve // "" | sub("^.*cached in "; "")' "$tmp/info.json")
echo "# $(jq -r '.cpu.model_name // .cpu.ident // "this CPU"' "$tmp/info.json"); load average $(cut -d' ' -f1-3 /proc/loadavg); CPU $cpu; $runs runs each"
echo "# curve: $(jq -r '.topology.geometry.curve // "none"' "$tmp/info.json")"
# curve_ns BYTES: the curve's ns a load at BYTES (log-linear between its points), or '-'
curve_ns() {
    [ -f "$curve_file" ] || { echo -; return; }
    jq -r --argjson b "$1" '[.points[] | select(.[0] <= $b)] as $lo | [.points[] | select(.[0] >= $b)] as $hi
        | if ($lo | length) == 0 or ($hi | length) == 0 then "-" else
            ($lo | last) as $a | ($hi | first) as $c
            | if $a[0] == $c[0] then $a[2] else
                $a[2] + ($c[2] - $a[2]) * ((($b | log) - ($a[0] | log)) / (($c[0] | log) - ($a[0] | log))) end
            | . * 10 | round / 10 end' "$curve_file"
}
printf '%-8s %-5s %-7s %26s %12s  %s\n' size page order "ns a load: median (min-max)" "curve ns" "the walker's check"
for size in "$@"; do
    for page in 2m 4k; do
        for order in block random; do
            : > "$tmp/ns"
            check=-
            for r in $(seq 1 "$runs"); do
                "$pmucal" run walker "size=$size" "order=$order" "page=$page" -e page-faults --cpu "$cpu" --json \
                    > "$tmp/run.json" 2> "$tmp/run.err" || true
                jq -r '(.cycles.stats.median / (.params.loads | tonumber)) / (.cycles.core_per_tsc * .cycles.tsc_hz / 1e9)' \
                    "$tmp/run.json" >> "$tmp/ns" 2> /dev/null || true
                bytes=$(jq -r '.detail | capture("elements=(?<e>[0-9]+)").e' "$tmp/run.json" 2> /dev/null || echo)
                stride=$(jq -r '.params.stride' "$tmp/run.json" 2> /dev/null || echo 64)
                case $(jq -r '.detail' "$tmp/run.json" 2> /dev/null) in
                *prefetched*) check="withheld: $(jq -r '.model_unstated_why // empty | tostring' "$tmp/run.json" | head -c 160)" ;;
                *) [ "$order" = block ] && check="not withheld" ;;
                esac
            done
            stat=$(sort -g "$tmp/ns" | awk '{ v[NR] = $1 } END { if (!NR) { print "no figure"; exit }
                m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                printf "%.1f (%.1f-%.1f)", m, v[1], v[NR] }')
            c=-
            [ -n "$bytes" ] && [ "$bytes" != null ] && c=$(curve_ns $((bytes * stride)))
            printf '%-8s %-5s %-7s %26s %12s  %s\n' "$size" "$page" "$order" "$stat" "$c" "$check"
        done
    done
done
